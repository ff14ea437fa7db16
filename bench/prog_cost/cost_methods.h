/* SPDX-License-Identifier: GPL-2.0 */
/* The measuring methods of prog-cost: their names, and their set-up. */
#ifndef BPFCHECK_BENCH_COST_METHODS_H
#define BPFCHECK_BENCH_COST_METHODS_H

#include <stddef.h>

#include "cost.h"

const char *cost_method_name(enum cost_method_id id);
const char *cost_method_unit(enum cost_method_id id);

/* For setup: a one-line reason in err; returns BENCH_EXIT_FAIL. */
int cost_setup_failed(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Method set-up helpers for the benchmarks. */
void cost_unavailable(struct cost_method *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * test_run of prog_fd over inputs.  Probes one run first: a program type
 * the kernel cannot test-run (or not with repeat) leaves the method
 * unavailable with the kernel's answer as the reason.
 */
void cost_use_test_run(struct cost_method *m, int prog_fd, const char *prog_name,
		       const struct cost_inputs *inputs);
/* bpf_stats of prog_fd, which trigger makes run. */
void cost_use_bpf_stats(struct cost_method *m, int prog_fd, const char *prog_name,
			cost_trigger_fn trigger, void *ctx);
/* The program type's name ("xdp", "tracepoint", ...) of a program fd. */
const char *cost_prog_type(int prog_fd);

#endif
