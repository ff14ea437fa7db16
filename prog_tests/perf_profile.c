// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler: a perf_event program on the software cpu-clock
 * event, opened for one busy child process at a set frequency, sends
 * (pid, tid, time, user stack) samples to a ring buffer.  The samples
 * must all come from the child, be as many as the frequency gives for
 * the time the child executed and at most for its CPU time, be in time
 * order, and carry user stacks that point into the child's code, mostly
 * into its spin loop.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "child.h"
#include "probe.h"
#include "proc_maps.h"
#include "test_progs.h"
#include "profile_common.h"
#include "test_perf_profile.skel.h"

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define SAMPLE_FREQ	1000	/* Hz; less if the kernel allows less */
#define SPIN_MS		300	/* CPU time the child burns */
#define SPIN_INNER	10000	/* loop turns per chunk, between clock reads */
#define DEADLINE_MS	5000	/* wall time allowed for the spin */
#define MAX_SAMPLES	8192
#define MAX_RANGES	512
#define SPIN_SIZE_GUESS	4096	/* bytes, if the symbol's size is unknown */
/* Slack on both sample count bounds (see check_count()). */
#define COUNT_TOLERANCE_PCT	10
#define COUNT_TOLERANCE_ABS	2

/*
 * How the spin went, from the child: it runs its loop in chunks of
 * SPIN_INNER turns, and times each on CLOCK_MONOTONIC.
 */
struct spin_report {
	long long chunks;
	long long fastest_ns;	/* the fastest chunk */
};

struct profile_run {
	pid_t child;
	int freq;
	/* The child is a fork of this process: same code, same addresses. */
	unsigned long spin_start, spin_end;
	struct addr_range exec[MAX_RANGES];
	int n_exec;
	long long t_attach, t_detach;	/* CLOCK_MONOTONIC, ns */
	long long child_cpu_ns;
	struct spin_report spin;
	int freq_after;		/* the sample rate limit after the run */
	int received;
	int bad_size;
	struct profile_sample s[MAX_SAMPLES];
};

struct child_pipes {
	int go[2];	/* parent -> child: start spinning */
	int done[2];	/* child -> parent: finished spinning */
};

/*
 * The profiled workload: burn cpu_ns of this thread's CPU time, almost
 * all of it in this function's own loop, and report the loop's chunks.
 * Not static: test_progs is linked with -rdynamic, so the symbol and its
 * size are in the dynamic symbol table for dladdr1().
 */
__attribute__((noinline)) void perf_profile_spin(long long cpu_ns,
						 struct spin_report *r)
{
	long long end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + cpu_ns;
	long long t = now_ns(), prev;
	volatile unsigned long sink = 0;

	r->chunks = 0;
	r->fastest_ns = LLONG_MAX;
	do {
		for (int i = 0; i < SPIN_INNER; i++)
			sink += i;
		prev = t;
		t = now_ns();
		r->chunks++;
		if (t - prev < r->fastest_ns)
			r->fastest_ns = t - prev;
	} while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end);
}

static int profiled_child(void *arg)
{
	/* Called through a pointer: no specialised copy at another address. */
	void (*volatile spin)(long long, struct spin_report *) =
		perf_profile_spin;
	struct child_pipes *p = arg;
	struct spin_report r;
	char c;

	close(p->go[1]);
	close(p->done[0]);
	if (read(p->go[0], &c, 1) != 1)
		return 1;
	spin(SPIN_MS * NSEC_PER_MSEC, &r);
	if (write(p->done[1], &r, sizeof(r)) != sizeof(r))
		return 1;
	/* Sleep until killed, so no sample can catch the exit (no mm). */
	for (;;)
		pause();
	return 0;
}

/* The size of the symbol dladdr1() found (an ElfW(Sym) of this ABI). */
static unsigned long sym_size(const void *sym)
{
	return ((const ElfW(Sym) *)sym)->st_size;
}

static void find_spin_range(struct profile_run *run)
{
	void *addr = (void *)perf_profile_spin;
	void *sym = NULL;
	Dl_info info;

	run->spin_start = (unsigned long)addr;
	if (dladdr1(addr, &info, &sym, RTLD_DL_SYMENT) && sym && sym_size(sym) &&
	    info.dli_saddr == addr) {
		run->spin_end = run->spin_start + sym_size(sym);
		return;
	}
	printf("perf_profile_spin: size unknown, assuming %d bytes\n",
	       SPIN_SIZE_GUESS);
	run->spin_end = run->spin_start + SPIN_SIZE_GUESS;
}

/* SAMPLE_FREQ, or less when kernel.perf_event_max_sample_rate says so. */
static int sample_freq(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	int max = 0;

	if (f) {
		if (fscanf(f, "%d", &max) != 1)
			max = 0;
		fclose(f);
	}
	return max > 0 && max < SAMPLE_FREQ ? max : SAMPLE_FREQ;
}

/*
 * cpu-clock for one task on whatever CPU it runs (cpu == -1).  In
 * frequency mode the kernel turns this event's frequency into a fixed
 * period of NSEC_PER_SEC / freq.  Disabled until the program is attached.
 */
