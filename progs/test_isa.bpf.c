// SPDX-License-Identifier: GPL-2.0
/*
 * One program built for every BPF ISA version (-mcpu=v1/v2/v3/v4, see
 * MULTI_ISA_PROGS in the Makefile).  It mixes what the versions encode
 * differently: 32-bit arithmetic and comparisons (ALU32/JMP32 from v3),
 * signed and unsigned compares (JLT/JLE/JSLT from v2), shifts, byte swaps
 * and a bounded loop, so any miscompilation shows as a different result.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

#define ISA_WORDS 16

__u64 result;

static __always_inline __u32 mix32(__u32 h, __u32 w)
{
	h ^= w;
	h *= 0x01000193;
	h = (h << 13) | (h >> 19);
	if ((__s32)h < 0)
		h += 0x9e3779b9;
	if (h < w)
		h ^= w >> 3;
	return h;
}

SEC("xdp")
int isa_mix(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 *words = data;
	__u32 h = 0x811c9dc5;
	__s64 acc = 0;

	if (data + ISA_WORDS * sizeof(__u32) > data_end)
		return XDP_ABORTED;
	for (int i = 0; i < ISA_WORDS; i++) {
		__u32 w = bpf_ntohl(words[i]);

		h = mix32(h, w);
		if ((__s32)w < -1000)
			acc -= w % 977;
		else if (w <= 4096)
			acc += w * 3;
		else
			acc ^= (__s64)w << (i & 31);
	}
	result = ((__u64)h << 32) ^ (__u64)acc;
	return (h & 1) ? XDP_PASS : XDP_DROP;
}
