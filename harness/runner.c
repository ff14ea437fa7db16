// SPDX-License-Identifier: GPL-2.0
/*
 * Each test runs in a forked child so that a crash or a stray exit() is
 * reported as that test's failure and the run goes on.  The child records
 * subtest boundaries, outcomes, skip reasons and failures in a MAP_SHARED
 * region (test_state.c) the parent reads after waitpid() (collect.c); its
 * output goes to a memfd (capture.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
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
#include "collect.h"
#include "kmsg.h"
#include "runner.h"
#include "test_api.h"
#include "test_netns.h"
#include "test_state.h"

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

static void run_body(const struct runner_slot *slot)
{
	test_netns_enter(slot->def->name);
	slot->def->fn();
	test__end_subtest();
	test_netns_leave();
	test_env_leave();
	fflush(stdout);
	fflush(stderr);
}

static void child_main(const struct runner_slot *slot)
{
	test_env_enter();
	if (capture_redirect(slot->log_fd) < 0)
		_exit(127);
	install_crash_handler();
	run_body(slot);
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
		/* From the test's own process: a splat names its pid. */
		if (!slot->opts->list_only)
			kmsg_test_start(slot->def->name, NULL);
		child_main(slot);
	}
	setpgid(pid, pid);	/* also here, so there is no window */
	slot->pid = pid;
	slot->pidfd = syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

static int run_in_process(struct runner_slot *slot)
{
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO), err = 0;

	if (!slot->opts->list_only)
		kmsg_test_start(slot->def->name, NULL);
	test_env_enter();
	if (saved_out < 0 || saved_err < 0 || capture_redirect(slot->log_fd)) {
		err = -EBADF;
		test_env_leave();
		goto out;
	}
	run_body(slot);
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
	test_state_bind(&(struct test_state_binding) {
		.st = slot->st, .log_fd = slot->log_fd, .name = def->name,
		.num = num, .sel = opts->sel, .verbosity = opts->verbosity,
		.verifier_stats = opts->verifier_stats,
		.list_only = opts->list_only,
	});
	slot->start_ns = now_ns();
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

static int collect(struct runner_slot *slot, int status,
		   struct test_result *res)
{
	char *all = capture_read(slot->log_fd, 0, -1);
	int err;

	if (!all)
		return -ENOMEM;
	res->duration_ns = now_ns() - slot->start_ns;
	res->crash = describe_status(status);
	err = collect_parts(slot->st, slot->opts->list_only, all, res);
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
	collect_outcome(slot->st, res);
	if (timeout_s > 0)
		collect_timeout(res, timeout_s);
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
