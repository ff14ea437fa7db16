/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The buffer sizes of the ring buffer (bench_ringbufs.c) and perf buffer
 * (bench_perfbuf.c) benchmarks: --rb-size and --pb-pages, one --help
 * section for both, as the benchmarks were one file when it was written.
 */
#ifndef BPFCHECK_BENCH_BUF_OPTS_H
#define BPFCHECK_BENCH_BUF_OPTS_H

/* --rb-size: the ring buffer's bytes, a power of two >= the page size. */
unsigned long buf_rb_size(void);
/* --pb-pages: the perf buffer's pages per CPU, a power of two. */
unsigned int buf_pb_pages(void);

#endif
