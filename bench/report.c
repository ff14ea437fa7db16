// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: per-second progress and the summary as text (the kernel
 * bench's "Iter" and "Summary:" lines), JSON with every sample, the
 * summary and the environment, and BMF (Bencher Metric Format).  Files
 * appear only when complete (written to a temporary name, renamed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bench.h"
#include "cpus.h"
#include "env_info.h"
#include "json_writer.h"
#include "report.h"

/* A per-second rate taken from a sample; arg picks a producer. */
typedef double (*rate_fn)(const struct bench_sample *s, int arg);

static double per_sec(__u64 n, const struct bench_sample *s)
{
	return s->duration_ns ? n * 1e9 / s->duration_ns : 0;
}

static double hits_rate(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->hits, s);
}

/* arg: the number of producers. */
static double hits_per_prod_rate(const struct bench_sample *s, int arg)
{
	return per_sec(s->hits, s) / arg;
}

static double drops_rate(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->drops, s);
}

static double total_rate(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->hits + s->drops, s);
}

static double producer_rate(const struct bench_sample *s, int arg)
{
	return per_sec(s->prod_triggers[arg], s);
}

static double wakeups_rate(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->wakeups, s);
}

/* CPUs' worth of time other processes, or the hypervisor, took. */
static double other_cpus(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->other_ns, s) / 1e9;
}

static double steal_cpus(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->steal_ns, s) / 1e9;
}

/* Statistics of a rate over the measured (not warm-up) samples. */
static int summarize(const struct bench_result *r, rate_fn fn, int arg,
		     struct stats_summary *out)
{
	int n = r->n_samples - r->n_warmup;
	double *x;
	int ret;

