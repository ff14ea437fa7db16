/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF ISA v4 (Linux 6.6): sign-extending loads and moves, signed division
 * and modulo, unconditional byte swaps and the 32-bit-offset jump.  Shared
 * by the feature probe (test_progs) and prog-cost-isa (bench).
 */
#ifndef BPFCHECK_ISA_H
#define BPFCHECK_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

/*
 * Whether the kernel loads a program made of v4 instructions; when not,
 * reason (len bytes) says why.
 */
bool isa_v4_supported(char *reason, size_t len);

/* How many of the n instructions only ISA v4 has. */
int isa_v4_insn_count(const struct bpf_insn *insns, size_t n);

#endif
