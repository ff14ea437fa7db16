/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench compare's reader of bench --json reports: a file is one report
 * or an array of them; runs are matched by "config" and the runs of one
 * config in a file are pooled, metric by metric.
 */
#ifndef BPFCHECK_BENCH_GATE_REPORT_READER_H
#define BPFCHECK_BENCH_GATE_REPORT_READER_H

#include <stddef.h>

#include "bench.h"
#include "result.h"

#define EXIT_BAD_INPUT		BENCH_EXIT_USAGE

struct json_value;

struct cmp_run {
	const char *config;
	const char *variant;	/* may be NULL */
	struct report_metric *metrics;
	size_t n_metrics;
	int pooled;		/* runs of this config in the file */
};

struct cmp_file {
	const char *path;
	struct json_value *root;	/* the parsed file */
	struct cmp_run *runs;
	size_t n_runs;
};

/* One line on stderr, "bench compare: ...": returns EXIT_BAD_INPUT. */
int cmp_bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Read f->path into f: 0, or EXIT_BAD_INPUT with the reason printed. */
int cmp_read_file(struct cmp_file *f);
void cmp_free_file(struct cmp_file *f);
/* The (pooled) run of config in f, or NULL. */
const struct cmp_run *cmp_find_run(const struct cmp_file *f, const char *config);

#endif
