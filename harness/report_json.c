// SPDX-License-Identifier: GPL-2.0
/*
 * The -J summary: the kernel test_progs shape (success, success_subtest,
 * skipped, failed, results[] with name/number/message/failed/subtests),
 * counted as the kernel counts (libbpf/ci's print_test_summary.py reads
 * them), plus outcome, skip_reason, duration_ns, the first failed check
 * ("failure": file, line, check, name, errno, message), the tally of outcomes
 * and an environment block.  Unlike the kernel's, results[] lists every
 * test that ran, not only the failed ones: readers look at "failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "kernel_gap.h"
#include "report.h"
#include "util.h"

static void write_env(struct json_writer *w, const struct env_info *env)
{
	json_key(w, "environment");
	json_begin_object(w);
	env_info_write_json(w, env);
	json_end_object(w);
}

static void write_outcome(struct json_writer *w, enum outcome o,
			  const char *reason, long long duration_ns)
{
	json_kv_bool(w, "failed", outcome_failed(o));
	json_kv_string(w, "outcome", outcome_name(o));
	if (o == OUTCOME_SKIP)
		json_kv_string(w, "skip_reason", reason);
	json_kv_int(w, "duration_ns", duration_ns);
}

/* The first failed check, as recorded where it failed. */
static void write_failure(struct json_writer *w, const struct failure *f)
{
	if (!failure_recorded(f))
		return;
	json_key(w, "failure");
	json_begin_object(w);
	json_kv_string(w, "file", f->file);
	json_kv_int(w, "line", f->line);
	json_kv_string(w, "check", f->check);
	json_kv_string(w, "name", f->name);
	json_kv_int(w, "errno", f->err);
	json_kv_string(w, "message", f->message);
	json_end_object(w);
}

static void write_subtest(struct json_writer *w,
			  const struct subtest_result *s)
{
	json_begin_object(w);
	json_kv_string(w, "name", s->name);
	json_kv_int(w, "number", s->number);
	json_kv_string(w, "message", s->log ? s->log : "");
	write_outcome(w, s->outcome, s->skip_reason, s->duration_ns);
	write_failure(w, &s->failure);
	json_end_object(w);
}

static void write_test(struct json_writer *w, const struct test_result *r)
{
	const char *gap = kernel_gap_errno(r);

	json_begin_object(w);
	json_kv_string(w, "name", r->name);
	json_kv_int(w, "number", r->number);
	json_kv_string(w, "message", r->log ? r->log : "");
	write_outcome(w, r->outcome, r->skip_reason, r->duration_ns);
	write_failure(w, &r->failure);
	if (r->crash)
		json_kv_string(w, "crash", r->crash);
	if (r->leaks)
		json_kv_string(w, "leaks", r->leaks);
	if (gap)
		json_kv_string(w, "kernel_gap", gap);
	json_key(w, "subtests");
	json_begin_array(w);
	for (int i = 0; i < r->n_subtests; i++)
		write_subtest(w, &r->subtests[i]);
	json_end_array(w);
	json_end_object(w);
}

/* bpfcheck's own tally: tests by outcome. */
static void write_outcomes(struct json_writer *w,
			   const struct test_result *results, int n)
{
	static const enum outcome all[] = {
		OUTCOME_PASS, OUTCOME_FAIL, OUTCOME_SKIP, OUTCOME_TIMEOUT,
	};

	json_key(w, "outcomes");
	json_begin_object(w);
	for (size_t o = 0; o < ARRAY_SIZE(all); o++) {
		int count = 0;

		for (int i = 0; i < n; i++)
			count += results[i].outcome == all[o];
		json_kv_int(w, outcome_name(all[o]), count);
	}
	json_end_object(w);
}

int report_json_write(FILE *f, const struct env_info *env,
		      const struct test_result *results, int n,
		      const struct summary *s)
{
	struct json_writer w;

	json_init(&w, f);
	json_begin_object(&w);
	json_kv_int(&w, "success", s->kernel_success);
	json_kv_int(&w, "success_subtest", s->subtests_passed);
	json_kv_int(&w, "skipped", s->kernel_skipped);
	json_kv_int(&w, "failed", s->failed);
	write_outcomes(&w, results, n);
	write_env(&w, env);
	json_key(&w, "results");
	json_begin_array(&w);
	for (int i = 0; i < n; i++)
		write_test(&w, &results[i]);
	json_end_array(&w);
	json_end_object(&w);
	fputc('\n', f);
	return w.error || ferror(f) ? -EIO : 0;
}
