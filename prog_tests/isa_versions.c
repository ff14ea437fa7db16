// SPDX-License-Identifier: GPL-2.0
/*
 * The same program built for each BPF ISA version (-mcpu=v1, v2, v3 and
 * v4 when clang has it) gives identical results on the same packets.
 * Each variant's translated instruction count is reported; v1 has neither
 * ALU32 nor JMP32 nor the extra conditional jumps, so it must not come out
 * smaller than v3.  The v4 build runs v4-only instructions (byte swaps,
 * sign-extending moves, ...) that the v3 build does not have; on kernels
 * before 6.6, which reject them, v4 is skipped with that reason.
 */
#include <linux/types.h>
#include <arpa/inet.h>
#include <stdlib.h>

#include "build_info.h"
#include "isa.h"
#include "probe.h"
#include "test_progs.h"
#include "test_isa_v1.skel.h"
#include "test_isa_v2.skel.h"
#include "test_isa_v3.skel.h"
#if __has_include("test_isa_v4.skel.h")
#include "test_isa_v4.skel.h"
#define HAVE_ISA_V4 1
#endif

#define N_PACKETS 64
#define PKT_WORDS 16

struct isa_variant {
	const char *name;
	struct bpf_object *obj;
	int prog_fd;
	__u64 *result;
	void (*destroy)(void *skel);
	void *skel;
	__u32 xlated_insns;
};

#define LOAD_VARIANT(v, skel_name)					\
	do {								\
		struct skel_name *s = skel_name##__open_and_load();	\
		if (!ASSERT_OK_PTR(s, #skel_name "__open_and_load"))	\
			break;						\
		(v)->name = #skel_name;					\
		(v)->skel = s;						\
		(v)->obj = s->obj;					\
		(v)->prog_fd = bpf_program__fd(s->progs.isa_mix);	\
		(v)->result = &s->bss->result;				\
		(v)->destroy = (void (*)(void *))skel_name##__destroy;	\
	} while (0)

static __u32 xlated_insn_count(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(prog_fd, &info, &len),
		       "bpf_obj_get_info_by_fd"))
		return 0;
	return info.xlated_prog_len / sizeof(struct bpf_insn);
}

#ifdef HAVE_ISA_V4
/* v4-only instructions in the program as the kernel runs it, or -1. */
static int xlated_v4_insns(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), n = xlated_insn_count(prog_fd);
	struct bpf_insn *insns = calloc(n ? n : 1, sizeof(*insns));
	int count = -1;

	if (!ASSERT_OK_PTR(insns, "alloc") || !ASSERT_GT(n, 0, "xlated length"))
		goto out;
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	info.xlated_prog_len = n * sizeof(*insns);
	if (!ASSERT_OK(bpf_obj_get_info_by_fd(prog_fd, &info, &len),
		       "bpf_obj_get_info_by_fd (xlated)"))
		goto out;
	count = isa_v4_insn_count(insns, info.xlated_prog_len / sizeof(*insns));
out:
	free(insns);
	return count;
}
#endif

/* Deterministic packets covering small, large and negative words. */
static void make_packet(__u32 *words, int n)
{
	for (int i = 0; i < PKT_WORDS; i++) {
		__u32 x = (n * 2654435761u) ^ (i * 40503u);

		switch ((n + i) % 4) {
		case 0:
			x %= 5000;
			break;
		case 1:
			x |= 0x80000000u;
			break;
		case 2:
			x = -(__s32)(x % 3000);
			break;
		default:
			break;
		}
		words[i] = htonl(x);
	}
}

static bool run_variant(struct isa_variant *v, const __u32 *pkt,
			__u32 *retval, __u64 *result)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = pkt,
		.data_size_in = PKT_WORDS * sizeof(__u32),
	);

	if (!ASSERT_OK(bpf_prog_test_run_opts(v->prog_fd, &topts), v->name))
		return false;
	*retval = topts.retval;
	*result = *v->result;
	return true;
}

static void compare_results(struct isa_variant *vars, int n_vars)
{
	__u32 pkt[PKT_WORDS], ret0, ret;
	__u64 res0, res;
	int distinct_verdicts = 0;

	for (int p = 0; p < N_PACKETS; p++) {
		make_packet(pkt, p);
		if (!run_variant(&vars[0], pkt, &ret0, &res0))
			return;
		distinct_verdicts |= 1 << (ret0 == XDP_PASS);
		for (int i = 1; i < n_vars; i++) {
			if (!run_variant(&vars[i], pkt, &ret, &res))
				return;
			if (!ASSERT_EQ(ret, ret0, vars[i].name) ||
			    !ASSERT_EQ(res, res0, vars[i].name)) {
				printf("packet %d differs between %s and %s\n",
				       p, vars[0].name, vars[i].name);
				return;
			}
		}
	}
	/* The inputs must exercise both outcomes, or agreement means little. */
	ASSERT_EQ(distinct_verdicts, 3, "both verdicts seen");
}

static void report_sizes(struct isa_variant *vars, int n_vars)
{
	for (int i = 0; i < n_vars; i++) {
		vars[i].xlated_insns = xlated_insn_count(vars[i].prog_fd);
		printf("%s: %u translated instructions\n", vars[i].name,
		       vars[i].xlated_insns);
	}
	/* vars[0] is v1 and vars[2] is v3. */
	ASSERT_GE(vars[0].xlated_insns, vars[2].xlated_insns,
		  "v1 not smaller than v3");
}

/* The v4 build runs v4-only instructions, the v3 build none. */
static void check_v4(struct isa_variant *vars, int n_vars)
{
#ifdef HAVE_ISA_V4
	int in_v3, in_v4;

	if (!test__need(FEAT_ISA_V4))
		return;
	/* vars[2] is v3, vars[3] v4. */
	if (!ASSERT_EQ(n_vars, 4, "v4 variant loaded"))
		return;
	in_v3 = xlated_v4_insns(vars[2].prog_fd);
	in_v4 = xlated_v4_insns(vars[3].prog_fd);
	printf("v4-only instructions: %d in %s, %d in %s\n", in_v4, vars[3].name,
	       in_v3, vars[2].name);
	ASSERT_EQ(in_v3, 0, "v4-only instructions in v3");
	ASSERT_GT(in_v4, 0, "v4-only instructions in v4");
#else
	(void)vars;
	(void)n_vars;
	test__skip_reason("the build's clang (" BUILD_CLANG " " BUILD_CLANG_VERSION
			  ") cannot compile -mcpu=v4 (needs clang 18 or newer)");
#endif
}

void test_isa_versions(void)
{
	struct isa_variant vars[4] = {};
	int n = 0;

	LOAD_VARIANT(&vars[n], test_isa_v1); n += !!vars[n].skel;
	LOAD_VARIANT(&vars[n], test_isa_v2); n += !!vars[n].skel;
	LOAD_VARIANT(&vars[n], test_isa_v3); n += !!vars[n].skel;
	if (n < 3)
		goto out;
#ifdef HAVE_ISA_V4
	/* A kernel before 6.6 rejects it: the v4 subtest says so. */
	if (!feature_missing(FEAT_ISA_V4)) {
		LOAD_VARIANT(&vars[n], test_isa_v4);
		n += !!vars[n].skel;
	}
#endif
	if (test__start_subtest("same_results"))
		compare_results(vars, n);
	if (test__start_subtest("insn_counts"))
		report_sizes(vars, n);
	if (test__start_subtest("v4"))
		check_v4(vars, n);
out:
	for (int i = 0; i < n; i++)
		vars[i].destroy(vars[i].skel);
}
