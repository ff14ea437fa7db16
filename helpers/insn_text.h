/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF instructions as text, the way the kernel's selftests print a
 * translated program for __xlated(): "r0 = 1", "if r1 > 0x3 goto pc+2",
 * "call bpf_map_lookup_elem", "call pc+4", "exit".
 */
#ifndef BPFCHECK_INSN_TEXT_H
#define BPFCHECK_INSN_TEXT_H

#include <stddef.h>
#include <linux/bpf.h>

/*
 * Print insn (and its second half, for a 64-bit immediate load, when
 * left allows) into buf.  Returns how many instructions it took, 1 or 2.
 */
int insn_text(const struct bpf_insn *insn, size_t left, char *buf, size_t sz);

/*
 * The program prog_fd after the verifier's rewrites, one "N: text" line
 * per instruction, in a malloc'ed string; NULL with errno set on failure.
 */
char *xlated_prog_text(int prog_fd);

#endif
