// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel BPF statistics: while a BPF_ENABLE_STATS fd is open (or the
 * kernel.bpf_stats_enabled sysctl is 1), run_cnt grows by exactly the
 * number of runs and run_time_ns grows; with the fd closed and the sysctl
 * off, neither moves.  /proc/self/fdinfo and bpf_prog_info agree.  While
 * another process holds stats on, "neither moves" cannot be checked: SKIP.
 */
#include <linux/types.h>
#include <stdlib.h>

#include "int_file.h"
#include "probe.h"
#include "stats_holder.h"
#include "test_progs.h"
#include "test_stats.skel.h"

#define STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"
#define OFF_ATTEMPTS 5

struct prog_stats {
	__u64 run_cnt;
	__u64 run_time_ns;
};

static bool read_info_stats(int prog_fd, struct prog_stats *st)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(prog_fd, &info, &len),
		       "bpf_obj_get_info_by_fd"))
		return false;
	st->run_cnt = info.run_cnt;
	st->run_time_ns = info.run_time_ns;
	return true;
}

/* The "run_time_ns:" and "run_cnt:" lines of /proc/self/fdinfo/<fd>. */
static bool read_fdinfo_stats(int prog_fd, struct prog_stats *st)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", prog_fd);
	f = fopen(path, "r");
	if (!ASSERT_OK_PTR(f, "open fdinfo"))
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "run_time_ns: %llu", &v) == 1) {
			st->run_time_ns = v;
			found |= 1;
		} else if (sscanf(line, "run_cnt: %llu", &v) == 1) {
			st->run_cnt = v;
			found |= 2;
		}
	}
	fclose(f);
	return ASSERT_EQ(found, 3, "fdinfo has run_time_ns and run_cnt");
}

static bool run_prog(int prog_fd, int repeat)
{
	unsigned char pkt[64] = {};

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.repeat = repeat,
	);

	return ASSERT_OK(bpf_prog_test_run_opts(prog_fd, &topts), "test_run") &&
	       ASSERT_EQ(topts.retval, XDP_PASS, "verdict");
}

/* Run n times and return how much the stats moved. */
static bool delta_after_runs(int prog_fd, int n, struct prog_stats *delta)
{
	struct prog_stats before, after;

	if (!read_info_stats(prog_fd, &before) || !run_prog(prog_fd, n) ||
	    !read_info_stats(prog_fd, &after))
		return false;
	delta->run_cnt = after.run_cnt - before.run_cnt;
	delta->run_time_ns = after.run_time_ns - before.run_time_ns;
	return true;
}

/* Skip when another process holds stats on; true when one does. */
static bool skip_if_held(void)
{
	char who[96];

	if (!bpf_stats_holder(who, sizeof(who)))
		return false;
	test__skip_reason(
			  "%s holds BPF stats on through a BPF_ENABLE_STATS fd: 'stats off' cannot be checked",
			  who);
	return true;
}

/*
 * Run n times with stats meant to be off.  Run-time stats are one
 * machine-wide switch, so "nothing moved" is only a claim about this
 * test while nobody else held them on.  The sysctl does not show a
 * holder of a BPF_ENABLE_STATS fd (it reads 0 then), its fd in /proc
 * does: if the stats moved, look for one and skip with who it is.  A
 * holder that came and went unseen (a bench takes stats on and off every
 * sample) is ruled out by measuring again: a kernel that counts with
 * stats off moves every time.
 */
static bool delta_with_stats_off(int prog_fd, int n, struct prog_stats *delta)
{
	for (int attempt = 0; attempt < OFF_ATTEMPTS; attempt++) {
		bool off_before = read_int_file(STATS_SYSCTL) == 0;

		if (skip_if_held() || !delta_after_runs(prog_fd, n, delta))
			return false;
		if (!off_before || read_int_file(STATS_SYSCTL) != 0) {
			test__skip_reason(
				"another process turned BPF stats on meanwhile (%s read 1): 'stats off' cannot be checked",
				STATS_SYSCTL);
			return false;
		}
		if (!delta->run_cnt && !delta->run_time_ns)
			return true;
		if (skip_if_held())
			return false;
	}
	return true;	/* moved every time, nobody holding stats: a failure */
}

static void subtest_enable_fd(int prog_fd)
{
	struct prog_stats d, info, fdinfo;
	int stats_fd;

	if (!delta_with_stats_off(prog_fd, 100, &d))
		return;
	ASSERT_EQ(d.run_cnt, 0, "run_cnt with stats off");
	ASSERT_EQ(d.run_time_ns, 0, "run_time_ns with stats off");

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!ASSERT_OK_FD(stats_fd, "bpf_enable_stats"))
		return;
	if (delta_after_runs(prog_fd, 1000, &d)) {
		ASSERT_EQ(d.run_cnt, 1000, "run_cnt after 1000 runs");
		ASSERT_GT(d.run_time_ns, 0, "run_time_ns grew");
	}
	if (delta_after_runs(prog_fd, 337, &d))
		ASSERT_EQ(d.run_cnt, 337, "run_cnt after 337 more runs");
	/* Nothing runs between the two reads, so they must match. */
	if (read_info_stats(prog_fd, &info) &&
	    read_fdinfo_stats(prog_fd, &fdinfo)) {
		ASSERT_EQ(fdinfo.run_cnt, info.run_cnt, "fdinfo run_cnt");
		ASSERT_EQ(fdinfo.run_time_ns, info.run_time_ns,
			  "fdinfo run_time_ns");
	}
	close(stats_fd);

	if (delta_with_stats_off(prog_fd, 100, &d)) {
		ASSERT_EQ(d.run_cnt, 0, "run_cnt after closing the stats fd");
		ASSERT_EQ(d.run_time_ns, 0, "run_time_ns after closing");
	}
}

static void subtest_sysctl(int prog_fd)
{
	struct prog_stats d;

	if (!ASSERT_OK(write_int_file(STATS_SYSCTL, 1), "enable sysctl"))
		return;
	if (delta_after_runs(prog_fd, 250, &d)) {
		ASSERT_EQ(d.run_cnt, 250, "run_cnt with the sysctl on");
		ASSERT_GT(d.run_time_ns, 0, "run_time_ns with the sysctl on");
	}
	if (!ASSERT_OK(write_int_file(STATS_SYSCTL, 0), "disable sysctl"))
		return;
	if (delta_with_stats_off(prog_fd, 250, &d))
		ASSERT_EQ(d.run_cnt, 0, "run_cnt with the sysctl off");
}

void test_bpf_stats(void)
{
	struct test_stats *skel;
	int prog_fd, sysctl;

	if (!test__need(FEAT_BPF_STATS))
		return;
	sysctl = read_int_file(STATS_SYSCTL);
	if (sysctl != 0) {
		/* Someone else collects stats: "stops growing" can't hold. */
		test__skip_reason("%s is %d, not 0: stats are on system-wide",
				  STATS_SYSCTL, sysctl);
		return;
	}
	skel = test_stats__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_stats__open_and_load"))
		return;
	prog_fd = bpf_program__fd(skel->progs.counted);

	if (test__start_subtest("enable_stats_fd"))
		subtest_enable_fd(prog_fd);
	if (test__start_subtest("sysctl"))
		subtest_sysctl(prog_fd);

	write_int_file(STATS_SYSCTL, 0);	/* leave the machine as found */
	test_stats__destroy(skel);
}
