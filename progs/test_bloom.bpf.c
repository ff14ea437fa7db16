// SPDX-License-Identifier: GPL-2.0
/*
 * A hash map lookup guarded by a bloom filter: the guarded lookup must
 * return exactly what the bare lookup returns, for every probed key.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

#define MAX_PROBES 512

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(max_entries, 1000);
	__uint(map_extra, 3);		/* hash functions */
	__type(value, __u32);
} bloom SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1000);
	__type(key, __u32);
	__type(value, __u32);
} table SEC(".maps");

__u32 probe_keys[MAX_PROBES];
__u32 n_probes;

__u32 bare_hits;
__u32 guarded_hits;
__u32 bloom_rejects;		/* keys the filter said are absent */
__u32 mismatches;

SEC("xdp")
int guarded_lookup(struct xdp_md *ctx)
{
	for (__u32 i = 0; i < MAX_PROBES && i < n_probes; i++) {
		__u32 key = probe_keys[i];
		__u32 *bare, *guarded = NULL;

		bare = bpf_map_lookup_elem(&table, &key);
		if (bpf_map_peek_elem(&bloom, &key) == 0)
			guarded = bpf_map_lookup_elem(&table, &key);
		else
			bloom_rejects++;
		if (bare)
			bare_hits++;
		if (guarded)
			guarded_hits++;
		if (!bare != !guarded || (bare && guarded && *bare != *guarded))
			mismatches++;
	}
	return XDP_PASS;
}
