// SPDX-License-Identifier: GPL-2.0
/*
 * The test__*() API a test calls, in its own process: it records subtest
 * boundaries, outcomes, skip reasons and the first failure of each in the
 * page it shares with the runner (test_state.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "clock.h"
#include "kmsg.h"
#include "test_api.h"
#include "test_state.h"

static struct test_state_binding cur = { .log_fd = -1 };

void test_state_bind(const struct test_state_binding *b)
{
	cur = *b;
}

static struct shared_subtest *current_subtest(void)
{
	if (!cur.st || cur.st->current < 0)
		return NULL;
	return &cur.st->sub[cur.st->current];
}

void test__end_subtest(void)
{
	struct shared_subtest *s = current_subtest();

	if (!s)
		return;
	s->log_end = capture_pos(cur.log_fd);
	s->end_ns = now_ns();
	cur.st->current = -1;
}

static bool valid_subtest_name(const char *name)
{
	if (!name || !*name || strlen(name) >= TEST_NAME_MAX)
		return false;
	return !strpbrk(name, "/\n#");
}

/* A description shown as the name: the kernel's RUN_TESTS ones have '/'. */
static bool valid_description(const char *desc)
{
	return desc && *desc && strlen(desc) < TEST_NAME_MAX && !strchr(desc, '\n');
}

bool test__start_subtest(const char *name)
{
	return test__start_subtest_shown(name, NULL);
}

/*
 * A subtest named NAME, shown (in results, and to -t/-a) as SHOWN when
 * there is one, as the kernel's runner shows a described subtest; -t/-a
 * select it by either.
 */
bool test__start_subtest_shown(const char *name, const char *shown)
{
	struct shared_state *st = cur.st;
	struct shared_subtest *s;
	int number;

	test__end_subtest();
	number = ++st->started;
	if (!valid_subtest_name(name) || (shown && !valid_description(shown))) {
		fprintf(stderr,
			"%s: invalid subtest name '%s' (1-%d chars, no '/', '#' or newline)%s%s%s\n",
			__func__, name ? name : "(null)", TEST_NAME_MAX - 1,
			shown ? " or description '" : "", shown ? shown : "", shown ? "'" : "");
		st->failed = true;
		return false;
	}
	if (!cur.list_only &&
	    !selection_subtest(cur.sel, cur.name, cur.num, name, number) &&
	    !(shown && selection_subtest(cur.sel, cur.name, cur.num, shown, number)))
		return false;
	name = shown ? shown : name;
	if (st->recorded == MAX_SUBTESTS) {
		fprintf(stderr, "too many subtests (max %d)\n", MAX_SUBTESTS);
		st->failed = true;
		return false;
	}
	s = &st->sub[st->recorded];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->number = number;
	st->recorded++;
	if (cur.list_only)
		return false;
	st->current = st->recorded - 1;
	s->log_start = capture_pos(cur.log_fd);
	s->log_end = -1;
	s->start_ns = now_ns();
	kmsg_test_start(cur.name, name);
	return true;
}

static void mark(bool fail, const char *reason)
{
	struct shared_subtest *s = current_subtest();
	bool *flag = s ? (fail ? &s->failed : &s->skipped)
		       : (fail ? &cur.st->failed : &cur.st->skipped);
	char *dst = s ? s->skip_reason : cur.st->skip_reason;

	*flag = true;
	/* The first reason given wins: it names what was missing first. */
	if (reason && !dst[0])
		snprintf(dst, REASON_MAX, "%s", reason);
}

void test__fail(void)
{
	mark(true, NULL);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void test__record_failure(const char *file, int line, const char *check,
			  const char *name, int err, const char *message)
{
	struct shared_subtest *s = current_subtest();
	struct failure *f;

	if (!cur.st)
		return;
	mark(true, NULL);
	f = s ? &s->failure : &cur.st->failure;
	/* The first failure wins: later ones are often its consequences. */
	if (failure_recorded(f))
		return;
	snprintf(f->file, sizeof(f->file), "%s", base_name(file));
	f->line = line;
	snprintf(f->check, sizeof(f->check), "%s", check);
	snprintf(f->name, sizeof(f->name), "%s", name ? name : "");
	f->err = err;
	snprintf(f->message, sizeof(f->message), "%s", message);
}

void test_state_note_libbpf_error(int err)
{
	struct shared_subtest *s = current_subtest();
	int *dst;

	if (!cur.st || !err)
		return;
	dst = s ? &s->libbpf_err : &cur.st->libbpf_err;
	if (!*dst)
		*dst = err;
}

void test__skip(void)
{
	mark(false, NULL);
}

void test__skip_reason(const char *fmt, ...)
{
	char reason[REASON_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	/* Keep it on one line: KTAP directives and text lines need that. */
	for (char *p = reason; *p; p++)
		if (*p == '\n' || *p == '#')
			*p = ' ';
	mark(false, reason);
}

int test__verbosity(void)
{
	return cur.verbosity;
}

bool test__verifier_stats(void)
{
	return cur.verifier_stats;
}
