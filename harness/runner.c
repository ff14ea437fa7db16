// SPDX-License-Identifier: GPL-2.0
/*
 * Each test runs in a forked child so that a crash or a stray exit() is
 * reported as that test's failure and the run goes on.  The child records
 * subtest boundaries, outcomes and skip reasons in a MAP_SHARED region the
 * parent reads after waitpid(); its output goes to a memfd (capture.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "runner.h"
#include "test_progs.h"

#define MAX_SUBTESTS 1024

struct shared_subtest {
	char name[TEST_NAME_MAX];
	int number;
	bool failed;
	bool skipped;
	char skip_reason[REASON_MAX];
	long long start_ns, end_ns;
	off_t log_start, log_end;
};

struct shared_state {
	bool failed;
	bool skipped;
	char skip_reason[REASON_MAX];
	int started;		/* subtests started, selected or not */
	int recorded;		/* entries used in sub[] */
	int current;		/* index in sub[] of the running one, or -1 */
	struct shared_subtest sub[MAX_SUBTESTS];
};

static struct {
	struct shared_state *st;
	int log_fd;
	const struct test_def *def;
	int num;
	const struct run_opts *opts;
} cur = { .log_fd = -1 };

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int runner_init(void)
{
	cur.st = mmap(NULL, sizeof(*cur.st), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cur.st == MAP_FAILED) {
		cur.st = NULL;
		return -errno;
	}
	cur.log_fd = capture_open();
	if (cur.log_fd < 0) {
		int err = -errno;

		runner_exit();
		return err;
	}
	return 0;
}

void runner_exit(void)
{
	if (cur.st)
		munmap(cur.st, sizeof(*cur.st));
	if (cur.log_fd >= 0)
		close(cur.log_fd);
	cur.st = NULL;
	cur.log_fd = -1;
}

/* ---- the API tests call (runs in the child) ---- */

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

bool test__start_subtest(const char *name)
{
	struct shared_state *st = cur.st;
	struct shared_subtest *s;
	int number;

	test__end_subtest();
	number = ++st->started;
	if (!valid_subtest_name(name)) {
		fprintf(stderr, "test__start_subtest: invalid subtest name "
			"'%s' (1-%d chars, no '/', '#' or newline)\n",
			name ? name : "(null)", TEST_NAME_MAX - 1);
		st->failed = true;
		return false;
	}
	if (!cur.opts->list_only &&
	    !selection_subtest(cur.opts->sel, cur.def->name, cur.num,
			       name, number))
		return false;
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
	if (cur.opts->list_only)
		return false;
	st->current = st->recorded - 1;
	s->log_start = capture_pos(cur.log_fd);
	s->log_end = -1;
	s->start_ns = now_ns();
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
	return cur.opts ? cur.opts->verbosity : 0;
}

/* ---- child side ---- */

static void crash_handler(int sig)
{
	void *frames[64];
	int n = backtrace(frames, 64);
	static const char msg[] = "\nCaught fatal signal; backtrace:\n";

	/* Async-signal-safe output only: write() and backtrace_symbols_fd. */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_crash_handler(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	void *warmup[1];

	/* backtrace() loads libgcc on first use; do it before any crash. */
	backtrace(warmup, 1);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], crash_handler);
}

static void run_body(void)
{
	cur.def->fn();
	test__end_subtest();
	fflush(stdout);
	fflush(stderr);
}

static void child_main(void)
{
	if (capture_redirect(cur.log_fd) < 0)
		_exit(127);
	install_crash_handler();
	run_body();
	_exit(0);
}

/* ---- parent side ---- */

