// SPDX-License-Identifier: GPL-2.0
/*
 * Task local storage vs a hash map keyed by pid: a tp_btf program records
 * per-task call counts both ways for several child processes; the two
 * agree with each other and with what each child did.  After a child
 * exits its task storage is gone, while the hash entry stays until
 * someone deletes it.
 *
 * "What each child did" allows for one thing the kernel may do: skip a
 * run of the program.  A tracing program does not run while it is
 * already running on the same CPU; the kernel counts each such skip in
 * the program's recursion_misses.  In Linux 7.2 tracepoint probes run
 * preemptible (the tracepoint holds SRCU or RCU tasks trace, not
 * preempt_disable, and __bpf_trace_run() only disables migration), and
 * Debian's 7.2 kernel is PREEMPT_LAZY: while a task is preempted inside
 * the program, every sys_enter of another task on that CPU is a skipped
 * run.  Under QEMU TCG that lost all the calls of one or two children
 * in the first run after each boot (recursion_misses 78), with 6.1 and
 * 6.12 (PREEMPT_VOLUNTARY) it never happened.  So the children run one
 * after another, no child can cost another its runs, and the calls
 * missing from the maps must be covered by the skips the kernel
 * reports; with none reported, the counts are exact.
 */
#include <linux/types.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "probe.h"
#include "skipped_runs.h"
#include "test_progs.h"
#include "test_task_storage.skel.h"

#define N_CHILDREN 4

struct task_counts {
	__u64 calls;
	__u64 last_arg;
};

struct child {
	pid_t pid;
	int pidfd;
	int go[2];		/* parent -> child: start, then exit */
	int done[2];		/* child -> parent: calls made */
};

static int expected_calls(int i)
{
	return 10 * (i + 1) + 3;
}

static void child_main(struct child *c, int calls)
{
	char b;

	close(c->go[1]);
	close(c->done[0]);
	if (read(c->go[0], &b, 1) != 1)
		_exit(1);
	for (int i = 0; i < calls; i++)
		syscall(SYS_getpgid, getpid());
	if (write(c->done[1], "d", 1) != 1)
		_exit(1);
	/* Stay alive until told to exit, so the storage can be read. */
	if (read(c->go[0], &b, 1) != 1)
		_exit(1);
	_exit(0);
}

static bool spawn(struct child *c, int calls)
{
	if (pipe(c->go) || pipe(c->done))
		return false;
	c->pid = fork();
	if (c->pid < 0)
		return false;
	if (c->pid == 0)
		child_main(c, calls);
	close(c->go[0]);
	close(c->done[1]);
	c->go[0] = c->done[1] = -1;
	c->pidfd = syscall(SYS_pidfd_open, c->pid, 0);
	return ASSERT_OK_FD(c->pidfd, "pidfd_open");
}

static void reap(struct child *c)
{
	if (c->pid > 0) {
		/*
		 * A byte, not EOF, says "exit": siblings forked later hold
		 * copies of this pipe's write end.
		 */
		if (write(c->go[1], "x", 1) != 1)
			kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
}

static void release(struct child *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		reap(c);
	}
	for (int i = 0; i < 2; i++) {
		if (c->go[i] >= 0)
			close(c->go[i]);
		if (c->done[i] >= 0)
			close(c->done[i]);
	}
	if (c->pidfd >= 0)
		close(c->pidfd);
}

/* One child at a time, each to the end of its calls. */
static bool run_children(struct child *kids)
{
	char b;

	for (int i = 0; i < N_CHILDREN; i++)
		if (!ASSERT_EQ(write(kids[i].go[1], "g", 1), 1, "start child") ||
		    !ASSERT_EQ(read(kids[i].done[0], &b, 1), 1, "child done"))
			return false;
	return true;
}

/*
 * The calls of child i that the maps have (0: none, both entries absent),
 * after checking that its storage and its hash entry say the same.
 * Returns -1 when they do not.
 */
