// SPDX-License-Identifier: GPL-2.0
/*
 * Count this process's getpgid() calls with a syscall tracepoint, raw_tp,
 * tp_btf, fentry and kprobe program: each count must be exact.  Exact
 * means two things are left out: the getpgid() calls of another process
 * running at the same time (a "noise" child calling it non-stop, which
 * the programs count apart to prove it was really there), and this
 * process's other syscalls, made between its getpgid() calls.
 *
 * Exact, unless the kernel says it skipped runs of the program: fentry,
 * and in 7.2 the tracepoint programs too, run with only migration
 * disabled.  When the kernel preempts there (Debian's 7.2 is PREEMPT_LAZY)
 * while the noise process is inside the program, our runs on that CPU are
 * skipped and counted in the program's recursion_misses (skipped_runs.h).
 * So our calls not counted must be no more than the runs skipped while we
 * made them, and none may be counted that we did not make.
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "child.h"
#include "probe.h"
#include "skipped_runs.h"
#include "test_progs.h"
#include "trigger.h"
#include "syscall_count_common.h"
#include "test_syscall_count.skel.h"

#define CALLS		500
#define BATCHES		5
#define NOISE_WAIT_MS	2000	/* keep in step with the message below */

struct variant {
	const char *name;
	enum bpf_feature feat;
	enum sc_variant idx;
};

static const struct variant variants[SC__COUNT] = {
	{ "tracepoint", FEAT_TRACEPOINT, SC_TRACEPOINT },
	{ "raw_tp", FEAT_RAW_TP, SC_RAW_TP },
	{ "tp_btf", FEAT_TP_BTF, SC_TP_BTF },
	{ "fentry", FEAT_FENTRY, SC_FENTRY },
	{ "kprobe", FEAT_KPROBE, SC_KPROBE },
};

/* BPF programs write these from other CPUs: read them afresh each time. */
#define READ_COUNTER(x) (*(volatile __u64 *)&(x))

static struct bpf_program *variant_prog(struct test_syscall_count *skel,
					enum sc_variant v)
{
	switch (v) {
	case SC_TRACEPOINT: return skel->progs.sc_tracepoint;
	case SC_RAW_TP: return skel->progs.sc_raw_tp;
	case SC_TP_BTF: return skel->progs.sc_tp_btf;
	case SC_FENTRY: return skel->progs.sc_fentry;
	case SC_KPROBE: return skel->progs.sc_kprobe;
	case SC__COUNT:
		break;
	}
	return NULL;
}

static int noise_loop(void *arg)
{
	(void)arg;
	for (;;)
		syscall(SYS_getpgid, 0);
	return 0;
}

/* Syscalls next to getpgid that must not be counted. */
static void other_syscalls(int n)
{
	for (int i = 0; i < n; i++) {
		syscall(SYS_getpid);
		syscall(SYS_getppid);
		syscall(SYS_getsid, 0);
#ifdef SYS_getpgrp
		/* Same kernel work as getpgid(0), different syscall. */
		syscall(SYS_getpgrp);
#endif
	}
}

/*
 * Wait until every attached program has counted new noise calls since
 * seen[], then update seen[].  Between our batches, this makes the noise
 * process's getpgid() calls interleave with ours even on one CPU.
 */
static bool wait_for_noise(struct test_syscall_count *skel,
			   const enum sc_variant *vs, int n, __u64 *seen)
{
	long long deadline = now_ms() + NOISE_WAIT_MS;
	int i = 0;

	while (i < n) {
		__u64 cur = READ_COUNTER(skel->bss->noise_hits[vs[i]]);

		if (cur > seen[i]) {
			seen[i] = cur;
			i++;
			continue;
		}
		if (now_ms() > deadline) {
			ASSERT_GT(cur, seen[i], "new noise calls within 2 s");
			return false;
		}
		usleep(200);
	}
	return true;
}

/* recursion_misses of each program of vs[] into misses[]. */
static bool read_misses(struct test_syscall_count *skel,
			const enum sc_variant *vs, int n, __u64 *misses)
{
	for (int i = 0; i < n; i++)
		if (!prog_recursion_misses(variant_prog(skel, vs[i]),
					   &misses[i]))
			return false;
	return true;
}

/*
 * getpgid() `calls` times; adds to skipped[] the runs of each program of
 * vs[] the kernel skipped meanwhile, which any skip of these calls is.
 */
static bool calls_and_skips(struct test_syscall_count *skel,
			    const enum sc_variant *vs, int n, int calls,
			    __u64 *skipped)
{
	__u64 before[SC__COUNT], after[SC__COUNT];

	if (!read_misses(skel, vs, n, before))
		return false;
	trigger_getpgid(calls);
	if (!read_misses(skel, vs, n, after))
		return false;
	for (int i = 0; i < n; i++)
		skipped[i] += after[i] - before[i];
	return true;
}

