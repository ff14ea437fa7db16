// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost: the run (prog_cost.h).  Once a second every available method
 * takes one sample, each in its share of the second: test_run repeats the
 * program over the inputs with statistics off; bpf_stats turns them on,
 * triggers the attached program and reads how far run_time_ns and run_cnt
 * moved.  The first -w samples are warm-up.
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
#include "int_file.h"
#include "mounts.h"
#include "prog_cost.h"

/* The kernel's "operation not supported" (not in <errno.h>). */
#define ENOTSUPP		524
#define STATS_SYSCTL		"/proc/sys/kernel/bpf_stats_enabled"
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

/*
 * A stop request (SIGINT, SIGTERM) interrupts a repeated test run with
 * EINTR, and a trigger's syscall the same way: that is the stop, not a
 * failure of the measurement.
 */
static bool stopped(int err)
{
	return err == -EINTR && bench_signal();
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
		cost_unavailable(m, "the kernel cannot test-run %s programs "
				 "(BPF_PROG_TEST_RUN: ENOTSUPP)", type);
	else if (!type_times_test_runs(prog_fd))
		cost_unavailable(m, "the kernel neither repeats nor times test runs "
				 "of %s programs (BPF_PROG_TEST_RUN: %s)", type,
				 bench_errname(err));
	else
		cost_unavailable(m, "BPF_PROG_TEST_RUN refused input %d (%zu bytes) "
				 "for a %s program: %s", i, m->inputs->in[i].len, type,
				 bench_errname(err));
}

static int test_run_sample(struct cost_method *m, __u64 budget_ns,
			   struct cost_sample *s, char *err, size_t len)
{
	const struct cost_inputs *in = m->inputs;
	__u64 start = now_ns(), per_call;
	__u32 d;
	int ret;

	if (!m->repeat) {
		ret = test_run(m->prog_fd, &in->in[0], PROBE_REPEAT, &d);
		if (stopped(ret))
			return 0;
		if (ret)
			return bench_err(err, len, "BPF_PROG_TEST_RUN: %s",
					 bench_errname(ret));
		per_call = budget_ns / PASSES_PER_SAMPLE / in->n;
		m->repeat = per_call / (d ? d : 1);
		m->repeat = m->repeat < 1 ? 1 : m->repeat > MAX_REPEAT ? MAX_REPEAT :
			    m->repeat;
	}
	do {
		for (int i = 0; i < in->n; i++) {
			ret = test_run(m->prog_fd, &in->in[i], m->repeat, &d);
			if (stopped(ret))
				return 0;
			if (ret)
				return bench_err(err, len, "BPF_PROG_TEST_RUN on input "
						 "%d: %s", i, bench_errname(ret));
			/* The kernel's duration is whole ns per run, rounded down. */
			s->ns += (double)d * m->repeat;
			s->runs += m->repeat;
		}
	} while (now_ns() - start < budget_ns && !bench_signal());
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
	snprintf(m->how, sizeof(m->how), "%s program %s by BPF_PROG_TEST_RUN with "
		 "repeat, over %d input%s", cost_prog_type(prog_fd), prog_name,
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

static int stats_sample(struct cost_method *m, __u64 budget_ns,
			struct cost_sample *s, char *err, size_t len)
{
	__u64 ns0, cnt0, ns1, cnt1, start;
	int stats_fd, ret;
	long n = 0;

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		return bench_err(err, len, "BPF_ENABLE_STATS: %s",
				 bench_errname(stats_fd));
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
				 bench_errname(ret));
	if (n < 0 && !stopped(n))
		return bench_err(err, len, "triggering %s: %s", m->prog_name,
				 bench_errname(n));
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
		cost_unavailable(m, "BPF_ENABLE_STATS: %s", bench_errname(fd));
	else
		close(fd);
}

/* ---- options ------------------------------------------------------------ */

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void join_list(const char *const *list, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; *list && off < len; list++)
		off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", *list);
}

static int check_readable(const char *opt, const char *path, char *err, size_t len)
{
	if (access(path, R_OK))
		return bench_err(err, len, "%s '%s': %s", opt, path, strerror(errno));
	return 0;
}

/* prog-cost: --obj and --prog given, the files there; the label. */
static int check_obj(char *err, size_t len)
{
	const char *slash;

	if (!env.obj_path || !env.prog_name)
		return bench_err(err, len, "%s needs --obj FILE.bpf.o and --prog NAME",
				 env.name);
	if (check_readable("--obj", env.obj_path, err, len))
		return -1;
	for (int i = 0; i < env.n_data_in; i++)
		if (check_readable("--data-in", env.data_in[i], err, len))
			return -1;
	if (!env.variant) {
		slash = strrchr(env.obj_path, '/');
		env.variant = slash ? slash + 1 : env.obj_path;
	}
	return 0;
}

int prog_cost_check(char *err, size_t len)
{
	const struct cost_ops *ops = env.bench->cost;
	char list[128];

	if (env.bench->accepts & BENCH_OPT_OBJ)
		return check_obj(err, len);
	if (env.variant && !in_list(ops->variants, env.variant)) {
		join_list(ops->variants, list, sizeof(list));
		return bench_err(err, len, "--variant '%s': %s has %s", env.variant,
				 env.name, list);
	}
	if (!env.variant)
		env.variant = ops->variants[0];
	if (env.op && !in_list(ops->ops, env.op)) {
		join_list(ops->ops, list, sizeof(list));
		return bench_err(err, len, "--op '%s': expected %s", env.op, list);
	}
	if (!env.op && ops->ops)
		env.op = ops->ops[0];
	if (!(env.given & BENCH_OPT_KEYS))
		env.keys = ops->default_keys;
	return 0;
}

