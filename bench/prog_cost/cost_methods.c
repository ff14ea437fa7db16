// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost's methods (prog_cost.h): test_run repeats the program over
 * the inputs with statistics off; bpf_stats turns them on, triggers the
 * attached program and reads how far run_time_ns and run_cnt moved.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "clock.h"
#include "cost_methods.h"
#include "int_file.h"

/* A sample's passes over the inputs: enough that each input counts alike. */
#define PASSES_PER_SAMPLE	4
/* Runs of the first call, which sizes the repeat count of the others. */
#define PROBE_REPEAT		1000
#define MAX_REPEAT		100000000

static const char *const method_names[COST__METHODS] = {
	[COST_TEST_RUN] = "test_run",
	[COST_BPF_STATS] = "bpf_stats",
	[COST_USERSPACE] = "userspace",
};

static const char *const method_units[COST__METHODS] = {
	[COST_TEST_RUN] = "ns/run",
	[COST_BPF_STATS] = "ns/run",
	[COST_USERSPACE] = "ns/elem",
};

const char *cost_method_name(enum cost_method_id id)
{
	return method_names[id];
}

const char *cost_method_unit(enum cost_method_id id)
{
	return method_units[id];
}

int cost_setup_failed(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return BENCH_EXIT_FAIL;
}

void cost_unavailable(struct cost_method *m, const char *fmt, ...)
{
	va_list ap;

	m->available = false;
	va_start(ap, fmt);
	vsnprintf(m->reason, sizeof(m->reason), fmt, ap);
	va_end(ap);
}

const char *cost_prog_type(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	const char *name;

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return "unknown";
	name = libbpf_bpf_prog_type_str(info.type);
	return name ? name : "unknown";
}

/* ---- test_run ---------------------------------------------------------- */

static int read_run_stats(int prog_fd, __u64 *run_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err = bpf_obj_get_info_by_fd(prog_fd, &info, &len);

	if (err)
		return err;
	*run_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

/* The program's run_cnt, which moves only while statistics are on. */
static __u64 run_cnt(int prog_fd)
{
	__u64 ns, cnt;

	return read_run_stats(prog_fd, &ns, &cnt) ? 0 : cnt;
}

static int test_run(int prog_fd, const struct cost_input *in, __u32 repeat,
		    __u32 *duration)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = in->data,
		.data_size_in = in->len,
		.repeat = repeat,
	);
	int err = bpf_prog_test_run_opts(prog_fd, &opts);

	*duration = opts.duration;
	return err < 0 ? err : 0;
}

/*
 * Whether the kernel repeats and times test runs of this program type:
 * the packet types of net/bpf/test_run.c (netfilter too since 6.4, which
 * the build's UAPI headers may not name).  Others test-run once with no
 * duration (raw_tp, syscall, tracing) or not at all (ENOTSUPP).
 */
static bool type_times_test_runs(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return false;
	switch (info.type) {
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_SK_LOOKUP:
		return true;
	default:
		return false;
	}
}

/* Why one run of input i was refused, as a reason for the report. */
static void test_run_refused(struct cost_method *m, int prog_fd, int i, int err)
{
	const char *type = cost_prog_type(prog_fd);

	if (err == -ENOTSUPP)
		cost_unavailable(m,
				 "the kernel cannot test-run %s programs (BPF_PROG_TEST_RUN: ENOTSUPP)",
				 type);
	else if (!type_times_test_runs(prog_fd))
		cost_unavailable(m,
				 "the kernel neither repeats nor times test runs of %s programs (BPF_PROG_TEST_RUN: %s)",
				 type,
				 errname(err));
	else
		cost_unavailable(m,
				 "BPF_PROG_TEST_RUN refused input %d (%zu bytes) for a %s program: %s",
				 i, m->inputs->in[i].len, type,
				 errname(err));
}

static int test_run_sample(struct cost_method *m, __u64 budget_ns,
			   struct cost_sample *s, char *err, size_t len)
{
	const struct cost_inputs *in = m->inputs;
	__u64 start = now_ns(), per_call, cnt0, cnt1;
	struct cost_sample on = {};
	__u32 d;
	int ret;

