/* SPDX-License-Identifier: GPL-2.0 */
/* Bencher Metric Format reports. */
#ifndef BPFCHECK_BENCH_REPORT_BMF_H
#define BPFCHECK_BENCH_REPORT_BMF_H

#include "bench.h"
#include "stats.h"

struct json_writer;

/* The run's throughput under its configuration's name (a report_fn). */
void report_bmf_write(struct json_writer *w, const struct bench_env *env,
		      const void *result);
/* BMF: "bench": {"measure": {"value", "lower_value", "upper_value"}}, mean -/+ stddev. */
void report_bmf_entry(struct json_writer *w, const char *bench, const char *measure,
		      const struct stats_summary *s);

#endif