	if (n <= 0)
		return -EINVAL;
	x = malloc(n * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		x[i] = fn(&r->samples[r->n_warmup + i], arg);
	ret = stats_summarize(x, n, out);
	free(x);
	return ret;
}

void report_progress(const struct bench_env *env, const struct bench_result *r, int iter)
{
	const struct bench_sample *s = &r->samples[iter];

	printf(
	       "Iter %3d (%7.3lfus): hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s%s\n",
	       iter, ((double)s->duration_ns - 1e9) / 1000.0,
	       hits_rate(s, 0) / 1e6, hits_per_prod_rate(s, env->producer_cnt) / 1e6,
	       drops_rate(s, 0) / 1e6, total_rate(s, 0) / 1e6,
	       iter < env->warmup_sec ? " (warm-up)" : "");
	fflush(stdout);
}

static void print_quantiles(const char *what, const struct stats_summary *s)
{
	printf("%s min %.3lfM/s, median %.3lfM/s, p99 %.3lfM/s", what,
	       s->min / 1e6, s->median / 1e6, s->p99 / 1e6);
}

/*
 * A producer's trigger rate: M/s, or k/s when below a million (with big
 * batches a producer triggers some thousands of times a second).
 */
static void print_producers(const struct bench_env *env, const struct bench_result *r)
{
	struct stats_summary s;
	const char *unit;
	double scale;
	char cpu[16];

	for (int i = 0; i < env->producer_cnt; i++) {
		if (summarize(r, producer_rate, i, &s))
			return;
		snprintf(cpu, sizeof(cpu), "any");
		if (env->affinity)
			snprintf(cpu, sizeof(cpu), "%d", r->producer_cpu[i]);
		scale = s.mean >= 1e6 ? 1e6 : 1e3;
		unit = s.mean >= 1e6 ? "M/s" : "k/s";
		printf(
		       "Producer %d (cpu %s): triggers %.3lf \u00B1 %.3lf%s, min %.3lf%s, median %.3lf%s, p99 %.3lf%s\n",
		       i, cpu,
		       s.mean / scale, s.stddev / scale, unit, s.min / scale, unit,
		       s.median / scale, unit, s.p99 / scale, unit);
	}
}

static void print_totals(const struct bench_totals *t)
{
	printf("Totals: triggers %llu", t->triggers);
	if (t->bpf_counts)
		printf(", produced %llu, hits %llu, drops %llu (%s)",
		       t->produced, t->hits, t->drops,
		       t->consistent ? "hits + drops == produced" : t->why);
	else
		printf(", hits %llu", t->hits);
	printf("\n");
	/* Apart, so that a skip never passes for a slower producer. */
	if (t->bpf_counts)
		printf(
		       "Skipped runs: %llu by the kernel (recursion_misses), %llu of the bench's triggers\n",
		       t->missed_runs, t->skipped_triggers);
}

/* Records per wake-up: few means the consumer keeps up and waits often. */
static void print_wakeups(const struct bench_env *env, const struct bench_result *r,
			  const struct stats_summary *hits)
{
	struct stats_summary wakeups;

	if (!env->bench->waits || summarize(r, wakeups_rate, 0, &wakeups))
		return;
	printf("Consumer: wake-ups %.3lf \u00B1 %.3lfk/s, %.1lf records per wake-up\n",
	       wakeups.mean / 1e3, wakeups.stddev / 1e3,
	       wakeups.mean > 0 ? hits->mean / wakeups.mean : 0.0);
}

/* How quiet the machine was: the bench shares it with whatever else runs. */
static void print_machine(const struct bench_env *env, const struct bench_result *r)
{
	struct stats_summary other, steal;

	if (summarize(r, other_cpus, 0, &other) || summarize(r, steal_cpus, 0, &steal))
		return;
	printf(
	       "Machine: other processes used %.2f \u00B1 %.2f of %d CPUs, steal %.2f CPUs\n",
	       other.mean, other.stddev, env->nr_online,
	       steal.mean);
}

void report_final(const struct bench_env *env, const struct bench_result *r)
{
	struct stats_summary hits, per_prod, drops, total;
	int n = r->n_samples - r->n_warmup;

	if (r->interrupted)
		printf("Interrupted after %d measured second%s\n", n,
		       n == 1 ? "" : "s");
	if (summarize(r, hits_rate, 0, &hits) ||
	    summarize(r, hits_per_prod_rate, env->producer_cnt, &per_prod) ||
	    summarize(r, drops_rate, 0, &drops) ||
	    summarize(r, total_rate, 0, &total)) {
		printf("Summary: no measured samples\n");
		print_totals(&r->totals);
		return;
	}
	printf(
	       "Summary: hits %8.3lf \u00B1 %5.3lfM/s (%7.3lfM/prod), drops %8.3lf \u00B1 %5.3lfM/s, total operations %8.3lf \u00B1 %5.3lfM/s\n",
	       hits.mean / 1e6, hits.stddev / 1e6, per_prod.mean / 1e6,
	       drops.mean / 1e6, drops.stddev / 1e6, total.mean / 1e6,
	       total.stddev / 1e6);
	print_quantiles("Hits:", &hits);
	printf("; per producer %.3lf \u00B1 %.3lfM/s,", per_prod.mean / 1e6,
	       per_prod.stddev / 1e6);
	print_quantiles("", &per_prod);
	printf("\n");
	print_quantiles("Drops:", &drops);
	printf("\n");
	print_producers(env, r);
	print_wakeups(env, r, &hits);
	print_totals(&r->totals);
	print_machine(env, r);
	fflush(stdout);
}

/* ---- JSON ---- */

static void json_kv_uint(struct json_writer *w, const char *k, unsigned long long v)
{
	json_key(w, k);
	json_uint(w, v);
}

static void json_kv_double(struct json_writer *w, const char *k, double v)
{
	json_key(w, k);
	json_double(w, v);
}

/* A summary as an object under key: n, mean, stddev, min, median, p99, max. */
void report_json_summary(struct json_writer *w, const char *key,
			 const struct stats_summary *s)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_uint(w, "n", s->n);
	json_kv_double(w, "mean", s->mean);
	json_kv_double(w, "stddev", s->stddev);
	json_kv_double(w, "min", s->min);
	json_kv_double(w, "median", s->median);
	json_kv_double(w, "p99", s->p99);
	json_kv_double(w, "max", s->max);
	json_end_object(w);
}

static void json_stats(struct json_writer *w, const char *key,
		       const struct bench_result *r, rate_fn fn, int arg)
{
	struct stats_summary s;

	if (summarize(r, fn, arg, &s)) {
		json_key(w, key);
		json_null(w);
		return;
	}
	report_json_summary(w, key, &s);
}

void report_json_metric(struct json_writer *w, const struct report_metric *m)
{
	struct stats_summary s;

	json_begin_object(w);
	json_kv_string(w, "name", m->name);
	json_kv_string(w, "unit", m->unit);
	json_kv_string(w, "better", m->higher_is_better ? "higher" : "lower");
	json_kv_bool(w, "available", m->available);
	if (!m->available) {
		json_kv_string(w, "reason", m->reason ? m->reason : "");
		json_end_object(w);
		return;
	}
	json_key(w, "samples");
	json_begin_array(w);
	for (size_t i = 0; i < m->n; i++)
		json_double(w, m->samples[i]);
	json_end_array(w);
	if (!stats_summarize(m->samples, m->n, &s))
		report_json_summary(w, "summary", &s);
	json_end_object(w);
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", colon + 1 + (colon[1] == ' '));
		break;
	}
	fclose(f);
}