static int open_cpu_clock(pid_t pid, int freq)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = freq,
		.disabled = 1,
	};

	return syscall(__NR_perf_event_open, &attr, pid, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* CPU time pid has used so far, in ns, or -1. */
static long long process_cpu_ns(pid_t pid)
{
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk))
		return -1;
	return clock_ns(clk);
}

static int on_sample(void *ctx, void *data, size_t size)
{
	struct profile_run *run = ctx;

	if (size != sizeof(struct profile_sample)) {
		run->bad_size++;
		return 0;
	}
	if (run->received < MAX_SAMPLES)
		memcpy(&run->s[run->received], data, size);
	run->received++;
	return 0;
}

/* Drain samples while the child spins, until it reports how it went. */
static bool collect(struct ring_buffer *rb, int done_fd,
		    struct spin_report *r)
{
	struct pollfd pfd = { .fd = done_fd, .events = POLLIN };
	long long start = now_ns();
	int ret;

	for (;;) {
		ret = poll(&pfd, 1, 10);
		if (ret < 0 && errno != EINTR)
			return ASSERT_OK(ret, "poll");
		if (ret > 0)
			return ASSERT_EQ(read(done_fd, r, sizeof(*r)),
					 sizeof(*r), "child's spin report");
		if (!ASSERT_GE(ring_buffer__consume(rb), 0, "consume"))
			return false;
		if (!ASSERT_LE((now_ns() - start) / NSEC_PER_MSEC, DEADLINE_MS,
			       "spin wall time (ms)"))
			return false;
	}
}

/* The per-sample properties; reports the first sample that breaks one. */
static bool check_sample(const struct profile_run *run, int i)
{
	const struct profile_sample *s = &run->s[i];
	long long prev = i ? (long long)run->s[i - 1].ktime_ns : run->t_attach;
	bool ok;

	/*
	 * Strictly increasing over all samples, not just per CPU: the event
	 * follows one single-threaded task, and fires only on the CPU that
	 * task runs on, so samples are taken one after another and the ring
	 * keeps the order in which they were reserved.
	 */
	ok = ASSERT_EQ(s->pid, run->child, "sample pid is the child's") &&
	     ASSERT_EQ(s->tid, run->child, "sample tid is the child's") &&
	     ASSERT_GT(s->ktime_ns, prev, "ktime increases") &&
	     ASSERT_LT(s->ktime_ns, run->t_detach, "ktime before detach") &&
	     ASSERT_GT(s->stack_len, 0, "user stack length") &&
	     ASSERT_EQ(s->stack_len % sizeof(__u64), 0, "whole frames") &&
	     ASSERT_TRUE(addr_in_ranges(s->stack[0], run->exec, run->n_exec),
			 "first frame in the child's executable mappings");
	if (!ok)
		printf("sample %d of %d: cpu %u ip 0x%llx\n", i, run->received,
		       s->cpu, (unsigned long long)s->stack[0]);
	return ok;
}

/*
 * The sample count, bounded from the period p = 1 s / freq and two
 * measurements of the child:
 *
 * - At most one sample per period of its CPU time C: the event's clock
 *   only runs while the child does.
 * - At least one per period it really executed, E.  The timer fires on
 *   time while the child runs.  It fires late only when the (virtual)
 *   CPU did not run, as when a busy host deschedules a QEMU TCG guest's
 *   vCPU thread while the guest clock, and so C, goes on; then it fires
 *   once for the whole gap (hrtimer_forward_now() skips the periods in
 *   it).  With three TCG guests on two busy host CPUs, 313 ms of C gave
 *   90 samples, E being 40 ms.  E is the spin's work at its own fastest
 *   pace, chunks times the fastest chunk: a stall, or the child waiting
 *   for the CPU, only makes some chunk slower.
 *
 * Each bound has COUNT_TOLERANCE_PCT of slack for the accounting of C
 * and the clock reads in the chunks, and COUNT_TOLERANCE_ABS samples for
 * the first and the last period.  If the kernel lowered
 * perf_event_max_sample_rate during the run (its interrupts took too
 * long), it throttled the event to about that rate: E counts at it.
 */
static void check_count(const struct profile_run *run)
{
	long long period_ns = NSEC_PER_SEC / run->freq;
	long long executed_ns = run->spin.chunks * run->spin.fastest_ns;
	int rate = run->freq_after < run->freq ? run->freq_after : run->freq;
	long long at_most = run->child_cpu_ns / period_ns;
	long long at_least = executed_ns * rate / NSEC_PER_SEC;
	int n = run->received;

	at_most += at_most * COUNT_TOLERANCE_PCT / 100 + COUNT_TOLERANCE_ABS;
	at_least -= at_least * COUNT_TOLERANCE_PCT / 100 + COUNT_TOLERANCE_ABS;
	printf("%d samples at %d Hz; child CPU time %lld ms allows <= %lld; "
	       "executed %lld ms (%lld chunks of >= %lld ns) needs >= %lld\n",
	       n, run->freq, run->child_cpu_ns / NSEC_PER_MSEC, at_most,
	       executed_ns / NSEC_PER_MSEC, run->spin.chunks,
	       run->spin.fastest_ns, at_least);
	if (rate < run->freq)
		printf("the kernel lowered the sample rate to %d Hz\n", rate);
	if (!ASSERT_GT(run->child_cpu_ns, 0, "child CPU time") ||
	    !ASSERT_GT(run->spin.chunks, 0, "spin chunks"))
		return;
	ASSERT_LE(n, at_most, "samples, at most one per CPU time period");
	ASSERT_GE(n, at_least, "samples, one per executed period");
}