static char *describe_status(int status)
{
	char *msg = NULL;
	int ret = 0;

	if (WIFSIGNALED(status))
		ret = asprintf(&msg, "test process killed by signal %d (%s)",
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		ret = asprintf(&msg, "test process exited with status %d",
			       WEXITSTATUS(status));
	return ret < 0 ? NULL : msg;
}

static int run_forked(int *status)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child_main();
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

static int run_in_process(int *status)
{
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	int err = 0;

	if (saved_out < 0 || saved_err < 0 || capture_redirect(cur.log_fd)) {
		err = -EBADF;
		goto out;
	}
	run_body();
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	*status = 0;
out:
	if (saved_out >= 0)
		close(saved_out);
	if (saved_err >= 0)
		close(saved_err);
	return err;
}

/* Log text outside every subtest's [log_start, log_end) range. */
static char *test_level_log(const struct shared_state *st, const char *all)
{
	size_t len = strlen(all), pos = 0, out = 0;
	char *buf = malloc(len + 1);

	if (!buf)
		return NULL;
	for (int i = 0; i < st->recorded; i++) {
		size_t start = st->sub[i].log_start, end = st->sub[i].log_end;

		if (end <= start || start < pos || end > len)
			continue;
		memcpy(buf + out, all + pos, start - pos);
		out += start - pos;
		pos = end;
	}
	memcpy(buf + out, all + pos, len - pos);
	out += len - pos;
	buf[out] = '\0';
	return buf;
}

static int collect_subtests(struct test_result *res, const char *all)
{
	struct shared_state *st = cur.st;
	size_t len = strlen(all);

	res->subtests = calloc(st->recorded ? st->recorded : 1,
			       sizeof(*res->subtests));
	if (!res->subtests)
		return -ENOMEM;
	res->n_subtests = st->recorded;
	for (int i = 0; i < st->recorded; i++) {
		struct shared_subtest *s = &st->sub[i];
		struct subtest_result *r = &res->subtests[i];
		size_t start = s->log_start, end = s->log_end;

		/* A subtest cut short by a crash owns the log to the end. */
		if (s->log_end < 0) {
			end = len;
			s->log_end = len;
			s->end_ns = now_ns();
			if (!cur.opts->list_only)
				s->failed = true;
		}
		start = start > len ? len : start;
		end = end > len ? len : end;
		snprintf(r->name, sizeof(r->name), "%s", s->name);
		r->number = s->number;
		r->duration_ns = s->end_ns - s->start_ns;
		r->outcome = s->failed ? OUTCOME_FAIL :
			     s->skipped ? OUTCOME_SKIP : OUTCOME_PASS;
		if (r->outcome == OUTCOME_SKIP)
			snprintf(r->skip_reason, REASON_MAX, "%s",
				 s->skip_reason[0] ? s->skip_reason :
				 "skipped by the test (no reason given)");
		r->log = strndup(all + start, end > start ? end - start : 0);
		if (!r->log)
			return -ENOMEM;
		res->subtests_passed += r->outcome == OUTCOME_PASS;
		res->subtests_skipped += r->outcome == OUTCOME_SKIP;
		res->subtests_failed += r->outcome == OUTCOME_FAIL;
	}
	return 0;
}

/* Skip reason when every subtest skipped: theirs if they agree. */
static void all_skipped_reason(struct test_result *res)
{
	const char *first = res->subtests[0].skip_reason;

	for (int i = 1; i < res->n_subtests; i++) {
		if (strcmp(first, res->subtests[i].skip_reason)) {
			snprintf(res->skip_reason, REASON_MAX,
				 "all %d subtests skipped", res->n_subtests);
			return;
		}
	}
	snprintf(res->skip_reason, REASON_MAX, "%s", first);
}

static void decide_outcome(struct test_result *res)
{
	struct shared_state *st = cur.st;

	if (st->failed || res->crash || res->leaks || res->subtests_failed) {
		res->outcome = OUTCOME_FAIL;
	} else if (st->skipped) {
		res->outcome = OUTCOME_SKIP;
		snprintf(res->skip_reason, REASON_MAX, "%s",
			 st->skip_reason[0] ? st->skip_reason :
			 "skipped by the test (no reason given)");
	} else if (res->n_subtests && !res->subtests_passed) {
		res->outcome = OUTCOME_SKIP;
		all_skipped_reason(res);
	} else if (!res->n_subtests && st->started) {
		res->outcome = OUTCOME_SKIP;
		snprintf(res->skip_reason, REASON_MAX,
			 "no subtest matched the selection");
	} else {
		res->outcome = OUTCOME_PASS;
	}
}

/* What the test left behind, as text; NULL when nothing. */
char *leak_report(const struct leak_checker *lc, const void *snap)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n;

	if (!f)
		return strdup("leak check failed: out of memory");
	n = lc->report(snap, f);
	if (n < 0)
		fprintf(f, "leak check failed: %s\n", strerror(-n));
	fclose(f);
	if (n == 0) {
		free(text);
		return NULL;
	}
	/* Drop the final newline: reporters add their own. */
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

static int run_checked(const struct run_opts *opts, int *status,
		       char **leaks)
{
	void *snap = NULL;
	int err;

	*leaks = NULL;
	if (opts->leaks && !opts->list_only) {
		snap = opts->leaks->snapshot();
		if (!snap)
			return -errno;
	}
	err = opts->no_fork ? run_in_process(status) : run_forked(status);
	if (snap) {
		if (!err)
			*leaks = leak_report(opts->leaks, snap);
		opts->leaks->release(snap);
	}
	return err;
}

int runner_run(const struct test_def *def, int num,
	       const struct run_opts *opts, struct test_result *res)
{
	long long start = now_ns();
	int status = 0, err;
	char *all;

	memset(res, 0, sizeof(*res));
	res->name = def->name;
	res->number = num;
	memset(cur.st, 0, offsetof(struct shared_state, sub));
	cur.st->current = -1;
	cur.def = def;
	cur.num = num;
	cur.opts = opts;
	err = capture_reset(cur.log_fd);
	if (err)
		return err;

	err = run_checked(opts, &status, &res->leaks);
	if (err)
		return err;
	res->duration_ns = now_ns() - start;
	res->crash = describe_status(status);

	all = capture_read(cur.log_fd, 0, -1);
	if (!all)
		return -ENOMEM;
	err = collect_subtests(res, all);
	if (!err) {
		res->log = test_level_log(cur.st, all);
		if (!res->log)
			err = -ENOMEM;
	}
	free(all);
	if (err)
		return err;
	decide_outcome(res);
	return 0;
}
