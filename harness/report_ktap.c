// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP version 1 (Documentation/dev-tools/ktap.rst): a version line, a
 * plan, one result line per test.  A test with subtests is preceded by a
 * nested block indented two spaces.  Logs become "# " diagnostic lines.
 */
#include <string.h>

#include "report.h"

static void ktap_diag(FILE *out, const char *indent, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(out, "%s# %.*s\n", indent, len, p);
		p = nl ? nl + 1 : NULL;
	}
}

static void ktap_result(FILE *out, const char *indent, int number,
			const char *name, enum outcome o, const char *reason)
{
	fprintf(out, "%s%s %d %s", indent, outcome_failed(o) ? "not ok" : "ok",
		number, name);
	if (o == OUTCOME_SKIP)
		fprintf(out, " # SKIP %s", reason);
	else if (o == OUTCOME_TIMEOUT)
		fprintf(out, " # TIMEOUT");
	fputc('\n', out);
}

/* The plan, then what the run is on and what built it, as diagnostics. */
void report_ktap_begin(FILE *out, int planned, const struct env_info *env)
{
	char toolchain[256];

	env_info_toolchain(env, toolchain, sizeof(toolchain));
	fprintf(out, "KTAP version 1\n1..%d\n", planned);
	fprintf(out, "# kernel %s %s; %s\n", env->kernel_release, env->machine,
		toolchain);
	fflush(out);
}

void report_ktap_test(FILE *out, int index, const struct test_result *r,
		      int verbosity)
{
	if (r->n_subtests) {
		fprintf(out, "  KTAP version 1\n  # Subtest: %s\n  1..%d\n",
			r->name, r->n_subtests);
		for (int i = 0; i < r->n_subtests; i++) {
			const struct subtest_result *s = &r->subtests[i];

			if (verbosity > 0 || outcome_failed(s->outcome))
				ktap_diag(out, "  ", s->log);
			/* KTAP numbers run 1..N even when -n left gaps. */
			ktap_result(out, "  ", i + 1, s->name, s->outcome,
				    s->skip_reason);
		}
	}
	if (verbosity > 0 || outcome_failed(r->outcome))
		ktap_diag(out, "", r->log);
	if (r->crash)
		ktap_diag(out, "", r->crash);
	if (r->leaks)
		ktap_diag(out, "", r->leaks);
	ktap_result(out, "", index, r->name, r->outcome, r->skip_reason);
	fflush(out);
}

void report_ktap_end(FILE *out, const struct summary *s)
{
	fprintf(out, "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		s->passed, s->failed, s->tests - s->passed -
		s->failed);
	fflush(out);
}
