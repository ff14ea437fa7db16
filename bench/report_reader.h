/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading bench --json reports back: a file holds one report or an array
 * of them; each run's "config", "variant" and "metrics" (samples, unit,
 * which direction is better).  Several runs of one config in a file are
 * pooled.  Read by bench compare and bench history.  Errors are one line
 * on stderr, prefixed with the reading command's name, and
 * BENCH_EXIT_USAGE.
 */
#ifndef BPFCHECK_BENCH_REPORT_READER_H
#define BPFCHECK_BENCH_REPORT_READER_H

#include <stddef.h>

#include "json_reader.h"
#include "report.h"

struct report_run {
	const char *config;
	const char *variant;	/* may be NULL */
	const struct json_value *json;	/* the run's object, for more fields */
	struct report_metric *metrics;
	size_t n_metrics;
	int pooled;		/* runs of this config in the file */
};

struct report_file {
	const char *path;
	const char *who;	/* "bench compare": prefixes the errors */
	struct json_value *root;
	struct report_run *runs;
	size_t n_runs;
};


/* One run from its JSON object v (run idx of f): 0 or BENCH_EXIT_USAGE. */
int report_read_run(const struct report_file *f, size_t idx,
		    const struct json_value *v, struct report_run *r);
void report_free_run(struct report_run *r);

/* f->path parsed and every run read, runs of one config pooled. */
int report_read_file(struct report_file *f);
void report_free_file(struct report_file *f);

const struct report_run *report_find_run(const struct report_file *f,
					 const char *config);
const struct report_metric *report_find_metric(const struct report_run *r,
					       const char *name);

#endif
