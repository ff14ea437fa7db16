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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "capture.h"
#include "kmsg.h"
#include "runner.h"
#include "test_api.h"

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

struct runner_slot {
	struct shared_state *st;
	int log_fd;
	pid_t pid;		/* running test process, or 0 */
	int pidfd;
	const struct test_def *def;
	int num;
	const struct run_opts *opts;
	long long start_ns;
	void *leak_snap;
	int status;		/* wait status, for no_fork runs */
};

struct runner_slot *runner_slot_new(void)
{
	struct runner_slot *slot = calloc(1, sizeof(*slot));

	if (!slot)
		return NULL;
	slot->log_fd = slot->pidfd = -1;
	slot->st = mmap(NULL, sizeof(*slot->st), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slot->st == MAP_FAILED) {
		slot->st = NULL;
		goto fail;
	}
	slot->log_fd = capture_open();
	if (slot->log_fd < 0)
		goto fail;
	return slot;
fail:
	runner_slot_free(slot);
	return NULL;
}

void runner_slot_free(struct runner_slot *slot)
{
	if (!slot)
		return;
	if (slot->st)
		munmap(slot->st, sizeof(*slot->st));
	if (slot->log_fd >= 0)
		close(slot->log_fd);
	if (slot->pidfd >= 0)
		close(slot->pidfd);
	free(slot);
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
		fprintf(stderr,
			"%s: invalid subtest name '%s' (1-%d chars, no '/', '#' or newline)\n",
			__func__, name ? name : "(null)", TEST_NAME_MAX - 1);
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
	kmsg_test_start(cur.def->name, name);
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

bool test__verifier_stats(void)
{
	return cur.opts && cur.opts->verifier_stats;
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
	test_env_leave();
	fflush(stdout);
	fflush(stderr);
}

static void child_main(void)
{
	test_env_enter();
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

static int start_forked(struct runner_slot *slot)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Own process group: the watchdog kills what it spawned. */
		setpgid(0, 0);
		child_main();
	}
	setpgid(pid, pid);	/* also here, so there is no window */
	slot->pid = pid;
	slot->pidfd = syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

static int run_in_process(struct runner_slot *slot)
{
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO), err = 0;

	test_env_enter();
	if (saved_out < 0 || saved_err < 0 || capture_redirect(cur.log_fd)) {
		err = -EBADF;
		test_env_leave();
		goto out;
	}
	run_body();
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	slot->status = 0;
out:
	if (saved_out >= 0)
		close(saved_out);
	if (saved_err >= 0)
		close(saved_err);
	return err;
}

int runner_start(struct runner_slot *slot, const struct test_def *def,
		 int num, const struct run_opts *opts)
{
	int err;

	memset(slot->st, 0, offsetof(struct shared_state, sub));
	slot->st->current = -1;
	slot->def = def;
	slot->num = num;
	slot->opts = opts;
	slot->pid = 0;
	slot->leak_snap = NULL;
	err = capture_reset(slot->log_fd);
	if (err)
		return err;
	if (opts->leaks && !opts->list_only) {
		slot->leak_snap = opts->leaks->snapshot();
		if (!slot->leak_snap)
			return -errno;
	}
	/* What the test's process sees through the test__*() API. */
	cur.st = slot->st;
	cur.log_fd = slot->log_fd;
	cur.def = def;
	cur.num = num;
	cur.opts = opts;
	slot->start_ns = now_ns();
	if (!opts->list_only)
		kmsg_test_start(def->name, NULL);
	err = opts->no_fork ? run_in_process(slot) : start_forked(slot);
	if (err && slot->leak_snap) {
		opts->leaks->release(slot->leak_snap);
		slot->leak_snap = NULL;
	}
	return err;
}

pid_t runner_pid(const struct runner_slot *slot)
{
	return slot->pid;
}

int runner_pidfd(const struct runner_slot *slot)
{
	return slot->pidfd;
}

long long runner_started_ns(const struct runner_slot *slot)
{
	return slot->start_ns;
}

void runner_kill(struct runner_slot *slot)
{
	if (slot->pid > 0) {
		kill(-slot->pid, SIGKILL);
		kill(slot->pid, SIGKILL);
	}
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

static int collect_subtests(const struct runner_slot *slot,
			    struct test_result *res, const char *all)
{
	struct shared_state *st = slot->st;
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
			r->cut_short = true;
			end = len;
			s->log_end = len;
			s->end_ns = now_ns();
			if (!slot->opts->list_only)
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

static void decide_outcome(const struct runner_slot *slot,
			   struct test_result *res)
{
	struct shared_state *st = slot->st;

	res->skipped_itself = st->skipped;
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

static int wait_for(struct runner_slot *slot, int *status)
{
	if (slot->opts->no_fork) {
		*status = slot->status;
		return 0;
	}
	while (waitpid(slot->pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	slot->pid = 0;
	if (slot->pidfd >= 0)
		close(slot->pidfd);
	slot->pidfd = -1;
	return 0;
}

/* A watchdog kill: the running subtest, if any, is what timed out. */
static void mark_timeout(struct test_result *res, int timeout_s)
{
	char *msg = NULL;

	res->outcome = OUTCOME_TIMEOUT;
	if (asprintf(&msg, "timed out after %d s (watchdog -w %d)", timeout_s,
		     timeout_s) < 0)
		msg = NULL;
	free(res->crash);
	res->crash = msg;
	for (int i = 0; i < res->n_subtests; i++) {
		struct subtest_result *s = &res->subtests[i];

		if (s->outcome == OUTCOME_FAIL && s->cut_short) {
			s->outcome = OUTCOME_TIMEOUT;
			res->subtests_failed--;
		}
	}
}

static int collect(struct runner_slot *slot, int status,
		   struct test_result *res)
{
	char *all = capture_read(slot->log_fd, 0, -1);
	int err;

	if (!all)
		return -ENOMEM;
	res->duration_ns = now_ns() - slot->start_ns;
	res->crash = describe_status(status);
	err = collect_subtests(slot, res, all);
	if (!err) {
		res->log = test_level_log(slot->st, all);
		if (!res->log)
			err = -ENOMEM;
	}
	free(all);
	return err;
}

int runner_finish(struct runner_slot *slot, int timeout_s,
		  struct test_result *res)
{
	const struct run_opts *opts = slot->opts;
	int status = 0, err;

	memset(res, 0, sizeof(*res));
	res->name = slot->def->name;
	res->number = slot->num;
	err = wait_for(slot, &status);
	if (!err && slot->leak_snap)
		res->leaks = leak_report(opts->leaks, slot->leak_snap);
	if (slot->leak_snap) {
		opts->leaks->release(slot->leak_snap);
		slot->leak_snap = NULL;
	}
	if (!err)
		err = collect(slot, status, res);
	if (err)
		return err;
	decide_outcome(slot, res);
	if (timeout_s > 0)
		mark_timeout(res, timeout_s);
	return 0;
}

int runner_run(struct runner_slot *slot, const struct test_def *def, int num,
	       const struct run_opts *opts, struct test_result *res)
{
	int err = runner_start(slot, def, num, opts);

	if (err) {
		memset(res, 0, sizeof(*res));
		return err;
	}
	return runner_finish(slot, 0, res);
}