void report_json_environment(struct json_writer *w, const struct bench_env *env)
{
	struct env_info info;
	char buf[256];

	env_info_collect(&info);
	json_key(w, "environment");
	json_begin_object(w);
	env_info_write_json(w, &info);
	cpu_model(buf, sizeof(buf));
	json_kv_string(w, "cpu_model", buf);
	json_kv_int(w, "cpus_online", env->nr_online);
	cpus_format(&env->online, buf, sizeof(buf));
	json_kv_string(w, "cpus_online_list", buf);
	json_kv_int(w, "page_size", sysconf(_SC_PAGESIZE));
	if (env->bench->family && env->bench->family->json_environment)
		env->bench->family->json_environment(env, w);
	json_end_object(w);
}

static void json_thread_cpus(struct json_writer *w, const char *key, bool affinity,
			     int cnt, const int *cpu)
{
	json_key(w, key);
	json_begin_array(w);
	for (int i = 0; i < cnt; i++) {
		if (affinity)
			json_int(w, cpu[i]);
		else
			json_null(w);
	}
	json_end_array(w);
}

static void json_command_line(struct json_writer *w, const struct bench_env *env)
{
	json_key(w, "command_line");
	json_begin_array(w);
	for (int i = 0; i < env->argc; i++)
		json_string(w, env->argv[i]);
	json_end_array(w);
}

static void json_options(struct json_writer *w, const struct bench_env *env,
			 const struct bench_result *r)
{
	const struct bench_family *f = env->bench->family;

	json_key(w, "options");
	json_begin_object(w);
	json_kv_int(w, "duration_sec", env->duration_sec);
	json_kv_int(w, "warmup_sec", env->warmup_sec);
	json_kv_int(w, "producers", env->producer_cnt);
	json_kv_int(w, "consumers", env->consumer_cnt);
	json_kv_bool(w, "affinity", env->affinity);
	json_thread_cpus(w, "producer_cpus", env->affinity, env->producer_cnt,
			 r->producer_cpu);
	json_thread_cpus(w, "consumer_cpus", env->affinity, env->consumer_cnt,
			 r->consumer_cpu);
	if (f && f->json_options)
		f->json_options(env, w);
	json_command_line(w, env);
	json_end_object(w);
}

static void json_sample(struct json_writer *w, const struct bench_env *env,
			const struct bench_result *r, int i)
{
	const struct bench_sample *s = &r->samples[i];

	json_begin_object(w);
	json_kv_int(w, "iter", i);
	json_kv_bool(w, "warmup", i < r->n_warmup);
	json_kv_uint(w, "duration_ns", s->duration_ns);
	json_kv_uint(w, "hits", s->hits);
	json_kv_uint(w, "drops", s->drops);
	json_kv_uint(w, "triggers", s->triggers);
	json_kv_double(w, "hits_per_sec", hits_rate(s, 0));
	json_kv_double(w, "drops_per_sec", drops_rate(s, 0));
	if (env->bench->waits)
		json_kv_double(w, "wakeups_per_sec", wakeups_rate(s, 0));
	json_kv_double(w, "other_cpus", other_cpus(s, 0));
	json_kv_double(w, "steal_cpus", steal_cpus(s, 0));
	json_key(w, "producer_triggers");
	json_begin_array(w);
	for (int p = 0; p < env->producer_cnt; p++)
		json_uint(w, s->prod_triggers[p]);
	json_end_array(w);
	json_end_object(w);
}

