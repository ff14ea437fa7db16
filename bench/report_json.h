/* SPDX-License-Identifier: GPL-2.0 */
/* The --json report of a run, and its building blocks for prog-cost's. */
#ifndef BPFCHECK_BENCH_REPORT_JSON_H
#define BPFCHECK_BENCH_REPORT_JSON_H

#include <stddef.h>

#include "bench.h"
#include "result.h"
#include "stats.h"

struct json_writer;

/* The whole report of result, a struct bench_result (a report_fn). */
void report_json_result(struct json_writer *w, const struct bench_env *env,
		       const void *result);
/* The name a report files the run under, e.g. "rb-libbpf/p1/c1/b500". */
void report_config_name(const struct bench_env *env, char *buf, size_t len);
/* A summary as an object under key: n, mean, stddev, min, median, p99, max. */
void report_json_summary(struct json_writer *w, const char *key,
			 const struct stats_summary *s);
/* {"name", "unit", "better", "available", "reason" | "samples", "summary"} */
void report_json_metric(struct json_writer *w, const struct report_metric *m);

#endif
