// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost: its options and the run (prog_cost.h).  Once a second every
 * available method (cost_methods.c) takes one sample, each in its share
 * of the second.  The first -w samples are warm-up.
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
#include "cost_inputs.h"
#include "cost_methods.h"
#include "cpustat.h"
#include "int_file.h"
#include "mounts.h"
#include "options.h"
#include "prog_cost.h"
#include "prog_cost_report.h"

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

/* ---- options ------------------------------------------------------------ */

#define MAX_KEYS	10000000

static struct cost_args args = {
	.hit_pct = 50,
};

static int parse_variant(const char *arg)
{
	args.variant = arg;
	return 0;
}

static int parse_keys(const char *arg)
{
	return bench_parse_uint("--keys", arg, 1, MAX_KEYS, "a number of keys", &args.keys);
}

static int parse_hit_pct(const char *arg)
{
	return bench_parse_uint("--hit-pct", arg, 0, 100,
				"a percentage of probes that hit", &args.hit_pct);
}

static int parse_op(const char *arg)
{
	args.op = arg;
	return 0;
}

static int parse_obj(const char *arg)
{
	args.obj_path = arg;
	return 0;
}

static int parse_prog(const char *arg)
{
	args.prog_name = arg;
	return 0;
}

static int parse_data_in(const char *arg)
{
	if (args.n_data_in == COST_MAX_DATA_IN)
		return bench_usage_error("--data-in '%s': at most %d inputs", arg,
					 COST_MAX_DATA_IN);
	args.data_in[args.n_data_in++] = arg;
	return 0;
}

static const struct bench_opt cost_opts[] = {
	{ "variant", NULL, "NAME", "which program of the pair (bench -l); for prog-cost\n"
	  "                        a label (default: the object file's name)",
	  parse_variant, NULL },
	{ "keys", NULL, "N", "prog-cost-task: counters, in the hash or in tasks'\n"
	  "                        storage (default 1);\n"
	  "                        prog-cost-bloom: keys in the maps (default 10000);\n"
	  "                        prog-cost-map-batch: map elements (default 10000)",
	  parse_keys, NULL },
	{ "hit-pct", NULL, "P", "prog-cost-bloom: percent of probed keys present (default 50)",
	  parse_hit_pct, NULL },
	{ "op", NULL, "OP", "prog-cost-map-batch: lookup (default), update or delete",
	  parse_op, NULL },
	{ "obj", NULL, "FILE", "prog-cost: the BPF object of the program to measure",
	  parse_obj, NULL },
	{ "prog", NULL, "NAME", "prog-cost: the program's name in --obj", parse_prog, NULL },
	{ "data-in", NULL, "FILE", "prog-cost: a test-run input (repeatable; default one\n"
	  "                        64-byte UDP/IPv4 frame)", parse_data_in, NULL },
	{},
};

static const struct bench_opt_group cost_group = {
	.title = "prog-cost options (ns per run by BPF_PROG_TEST_RUN and by BPF statistics;\n"
		 "-d is the number of samples, one per second)",
	.opts = cost_opts,
};
BENCH_OPTIONS(cost_group);

/* prog-cost: --obj and --prog given, the files there; the label. */
static int check_obj(const struct bench_env *env, char *err, size_t len)
{
	const char *slash;

	if (!args.obj_path || !args.prog_name)
		return bench_err(err, len, "%s needs --obj FILE.bpf.o and --prog NAME",
				 env->name);
	if (check_readable("--obj", args.obj_path, err, len))
		return -1;
	for (int i = 0; i < args.n_data_in; i++) {
		if (check_readable("--data-in", args.data_in[i], err, len))
			return -1;
	}
	if (!args.variant) {
		slash = strrchr(args.obj_path, '/');
		args.variant = slash ? slash + 1 : args.obj_path;
	}
	return 0;
}

int prog_cost_check(const struct bench_env *env, char *err, size_t len)
{
	const struct cost_ops *ops = cost_ops_of(env->bench);
	char list[128];

	if (bench_takes(env->bench, "obj"))
		return check_obj(env, err, len);
	if (args.variant && !in_list(ops->variants, args.variant)) {
		join_list(ops->variants, list, sizeof(list));
		return bench_err(err, len, "--variant '%s': %s has %s", args.variant,
				 env->name, list);
	}
	if (!args.variant)
		args.variant = ops->variants[0];
	if (args.op && !in_list(ops->ops, args.op)) {
		join_list(ops->ops, list, sizeof(list));
		return bench_err(err, len, "--op '%s': expected %s", args.op, list);
	}
	if (!args.op && ops->ops)
		args.op = ops->ops[0];
	if (!args.keys)
		args.keys = ops->default_keys;
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
	fprintf(stderr, "bench: %s: nothing to measure:", r->env->name);
	if (common) {
		fprintf(stderr, " %s\n", common);
		return;
	}
	for (int i = 0; i < COST__METHODS; i++) {
		if (!r->m[i].reason[0])
			continue;
		fprintf(stderr, "%s %s: %s", first ? "" : ";", cost_method_name(i),
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
			/* A test run that Ctrl-C interrupted (EINTR) is a stop. */
			if (bench_signal())
				return 1;
			fprintf(stderr, "bench: %s: %s: %s\n", r->env->name,
				cost_method_name(i), err);
			return -1;
		}
		if (bench_signal())
			return 1;
		m->samples[iter] = s.ns / s.runs;
		if (iter >= r->env->warmup_sec) {
			m->runs += s.runs;
			m->triggers += s.triggers;
			m->calls += s.calls;
			m->stats_on_calls += s.stats_on_calls;
		}
	}
	if (cpustat_read(&c1))
		c1 = c0;
	machine_noise(r, iter, &c0, &c1, now_ns() - start);
	return 0;
}

static int measure(struct cost_run *r)
{
	int total = r->env->warmup_sec + r->env->duration_sec, n_avail = count_available(r);
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
		r->n_warmup = it < r->env->warmup_sec ? it + 1 : r->env->warmup_sec;
		if (!r->env->quiet)
			cost_report_progress(r, it);
	}
	return 0;
}

static int alloc_run(struct cost_run *r)
{
	int total = r->env->warmup_sec + r->env->duration_sec;

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

int prog_cost_run(const struct bench_env *env)
{
	const struct cost_ops *ops = cost_ops_of(env->bench);
	struct cost_run r = { .env = env, .args = &args };
	char err[512];
	int ret;

	if (alloc_run(&r)) {
		fprintf(stderr, "bench: out of memory\n");
		ret = BENCH_EXIT_FAIL;
		goto out;
	}
	/* Tracepoint programs need tracefs; a failure shows as the attach error. */
	mounts_prepare(env->verbose);
	ret = ops->setup(&r, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "bench: %s: %s\n", env->name, err);
		goto out;
	}
	if (!count_available(&r)) {
		print_nothing_to_measure(&r);
		ret = BENCH_EXIT_FAIL;
		goto out;
	}
	r.stats_on_system_wide = read_int_file(COST_STATS_SYSCTL) == 1;
	r.m[COST_TEST_RUN].keep_stats_on = r.stats_on_system_wide;
	if (!env->quiet)
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