	if (!m->repeat) {
		ret = test_run(m->prog_fd, &in->in[0], PROBE_REPEAT, &d);
		if (ret)
			return bench_err(err, len, "BPF_PROG_TEST_RUN: %s",
					 errname(ret));
		per_call = budget_ns / PASSES_PER_SAMPLE / in->n;
		m->repeat = per_call / (d ? d : 1);
		m->repeat = m->repeat < 1 ? 1 : m->repeat > MAX_REPEAT ? MAX_REPEAT :
			    m->repeat;
	}
	cnt0 = run_cnt(m->prog_fd);
	do {
		for (int i = 0; i < in->n; i++) {
			ret = test_run(m->prog_fd, &in->in[i], m->repeat, &d);
			if (ret)
				return bench_err(err, len,
						 "BPF_PROG_TEST_RUN on input %d: %s",
						 i, errname(ret));
			s->calls++;
			cnt1 = m->keep_stats_on ? cnt0 : run_cnt(m->prog_fd);
			if (cnt1 != cnt0) {
				/* Another process had statistics on. */
				s->stats_on_calls++;
				on.ns += (double)d * m->repeat;
				on.runs += m->repeat;
				cnt0 = cnt1;
				continue;
			}
			/* The kernel's duration is whole ns per run, rounded down. */
			s->ns += (double)d * m->repeat;
			s->runs += m->repeat;
		}
	} while (now_ns() - start < budget_ns && !bench_signal());
	/* Statistics on all along: those calls are all there is (reported). */
	if (!s->runs) {
		s->ns = on.ns;
		s->runs = on.runs;
	}
	return 0;
}

/* The method measures prog_fd by sample. */
static void use_method(struct cost_method *m, int prog_fd, const char *prog_name,
		       cost_sample_fn sample)
{
	m->prog_fd = prog_fd;
	m->prog_name = prog_name;
	m->sample = sample;
	m->available = true;
}

void cost_use_test_run(struct cost_method *m, int prog_fd, const char *prog_name,
		       const struct cost_inputs *inputs)
{
	__u32 d;
	int err;

	use_method(m, prog_fd, prog_name, test_run_sample);
	m->inputs = inputs;
	snprintf(m->how, sizeof(m->how),
		 "%s program %s by BPF_PROG_TEST_RUN with repeat, over %d input%s",
		 cost_prog_type(prog_fd), prog_name,
		 inputs->n, inputs->n == 1 ? "" : "s");
	for (int i = 0; i < inputs->n; i++) {
		err = test_run(prog_fd, &inputs->in[i], 1, &d);
		if (err) {
			test_run_refused(m, prog_fd, i, err);
			return;
		}
	}
}

/* ---- bpf_stats --------------------------------------------------------- */

static int stats_sample(struct cost_method *m, __u64 budget_ns,
			struct cost_sample *s, char *err, size_t len)
{
	__u64 ns0, cnt0, ns1, cnt1, start;
	int stats_fd, ret;
	long n = 0;

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		return bench_err(err, len, "BPF_ENABLE_STATS: %s",
				 errname(stats_fd));
	ret = read_run_stats(m->prog_fd, &ns0, &cnt0);
	start = now_ns();
	while (!ret && now_ns() - start < budget_ns && !bench_signal()) {
		n = m->trigger(m->trigger_ctx);
		if (n < 0)
			break;
		s->triggers += n;
	}
	if (!ret)
		ret = read_run_stats(m->prog_fd, &ns1, &cnt1);
	close(stats_fd);
	if (ret)
		return bench_err(err, len, "reading the program's statistics: %s",
				 errname(ret));
	if (n < 0)
		return bench_err(err, len, "triggering %s: %s", m->prog_name,
				 errname(n));
	s->ns = ns1 - ns0;
	s->runs = cnt1 - cnt0;
	if (!s->runs && !bench_signal())
		return bench_err(err, len, "%s did not run (%llu triggers)", m->prog_name,
				 (unsigned long long)s->triggers);
	return 0;
}

void cost_use_bpf_stats(struct cost_method *m, int prog_fd, const char *prog_name,
			cost_trigger_fn trigger, void *ctx)
{
	int fd;

	use_method(m, prog_fd, prog_name, stats_sample);
	m->trigger = trigger;
	m->trigger_ctx = ctx;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (fd < 0)
		cost_unavailable(m, "BPF_ENABLE_STATS: %s", errname(fd));
	else
		close(fd);
}