static int recorded_calls(struct test_task_storage *skel, struct child *c,
			  int i)
{
	int task_fd = bpf_map__fd(skel->maps.by_task);
	int pid_fd = bpf_map__fd(skel->maps.by_pid);
	struct task_counts ts, hs;
	int err_ts, err_hs;

	err_ts = bpf_map_lookup_elem(task_fd, &c->pidfd, &ts);
	err_hs = bpf_map_lookup_elem(pid_fd, &c->pid, &hs);
	if (err_ts == -ENOENT && err_hs == -ENOENT)
		return 0;
	if (!ASSERT_OK(err_ts, "task storage lookup") ||
	    !ASSERT_OK(err_hs, "hash lookup"))
		return -1;
	if (!ASSERT_EQ(hs.calls, ts.calls, "hash calls == storage calls") ||
	    !ASSERT_EQ(ts.last_arg, c->pid, "task storage last arg") ||
	    !ASSERT_EQ(hs.last_arg, ts.last_arg, "hash last arg") ||
	    !ASSERT_LE(ts.calls, expected_calls(i),
		       "storage calls <= calls the child made"))
		return -1;
	return ts.calls;
}

static void check_agree(struct test_task_storage *skel, struct child *kids,
			__u64 misses)
{
	int pid_fd = bpf_map__fd(skel->maps.by_pid);
	struct task_counts hs;
	__u64 recorded = 0, made = 0;
	int self = getpid();

	ASSERT_EQ(skel->bss->storage_failures, 0, "storage get failures");
	for (int i = 0; i < N_CHILDREN; i++) {
		int calls = recorded_calls(skel, &kids[i], i);

		if (calls < 0)
			return;
		recorded += calls;
		made += expected_calls(i);
	}
	check_count_with_skips("children's calls", recorded, made, misses);
	ASSERT_EQ(bpf_map_lookup_elem(pid_fd, &self, &hs), -ENOENT,
		  "the test process itself is not recorded");
}

static void check_gone_after_exit(struct test_task_storage *skel,
				  struct child *kids)
{
	int task_fd = bpf_map__fd(skel->maps.by_task);
	int pid_fd = bpf_map__fd(skel->maps.by_pid);
	int calls[N_CHILDREN], with_storage = 0;
	pid_t pids[N_CHILDREN];
	struct task_counts v;

	for (int i = 0; i < N_CHILDREN; i++) {
		calls[i] = recorded_calls(skel, &kids[i], i);
		if (calls[i] < 0)
			return;
		with_storage += calls[i] > 0;
	}
	if (!with_storage) {
		test__skip_reason(
			"the kernel skipped every run of the program for the children's calls: no storage to see go");
		return;
	}
	for (int i = 0; i < N_CHILDREN; i++) {
		pids[i] = kids[i].pid;
		reap(&kids[i]);
	}
	for (int i = 0; i < N_CHILDREN; i++) {
		ASSERT_EQ(bpf_map_lookup_elem(task_fd, &kids[i].pidfd, &v),
			  -ENOENT, "task storage after exit");
		if (!calls[i])
			continue;
		/* The pid-keyed copy is stale until deleted by hand. */
		if (ASSERT_OK(bpf_map_lookup_elem(pid_fd, &pids[i], &v),
			      "hash entry after exit"))
			ASSERT_EQ(v.calls, calls[i], "stale calls");
	}
}

void test_task_local_storage(void)
{
	struct child kids[N_CHILDREN];
	struct test_task_storage *skel;
	__u64 misses0, misses;
	int n = 0;

	if (!test__need(FEAT_TASK_STORAGE) || !test__need(FEAT_TP_BTF))
		return;
	memset(kids, 0xff, sizeof(kids));	/* all fds -1 */
	skel = test_task_storage__open();
	if (!ASSERT_OK_PTR(skel, "test_task_storage__open"))
		return;
	skel->rodata->getpgid_nr = SYS_getpgid;
	if (!ASSERT_OK(test_task_storage__load(skel), "load"))
		goto out;
	skel->bss->parent_pid = getpid();
	if (!ASSERT_OK(test_task_storage__attach(skel), "attach"))
		goto out;
	for (; n < N_CHILDREN; n++)
		if (!spawn(&kids[n], expected_calls(n)))
			goto out;
	if (!prog_recursion_misses(skel->progs.count_getpgid, &misses0) ||
	    !run_children(kids) ||
	    !prog_recursion_misses(skel->progs.count_getpgid, &misses))
		goto out;

	if (test__start_subtest("storage_matches_hash"))
		check_agree(skel, kids, misses - misses0);
	if (test__start_subtest("storage_gone_after_exit"))
		check_gone_after_exit(skel, kids);
out:
	for (int i = 0; i < N_CHILDREN; i++)
		release(&kids[i]);
	test_task_storage__destroy(skel);
}
