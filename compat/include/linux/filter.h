/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/filter.h> as the kernel's tools/include has it: the system's
 * (classic BPF, uapi) plus initializers of eBPF instructions
 * (struct bpf_insn), by the names the kernel's selftests write raw
 * programs with.  Each macro is one instruction, in the encoding of
 * Documentation/bpf/standardization/instruction-set.rst; BPF_LD_IMM64
 * and BPF_LD_MAP_FD are the two-slot 64-bit load.
 */
#ifndef BPFCHECK_LINUX_FILTER_H
#define BPFCHECK_LINUX_FILTER_H

#include_next <linux/filter.h>
#include <linux/bpf.h>

/* Sign-extending loads (ISA v4), newer than some systems' uapi headers. */
#ifndef BPF_MEMSX
#define BPF_MEMSX	0x80
#endif

#define BPF_RAW_INSN(CODE, DST, SRC, OFF, IMM)				\
	((struct bpf_insn) { .code = CODE, .dst_reg = DST, .src_reg = SRC,\
			     .off = OFF, .imm = IMM })

/* Arithmetic: dst op= src or imm, 64 or 32 bits. */
#define BPF_ALU64_REG(OP, DST, SRC)	BPF_RAW_INSN(BPF_ALU64 | BPF_OP(OP) | BPF_X, DST, SRC, 0, 0)
#define BPF_ALU32_REG(OP, DST, SRC)	BPF_RAW_INSN(BPF_ALU | BPF_OP(OP) | BPF_X, DST, SRC, 0, 0)
#define BPF_ALU64_IMM(OP, DST, IMM)	BPF_RAW_INSN(BPF_ALU64 | BPF_OP(OP) | BPF_K, DST, 0, 0, IMM)
#define BPF_ALU32_IMM(OP, DST, IMM)	BPF_RAW_INSN(BPF_ALU | BPF_OP(OP) | BPF_K, DST, 0, 0, IMM)
#define BPF_ENDIAN(TYPE, DST, LEN) \
	BPF_RAW_INSN(BPF_ALU | BPF_END | BPF_SRC(TYPE), DST, 0, 0, LEN)
#define BPF_MOV64_REG(DST, SRC)		BPF_RAW_INSN(BPF_ALU64 | BPF_MOV | BPF_X, DST, SRC, 0, 0)
#define BPF_MOV32_REG(DST, SRC)		BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, DST, SRC, 0, 0)
#define BPF_MOV64_IMM(DST, IMM)		BPF_RAW_INSN(BPF_ALU64 | BPF_MOV | BPF_K, DST, 0, 0, IMM)
#define BPF_MOV32_IMM(DST, IMM)		BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_K, DST, 0, 0, IMM)
#define BPF_MOV64_RAW(TYPE, DST, SRC, IMM) \
	BPF_RAW_INSN(BPF_ALU64 | BPF_MOV | BPF_SRC(TYPE), DST, SRC, 0, IMM)
#define BPF_MOV32_RAW(TYPE, DST, SRC, IMM) \
	BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_SRC(TYPE), DST, SRC, 0, IMM)
/* Sign-extending moves (ISA v4): off is the source width in bits. */
#define BPF_MOVSX64_REG(DST, SRC, OFF)	BPF_RAW_INSN(BPF_ALU64 | BPF_MOV | BPF_X, DST, SRC, OFF, 0)
#define BPF_MOVSX32_REG(DST, SRC, OFF)	BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, DST, SRC, OFF, 0)
#define BPF_ZEXT_REG(DST)		BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, DST, DST, 0, 1)

/* 64-bit immediate loads: two instruction slots. */
#define BPF_LD_IMM64_RAW(DST, SRC, IMM)					\
	BPF_RAW_INSN(BPF_LD | BPF_DW | BPF_IMM, DST, SRC, 0, (__u32)(IMM)),\
	BPF_RAW_INSN(0, 0, 0, 0, ((__u64)(IMM)) >> 32)
