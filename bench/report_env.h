/* SPDX-License-Identifier: GPL-2.0 */
/* The "environment" object of the bench's JSON reports. */
#ifndef BPFCHECK_BENCH_REPORT_ENV_H
#define BPFCHECK_BENCH_REPORT_ENV_H

#include "bench.h"

struct json_writer;

/*
 * The members test_progs -J has too (env_info_write_json()), then the
 * CPUs, the page size and the benchmark family's own.
 */
void report_json_environment(struct json_writer *w, const struct bench_env *env);

#endif
