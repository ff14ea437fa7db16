// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel test_progs text format:
 *   #1/1     ringbuf/reserve_submit:OK
 *   #1       ringbuf:OK
 *   Summary: 1/1 PASSED, 0 SKIPPED, 0 FAILED
 * Logs are shown for failures (or always with -v), before their result;
 * the recap of failures at the end adds each one's first failed check.
 */
#include <string.h>

#include "kernel_gap.h"
#include "report.h"

static const char *text_outcome(enum outcome o)
{
	switch (o) {
	case OUTCOME_PASS: return "OK";
	case OUTCOME_FAIL: return "FAIL";
	case OUTCOME_SKIP: return "SKIP";
	case OUTCOME_TIMEOUT: return "TIMEOUT";
	}
	return "?";
}

static void print_log(FILE *out, const char *log)
{
	size_t len = log ? strlen(log) : 0;

	if (!len)
		return;
	fputs(log, out);
	if (log[len - 1] != '\n')
		fputc('\n', out);
}

/* In the recap of failures: the first failed check, as recorded. */
static void print_failure(FILE *out, const struct failure *f, bool recap)
{
	char line[512];

	if (!recap || !failure_recorded(f))
		return;
	failure_format(f, line, sizeof(line));
	fprintf(out, "first failure: %s\n", line);
}

static void print_subtest(FILE *out, const struct test_result *r,
			  const struct subtest_result *s, bool show_log,
			  bool recap)
{
	char num[32];

	snprintf(num, sizeof(num), "%d/%d", r->number, s->number);
	if (show_log)
		print_log(out, s->log);
	if (outcome_failed(s->outcome))
		print_failure(out, &s->failure, recap);
	fprintf(out, "#%-8s %s/%s:%s", num, r->name, s->name,
		text_outcome(s->outcome));
	if (s->outcome == OUTCOME_SKIP)
		fprintf(out, " (%s)", s->skip_reason);
	fputc('\n', out);
}

static void print_test(FILE *out, const struct test_result *r,
		       int verbosity, bool failures_only)
{
	bool failed = outcome_failed(r->outcome);
	char num[32];

	for (int i = 0; i < r->n_subtests; i++) {
		const struct subtest_result *s = &r->subtests[i];
		bool sub_failed = outcome_failed(s->outcome);

		if (failures_only && !sub_failed)
			continue;
		print_subtest(out, r, s, verbosity > 0 || sub_failed,
			      failures_only);
	}
	if (verbosity > 0 || failed)
		print_log(out, r->log);
	if (failed)
		print_failure(out, &r->failure, failures_only);
	if (r->crash)
		fprintf(out, "%s\n", r->crash);
	if (r->leaks)
		fprintf(out, "%s\n", r->leaks);
	snprintf(num, sizeof(num), "%d", r->number);
	fprintf(out, "#%-8s %s:%s", num, r->name, text_outcome(r->outcome));
	if (r->outcome == OUTCOME_SKIP)
		fprintf(out, " (%s)", r->skip_reason);
	else if (r->subtests_skipped)
		fprintf(out, " (SKIP: %d/%d)", r->subtests_skipped,
			r->n_subtests);
	fputc('\n', out);
}

void report_text_test(FILE *out, const struct test_result *r, int verbosity)
{
	print_test(out, r, verbosity, false);
	fflush(out);
}

/*
 * Which failures look like a feature this kernel lacks (EPERM, ENOTSUPP),
 * so that a reader can tell them from bugs.
 */
static void print_kernel_gaps(FILE *out, const struct test_result *results, int n,
			      int failed)
{
	int gaps = 0;

	for (int i = 0; i < n; i++)
		gaps += kernel_gap_errno(&results[i]) != NULL;
	if (!gaps)
		return;
	fprintf(out, "Kernel gaps? %d of %d failed with EPERM/ENOTSUPP (a missing feature):",
		gaps, failed);
	for (int i = 0; i < n; i++) {
		const char *gap = kernel_gap_errno(&results[i]);

		if (gap)
			fprintf(out, " %s (%s)%s", results[i].name, gap, --gaps ? "," : "");
	}
	fputc('\n', out);
}

void report_text_end(FILE *out, const struct test_result *results, int n,
		     const struct summary *s)
{
	if (s->failed) {
		fprintf(out, "\nAll error logs:\n");
		for (int i = 0; i < n; i++)
			if (outcome_failed(results[i].outcome))
				print_test(out, &results[i], 0, true);
	}
	print_kernel_gaps(out, results, n, s->failed);
	/* The kernel's counts: scripts compare this line with -J's. */
	fprintf(out, "Summary: %d/%d PASSED, %d SKIPPED, %d FAILED\n",
		s->kernel_success, s->subtests_passed, s->kernel_skipped,
		s->failed);
	fflush(out);
}