static void json_summary(struct json_writer *w, const struct bench_env *env,
			 const struct bench_result *r)
{
	json_key(w, "summary");
	json_begin_object(w);
	json_kv_int(w, "samples", r->n_samples - r->n_warmup);
	json_stats(w, "hits_per_sec", r, hits_rate, 0);
	json_stats(w, "hits_per_sec_per_producer", r, hits_per_prod_rate,
		   env->producer_cnt);
	json_stats(w, "drops_per_sec", r, drops_rate, 0);
	json_stats(w, "total_per_sec", r, total_rate, 0);
	if (env->bench->waits)
		json_stats(w, "wakeups_per_sec", r, wakeups_rate, 0);
	json_stats(w, "other_cpus", r, other_cpus, 0);
	json_stats(w, "steal_cpus", r, steal_cpus, 0);
	json_key(w, "producers");
	json_begin_array(w);
	for (int p = 0; p < env->producer_cnt; p++) {
		json_begin_object(w);
		json_kv_int(w, "id", p);
		json_stats(w, "triggers_per_sec", r, producer_rate, p);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void json_totals(struct json_writer *w, const struct bench_totals *t)
{
	json_key(w, "totals");
	json_begin_object(w);
	json_kv_uint(w, "triggers", t->triggers);
	json_kv_uint(w, "hits", t->hits);
	json_key(w, "produced");
	if (t->bpf_counts)
		json_uint(w, t->produced);
	else
		json_null(w);
	json_kv_uint(w, "drops", t->drops);
	json_key(w, "missed_runs");
	if (t->bpf_counts)
		json_uint(w, t->missed_runs);
	else
		json_null(w);
	json_kv_uint(w, "skipped_triggers", t->skipped_triggers);
	json_kv_bool(w, "bpf_counts", t->bpf_counts);
	json_kv_bool(w, "consistent", t->consistent);
	json_end_object(w);
}

/* What bench compare reads: the measured hits per second, higher is better. */
static void json_metrics(struct json_writer *w, const struct bench_result *r)
{
	int n = r->n_samples - r->n_warmup;
	struct report_metric m = {
		.name = "hits_per_sec", .unit = "events/s", .higher_is_better = true,
		.n = n > 0 ? n : 0,
	};
	double *x = calloc(m.n ? m.n : 1, sizeof(*x));

	m.available = x != NULL;
	if (!x) {
		m.reason = "out of memory";
		m.n = 0;
	}
	for (size_t i = 0; x && i < m.n; i++)
		x[i] = hits_rate(&r->samples[r->n_warmup + i], 0);
	m.samples = x;
	json_key(w, "metrics");
	json_begin_array(w);
	report_json_metric(w, &m);
	json_end_array(w);
	free(x);
}

/* The name a report files the run under, e.g. "rb-libbpf/p1/c1/b500". */
void report_config_name(const struct bench_env *env, char *buf, size_t len)
{
	const struct bench_family *f = env->bench->family;
	size_t off;

	off = snprintf(buf, len, "%s/p%d", env->name, env->producer_cnt);
	if (env->consumer_cnt && off < len)
		off += snprintf(buf + off, len - off, "/c%d", env->consumer_cnt);
	if (f && f->config_name && off < len)
		f->config_name(env, buf + off, len - off);
}

static void write_json(struct json_writer *w, const struct bench_env *env,
		       const void *result)
{
	const struct bench_result *r = result;
	char name[128];

	report_config_name(env, name, sizeof(name));
	json_begin_object(w);
	json_kv_string(w, "bench", env->name);
	json_kv_string(w, "config", name);
	json_kv_string(w, "unit", "events/s");
	json_options(w, env, r);
	report_json_environment(w, env);
	json_key(w, "samples");
	json_begin_array(w);
	for (int i = 0; i < r->n_samples; i++)
		json_sample(w, env, r, i);
	json_end_array(w);
	json_summary(w, env, r);
	json_totals(w, &r->totals);
	json_metrics(w, r);
	json_end_object(w);
}

/*
 * Bencher Metric Format: the run filed under its configuration's name,
 * throughput in events/s with mean -/+ one sample stddev as the bounds.
 */
static void write_bmf(struct json_writer *w, const struct bench_env *env,
		      const void *result)
{
	const struct bench_result *r = result;
	struct stats_summary s;
	char name[128];

	report_config_name(env, name, sizeof(name));
	if (summarize(r, hits_rate, 0, &s))
		memset(&s, 0, sizeof(s));
	json_begin_object(w);
	report_bmf_entry(w, name, "throughput", &s);
	json_end_object(w);
}

void report_bmf_entry(struct json_writer *w, const char *bench, const char *measure,
		      const struct stats_summary *s)
{
	json_key(w, bench);
	json_begin_object(w);
	json_key(w, measure);
	json_begin_object(w);
	json_kv_double(w, "value", s->mean);
	json_kv_double(w, "lower_value", s->mean > s->stddev ? s->mean - s->stddev : 0);
	json_kv_double(w, "upper_value", s->mean + s->stddev);
	json_end_object(w);
	json_end_object(w);
}

int report_write_file(const char *opt, const char *path, report_fn fn,
		      const struct bench_env *env, const void *result)
{
	struct atomic_file af;
	struct json_writer w;
	int err = atomic_file_open(&af, path);

	if (!err) {
		json_init(&w, af.f);
		fn(&w, env, result);
		fputc('\n', af.f);
		err = atomic_file_finish(&af, w.error || ferror(af.f) ? -EIO : 0);
	}
	if (err) {
		fprintf(stderr, "bench: %s '%s': %s\n", opt, path, strerror(-err));
		return -1;
	}
	return 0;
}

int report_write_files(const struct bench_env *env, bool complete, report_fn json,
		       report_fn bmf, const void *result)
{
	if (!env->json_path && !env->bmf_path)
		return 0;
	if (!complete) {
		fprintf(stderr, "bench: %s: no complete run: --json/--bmf not written\n",
			env->name);
		return 0;
	}
	if (env->json_path &&
	    report_write_file("--json", env->json_path, json, env, result))
		return -1;
	if (env->bmf_path && report_write_file("--bmf", env->bmf_path, bmf, env, result))
		return -1;
	return 0;
}

int report_files(const struct bench_env *env, const struct bench_result *r)
{
	return report_write_files(env, !r->interrupted && r->n_samples > r->n_warmup,
				  write_json, write_bmf, r);
}
