// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF instruction printer for __xlated().  The kernel's selftests
 * match the translated program as the kernel's own disassembler prints
 * it, minus the opcode prefix and the helper number of calls; this file
 * writes that text from the instruction set's description (the UAPI
 * header and Documentation/bpf/standardization/instruction-set.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "insn_text.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Helper names by number, from the UAPI header's list of helpers: since
 * 6.1 FN(name, number) without commas between, before FN(name), FN(...).
 */
#define HELPER_NAME(name, ...)	\
	[BPF_FUNC_##name] = "bpf_" #name
static const char *const helper_names[] = {
#ifdef ___BPF_FUNC_MAPPER
#define HELPER_NAME_ITEM(name, ...)	HELPER_NAME(name),
	___BPF_FUNC_MAPPER(HELPER_NAME_ITEM)
#else
	__BPF_FUNC_MAPPER(HELPER_NAME)
#endif
};

#ifndef BPF_MEMSX	/* sign-extending loads, UAPI since 6.6 */
#define BPF_MEMSX	0x80
#endif

/* Operators by BPF_OP() >> 4. */
static const char *const alu_ops[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
	"neg", "%=", "^=", "=", "s>>=", "endian", "?14", "?15",
};
static const char *const jmp_ops[16] = {
	"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=",
	"call", "exit", "<", "<=", "s<", "s<=", "?14", "?15",
};
/* Access sizes by BPF_SIZE() >> 3: W, H, B, DW. */
static const char *const mem_sizes[4] = { "u32", "u16", "u8", "u64" };
static const char *const memsx_sizes[4] = { "s32", "s16", "s8", "s64" };

/* Internal (not UAPI) encodings the verifier leaves in a program. */
#define INSN_NOSPEC		0xc0	/* BPF_ST mode: speculation barrier */
#define OFF_PERCPU_ADDR		(-1)	/* mov: add this CPU's offset */
#define OFF_ADDR_SPACE_CAST	1	/* mov: arena pointer cast */

static const char *size_of(__u8 code)
{
	return mem_sizes[BPF_SIZE(code) >> 3];
}

static void alu_text(const struct bpf_insn *in, char *buf, size_t sz)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	char r = is64 ? 'r' : 'w';
	__u8 op = BPF_OP(in->code);
	const char *sym = alu_ops[op >> 4];
	const char *cast = "";

	if (op == BPF_END) {
		if (is64)
			snprintf(buf, sz, "r%d = bswap%d r%d", in->dst_reg,
				 in->imm, in->dst_reg);
		else
			snprintf(buf, sz, "r%d = %s%d r%d", in->dst_reg,
				 BPF_SRC(in->code) == BPF_TO_BE ? "be" : "le",
				 in->imm, in->dst_reg);
		return;
	}
	if (op == BPF_NEG) {
		snprintf(buf, sz, "%c%d = -%c%d", r, in->dst_reg, r, in->dst_reg);
		return;
	}
	if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X)) {
		if (in->off == OFF_ADDR_SPACE_CAST) {
			snprintf(buf, sz, "r%d = addr_space_cast(r%d, %u, %u)",
				 in->dst_reg, in->src_reg,
				 (__u32)in->imm >> 16, (__u16)in->imm);
			return;
		}
		if (in->off == OFF_PERCPU_ADDR) {
			snprintf(buf, sz, "r%d = &(void __percpu *)(r%d)",
				 in->dst_reg, in->src_reg);
			return;
		}
	}
	if ((op == BPF_DIV || op == BPF_MOD) && in->off == 1)
		sym = op == BPF_DIV ? "s/=" : "s%=";
	if (op == BPF_MOV && in->off == 8)
		cast = "(s8)";
	else if (op == BPF_MOV && in->off == 16)
		cast = "(s16)";
	else if (op == BPF_MOV && in->off == 32)
		cast = "(s32)";
	if (BPF_SRC(in->code) == BPF_X)
		snprintf(buf, sz, "%c%d %s %s%c%d", r, in->dst_reg, sym, cast,
			 r, in->src_reg);
	else
		snprintf(buf, sz, "%c%d %s %d", r, in->dst_reg, sym, in->imm);
}

