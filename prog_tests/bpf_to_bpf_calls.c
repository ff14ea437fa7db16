// SPDX-License-Identifier: GPL-2.0
/*
 * BPF-to-BPF calls: the same logic as a __noinline subprogram and as
 * __always_inline code gives identical results, and the loaded programs'
 * info confirms the first has several functions and the second one.
 */
#include <arpa/inet.h>
#include <linux/types.h>

#include "test_progs.h"
#include "test_subprog.skel.h"

#define N_PACKETS 64
#define PKT_WORDS 8

static bool run(struct bpf_program *prog, const __u32 *pkt, __u32 *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = pkt,
		.data_size_in = PKT_WORDS * sizeof(__u32),
	);

	if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(prog), &topts),
		       bpf_program__name(prog)))
		return false;
	*retval = topts.retval;
	return true;
}

static void subtest_same_results(struct test_subprog *skel)
{
	__u32 pkt[PKT_WORDS], r_called, r_inlined;
	int seen = 0;

	for (int p = 0; p < N_PACKETS; p++) {
		for (int i = 0; i < PKT_WORDS; i++)
			pkt[i] = htonl(p * 7919u + i * 104729u + (p & i));
		if (!run(skel->progs.subprog_called, pkt, &r_called) ||
		    !run(skel->progs.subprog_inlined, pkt, &r_inlined))
			return;
		if (!ASSERT_EQ(r_called, r_inlined, "verdicts agree") ||
		    !ASSERT_EQ(skel->bss->result_called,
			       skel->bss->result_inlined, "results agree"))
			return;
		seen |= 1 << (r_called == XDP_PASS);
	}
	ASSERT_EQ(seen, 3, "both verdicts seen");
}

struct func_counts {
	__u32 func_info;	/* functions described by BTF */
	__u32 jited_funcs;	/* functions the JIT emitted */
};

static bool prog_func_counts(struct bpf_program *prog, struct func_counts *c)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info,
					      &len), "bpf_obj_get_info_by_fd"))
		return false;
	c->func_info = info.nr_func_info;
	c->jited_funcs = info.nr_jited_func_lens;
	printf("%s: %u functions in func_info, %u jited functions\n",
	       bpf_program__name(prog), c->func_info, c->jited_funcs);
	return true;
}

static void subtest_function_counts(struct test_subprog *skel)
{
	struct func_counts called, inlined;

	if (!prog_func_counts(skel->progs.subprog_called, &called) ||
	    !prog_func_counts(skel->progs.subprog_inlined, &inlined))
		return;
	ASSERT_EQ(called.func_info, 2, "noinline: main + subprogram");
	ASSERT_EQ(inlined.func_info, 1, "always_inline: one function");
	/* Without a JIT the kernel reports no jited functions at all. */
	if (called.jited_funcs || inlined.jited_funcs) {
		ASSERT_EQ(called.jited_funcs, 2, "noinline jited functions");
		ASSERT_EQ(inlined.jited_funcs, 1, "inline jited functions");
	}
}

void test_bpf_to_bpf_calls(void)
{
	struct test_subprog *skel = test_subprog__open_and_load();

	if (!ASSERT_OK_PTR(skel, "test_subprog__open_and_load"))
		return;
	if (test__start_subtest("same_results"))
		subtest_same_results(skel);
	if (test__start_subtest("function_counts"))
		subtest_function_counts(skel);
	test_subprog__destroy(skel);
}
