// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "isa.h"

/* Older UAPI headers (before 6.6) lack the sign-extending load mode. */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

bool isa_v4_supported(char *reason, size_t len)
{
	/* r0 = 0x1234; r0 = bswap16 r0; r0 = (s8)r0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = 0x1234 },
		{ .code = BPF_ALU64 | BPF_END | BPF_TO_LE, .dst_reg = BPF_REG_0,
		  .imm = 16 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_0, .off = 8 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bpfcheck_isa_v4",
			       "GPL", insns, sizeof(insns) / sizeof(insns[0]),
			       NULL);
	const char *err;

	if (fd >= 0) {
		close(fd);
		return true;
	}
	err = strerrorname_np(errno);
	snprintf(reason, len,
		 "BPF ISA v4 not supported by this kernel (bswap and sign-extending mov rejected: %s; v4 came in Linux 6.6)",
		 err ? err : "unknown error");
	return false;
}

static bool is_v4_only(const struct bpf_insn *insn)
{
	__u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	bool alu = cls == BPF_ALU || cls == BPF_ALU64;

	if (cls == BPF_ALU64 && op == BPF_END)
		return true;	/* bswap16/32/64 */
	if (alu && op == BPF_MOV && BPF_SRC(insn->code) == BPF_X &&
	    (insn->off == 8 || insn->off == 16 || insn->off == 32))
		return true;	/* movsx */
	if (alu && (op == BPF_DIV || op == BPF_MOD) && insn->off == 1)
		return true;	/* sdiv, smod */
	if (cls == BPF_LDX && BPF_MODE(insn->code) == BPF_MEMSX)
		return true;	/* ldsx */
	return cls == BPF_JMP32 && op == BPF_JA;	/* gotol */
}

int isa_v4_insn_count(const struct bpf_insn *insns, size_t n)
{
	int count = 0;

	for (size_t i = 0; i < n; i++)
		count += is_v4_only(&insns[i]);
	return count;
}