static const char *atomic_op_name(__s32 imm)
{
	switch (imm & ~BPF_FETCH) {
	case BPF_ADD: return "add";
	case BPF_AND: return "and";
	case BPF_OR: return "or";
	case BPF_XOR: return "xor";
	default: return NULL;
	}
}

static void atomic_text(const struct bpf_insn *in, char *buf, size_t sz)
{
	const char *bits = BPF_SIZE(in->code) == BPF_DW ? "64" : "";
	const char *name = atomic_op_name(in->imm);

	if (name && !(in->imm & BPF_FETCH))
		snprintf(buf, sz, "lock *(%s *)(r%d %+d) %s r%d", size_of(in->code),
			 in->dst_reg, in->off, alu_ops[in->imm >> 4], in->src_reg);
	else if (name)
		snprintf(buf, sz, "r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)",
			 in->src_reg, bits, name, size_of(in->code),
			 in->dst_reg, in->off, in->src_reg);
	else if (in->imm == BPF_CMPXCHG)
		snprintf(buf, sz, "r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)",
			 bits, size_of(in->code), in->dst_reg, in->off, in->src_reg);
	else if (in->imm == BPF_XCHG)
		snprintf(buf, sz, "r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)",
			 in->src_reg, bits, size_of(in->code), in->dst_reg,
			 in->off, in->src_reg);
#ifdef BPF_LOAD_ACQ
	else if (in->imm == BPF_LOAD_ACQ)
		snprintf(buf, sz, "r%d = load_acquire((%s *)(r%d %+d))",
			 in->dst_reg, size_of(in->code), in->src_reg, in->off);
	else if (in->imm == BPF_STORE_REL)
		snprintf(buf, sz, "store_release((%s *)(r%d %+d), r%d)",
			 size_of(in->code), in->dst_reg, in->off, in->src_reg);
#endif
	else
		snprintf(buf, sz, "BUG_%02x", in->code);
}

static void mem_text(const struct bpf_insn *in, char *buf, size_t sz)
{
	__u8 cls = BPF_CLASS(in->code), mode = BPF_MODE(in->code);

	if (cls == BPF_STX && mode == BPF_MEM)
		snprintf(buf, sz, "*(%s *)(r%d %+d) = r%d", size_of(in->code),
			 in->dst_reg, in->off, in->src_reg);
	else if (cls == BPF_STX && mode == BPF_ATOMIC)
		atomic_text(in, buf, sz);
	else if (cls == BPF_ST && mode == BPF_MEM)
		snprintf(buf, sz, "*(%s *)(r%d %+d) = %d", size_of(in->code),
			 in->dst_reg, in->off, in->imm);
	else if (cls == BPF_ST && mode == INSN_NOSPEC)
		snprintf(buf, sz, "nospec");
	else if (cls == BPF_LDX && (mode == BPF_MEM || mode == BPF_MEMSX))
		snprintf(buf, sz, "r%d = *(%s *)(r%d %+d)", in->dst_reg,
			 mode == BPF_MEM ? size_of(in->code) :
			 memsx_sizes[BPF_SIZE(in->code) >> 3],
			 in->src_reg, in->off);
	else
		snprintf(buf, sz, "BUG_%s_%02x", cls == BPF_ST ? "st" :
			 cls == BPF_LDX ? "ldx" : "stx", in->code);
}

/* Returns the instructions used: 2 for a 64-bit immediate. */
static int ld_text(const struct bpf_insn *in, size_t left, char *buf, size_t sz)
{
	__u8 mode = BPF_MODE(in->code);

	if (mode == BPF_ABS) {
		snprintf(buf, sz, "r0 = *(%s *)skb[%d]", size_of(in->code), in->imm);
		return 1;
	}
	if (mode == BPF_IND) {
		snprintf(buf, sz, "r0 = *(%s *)skb[r%d + %d]", size_of(in->code),
			 in->src_reg, in->imm);
		return 1;
	}
	if (mode == BPF_IMM && BPF_SIZE(in->code) == BPF_DW && left > 1) {
		__u64 imm = (__u64)(__u32)in[1].imm << 32 | (__u32)in->imm;

		snprintf(buf, sz, "r%d = 0x%llx", in->dst_reg,
			 (unsigned long long)imm);
		return 2;
	}
	snprintf(buf, sz, "BUG_ld_%02x", in->code);
	return 1;
}

