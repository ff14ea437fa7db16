/* SPDX-License-Identifier: GPL-2.0 */
/* The --json and --bmf files: written whole, or not at all. */
#ifndef BPFCHECK_BENCH_REPORT_FILES_H
#define BPFCHECK_BENCH_REPORT_FILES_H

#include <stdbool.h>

#include "bench.h"
#include "result.h"

struct json_writer;

typedef void (*report_fn)(struct json_writer *w, const struct bench_env *env,
			  const void *result);
/* Write a file through fn: to a temporary name, renamed when complete. */
int report_write_file(const char *opt, const char *path, report_fn fn,
		      const struct bench_env *env, const void *result);
/* --json and --bmf through json and bmf, if asked for; only a complete run. */
int report_write_files(const struct bench_env *env, bool complete, report_fn json,
		       report_fn bmf, const void *result);
/* --json and --bmf of a framework run, when asked for and complete.  0 or -1. */
int report_files(const struct bench_env *env, const struct bench_result *r);

#endif