/* ---- the run ------------------------------------------------------------ */

static int count_available(const struct cost_run *r)
{
	int n = 0;

	for (int i = 0; i < COST__METHODS; i++)
		n += r->m[i].available;
	return n;
}

/* Why nothing can be measured: each method's reason (once), on one line. */
static void print_nothing_to_measure(const struct cost_run *r)
{
	const char *common = NULL;
	bool first = true;

	for (int i = 0; i < COST__METHODS; i++) {
		if (!r->m[i].reason[0])
			continue;
		if (common && strcmp(common, r->m[i].reason)) {
			common = NULL;
			break;
		}
		common = r->m[i].reason;
	}
	fprintf(stderr, "bench: %s: nothing to measure:", env.name);
	if (common) {
		fprintf(stderr, " %s\n", common);
		return;
	}
	for (int i = 0; i < COST__METHODS; i++) {
		if (!r->m[i].reason[0])
			continue;
		fprintf(stderr, "%s %s: %s", first ? "" : ";", method_names[i],
			r->m[i].reason);
		first = false;
	}
	fputc('\n', stderr);
}

/* CPUs' worth of time that others (processes, the hypervisor) took. */
static void machine_noise(struct cost_run *r, int iter, const struct cpustat *a,
			  const struct cpustat *b, __u64 wall_ns)
{
	r->other_cpus[iter] = wall_ns ? (double)cpustat_other_ns(a, b) / wall_ns : 0;
	r->steal_cpus[iter] = wall_ns ? (double)(b->steal_ns - a->steal_ns) / wall_ns : 0;
}

/* One sample of every available method; 0, 1 when a signal cut it short. */
static int take_samples(struct cost_run *r, int iter, int n_avail)
{
	__u64 budget = 1000000000ULL / n_avail, start = now_ns();
	struct cpustat c0, c1;
	char err[512];

	if (cpustat_read(&c0))
		memset(&c0, 0, sizeof(c0));
	for (int i = 0; i < COST__METHODS; i++) {
		struct cost_method *m = &r->m[i];
		struct cost_sample s = {};

		if (!m->available)
			continue;
		if (m->sample(m, budget, &s, err, sizeof(err))) {
			fprintf(stderr, "bench: %s: %s: %s\n", env.name, method_names[i], err);
			return -1;
		}
		if (bench_signal())
			return 1;
		m->samples[iter] = s.ns / s.runs;
		if (iter >= env.warmup_sec) {
			m->runs += s.runs;
			m->triggers += s.triggers;
		}
	}
	if (cpustat_read(&c1))
		c1 = c0;
	machine_noise(r, iter, &c0, &c1, now_ns() - start);
	return 0;
}

static int measure(struct cost_run *r)
{
	int total = env.warmup_sec + env.duration_sec, n_avail = count_available(r);
	int ret;

	for (int it = 0; it < total; it++) {
		ret = take_samples(r, it, n_avail);
		if (ret < 0)
			return BENCH_EXIT_FAIL;
		if (ret) {
			r->interrupted = true;
			break;
		}
		r->n_iters = it + 1;
		r->n_warmup = it < env.warmup_sec ? it + 1 : env.warmup_sec;
		if (!env.quiet)
			cost_report_progress(r, it);
	}
	return 0;
}

static int alloc_run(struct cost_run *r)
{
	int total = env.warmup_sec + env.duration_sec;

	r->other_cpus = calloc(total, sizeof(double));
	r->steal_cpus = calloc(total, sizeof(double));
	r->inputs = calloc(1, sizeof(*r->inputs));
	if (!r->other_cpus || !r->steal_cpus || !r->inputs)
		return -ENOMEM;
	for (int i = 0; i < COST__METHODS; i++) {
		r->m[i].id = i;
		r->m[i].prog_fd = -1;
		r->m[i].samples = calloc(total, sizeof(double));
		if (!r->m[i].samples)
			return -ENOMEM;
	}
	return 0;
}

static void free_run(struct cost_run *r)
{
	for (int i = 0; i < COST__METHODS; i++)
		free(r->m[i].samples);
	if (r->inputs)
		cost_inputs_free(r->inputs);
	free(r->inputs);
	free(r->other_cpus);
	free(r->steal_cpus);
}

int prog_cost_run(const struct cost_ops *ops)
{
	struct cost_run r = {};
	char err[512];
	int ret;

	if (alloc_run(&r)) {
		fprintf(stderr, "bench: out of memory\n");
		ret = BENCH_EXIT_FAIL;
		goto out;
	}
	/* Tracepoint programs need tracefs; a failure shows as the attach error. */
	mounts_prepare(env.verbose);
	ret = ops->setup(&r, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "bench: %s: %s\n", env.name, err);
		goto out;
	}
	if (!count_available(&r)) {
		print_nothing_to_measure(&r);
		ret = BENCH_EXIT_FAIL;
		goto out;
	}
	r.stats_on_system_wide = read_int_file(STATS_SYSCTL) == 1;
	if (!env.quiet)
		cost_report_header(&r);
	ret = measure(&r);
	if (ret)
		goto out;
	cost_report_final(&r);
	ret = cost_report_files(&r) ? BENCH_EXIT_FAIL : 0;
out:
	ops->teardown();
	free_run(&r);
	if (bench_signal() && !ret)
		ret = BENCH_EXIT_SIGNAL + bench_signal();
	return ret;
}