static bool attach_all(struct test_syscall_count *skel,
		       const enum sc_variant *vs, int n,
		       struct bpf_link **links)
{
	for (int i = 0; i < n; i++) {
		links[i] = bpf_program__attach(variant_prog(skel, vs[i]));
		if (!ASSERT_OK_PTR(links[i], variants[vs[i]].name)) {
			links[i] = NULL;
			return false;
		}
	}
	return true;
}

/*
 * Each program's count of our calls against CALLS and the runs the kernel
 * skipped.  If the kernel skipped the runs for all our calls, in every
 * program, the counts show nothing: that is a skip, not a pass.
 */
static void check_counts(struct test_syscall_count *skel,
			 const enum sc_variant *vs, int n, const __u64 *seen,
			 const __u64 *skipped)
{
	bool ok = true, counted_any = false;

	for (int i = 0; i < n; i++) {
		__u64 hits = skel->bss->hits[vs[i]];

		printf("%s: counted %llu of our calls; noise process made %llu\n",
		       variants[vs[i]].name,
		       (unsigned long long)hits, (unsigned long long)seen[i]);
		ok &= check_count_with_skips(variants[vs[i]].name, hits, CALLS,
					     skipped[i]);
		counted_any |= hits > 0;
	}
	if (ok && !counted_any)
		test__skip_reason(
			"the kernel skipped the runs for all our calls (recursion_misses): no count to check");
}

/*
 * With the programs of vs[] attached and a noise process calling getpgid()
 * non-stop, call getpgid() CALLS times among other syscalls: each program
 * must count exactly CALLS, less no more than the runs the kernel skipped,
 * and must have seen the noise process's calls.
 */
static void count_with_noise(struct test_syscall_count *skel,
			     const enum sc_variant *vs, int n)
{
	struct bpf_link *links[SC__COUNT] = {};
	__u64 seen[SC__COUNT] = {}, skipped[SC__COUNT] = {};
	pid_t noise;
	int i;

	memset(skel->bss->hits, 0, sizeof(skel->bss->hits));
	memset(skel->bss->noise_hits, 0, sizeof(skel->bss->noise_hits));
	noise = child_start(noise_loop, NULL);
	if (!ASSERT_GT(noise, 0, "start noise process"))
		return;
	skel->bss->noise_pid = noise;
	if (!attach_all(skel, vs, n, links))
		goto out;

	for (i = 0; i < BATCHES; i++) {
		if (!wait_for_noise(skel, vs, n, seen) ||
		    !calls_and_skips(skel, vs, n, CALLS / BATCHES, skipped))
			goto out;
		other_syscalls(CALLS / BATCHES);
	}
	/* Noise went on after our last call too: it spanned all of them. */
	if (!wait_for_noise(skel, vs, n, seen))
		goto out;

	check_counts(skel, vs, n, seen, skipped);
out:
	for (i = 0; i < n; i++)
		bpf_link__destroy(links[i]);
	child_stop(&noise);
}

/* Every variant the kernel has, attached at once: all counts agree. */
static void subtest_all_agree(struct test_syscall_count *skel)
{
	enum sc_variant vs[SC__COUNT];
	int n = 0;

	for (int v = 0; v < SC__COUNT; v++) {
		const char *why = feature_missing(variants[v].feat);

		if (why)
			printf("%s left out: %s\n", variants[v].name, why);
		else
			vs[n++] = v;
	}
	if (n == 0) {
		test__skip_reason("no way to hook getpgid on this kernel");
		return;
	}
	count_with_noise(skel, vs, n);
}

void test_syscall_count(void)
{
	struct test_syscall_count *skel;
	int v;

	skel = test_syscall_count__open();
	if (!ASSERT_OK_PTR(skel, "test_syscall_count__open"))
		return;
	/* One missing program type must not keep the others from loading. */
	for (v = 0; v < SC__COUNT; v++)
		if (feature_missing(variants[v].feat))
			bpf_program__set_autoload(variant_prog(skel, v), false);
	skel->rodata->getpgid_nr = SYS_getpgid;
	if (!ASSERT_OK(test_syscall_count__load(skel), "load"))
		goto out;
	skel->bss->target_pid = getpid();

	for (v = 0; v < SC__COUNT; v++) {
		enum sc_variant one = v;

		if (!test__start_subtest(variants[v].name))
			continue;
		if (test__need(variants[v].feat))
			count_with_noise(skel, &one, 1);
	}
	if (test__start_subtest("all_agree"))
		subtest_all_agree(skel);
out:
	test_syscall_count__destroy(skel);
}
