/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text reports of a run: per-second progress and the summary (the
 * kernel bench's "Iter" and "Summary:" lines).  The JSON, BMF and file
 * writers are beside it (report_json.h, report_bmf.h, report_files.h).
 * Reporters receive the result they report.
 */
#ifndef BPFCHECK_BENCH_REPORT_H
#define BPFCHECK_BENCH_REPORT_H

#include "bench.h"
#include "result.h"

void report_progress(const struct bench_env *env, const struct bench_result *r, int iter);
void report_final(const struct bench_env *env, const struct bench_result *r);

#endif
