// SPDX-License-Identifier: GPL-2.0
/*
 * JUnit XML (--junit FILE): one <testsuite> per test, one <testcase> per
 * subtest (or one for the test itself when it has none or failed outside
 * them), <failure> with the first failed check as its message and the
 * captured log, <skipped> with the reason.  Valid for Jenkins xunit's
 * junit-10.xsd: errors on every <testsuite>, times with 3 decimals.  Text is escaped for XML
 * 1.0: markup characters become entities, characters XML cannot carry
 * (most control bytes, malformed UTF-8) become U+FFFD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "report.h"
#include "utf8.h"

static void xml_text(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");

	while (*s) {
		int n = utf8_seq_len(s);

		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		switch (n ? *s : 0) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\t':
		case '\n':
		case '\r':
			fputc(*s, f);
			break;
		default:
			if (n && *s >= 0x20 && *s != 0x7f)
				fputc(*s, f);
			else
				fputs("\xef\xbf\xbd", f);
		}
		s++;
	}
}

/* Seconds with 3 decimals: Jenkins xunit's schema allows no more. */
static void xml_time(FILE *f, long long ns)
{
	fprintf(f, " time=\"%.3f\"", ns / 1e9);
}

/* One <testcase>: what it is called, how it ended, why. */
struct junit_case {
	const char *suite;
	const char *name;
	enum outcome outcome;
	const char *reason;	/* SKIP */
	const char *log;	/* FAIL, TIMEOUT */
	const struct failure *failure;	/* its first failed check */
	const char *death;	/* how the test process died, or NULL */
	long long duration_ns;
};

/*
 * The failure's gist: its first failed check as recorded, else how the
 * process died, else the log's first line.
 */
static void failure_message(FILE *f, const struct junit_case *c, char *buf,
			    size_t len)
{
	const char *log = c->log ? c->log : "";
	const char *line = c->death ? c->death : log + strspn(log, "\n");

	if (c->failure && failure_recorded(c->failure))
		failure_format(c->failure, buf, len);
	else
		snprintf(buf, len, "%.*s", (int)(strchrnul(line, '\n') - line), line);
	if (c->outcome == OUTCOME_TIMEOUT)
		snprintf(buf, len, "timed out");
	else if (!buf[0])
		snprintf(buf, len, "failed");
	xml_text(f, buf);
}

static void write_testcase(FILE *f, const struct junit_case *c)
{
	char msg[512];

	fputs("    <testcase classname=\"", f);
	xml_text(f, c->suite);
	fputs("\" name=\"", f);
	xml_text(f, c->name);
	fputc('"', f);
	xml_time(f, c->duration_ns);
	if (c->outcome == OUTCOME_PASS) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (c->outcome == OUTCOME_SKIP) {
		fputs("      <skipped message=\"", f);
		xml_text(f, c->reason);
		fputs("\"/>\n", f);
	} else {
		fputs("      <failure message=\"", f);
		failure_message(f, c, msg, sizeof(msg));
		fputs("\">", f);
		xml_text(f, c->log);
		fputs("</failure>\n", f);
	}
	fputs("    </testcase>\n", f);
}

struct junit_counts {
	int tests;
	int failures;
	int skipped;
};

static void count_case(struct junit_counts *n, enum outcome o)
{
	n->tests++;
	n->failures += outcome_failed(o);
	n->skipped += o == OUTCOME_SKIP;
}

/*
 * A test that failed outside its subtests (a crash after them, a leak)
 * gets a case of its own: otherwise its cases would all pass.
 */
static bool test_level_case(const struct test_result *r)
{
	return !r->n_subtests || (outcome_failed(r->outcome) && !r->subtests_failed);
}

static void suite_counts(const struct test_result *r, struct junit_counts *n)
{
	memset(n, 0, sizeof(*n));
	for (int i = 0; i < r->n_subtests; i++)
		count_case(n, r->subtests[i].outcome);
	if (test_level_case(r))
		count_case(n, r->outcome);
}

/* Test-level log, crash and leak text: what explains a failure. */
static void test_failure_text(const struct test_result *r, char *buf,
			      size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", r->log ? r->log : "",
		 r->crash ? r->crash : "", r->crash ? "\n" : "",
		 r->leaks ? r->leaks : "", r->leaks ? "\n" : "");
}

static void write_testsuite(FILE *f, const struct test_result *r)
{
	struct junit_counts n;
	char text[8192];

	suite_counts(r, &n);
	fputs("  <testsuite name=\"", f);
	xml_text(f, r->name);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\"",
		n.tests, n.failures, n.skipped);
	xml_time(f, r->duration_ns);
	fputs(">\n", f);
	test_failure_text(r, text, sizeof(text));
	for (int i = 0; i < r->n_subtests; i++) {
		const struct subtest_result *s = &r->subtests[i];
		struct junit_case c = { r->name, s->name, s->outcome, s->skip_reason,
					s->log, &s->failure,
					s->cut_short ? r->crash : NULL,
					s->duration_ns };

		write_testcase(f, &c);
	}
	if (test_level_case(r)) {
		struct junit_case c = { r->name, r->name, r->outcome, r->skip_reason,
					text, &r->failure,
					r->crash ? r->crash : r->leaks,
					r->duration_ns };

		write_testcase(f, &c);
	}
	if (text[0] && outcome_failed(r->outcome)) {
		fputs("    <system-err>", f);
		xml_text(f, text);
		fputs("</system-err>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

/* The root counts test cases, as every consumer does (not tests). */
int report_junit_write(FILE *f, const struct test_result *results, int n)
{
	struct junit_counts total = { 0 };
	long long total_ns = 0;

	for (int i = 0; i < n; i++) {
		struct junit_counts c;

		suite_counts(&results[i], &c);
		total.tests += c.tests;
		total.failures += c.failures;
		total_ns += results[i].duration_ns;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	/* No "skipped" here: junit-10.xsd has it on <testsuite> only. */
	fprintf(f, "<testsuites name=\"test_progs\" tests=\"%d\" failures=\"%d\" errors=\"0\"",
		total.tests, total.failures);
	xml_time(f, total_ns);
	fputs(">\n", f);
	for (int i = 0; i < n; i++)
		write_testsuite(f, &results[i]);
	fputs("</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}
