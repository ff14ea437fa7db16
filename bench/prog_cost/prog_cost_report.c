// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost reports: the header, a line per sample, the summary of each
 * method and how far the two agree; JSON with every sample and the
 * "metrics" that bench compare reads; BMF with one benchmark per method,
 * its latency in ns per run (mean -/+ one sample stddev as the bounds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_methods.h"
#include "json_writer.h"
#include "prog_cost_report.h"
#include "report_bmf.h"
#include "report_env.h"
#include "report_files.h"
#include "report_json.h"

/* The measured (not warm-up) samples of an array kept per iteration. */
static int summarize(const struct cost_run *r, const double *x,
		     struct stats_summary *s)
{
	return stats_summarize(x + r->n_warmup, r->n_iters - r->n_warmup, s);
}

static void config_name(const struct cost_run *r, char *buf, size_t len)
{
	cost_ops_of(r->env->bench)->config_name(r, buf, len);
}

void cost_report_header(const struct cost_run *r)
{
	char name[128];

	config_name(r, name, sizeof(name));
	printf("Benchmark '%s' (%s), variant %s", r->env->name, name, r->args->variant);
	if (r->inputs->what[0])
		printf(": %s", r->inputs->what);
	printf("\n");
	for (int i = 0; i < COST__METHODS; i++) {
		const struct cost_method *m = &r->m[i];

		if (m->available)
			printf("  %-10s %s\n", cost_method_name(i), m->how);
		else if (m->reason[0])
			printf("  %-10s n/a: %s\n", cost_method_name(i), m->reason);
	}
	if (r->stats_on_system_wide)
		printf(
		       "  note: kernel.bpf_stats_enabled is 1, so test_run samples include the statistics' own cost\n");
	fflush(stdout);
}

void cost_report_progress(const struct cost_run *r, int iter)
{
	bool first = true;

	printf("Iter %3d:", iter);
	for (int i = 0; i < COST__METHODS; i++) {
		if (!r->m[i].available)
			continue;
		printf("%s %s %9.3f %s", first ? "" : ",", cost_method_name(i),
		       r->m[i].samples[iter], cost_method_unit(i));
		first = false;
	}
	printf("%s\n", iter < r->env->warmup_sec ? " (warm-up)" : "");
	fflush(stdout);
}

/* "12.3M" for counts in the summary lines. */
static void fmt_count(char *buf, size_t len, __u64 n)
{
	if (n >= 1000000)
		snprintf(buf, len, "%.1fM", n / 1e6);
	else if (n >= 1000)
		snprintf(buf, len, "%.1fk", n / 1e3);
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
}

static void print_method_summary(const struct cost_run *r, const struct cost_method *m)
{
	const char *unit = cost_method_unit(m->id);
	char runs[16], trig[16];
	struct stats_summary s;

	if (summarize(r, m->samples, &s))
		return;
	fmt_count(runs, sizeof(runs), m->runs);
	printf(
	       "Summary: %-9s %9.3f \u00B1 %.3f %s, p50 %.3f, p99 %.3f (%zu samples, %s %s",
	       cost_method_name(m->id), s.mean, s.stddev, unit, s.median,
	       s.p99, s.n, runs, m->id == COST_USERSPACE ? "elements" : "runs");
	if (m->id == COST_BPF_STATS) {
		fmt_count(trig, sizeof(trig), m->triggers);
		printf(" for %s triggers", trig);
	}
	printf(")\n");
}

/* test_run calls left out because another process had statistics on. */
static void print_stats_on_calls(const struct cost_method *m)
{
	if (!m->available || !m->stats_on_calls)
		return;
	printf(
	       "Note: test_run: %llu of %llu calls ran while another process held BPF statistics on (BPF_ENABLE_STATS), %s\n",
	       (unsigned long long)m->stats_on_calls, (unsigned long long)m->calls,
	       m->stats_on_calls == m->calls ? "none was clean: the figures include them" :
	       "left out");
}

/* bpf_stats mean over test_run mean, or 0 when either is missing. */
static double agreement(const struct cost_run *r)
{
	struct stats_summary a, b;

	if (!r->m[COST_TEST_RUN].available || !r->m[COST_BPF_STATS].available ||
	    summarize(r, r->m[COST_TEST_RUN].samples, &a) ||
	    summarize(r, r->m[COST_BPF_STATS].samples, &b) || !a.mean)
		return 0;
	return b.mean / a.mean;
}

void cost_report_final(const struct cost_run *r)
{
	struct stats_summary other, steal;
	int n = r->n_iters - r->n_warmup;

	if (r->interrupted)
		printf("Interrupted after %d measured sample%s\n", n, n == 1 ? "" : "s");
	if (n <= 0) {
		printf("Summary: no measured samples\n");
		return;
	}
	for (int i = 0; i < COST__METHODS; i++)
		if (r->m[i].available)
			print_method_summary(r, &r->m[i]);
	if (agreement(r))
		printf("Methods: bpf_stats / test_run = %.3f\n", agreement(r));
	print_stats_on_calls(&r->m[COST_TEST_RUN]);
	if (!summarize(r, r->other_cpus, &other) && !summarize(r, r->steal_cpus, &steal))
		printf(
		       "Machine: other processes used %.2f \u00B1 %.2f of %d CPUs, steal %.2f CPUs\n",
		       other.mean, other.stddev, r->env->nr_online,
		       steal.mean);
	fflush(stdout);
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_options(struct json_writer *w, const struct cost_run *r)
{
	json_key(w, "options");
	json_begin_object(w);
	json_kv_int(w, "duration_sec", r->env->duration_sec);
	json_kv_int(w, "warmup_sec", r->env->warmup_sec);
	json_kv_string(w, "variant", r->args->variant);
	if (bench_takes(r->env->bench, "keys"))
		json_kv_int(w, "keys", r->args->keys);
	if (bench_takes(r->env->bench, "hit-pct"))
		json_kv_int(w, "hit_pct", r->args->hit_pct);
	if (r->args->op)
		json_kv_string(w, "op", r->args->op);
	if (r->args->obj_path) {
		json_kv_string(w, "obj", r->args->obj_path);
		json_kv_string(w, "prog", r->args->prog_name);
		json_key(w, "data_in");
		json_begin_array(w);
		for (int i = 0; i < r->args->n_data_in; i++)
			json_string(w, r->args->data_in[i]);
		json_end_array(w);
	}
	json_key(w, "command_line");
	json_begin_array(w);
	for (int i = 0; i < r->env->argc; i++)
		json_string(w, r->env->argv[i]);
	json_end_array(w);
	json_end_object(w);
}

static void json_methods(struct json_writer *w, const struct cost_run *r)
{
	json_key(w, "methods");
	json_begin_array(w);
	for (int i = 0; i < COST__METHODS; i++) {
		const struct cost_method *m = &r->m[i];

		if (!m->available && !m->reason[0])
			continue;
		json_begin_object(w);
		json_kv_string(w, "name", cost_method_name(i));
		json_kv_bool(w, "available", m->available);
		if (!m->available) {
			json_kv_string(w, "reason", m->reason);
			json_end_object(w);
			continue;
		}
		json_kv_string(w, "how", m->how);
		json_kv_string(w, "program", m->prog_name ? m->prog_name : "");
		json_key(w, "runs");
		json_uint(w, m->runs);
		if (i == COST_TEST_RUN) {
			json_key(w, "repeat");
			json_uint(w, m->repeat);
			json_key(w, "calls");
			json_uint(w, m->calls);
			json_key(w, "calls_with_stats_on");
			json_uint(w, m->stats_on_calls);
		}
		if (i == COST_BPF_STATS) {
			json_key(w, "triggers");
			json_uint(w, m->triggers);
		}
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_samples(struct json_writer *w, const struct cost_run *r)
{
	json_key(w, "samples");
	json_begin_array(w);
	for (int it = 0; it < r->n_iters; it++) {
		json_begin_object(w);
		json_kv_int(w, "iter", it);
		json_kv_bool(w, "warmup", it < r->n_warmup);
		for (int i = 0; i < COST__METHODS; i++) {
			if (!r->m[i].available)
				continue;
			json_key(w, cost_method_name(i));
			json_double(w, r->m[i].samples[it]);
		}
		json_key(w, "other_cpus");
		json_double(w, r->other_cpus[it]);
		json_key(w, "steal_cpus");
		json_double(w, r->steal_cpus[it]);
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_metrics(struct json_writer *w, const struct cost_run *r)
{
	json_key(w, "metrics");
	json_begin_array(w);
	for (int i = 0; i < COST__METHODS; i++) {
		const struct cost_method *m = &r->m[i];
		struct report_metric rm = {
			.name = cost_method_name(i),
			.unit = cost_method_unit(i),
			.available = m->available,
			.reason = m->available ? NULL : m->reason,
			.samples = m->samples + r->n_warmup,
			.n = r->n_iters - r->n_warmup,
		};

		if (m->available || m->reason[0])
			report_json_metric(w, &rm);
	}
	json_end_array(w);
}

static void json_machine(struct json_writer *w, const struct cost_run *r)
{
	struct stats_summary s;

	json_key(w, "machine");
	json_begin_object(w);
	if (!summarize(r, r->other_cpus, &s))
		report_json_summary(w, "other_cpus", &s);
	if (!summarize(r, r->steal_cpus, &s))
		report_json_summary(w, "steal_cpus", &s);
	json_kv_bool(w, "bpf_stats_on_system_wide", r->stats_on_system_wide);
	json_end_object(w);
}

static void write_json(struct json_writer *w, const struct bench_env *env __maybe_unused,
		       const void *result)
{
	const struct cost_run *r = result;
	char name[128];
	double ratio = agreement(r);

	config_name(r, name, sizeof(name));
	json_begin_object(w);
	json_kv_string(w, "bench", r->env->name);
	json_kv_string(w, "config", name);
	json_kv_string(w, "variant", r->args->variant);
	json_kv_string(w, "kind", "prog-cost");
	json_options(w, r);
	report_json_environment(w, r->env);
	json_key(w, "inputs");
	json_begin_object(w);
	json_kv_int(w, "count", r->inputs->n);
	json_kv_string(w, "what", r->inputs->what);
	json_end_object(w);
	json_methods(w, r);
	json_samples(w, r);
	json_metrics(w, r);
	json_key(w, "bpf_stats_over_test_run");
	if (ratio)
		json_double(w, ratio);
	else
		json_null(w);
	json_machine(w, r);
	json_end_object(w);
}


/* ---- BMF ------------------------------------------------------------------ */

/*
 * One Bencher benchmark per method, named config/variant/method, e.g.
 * "prog-cost-fizzbuzz/octets/loop/test_run", with its "latency" in ns.
 */
static void write_bmf(struct json_writer *w, const struct bench_env *env __maybe_unused,
		      const void *result)
{
	const struct cost_run *r = result;
	char config[128], name[256];
	struct stats_summary s;

	config_name(r, config, sizeof(config));
	json_begin_object(w);
	for (int i = 0; i < COST__METHODS; i++) {
		if (!r->m[i].available || summarize(r, r->m[i].samples, &s))
			continue;
		snprintf(name, sizeof(name), "%s/%s/%s", config, r->args->variant,
			 cost_method_name(i));
		report_bmf_entry(w, name, "latency", &s);
	}
	json_end_object(w);
}

int cost_report_files(const struct cost_run *r)
{
	return report_write_files(r->env, !r->interrupted && r->n_iters > r->n_warmup,
				  write_json, write_bmf, r);
}
