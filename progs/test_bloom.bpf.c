// SPDX-License-Identifier: GPL-2.0
/*
 * A hash map lookup guarded by a bloom filter: the guarded lookup must
 * return exactly what the bare lookup returns, for every probed key.
 *
 * Two programs probe the same keys.  guarded_lookup passes each key to
 * the helpers where it already is, in the .bss array (a map value), as
 * the kernel's own bloom filter selftests do.  guarded_lookup_stack_key
 * first copies the key to the stack, the way most programs are written;
 * it is not loaded with the skeleton (some verifiers reject it, see
 * prog_tests/bloom_filter.c).
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

static __always_inline void probe(__u32 *key)
{
	__u32 *bare, *guarded = NULL;

	bare = bpf_map_lookup_elem(&table, key);
	/* For a bloom filter, peek reads *key: 0 means "maybe present". */
	if (bpf_map_peek_elem(&bloom, key) == 0)
		guarded = bpf_map_lookup_elem(&table, key);
	else
		bloom_rejects++;
	if (bare)
		bare_hits++;
	if (guarded)
		guarded_hits++;
	if (!bare != !guarded || (bare && guarded && *bare != *guarded))
		mismatches++;
}

SEC("xdp")
int guarded_lookup(struct xdp_md *ctx)
{
	for (__u32 i = 0; i < MAX_PROBES && i < n_probes; i++)
		probe(&probe_keys[i]);
	return XDP_PASS;
}

SEC("?xdp")
int guarded_lookup_stack_key(struct xdp_md *ctx)
{
	for (__u32 i = 0; i < MAX_PROBES && i < n_probes; i++) {
		__u32 key = probe_keys[i];

		probe(&key);
	}
	return XDP_PASS;
}