/*
 * A helper by name when its number is one, a subprogram as pc+off (the
 * verifier keeps the original offset in off), a kfunc as
 * "kernel-function"; else "unknown" (the helper's address offset).
 */
static void call_text(const struct bpf_insn *in, char *buf, size_t sz)
{
	if (in->src_reg == BPF_PSEUDO_CALL)
		snprintf(buf, sz, "call pc%+d", in->off);
	else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL)
		snprintf(buf, sz, "call kernel-function");
	else if (!in->src_reg && in->imm >= 0 &&
		 (size_t)in->imm < ARRAY_LEN(helper_names) && helper_names[in->imm])
		snprintf(buf, sz, "call %s", helper_names[in->imm]);
	else
		snprintf(buf, sz, "call unknown");
}

static void jmp_text(const struct bpf_insn *in, char *buf, size_t sz)
{
	bool j32 = BPF_CLASS(in->code) == BPF_JMP32;
	char r = j32 ? 'w' : 'r';
	__u8 op = BPF_OP(in->code);

	if (op == BPF_CALL)
		call_text(in, buf, sz);
	else if (in->code == (BPF_JMP | BPF_EXIT))
		snprintf(buf, sz, "exit");
	else if (in->code == (BPF_JMP | BPF_JA))
		snprintf(buf, sz, "goto pc%+d", in->off);
	else if (in->code == (BPF_JMP | BPF_JA | BPF_X))
		snprintf(buf, sz, "gotox r%d", in->dst_reg);
	else if (in->code == (BPF_JMP32 | BPF_JA))
		snprintf(buf, sz, "gotol pc%+d", in->imm);
	else if (op == 0xe0 && !j32 && in->src_reg == 0)	/* may_goto */
		snprintf(buf, sz, "may_goto pc%+d", in->off);
	else if (BPF_SRC(in->code) == BPF_X)
		snprintf(buf, sz, "if %c%d %s %c%d goto pc%+d", r, in->dst_reg,
			 jmp_ops[op >> 4], r, in->src_reg, in->off);
	else
		snprintf(buf, sz, "if %c%d %s 0x%x goto pc%+d", r, in->dst_reg,
			 jmp_ops[op >> 4], (__u32)in->imm, in->off);
}

int insn_text(const struct bpf_insn *insn, size_t left, char *buf, size_t sz)
{
	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		alu_text(insn, buf, sz);
		return 1;
	case BPF_ST:
	case BPF_STX:
	case BPF_LDX:
		mem_text(insn, buf, sz);
		return 1;
	case BPF_LD:
		return ld_text(insn, left, buf, sz);
	default:
		jmp_text(insn, buf, sz);
		return 1;
	}
}

/* The translated instructions of prog_fd, malloc'ed, *cnt of them. */
static struct bpf_insn *xlated_insns(int prog_fd, __u32 *cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct bpf_insn *insns;

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return NULL;
	*cnt = info.xlated_prog_len / sizeof(*insns);
	insns = calloc(*cnt ? *cnt : 1, sizeof(*insns));
	if (!insns)
		return NULL;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = *cnt * sizeof(*insns);
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		free(insns);
		return NULL;
	}
	return insns;
}

char *xlated_prog_text(int prog_fd)
{
	struct bpf_insn *insns;
	char *text = NULL, line[128];
	size_t text_sz = 0;
	__u32 cnt = 0, i;
	FILE *out;

	insns = xlated_insns(prog_fd, &cnt);
	if (!insns)
		return NULL;
	out = open_memstream(&text, &text_sz);
	if (!out) {
		free(insns);
		return NULL;
	}
	for (i = 0; i < cnt;) {
		int used = insn_text(&insns[i], cnt - i, line, sizeof(line));

		fprintf(out, "%u: %s\n", i, line);
		i += used;
	}
	free(insns);
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}
