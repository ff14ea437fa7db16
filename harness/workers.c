// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler.  Each slot runs one test process; the parent sleeps in
 * poll() on the running tests' pidfds until one ends or the earliest
 * watchdog deadline passes.  Results land in registry order whatever the
 * completion order, so a -j run reports the same results as a serial one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "clock.h"
#include "workers.h"

#define MAX_JOBS 256
/* Without a pidfd, look for ended tests this often. */
#define FALLBACK_POLL_MS 20

struct job {
	struct runner_slot *slot;
	int index;		/* into idx[] and results[], -1 when idle */
};

struct pool {
	const struct test_def *tests;
	const int *idx;
	struct test_result *results;
	const struct workers_cfg *cfg;
	struct job jobs[MAX_JOBS];
	int n_jobs;
	int running;
};

/* Pids for workers_kill_all(); written only outside signal handlers. */
static volatile pid_t running_pids[MAX_JOBS];

void workers_kill_all(void)
{
	for (int i = 0; i < MAX_JOBS; i++) {
		pid_t pid = running_pids[i];

		if (pid > 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
}

static int start_job(struct pool *p, struct job *j, int index)
{
	const struct test_def *def = &p->tests[p->idx[index]];
	int err = runner_start(j->slot, def, p->idx[index] + 1, p->cfg->ro);

	if (err)
		return err;
	j->index = index;
	running_pids[j - p->jobs] = runner_pid(j->slot);
	p->running++;
	if (p->cfg->debug)
		fprintf(stderr, "test_progs: [worker %d] #%d %s: started, pid %d\n",
			(int)(j - p->jobs), p->idx[index] + 1, def->name,
			(int)runner_pid(j->slot));
	return 0;
}

static int finish_job(struct pool *p, struct job *j, int timeout_s)
{
	struct test_result *res = &p->results[j->index];
	int err = runner_finish(j->slot, timeout_s, res);

	running_pids[j - p->jobs] = 0;
	if (p->cfg->debug)
		fprintf(stderr, "test_progs: [worker %d] #%d %s: %s\n",
			(int)(j - p->jobs), p->idx[j->index] + 1,
			p->tests[p->idx[j->index]].name,
			err ? strerror(-err) : outcome_name(res->outcome));
	j->index = -1;
	p->running--;
	if (!err && p->cfg->done)
		p->cfg->done(p->cfg->ctx, res);
	return err;
}

static bool has_exited(struct job *j)
{
	siginfo_t si = { 0 };

	/* WNOWAIT: leave the zombie for runner_finish() to reap. */
	if (waitid(P_PID, runner_pid(j->slot), &si,
		   WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid != 0;
}

static bool overdue(const struct pool *p, const struct job *j, long long now)
{
	int t = p->cfg->timeout_s;

	return t > 0 && now - runner_started_ns(j->slot) / 1000000 >= t * 1000LL;
}

/* How long poll() may sleep: until the next deadline, or for ever. */
static int poll_timeout(const struct pool *p, bool have_all_pidfds)
{
	long long now = now_ms(), wait = -1;

	for (int i = 0; i < p->n_jobs; i++) {
		const struct job *j = &p->jobs[i];
		long long left;

		if (j->index < 0 || p->cfg->timeout_s <= 0)
			continue;
		left = runner_started_ns(j->slot) / 1000000 +
		       p->cfg->timeout_s * 1000LL - now;
		if (left < 0)
			left = 0;
		if (wait < 0 || left < wait)
			wait = left;
	}
	if (!have_all_pidfds && (wait < 0 || wait > FALLBACK_POLL_MS))
		wait = FALLBACK_POLL_MS;
	return (int)wait;
}

/* Sleep until at least one running test ended or overran; collect them. */
static int wait_some(struct pool *p)
{
	struct pollfd fds[MAX_JOBS];
	bool all_pidfds = true;
	int nfds = 0, err = 0;
	long long now;

	for (int i = 0; i < p->n_jobs; i++) {
		int fd;

		if (p->jobs[i].index < 0)
			continue;
		fd = runner_pidfd(p->jobs[i].slot);
		all_pidfds &= fd >= 0;
		if (fd >= 0)
			fds[nfds++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (poll(fds, nfds, poll_timeout(p, all_pidfds)) < 0 && errno != EINTR)
		return -errno;
	now = now_ms();
	for (int i = 0; i < p->n_jobs && !err; i++) {
		struct job *j = &p->jobs[i];

		if (j->index < 0)
			continue;
		if (has_exited(j)) {
			err = finish_job(p, j, 0);
		} else if (overdue(p, j, now)) {
			runner_kill(j->slot);
			err = finish_job(p, j, p->cfg->timeout_s);
		}
	}
	return err;
}

static struct job *idle_job(struct pool *p)
{
	for (int i = 0; i < p->n_jobs; i++)
		if (p->jobs[i].index < 0)
			return &p->jobs[i];
	return NULL;
}

/* Run the tests in order[] (indexes into idx[]) with at most jobs at once. */
static int run_list(struct pool *p, const int *order, int n, int jobs)
{
	int next = 0, err = 0;

	while (!err && (next < n || p->running)) {
		struct job *j;

		while (!err && next < n && p->running < jobs &&
		       (j = idle_job(p)))
			err = start_job(p, j, order[next++]);
		if (!err && p->running)
			err = wait_some(p);
	}
	return err;
}

/* --no-fork: each test runs to completion inside runner_start(). */
static int run_in_order(struct pool *p, const int *order, int n)
{
	int err = 0;

	for (int i = 0; i < n && !err; i++) {
		err = start_job(p, &p->jobs[0], order[i]);
		if (!err)
			err = finish_job(p, &p->jobs[0], 0);
	}
	return err;
}

static void kill_running(struct pool *p)
{
	for (int i = 0; i < p->n_jobs; i++) {
		struct job *j = &p->jobs[i];
		struct test_result res;

		if (j->index < 0)
			continue;
		runner_kill(j->slot);
		if (!runner_finish(j->slot, 0, &res))
			test_result_free(&res);
		running_pids[i] = 0;
		j->index = -1;
	}
}

/*
 * With -j: parallel-safe tests first, in registry order, then the serial
 * ones.  One at a time, plain registry order (as the kernel's runner).
 */
static int split_order(const struct pool *p, int n, int *order, int *n_par)
{
	int k = 0;

	if (p->cfg->jobs == 1) {
		for (int i = 0; i < n; i++)
			order[i] = i;
		*n_par = n;
		return n;
	}

	for (int i = 0; i < n; i++)
		if (!p->tests[p->idx[i]].serial)
			order[k++] = i;
	*n_par = k;
	for (int i = 0; i < n; i++)
		if (p->tests[p->idx[i]].serial)
			order[k++] = i;
	return k;
}

int workers_run(const struct test_def *tests, const int *idx, int n,
		struct test_result *results, const struct workers_cfg *cfg)
{
	struct pool p = {
		.tests = tests, .idx = idx, .results = results, .cfg = cfg,
	};
	int *order = calloc(n ? n : 1, sizeof(int));
	int n_par, err = 0;

	if (!order)
		return -ENOMEM;
	p.n_jobs = cfg->jobs < n ? cfg->jobs : n;
	if (p.n_jobs > MAX_JOBS)
		p.n_jobs = MAX_JOBS;
	for (int i = 0; i < p.n_jobs && !err; i++) {
		p.jobs[i].index = -1;
		p.jobs[i].slot = runner_slot_new();
		if (!p.jobs[i].slot)
			err = -ENOMEM;
	}
	split_order(&p, n, order, &n_par);
	if (cfg->debug)
		fprintf(stderr,
			"test_progs: -j %d: %d workers for %d tests, then %d serial tests one at a time\n",
			cfg->jobs, p.n_jobs, n_par, n - n_par);
	if (!err && cfg->ro->no_fork)
		err = run_in_order(&p, order, n);
	else if (!err)
		err = run_list(&p, order, n_par, p.n_jobs);
	if (!err && !cfg->ro->no_fork)
		err = run_list(&p, order + n_par, n - n_par, 1);
	if (err)
		kill_running(&p);
	for (int i = 0; i < p.n_jobs; i++)
		runner_slot_free(p.jobs[i].slot);
	free(order);
	return err;
}
