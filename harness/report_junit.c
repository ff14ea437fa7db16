// SPDX-License-Identifier: GPL-2.0
/*
 * JUnit XML (--junit FILE): one <testsuite> per test, one <testcase> per
 * subtest (or one for the test itself when it has none), <failure> with
 * the captured log, <skipped> with the reason.  Text is escaped for XML
 * 1.0: markup characters become entities, characters XML cannot carry
 * (most control bytes, malformed UTF-8) become U+FFFD.
 */
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

static double seconds(long long ns)
{
	return ns / 1e9;
}

static void write_testcase(FILE *f, const char *suite, const char *name, enum outcome o,
			   const char *reason, const char *log, long long duration_ns)
{
	fputs("    <testcase classname=\"", f);
	xml_text(f, suite);
	fputs("\" name=\"", f);
	xml_text(f, name);
	fprintf(f, "\" time=\"%.6f\"", seconds(duration_ns));
	if (o == OUTCOME_PASS) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (o == OUTCOME_SKIP) {
		fputs("      <skipped message=\"", f);
		xml_text(f, reason);
		fputs("\"/>\n", f);
	} else {
		fprintf(f, "      <failure message=\"%s\">",
			o == OUTCOME_TIMEOUT ? "timed out" : "failed");
		xml_text(f, log);
		fputs("</failure>\n", f);
	}
	fputs("    </testcase>\n", f);
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
	int failed = outcome_failed(r->outcome) && !r->n_subtests ? 1 :
		     r->subtests_failed;
	int skipped = r->n_subtests ? r->subtests_skipped :
		      r->outcome == OUTCOME_SKIP;
	char text[8192];

	fputs("  <testsuite name=\"", f);
	xml_text(f, r->name);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.6f\">\n",
		r->n_subtests ? r->n_subtests : 1,
		failed, skipped, seconds(r->duration_ns));
	test_failure_text(r, text, sizeof(text));
	if (!r->n_subtests)
		write_testcase(f, r->name, r->name, r->outcome, r->skip_reason, text,
			       r->duration_ns);
	for (int i = 0; i < r->n_subtests; i++) {
		const struct subtest_result *s = &r->subtests[i];

		write_testcase(f, r->name, s->name, s->outcome, s->skip_reason, s->log,
			       s->duration_ns);
	}
	if (text[0] && outcome_failed(r->outcome)) {
		fputs("    <system-err>", f);
		xml_text(f, text);
		fputs("</system-err>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

int report_junit_write(FILE *f, const struct test_result *results, int n,
		       const struct summary *s)
{
	long long total_ns = 0;

	for (int i = 0; i < n; i++)
		total_ns += results[i].duration_ns;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<testsuites name=\"test_progs\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.6f\">\n",
		s->tests, s->failed, s->tests - s->passed - s->failed,
		seconds(total_ns));
	for (int i = 0; i < n; i++)
		write_testsuite(f, &results[i]);
	fputs("</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}
