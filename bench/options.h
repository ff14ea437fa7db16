/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line.  The framework's own options live in options.c; a
 * benchmark (or a family of them) declares its options next to its code
 * in a group, as the kernel's benchs do with argp children:
 *
 *	static int parse_rb_size(const char *arg) { ... }
 *	static const struct bench_opt rb_opts[] = {
 *		{ "rb-size", NULL, "BYTES", "ring buffer size ...", parse_rb_size },
 *		{},
 *	};
 *	static const struct bench_opt_group rb_group = { "Ring buffers", rb_opts };
 *	BENCH_OPTIONS(rb_group);
 *
 * and lists in bench_ops.opts the ones each benchmark takes.  Every
 * rejection is one line on stderr naming the bad value and what is
 * accepted, and exit code BENCH_EXIT_USAGE.
 */
#ifndef BPFCHECK_BENCH_OPTIONS_H
#define BPFCHECK_BENCH_OPTIONS_H

#include <stdarg.h>
#include <stdbool.h>

#include "bench.h"
#include "opt_values.h"

struct bench_opt {
	const char *name;	/* --name; NULL ends a group */
	const char *alias;	/* the kernel bench's name for it, or NULL */
	const char *arg;	/* the value's name in --help; NULL: a flag */
	const char *help;	/* one line; NULL: not listed (help says elsewhere) */
	/* Store the value: 0, or BENCH_EXIT_USAGE after bench_usage_error(). */
	int (*parse)(const char *arg);
	/* Counts as this option when deciding whether it applies, or NULL. */
	const char *same_as;
};

struct bench_opt_group {
	const char *title;		/* of its --help section */
	const struct bench_opt *opts;
	const char *notes;		/* more --help text, or NULL */
};

#define BENCH_OPTIONS(group)						\
	static const struct bench_opt_group *const bench_optreg_##group	\
	__attribute__((section("bench_options"), used,			\
		       aligned(sizeof(void *)))) = &(group)

/* The linker's bounds of the BENCH_OPTIONS section, for options.c. */
extern const struct bench_opt_group *const __start_bench_options[];
extern const struct bench_opt_group *const __stop_bench_options[];

/*
 * Parse and check argv into env.  -1 to run the benchmark, else the exit
 * code to leave with (0 after --help or -l).
 */
int bench_parse_args(int argc, char **argv, struct bench_env *env);

#endif
