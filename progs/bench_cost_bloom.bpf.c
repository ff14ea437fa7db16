// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-bloom: COST_BLOOM_PROBES hash map lookups per run, bare or
 * behind a bloom filter holding the same keys.  The filter answers "maybe
 * present" or "certainly absent"; only a maybe goes on to the hash map.
 * Userspace fills both maps and the probe keys (a chosen share of them
 * present) before it measures.  The frame that triggers a run is not
 * read, and dropped.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_cost.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Both sized by userspace to the number of keys.  Both hash with seed 0
 * (BPF_F_ZERO_SEED, root only), not a random one per boot: the buckets the
 * keys fall in, and so the cost of a lookup, are then the same on every
 * boot (vmtest --icount counts them to 0.1%; random seeds moved them 7%).
 */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(map_flags, BPF_F_ZERO_SEED);
	__uint(max_entries, 1);
	__uint(map_extra, 3);		/* hash functions */
	__type(value, __u32);
} bloom SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_ZERO_SEED);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} table SEC(".maps");

__u32 probe_keys[COST_BLOOM_PROBES];
/* Probes that found their key, over all runs: checks that both agree. */
__u64 found;

SEC("xdp")
int lookup_plain(struct xdp_md *ctx)
{
	__u32 hits = 0;

	for (int i = 0; i < COST_BLOOM_PROBES; i++)
		if (bpf_map_lookup_elem(&table, &probe_keys[i]))
			hits++;
	found += hits;
	return XDP_DROP;
}

SEC("xdp")
int lookup_bloom(struct xdp_md *ctx)
{
	__u32 hits = 0;

	for (int i = 0; i < COST_BLOOM_PROBES; i++)
		if (bpf_map_peek_elem(&bloom, &probe_keys[i]) == 0 &&
		    bpf_map_lookup_elem(&table, &probe_keys[i]))
			hits++;
	found += hits;
	return XDP_DROP;
}
