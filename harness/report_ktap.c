// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP version 1 (Documentation/dev-tools/ktap.rst): a version line, a
 * plan, one result line per test.  A test with subtests is preceded by a
 * nested block indented two spaces.  Logs become "# " diagnostic lines.
 * Control characters in test output are written as \xNN: raw ones break
 * KTAP parsers (a \x01 broke kunit.py's JUnit writer).
 */
#include <string.h>

#include "report.h"

/* len bytes of s, C0 controls (but tab) and DEL escaped. */
static void ktap_write(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void ktap_puts(FILE *out, const char *s)
{
	ktap_write(out, s, strlen(s));
}

static void ktap_diag(FILE *out, const char *indent, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fprintf(out, "%s# ", indent);
		ktap_write(out, p, len);
		fputc('\n', out);
		p = nl ? nl + 1 : NULL;
	}
}

/* A failed part's first failed check, as recorded, before its result. */
static void ktap_failure(FILE *out, const char *indent, enum outcome o,
			 const struct failure *f)
{
	char line[512];

	if (!outcome_failed(o) || !failure_recorded(f))
		return;
	failure_format(f, line, sizeof(line));
	fprintf(out, "%s# first failure: ", indent);
	ktap_puts(out, line);
	fputc('\n', out);
}

static void ktap_result(FILE *out, const char *indent, int number,
			const char *name, enum outcome o, const char *reason)
{
	fprintf(out, "%s%s %d ", indent, outcome_failed(o) ? "not ok" : "ok", number);
	ktap_puts(out, name);
	if (o == OUTCOME_SKIP) {
		fputs(" # SKIP ", out);
		ktap_puts(out, reason ? reason : "");
	} else if (o == OUTCOME_TIMEOUT) {
		fputs(" # TIMEOUT", out);
	}
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
		fputs("  KTAP version 1\n  # Subtest: ", out);
		ktap_puts(out, r->name);
		fprintf(out, "\n  1..%d\n", r->n_subtests);
		for (int i = 0; i < r->n_subtests; i++) {
			const struct subtest_result *s = &r->subtests[i];

			if (verbosity > 0 || outcome_failed(s->outcome))
				ktap_diag(out, "  ", s->log);
			ktap_failure(out, "  ", s->outcome, &s->failure);
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
	ktap_failure(out, "", r->outcome, &r->failure);
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