#define BPF_LD_IMM64(DST, IMM)		BPF_LD_IMM64_RAW(DST, 0, IMM)
#define BPF_LD_MAP_FD(DST, MAP_FD)	BPF_LD_IMM64_RAW(DST, BPF_PSEUDO_MAP_FD, MAP_FD)
#define BPF_LD_MAP_VALUE(DST, MAP_FD, VALUE_OFF)			\
	BPF_RAW_INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_VALUE, 0, MAP_FD),\
	BPF_RAW_INSN(0, 0, 0, 0, VALUE_OFF)

/* Classic packet loads, kept in eBPF: R0 = packet data. */
#define BPF_LD_ABS(SIZE, IMM) \
	BPF_RAW_INSN(BPF_LD | BPF_SIZE(SIZE) | BPF_ABS, 0, 0, 0, IMM)
#define BPF_LD_IND(SIZE, SRC, IMM) \
	BPF_RAW_INSN(BPF_LD | BPF_SIZE(SIZE) | BPF_IND, 0, SRC, 0, IMM)

/* Memory: dst = *(size *)(src + off), *(size *)(dst + off) = src or imm. */
#define BPF_LDX_MEM(SIZE, DST, SRC, OFF) \
	BPF_RAW_INSN(BPF_LDX | BPF_SIZE(SIZE) | BPF_MEM, DST, SRC, OFF, 0)
#define BPF_LDX_MEMSX(SIZE, DST, SRC, OFF) \
	BPF_RAW_INSN(BPF_LDX | BPF_SIZE(SIZE) | BPF_MEMSX, DST, SRC, OFF, 0)
#define BPF_STX_MEM(SIZE, DST, SRC, OFF) \
	BPF_RAW_INSN(BPF_STX | BPF_SIZE(SIZE) | BPF_MEM, DST, SRC, OFF, 0)
#define BPF_ST_MEM(SIZE, DST, OFF, IMM) \
	BPF_RAW_INSN(BPF_ST | BPF_SIZE(SIZE) | BPF_MEM, DST, 0, OFF, IMM)
#define BPF_ATOMIC_OP(SIZE, OP, DST, SRC, OFF) \
	BPF_RAW_INSN(BPF_STX | BPF_SIZE(SIZE) | BPF_ATOMIC, DST, SRC, OFF, OP)
#define BPF_STX_XADD(SIZE, DST, SRC, OFF) BPF_ATOMIC_OP(SIZE, BPF_ADD, DST, SRC, OFF)

/* Jumps: if (dst op src or imm) goto pc + off (+ 1). */
#define BPF_JMP_REG(OP, DST, SRC, OFF)	BPF_RAW_INSN(BPF_JMP | BPF_OP(OP) | BPF_X, DST, SRC, OFF, 0)
#define BPF_JMP32_REG(OP, DST, SRC, OFF) \
	BPF_RAW_INSN(BPF_JMP32 | BPF_OP(OP) | BPF_X, DST, SRC, OFF, 0)
#define BPF_JMP_IMM(OP, DST, IMM, OFF)	BPF_RAW_INSN(BPF_JMP | BPF_OP(OP) | BPF_K, DST, 0, OFF, IMM)
#define BPF_JMP32_IMM(OP, DST, IMM, OFF) \
	BPF_RAW_INSN(BPF_JMP32 | BPF_OP(OP) | BPF_K, DST, 0, OFF, IMM)
#define BPF_JMP_A(OFF)			BPF_RAW_INSN(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define BPF_JMP32_A(IMM)		BPF_RAW_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, IMM)

/* Calls: a helper by number, a BPF-to-BPF call by relative offset. */
#define BPF_EMIT_CALL(FUNC)		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, FUNC)
#define BPF_CALL_REL(IMM)		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, IMM)
#define BPF_CALL_KFUNC(OFF, IMM) \
	BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, OFF, IMM)
#define BPF_EXIT_INSN()			BPF_RAW_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#endif
