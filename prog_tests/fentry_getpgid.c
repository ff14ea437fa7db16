// SPDX-License-Identifier: GPL-2.0
/*
 * fentry and fexit programs on the getpgid syscall see every call of this
 * process exactly once, and fexit sees the value the syscall returned.
 * Kernels without BPF trampolines SKIP with the probe's reason.
 */
#include <linux/types.h>

#include "probe.h"
#include "test_progs.h"
#include "trigger.h"
#include "test_fentry_getpgid.skel.h"

#define CALLS 50

void test_fentry_getpgid(void)
{
	struct test_fentry_getpgid *skel;
	long pgid;

	if (!test__need(FEAT_FENTRY))
		return;
	skel = test_fentry_getpgid__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_fentry_getpgid__open_and_load"))
		return;
	skel->bss->target_pid = getpid();
	if (!ASSERT_OK(test_fentry_getpgid__attach(skel), "attach"))
		goto out;

	trigger_getpgid(CALLS - 1);
	pgid = syscall(SYS_getpgid, 0);
	ASSERT_EQ(skel->bss->entries, CALLS, "fentry calls seen");
	ASSERT_EQ(skel->bss->exits, CALLS, "fexit calls seen");
	ASSERT_EQ(skel->bss->last_ret, pgid, "return value seen by fexit");
out:
	test_fentry_getpgid__destroy(skel);
}
