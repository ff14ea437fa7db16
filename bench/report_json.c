// SPDX-License-Identifier: GPL-2.0
/*
 * The --json report: the options, every sample, the summary of each rate,
 * the totals, the environment, and the "metrics" bench compare reads.
 */
#include <stdlib.h>

#include "json_writer.h"
#include "rates.h"
#include "report_env.h"
#include "report_json.h"

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

	if (rates_summarize(r, fn, arg, &s)) {
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
	json_kv_double(w, "hits_per_sec", rate_hits(s, 0));
	json_kv_double(w, "drops_per_sec", rate_drops(s, 0));
	if (env->bench->waits)
		json_kv_double(w, "wakeups_per_sec", rate_wakeups(s, 0));
	json_kv_double(w, "other_cpus", rate_other_cpus(s, 0));
	json_kv_double(w, "steal_cpus", rate_steal_cpus(s, 0));
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
	json_stats(w, "hits_per_sec", r, rate_hits, 0);
	json_stats(w, "hits_per_sec_per_producer", r, rate_hits_per_prod,
		   env->producer_cnt);
	json_stats(w, "drops_per_sec", r, rate_drops, 0);
	json_stats(w, "total_per_sec", r, rate_total, 0);
	if (env->bench->waits)
		json_stats(w, "wakeups_per_sec", r, rate_wakeups, 0);
	json_stats(w, "other_cpus", r, rate_other_cpus, 0);
	json_stats(w, "steal_cpus", r, rate_steal_cpus, 0);
	json_key(w, "producers");
	json_begin_array(w);
	for (int p = 0; p < env->producer_cnt; p++) {
		json_begin_object(w);
		json_kv_int(w, "id", p);
		json_stats(w, "triggers_per_sec", r, rate_producer, p);
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
		x[i] = rate_hits(&r->samples[r->n_warmup + i], 0);
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

void report_json_result(struct json_writer *w, const struct bench_env *env,
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
