// SPDX-License-Identifier: GPL-2.0
/*
 * Task local storage vs a hash map keyed by pid: a tp_btf program records
 * per-task call counts both ways for several child processes; the two
 * agree with each other and with what each child did.  After a child
 * exits its task storage is gone, while the hash entry stays until
 * someone deletes it.
 */
#include <linux/types.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "probe.h"
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

static bool run_children(struct child *kids)
{
	char b;

	for (int i = 0; i < N_CHILDREN; i++)
		if (!ASSERT_EQ(write(kids[i].go[1], "g", 1), 1, "start child"))
			return false;
	for (int i = 0; i < N_CHILDREN; i++)
		if (!ASSERT_EQ(read(kids[i].done[0], &b, 1), 1, "child done"))
			return false;
	return true;
}

static void check_agree(struct test_task_storage *skel, struct child *kids)
{
	int task_fd = bpf_map__fd(skel->maps.by_task);
	int pid_fd = bpf_map__fd(skel->maps.by_pid);
	struct task_counts ts, hs;
	int self = getpid();

	for (int i = 0; i < N_CHILDREN; i++) {
		if (!ASSERT_OK(bpf_map_lookup_elem(task_fd, &kids[i].pidfd,
						   &ts), "task storage lookup") ||
		    !ASSERT_OK(bpf_map_lookup_elem(pid_fd, &kids[i].pid, &hs),
			       "hash lookup"))
			return;
		ASSERT_EQ(ts.calls, expected_calls(i), "task storage calls");
		ASSERT_EQ(hs.calls, ts.calls, "hash calls == storage calls");
		ASSERT_EQ(ts.last_arg, kids[i].pid, "task storage last arg");
		ASSERT_EQ(hs.last_arg, ts.last_arg, "hash last arg");
	}
	ASSERT_EQ(bpf_map_lookup_elem(pid_fd, &self, &hs), -ENOENT,
		  "the test process itself is not recorded");
	ASSERT_EQ(skel->bss->storage_failures, 0, "storage get failures");
}

static void check_gone_after_exit(struct test_task_storage *skel,
				  struct child *kids)
{
	int task_fd = bpf_map__fd(skel->maps.by_task);
	int pid_fd = bpf_map__fd(skel->maps.by_pid);
	struct task_counts v;
	pid_t pids[N_CHILDREN];

	for (int i = 0; i < N_CHILDREN; i++) {
		pids[i] = kids[i].pid;
		reap(&kids[i]);
	}
	for (int i = 0; i < N_CHILDREN; i++) {
		ASSERT_EQ(bpf_map_lookup_elem(task_fd, &kids[i].pidfd, &v),
			  -ENOENT, "task storage after exit");
		/* The pid-keyed copy is stale until deleted by hand. */
		if (ASSERT_OK(bpf_map_lookup_elem(pid_fd, &pids[i], &v),
			      "hash entry after exit"))
			ASSERT_EQ(v.calls, expected_calls(i), "stale calls");
	}
}

void test_task_local_storage(void)
{
	struct child kids[N_CHILDREN];
	struct test_task_storage *skel;
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
	if (!run_children(kids))
		goto out;

	if (test__start_subtest("storage_matches_hash"))
		check_agree(skel, kids);
	if (test__start_subtest("storage_gone_after_exit"))
		check_gone_after_exit(skel, kids);
out:
	for (int i = 0; i < N_CHILDREN; i++)
		release(&kids[i]);
	test_task_storage__destroy(skel);
}
