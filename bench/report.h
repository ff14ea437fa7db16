/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result of a run and its reports: per-second progress and the
 * summary as text (the kernel bench's "Iter" and "Summary:" lines), JSON
 * with every sample, the summary and the environment, and BMF (Bencher
 * Metric Format).  Reporters receive the result they report.
 */
#ifndef BPFCHECK_BENCH_REPORT_H
#define BPFCHECK_BENCH_REPORT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench.h"
#include "stats.h"
#include "totals.h"

/* What one second brought: deltas of the cumulative counters. */
struct bench_sample {
	__u64 duration_ns;
	__u64 hits;
	__u64 drops;
	__u64 triggers;
	__u64 other_ns;		/* CPU time of other processes */
	__u64 steal_ns;		/* CPU time the hypervisor took */
	__u64 wakeups;		/* of the consumers (0: they do not wait) */
	__u64 prod_triggers[BENCH_MAX_THREADS];
};

struct bench_result {
	struct bench_sample *samples;	/* warm-up first */
	int n_samples;
	int n_warmup;			/* of n_samples */
	struct bench_totals totals;
	int producer_cpu[BENCH_MAX_THREADS];	/* pinned to, or -1 */
	int consumer_cpu[BENCH_MAX_THREADS];
	bool interrupted;
};

struct json_writer;

/*
 * One metric of a JSON report, as the reporters write it and bench
 * compare reads it: its samples, unit and better direction.
 */
struct report_metric {
	const char *name;
	const char *unit;
	bool higher_is_better;
	bool available;
	const char *reason;	/* why it is not available, or NULL */
	double *samples;
	size_t n;
};

void report_progress(const struct bench_env *env, const struct bench_result *r, int iter);
void report_final(const struct bench_env *env, const struct bench_result *r);
/* --json and --bmf, when asked for and the run is complete.  0 or -1. */
int report_files(const struct bench_env *env, const struct bench_result *r);

/* The name a report files the run under, e.g. "rb-libbpf/p1/c1/b500". */
void report_config_name(const struct bench_env *env, char *buf, size_t len);

typedef void (*report_fn)(struct json_writer *w, const struct bench_env *env,
			  const void *result);
/* Write a file through fn: to a temporary name, renamed when complete. */
int report_write_file(const char *opt, const char *path, report_fn fn,
		      const struct bench_env *env, const void *result);
/* --json and --bmf through json and bmf, if asked for; only a complete run. */
int report_write_files(const struct bench_env *env, bool complete, report_fn json,
		       report_fn bmf, const void *result);
/* Building blocks of the JSON reports. */
void report_json_environment(struct json_writer *w, const struct bench_env *env);
void report_json_summary(struct json_writer *w, const char *key,
			 const struct stats_summary *s);
/* {"name", "unit", "better", "available", "reason" | "samples", "summary"} */
void report_json_metric(struct json_writer *w, const struct report_metric *m);
/* BMF: "bench": {"measure": {"value", "lower_value", "upper_value"}}, mean -/+ stddev. */
void report_bmf_entry(struct json_writer *w, const char *bench, const char *measure,
		      const struct stats_summary *s);

#endif
