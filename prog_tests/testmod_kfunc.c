// SPDX-License-Identifier: GPL-2.0
/*
 * A kfunc of the kernel selftests' bpf_testmod (scripts/testmod-build.sh
 * builds it for a Debian kernel, vmtest --kmod loads it): a tc program
 * that calls bpf_testmod_test_mod_kfunc() loads, which needs the module's
 * BTF and its resolved kfunc set, and runs.  Without the module: SKIP.
 */
#include <unistd.h>

#include "test_progs.h"
#include "test_testmod_kfunc.skel.h"

#define TESTMOD_BTF "/sys/kernel/btf/bpf_testmod"

static void run_prog(struct test_testmod_kfunc *skel)
{
	unsigned char pkt[64] = {};

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.repeat = 1,
	);

	ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.call_mod_kfunc), &topts),
		  "test_run");
	ASSERT_EQ(skel->bss->calls, 1, "calls");
}

void test_testmod_kfunc(void)
{
	struct test_testmod_kfunc *skel;

	if (access(TESTMOD_BTF, F_OK)) {
		test__skip_reason("bpf_testmod not loaded (no %s): %s", TESTMOD_BTF,
				  "scripts/testmod-build.sh builds it, vmtest --kmod loads it");
		return;
	}
	skel = test_testmod_kfunc__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	run_prog(skel);
	test_testmod_kfunc__destroy(skel);
}
