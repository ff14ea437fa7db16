// SPDX-License-Identifier: GPL-2.0
/*
 * ktap_check's checker (ktap_checker.h): KTAP version 1 as the kernel's
 * Documentation/dev-tools/ktap.rst has it.
 *
 *   KTAP version 1                 first line, and first line of each block
 *   1..N                           the plan, right after the version line
 *   ok|not ok <n> [<desc>][ # <directive> [<reason>]]
 *   # <diagnostic>                 allowed anywhere
 *
 * A nested block is indented two spaces more than its parent and belongs
 * to the parent's next result line, which closes it.  Results are numbered
 * 1, 2, 3, ... at each level and must match the plan.  A parent result
 * that is "ok" while one of its subtests is "not ok" is an error.
 *
 * Strict mode (the default) rejects every line it does not recognise;
 * --lax ignores them, as parsers of console output have to.
 *
 * --kselftest checks what the kernel's kselftest runner prints around a
 * test (run_kselftest.sh, "make run_tests" through lib.mk): the document
 * may start with "TAP version 13", which ktap.rst lists as a version line
 * parsers accept, and a result may carry diagnostic data without a
 * directive ("not ok 1 selftests: bpf: x # exit=1").  Everything else is
 * checked as strictly as without it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap_checker.h"

#define VERSION_LINE	"KTAP version 1"
#define TAP13_LINE	"TAP version 13"

struct result {
	bool ok;
	long number;
	bool skip;
	bool timeout;
};

/* Record what is wrong with the current line; returns -1 for "return bad()". */
static int bad(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Parse leading decimal digits (0..INT_MAX); *end gets the rest. */
static int parse_number(const char *s, long *val, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*val = strtol(s, &e, 10);
	if (errno || *val > INT_MAX)
		return -1;
	*end = e;
	return 0;
}

static int unknown_line(struct checker *c, const char *line)
{
	if (c->lax) {
		c->ignored++;
		return 0;
	}
	return bad(c, "unrecognised line '%.60s%s'", line,
		   strlen(line) > 60 ? "..." : "");
}

static int check_first_line(struct checker *c, const char *line)
{
	if (c->kselftest && !strcmp(line, TAP13_LINE))
		line = VERSION_LINE;
	if (strcmp(line, VERSION_LINE))
		return bad(c, "first line must be '%s'%s, got '%.60s'",
			   VERSION_LINE, c->kselftest ? " or '" TAP13_LINE "'" : "",
			   line);
	c->depth = 0;
	c->lv[0] = (struct level){ .plan = -1 };
	return 0;
}

static int check_diag(struct checker *c, const char *line, const char *text)
{
	if (text[1] && text[1] != ' ')
		return unknown_line(c, line);
	return 0;
}

/* "KTAP version 1" at indentation level lvl: opens a nested block. */
static int open_block(struct checker *c, int lvl)
{
	struct level *parent = &c->lv[c->depth];

	if (lvl != c->depth + 1)
		return bad(c,
			   "'%s' indented %d spaces, expected %d (a nested block is indented 2 more than its parent)",
			   VERSION_LINE, 2 * lvl, 2 * (c->depth + 1));
	if (parent->plan < 0)
		return bad(c, "nested block before its parent's plan line");
	if (parent->results >= parent->plan)
		return bad(c, "nested block after the last planned result (plan 1..%ld)",
			   parent->plan);
	if (c->depth + 1 >= MAX_DEPTH)
		return bad(c, "nesting deeper than %d levels", MAX_DEPTH);
	c->depth++;
	c->lv[c->depth] = (struct level){ .plan = -1 };
	return 0;
}

static int check_plan(struct checker *c, int lvl, const char *text)
{
	struct level *l = &c->lv[c->depth];
	const char *end;
	long n;

	if (parse_number(text + 3, &n, &end) || *end)
		return bad(c, "malformed plan '%.60s' (expected 1..N)", text);
	if (lvl != c->depth)
		return bad(c, "plan indented %d spaces, expected %d",
			   2 * lvl, 2 * c->depth);
	if (l->plan >= 0)
		return bad(c, "second plan line in the same block");
	if (l->results)
		return bad(c, "plan line after result lines");
	l->plan = n;
	return 0;
}

/* The part after '#' in a result line: " SKIP" or " SKIP reason". */
static int parse_directive(struct checker *c, const char *d,
			   struct result *r)
{
	if (!strncmp(d, " SKIP", 5) && (d[5] == '\0' || d[5] == ' ')) {
		r->skip = true;
		return 0;
	}
	if (!strncmp(d, " TODO", 5) && (d[5] == '\0' || d[5] == ' '))
		return 0;
	/* kselftest's runner marks tests it had to kill this way. */
	if (!strncmp(d, " TIMEOUT", 8) && (d[8] == '\0' || d[8] == ' ')) {
		r->timeout = true;
		return 0;
	}
	if (c->lax)
		return 0;
	/* Diagnostic data alone, as the runner's "# exit=N". */
	if (c->kselftest && d[0] == ' ' && d[1] && d[1] != ' ')
		return 0;
	return bad(c, "unknown directive '#%.40s' (expected '# SKIP [reason]')", d);
}

static int parse_description(struct checker *c, const char *desc,
			     struct result *r)
{
	const char *hash = strchr(desc, '#');

	if (!hash)
		return 0;
	if (hash != desc && hash[-1] != ' ')
		return bad(c, "'#' inside a description (a directive is written ' # SKIP reason')");
	if (parse_directive(c, hash + 1, r))
		return -1;
	if (r->timeout && r->ok && !c->lax)
		return bad(c,
			   "'ok' with a TIMEOUT directive (a test that timed out is 'not ok N name # TIMEOUT')");
	if (r->skip && !r->ok && !c->lax)
		return bad(c,
			   "'not ok' with a SKIP directive (a skipped test is 'ok N name # SKIP reason')");
	return 0;
}

static int parse_result(struct checker *c, const char *text,
			struct result *r)
{
	const char *p, *end;

	memset(r, 0, sizeof(*r));
	r->ok = !strncmp(text, "ok ", 3);
	p = text + (r->ok ? 3 : 7);
	if (parse_number(p, &r->number, &end))
		return bad(c, "result line without a test number: '%.60s'",
			   text);
	if (*end == '\0')
		return 0;
	if (*end != ' ')
		return bad(c, "test number not followed by a space: '%.60s'",
			   text);
	return parse_description(c, end + 1, r);
}

/* Close the innermost nested block: its plan must be complete. */
static int close_block(struct checker *c, bool *child_failed)
{
	struct level *l = &c->lv[c->depth];

	if (l->plan < 0)
		return bad(c, "nested block closed without a plan line");
	if (l->results != l->plan)
		return bad(c, "nested block closed after %ld results, its plan is 1..%ld",
			   l->results, l->plan);
	*child_failed = l->failed;
	c->depth--;
	return 0;
}

static void count_result(struct checker *c, const struct result *r)
{
	if (c->depth > 0) {
		c->subtests++;
		return;
	}
	c->tests++;
	if (!r->ok)
		c->failed++;
	else if (r->skip)
		c->skipped++;
	else
		c->passed++;
}

static int record_result(struct checker *c, const struct result *r,
			 bool child_failed)
{
	struct level *l = &c->lv[c->depth];

	if (l->plan < 0)
		return bad(c, "result line before the plan line");
	if (r->number != l->results + 1)
		return bad(c, "test number %ld, expected %ld", r->number,
			   l->results + 1);
	if (r->number > l->plan)
		return bad(c, "test number %ld is beyond the plan 1..%ld",
			   r->number, l->plan);
	if (r->ok && child_failed)
		return bad(c, "test %ld is 'ok' but a subtest in its nested block is 'not ok'",
			   r->number);
	l->results++;
	if (!r->ok)
		l->failed = true;
	count_result(c, r);
	return 0;
}

static int check_result(struct checker *c, int lvl, const char *text)
{
	bool child_failed = false;
	struct result r;

	if (parse_result(c, text, &r))
		return -1;
	if (lvl > c->depth)
		return bad(c, "result line indented %d spaces, expected %d",
			   2 * lvl, 2 * c->depth);
	if (lvl < c->depth - 1)
		return bad(c,
			   "result line indented %d spaces closes more than one nested block (expected %d)",
			   2 * lvl,
			   2 * (c->depth - 1));
	if (lvl == c->depth - 1 && close_block(c, &child_failed))
		return -1;
	return record_result(c, &r, child_failed);
}

static bool is_result(const char *text)
{
	return !strncmp(text, "ok", 2) || !strncmp(text, "not ok", 6);
}

static int check_line(struct checker *c, const char *line)
{
	const char *text = line;
	int indent;

	if (c->lineno == 1)
		return check_first_line(c, line);
	while (*text == ' ')
		text++;
	if (*text == '#')
		return check_diag(c, line, text);
	indent = text - line;
	if (indent % 2)
		return c->lax ? unknown_line(c, line) :
		       bad(c, "odd indentation: %d spaces (levels are 2 spaces apart)", indent);
	if (!strcmp(text, VERSION_LINE))
		return open_block(c, indent / 2);
	if (!strncmp(text, "1..", 3))
		return check_plan(c, indent / 2, text);
	if (!strncmp(text, "ok ", 3) || !strncmp(text, "not ok ", 7))
		return check_result(c, indent / 2, text);
	if (is_result(text) && !c->lax)
		return bad(c, "malformed result line '%.60s'", text);
	return unknown_line(c, line);
}

static int check_end(struct checker *c)
{
	struct level *l = &c->lv[c->depth > 0 ? c->depth : 0];

	if (c->depth < 0)
		return bad(c, "empty input (expected '%s')", VERSION_LINE);
	if (l->plan < 0)
		return bad(c, "end of input: no plan line");
	if (l->results != l->plan)
		return bad(c, "end of input: %ld results, the plan is 1..%ld",
			   l->results, l->plan);
	if (c->depth > 0)
		return bad(c,
			   "end of input inside a nested block (the result line of its parent test is missing)");
	return 0;
}

static int read_line(FILE *f, char **line, size_t *cap, bool *nul)
{
	ssize_t n = getline(line, cap, f);

	if (n < 0)
		return -1;
	if (n && (*line)[n - 1] == '\n')
		(*line)[--n] = '\0';
	*nul = strlen(*line) != (size_t)n;
	return 0;
}

int check_stream(struct checker *c, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	bool nul;
	int ret = 0;

	while (!ret && !read_line(f, &line, &cap, &nul)) {
		c->lineno++;
		if (nul)
			ret = bad(c, "NUL byte in line");
		else
			ret = check_line(c, line);
	}
	free(line);
	if (ret)
		return ret;
	if (ferror(f))
		return -2;
	if (c->lineno == 0)
		c->lineno = 1;
	return check_end(c);
}
