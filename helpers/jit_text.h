/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JIT-compiled BPF program as text for __jited(): LLVM's disassembler
 * (its C API, Debian's llvm-dev) over the image the kernel reports.
 */
#ifndef BPFCHECK_JIT_TEXT_H
#define BPFCHECK_JIT_TEXT_H

/*
 * Each function of prog_fd's JIT image as "func #N:" and one line per
 * machine instruction, "<offset>:\t<bytes>  [Ln:]<instruction>", jump
 * targets inside the function named L0, L1, ...  A malloc'ed string, or
 * NULL with errno set (ENOENT: the program has no JIT image; ELIBACC:
 * LLVM's library is not on this machine).
 */
char *jited_prog_text(int prog_fd);

#endif
