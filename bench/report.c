// SPDX-License-Identifier: GPL-2.0
/*
 * The text reports: per-second progress and the summary (the kernel
 * bench's "Iter" and "Summary:" lines), then the producers, the totals,
 * the wake-ups and how quiet the machine was.
 */
#include <stdio.h>

#include "cpus.h"
#include "rates.h"
#include "report.h"

void report_progress(const struct bench_env *env, const struct bench_result *r, int iter)
{
	const struct bench_sample *s = &r->samples[iter];

	printf(
	       "Iter %3d (%7.3lfus): hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s%s\n",
	       iter, ((double)s->duration_ns - 1e9) / 1000.0,
	       rate_hits(s, 0) / 1e6, rate_hits_per_prod(s, env->producer_cnt) / 1e6,
	       rate_drops(s, 0) / 1e6, rate_total(s, 0) / 1e6,
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
		if (rates_summarize(r, rate_producer, i, &s))
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

	if (!env->bench->waits || rates_summarize(r, rate_wakeups, 0, &wakeups))
		return;
	printf("Consumer: wake-ups %.3lf \u00B1 %.3lfk/s, %.1lf records per wake-up\n",
	       wakeups.mean / 1e3, wakeups.stddev / 1e3,
	       wakeups.mean > 0 ? hits->mean / wakeups.mean : 0.0);
}

/* How quiet the machine was: the bench shares it with whatever else runs. */
static void print_machine(const struct bench_env *env, const struct bench_result *r)
{
	struct stats_summary other, steal;

	if (rates_summarize(r, rate_other_cpus, 0, &other) ||
	    rates_summarize(r, rate_steal_cpus, 0, &steal))
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
	if (rates_summarize(r, rate_hits, 0, &hits) ||
	    rates_summarize(r, rate_hits_per_prod, env->producer_cnt, &per_prod) ||
	    rates_summarize(r, rate_drops, 0, &drops) ||
	    rates_summarize(r, rate_total, 0, &total)) {
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