static void check_samples(struct test_perf_profile *skel,
			  const struct profile_run *run)
{
	int n = run->received, in_spin = 0, i;

	ASSERT_EQ(run->bad_size, 0, "samples of the wrong size");
	ASSERT_EQ(skel->bss->dropped, 0, "samples dropped, ring full");
	ASSERT_EQ(n, skel->bss->produced, "samples received = produced");
	if (!ASSERT_LE(n, MAX_SAMPLES, "samples fit the test's array"))
		return;
	check_count(run);

	for (i = 0; i < n; i++) {
		if (!check_sample(run, i))
			return;
		if (run->s[i].stack[0] >= run->spin_start &&
		    run->s[i].stack[0] < run->spin_end)
			in_spin++;
	}
	/*
	 * Only the innermost frame is reliable (test_progs has no frame
	 * pointers).  The spin loop leaves its own code only to read the
	 * clock every SPIN_INNER turns: most ticks must land in it.
	 */
	printf("%d samples in perf_profile_spin [0x%lx, 0x%lx)\n", in_spin,
	       run->spin_start, run->spin_end);
	ASSERT_GE(in_spin * 2, n, "samples in the spin loop, at least half");
}

static void close_pipes(struct child_pipes *p)
{
	int *fds[] = { &p->go[0], &p->go[1], &p->done[0], &p->done[1] };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/* Fork the child and learn its executable mappings; it waits for "go". */
static bool start_child(struct profile_run *run, struct child_pipes *p)
{
	if (!ASSERT_OK(pipe2(p->go, O_CLOEXEC), "pipe") ||
	    !ASSERT_OK(pipe2(p->done, O_CLOEXEC), "pipe"))
		return false;
	run->child = child_start(profiled_child, p);
	if (!ASSERT_GT(run->child, 0, "fork profiled child")) {
		run->child = 0;
		return false;
	}
	close(p->go[0]);
	close(p->done[1]);
	p->go[0] = p->done[1] = -1;
	run->n_exec = proc_exec_ranges(run->child, run->exec, MAX_RANGES);
	return ASSERT_GT(run->n_exec, 0, "child's executable mappings");
}

static void subtest_cpu_clock(struct test_perf_profile *skel)
{
	struct child_pipes p = { { -1, -1 }, { -1, -1 } };
	struct ring_buffer *rb = NULL;
	struct bpf_link *link = NULL;
	struct profile_run *run;
	int pfd = -1;

	run = calloc(1, sizeof(*run));
	if (!ASSERT_OK_PTR(run, "alloc"))
		return;
	run->freq = sample_freq();
	find_spin_range(run);
	if (!start_child(run, &p))
		goto out;
	rb = ring_buffer__new(bpf_map__fd(skel->maps.samples), on_sample, run,
			      NULL);
	if (!ASSERT_OK_PTR(rb, "ring_buffer__new")) {
		rb = NULL;
		goto out;
	}
	run->t_attach = now_ns();
	pfd = open_cpu_clock(run->child, run->freq);
	if (!ASSERT_OK_FD(pfd, "perf_event_open cpu-clock"))
		goto out;
	link = bpf_program__attach_perf_event(skel->progs.profile_tick, pfd);
	if (!ASSERT_OK_PTR(link, "attach_perf_event")) {
		link = NULL;
		goto out;
	}
	pfd = -1;	/* the link owns it now */

	if (!ASSERT_EQ(write(p.go[1], "g", 1), 1, "start the child") ||
	    !collect(rb, p.done[0], &run->spin))
		goto out;
	/* Disables the event and closes its fd; the child is asleep. */
	bpf_link__destroy(link);
	link = NULL;
	run->t_detach = now_ns();
	run->child_cpu_ns = process_cpu_ns(run->child);
	run->freq_after = sample_freq();
	if (ASSERT_GE(ring_buffer__consume(rb), 0, "final consume"))
		check_samples(skel, run);
out:
	bpf_link__destroy(link);
	if (pfd >= 0)
		close(pfd);
	ring_buffer__free(rb);
	child_stop(&run->child);
	close_pipes(&p);
	free(run);
}

void test_perf_profile(void)
{
	struct test_perf_profile *skel;

	if (!test__need(FEAT_PERF_EVENT_SW) || !test__need(FEAT_RINGBUF))
		return;
	skel = test_perf_profile__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_perf_profile__open_and_load"))
		return;
	if (test__start_subtest("cpu_clock"))
		subtest_cpu_clock(skel);
	test_perf_profile__destroy(skel);
}
