// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's runs pooled by configuration (variant, mode, producers,
 * batch) and the derived columns: events/s is the mean of the runs'
 * per-second means; where the runs' range is over twice their mean
 * per-second stddev and over 1% of the mean they settled in different
 * regimes, and the table gives the range instead of one figure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "bench.h"
#include "stats.h"
#include "sweep_stats.h"

/* The runs of one configuration, and what the table derives from them. */
struct sweep_config {
	const struct sweep_key *key;	/* run ignored */
	int n;
	double *hits, *drops, *in_run_sd, *sd;	/* one per run */
	struct stats_summary rate;	/* of hits */
	double other;			/* the busiest run's */
	double rpw_min, rpw_max;	/* records per wake-up */
	bool waits;			/* consumers wait: rpw is known */
};

static bool same_config(const struct sweep_key *a, const struct sweep_key *b)
{
	return !strcmp(a->variant, b->variant) && !strcmp(a->mode, b->mode) &&
	       !strcmp(a->producers, b->producers) && !strcmp(a->batch, b->batch);
}

static void add_run(struct sweep_config *c, const struct sweep_run *r)
{
	int i = c->n++;

	c->hits[i] = r->hits;
	c->drops[i] = r->drops;
	c->in_run_sd[i] = r->hits > 0 ? r->hits_stddev / r->hits : 0;
	c->sd[i] = r->hits_stddev;
	if (r->other > c->other)
		c->other = r->other;
	if (r->wakeups > 0) {
		double rpw = r->hits / r->wakeups;

		if (!c->waits || rpw < c->rpw_min)
			c->rpw_min = rpw;
		if (!c->waits || rpw > c->rpw_max)
			c->rpw_max = rpw;
		c->waits = true;
	}
}

static void free_configs(struct sweep_config *c, int n)
{
	for (int i = 0; i < n; i++) {
		free(c[i].hits);
		free(c[i].drops);
		free(c[i].in_run_sd);
		free(c[i].sd);
	}
	free(c);
}

/* The configurations in order of their first run; *n_out of them. */
static struct sweep_config *pool_runs(const struct sweep_run *runs, int n, int *n_out)
{
	struct sweep_config *c = calloc(n, sizeof(*c));
	int nc = 0, i, j;

	for (i = 0; c && i < n; i++) {
		for (j = 0; j < nc && !same_config(c[j].key, &runs[i].key); j++)
			;
		if (j == nc) {
			c[nc].key = &runs[i].key;
			c[nc].hits = calloc(n, sizeof(double));
			c[nc].drops = calloc(n, sizeof(double));
			c[nc].in_run_sd = calloc(n, sizeof(double));
			c[nc].sd = calloc(n, sizeof(double));
			if (!c[nc].hits || !c[nc].drops || !c[nc].in_run_sd || !c[nc++].sd)
				goto fail;
		}
		add_run(&c[j], &runs[i]);
	}
	for (i = 0; c && i < nc; i++)
		if (stats_summarize(c[i].hits, c[i].n, &c[i].rate))
			goto fail;
	*n_out = nc;
	return c;
fail:
	free_configs(c, nc);
	return NULL;
}

static void fmt_rate(char *buf, size_t len, double x)
{
	if (x >= 1e6)
		snprintf(buf, len, "%.3fM", x / 1e6);
	else
		snprintf(buf, len, "%.1fk", x / 1e3);
}

static void fmt_range(char *buf, size_t len, double a, double b)
{
	if (b >= 1e6)
		snprintf(buf, len, "%.2f-%.2fM", a / 1e6, b / 1e6);
	else
		snprintf(buf, len, "%.0f-%.0fk", a / 1e3, b / 1e3);
}

/* The trig-prog baseline's events/s at producers p, or 0. */
static double baseline(const struct sweep_config *c, int nc, const char *p)
{
	double base = 0;

	for (int i = 0; i < nc; i++)
		if (!strcmp(c[i].key->variant, "trig-prog") && !strcmp(c[i].key->producers, p))
			base = c[i].rate.mean;
	return base;
}

/* One configuration's columns, as text (empty where there is none). */
struct sweep_row {
	double mean, ns, drops_pct, in_run_sd_pct;
	double spread;			/* (max - min) / mean, %; < 0 for one run */
	char over[32], rpw_min[32], rpw_max[32];
	bool regimes;
};

static void derive(const struct sweep_config *c, double base, struct sweep_row *w)
{
	double range = c->rate.max - c->rate.min, d = stats_mean(c->drops, c->n);
	const char *batch = c->key->batch;

	memset(w, 0, sizeof(*w));
	w->mean = c->rate.mean;
	w->ns = w->mean > 0 ? 1e9 / w->mean : -1;
	w->spread = c->n > 1 && w->mean > 0 ? range / w->mean * 100 : -1;
	if (strcmp(batch, "-") && base > 0 && w->ns > 0)
		snprintf(w->over, sizeof(w->over), "%.2f", w->ns - 1e9 / base / atof(batch));
	w->drops_pct = w->mean + d > 0 ? d / (w->mean + d) * 100 : 0;
	w->in_run_sd_pct = stats_mean(c->in_run_sd, c->n) * 100;
	/* Runs that disagree beyond their own spread: regimes, not noise. */
	w->regimes = c->n > 1 && range > 2 * stats_mean(c->sd, c->n) && range > 0.01 * w->mean;
	if (c->waits) {
		snprintf(w->rpw_min, sizeof(w->rpw_min), "%.1f", c->rpw_min);
		snprintf(w->rpw_max, sizeof(w->rpw_max), "%.1f", c->rpw_max);
	}
}

static void csv_row(FILE *f, const struct sweep_config *c, const struct sweep_row *w)
{
	const struct sweep_key *k = c->key;
	char spread[32] = "";

	if (w->spread >= 0)
		snprintf(spread, sizeof(spread), "%.2f", w->spread);
	fprintf(f, "%s,%s,%s,%s,%d,%.0f,%s,%.3f,%s,%.2f,%.2f,%.2f,%s,%s,%d\n", k->variant,
		k->mode, k->producers, k->batch, c->n, w->mean, spread, w->ns, w->over,
		w->drops_pct, w->in_run_sd_pct, c->other, w->rpw_min, w->rpw_max, w->regimes);
}

static void table_row(const struct sweep_config *c, const struct sweep_row *w)
{
	const struct sweep_key *k = c->key;
	char rate[64], spread[40], ns[40], rpw[72];

	fmt_rate(rate, sizeof(rate), w->mean);
	strcat(rate, "/s");
	if (w->regimes) {
		fmt_range(rate, sizeof(rate), c->rate.min, c->rate.max);
		strcat(rate, "*");
	}
	snprintf(spread, sizeof(spread), "-");
	if (w->spread >= 0)
		snprintf(spread, sizeof(spread), "%.1f%%", w->spread);
	snprintf(ns, sizeof(ns), "%.2f", w->ns);
	if (!c->waits)
		snprintf(rpw, sizeof(rpw), "-");
	else if (c->rpw_min == c->rpw_max)
		snprintf(rpw, sizeof(rpw), "%s", w->rpw_min);
	else
		snprintf(rpw, sizeof(rpw), "%s-%s", w->rpw_min, w->rpw_max);
	printf("%-12s %-7s %4s %6s %12s %8s %10s %10s %7.2f%% %6.2f %13s\n", k->variant,
	       k->mode, k->producers, k->batch, rate, spread, w->regimes ? "-" : ns,
	       !w->over[0] || w->regimes ? "-" : w->over, w->drops_pct, c->other, rpw);
}

static void regime_note(const struct sweep_config *c, const struct sweep_row *w, bool first)
{
	const struct sweep_key *k = c->key;
	char range[64];

	fmt_range(range, sizeof(range), c->rate.min, c->rate.max);
	if (first)
		putchar('\n');
	printf(
	       "* %s %s p%s batch %s: regimes: %s/s over %d runs (within a run: stddev %.1f%% of the mean)\n",
	       k->variant, k->mode, k->producers, k->batch, range, c->n, w->in_run_sd_pct);
}

/*
 * Other processes busy enough to matter (at least guard CPUs, as the
 * table rounds them), during how many configurations.
 */
static void guard_note(const struct sweep_config *c, int nc, const char *guard)
{
	double g = guard ? atof(guard) : 0;
	char other[32];
	int busy = 0;

	for (int i = 0; g > 0 && i < nc; i++) {
		snprintf(other, sizeof(other), "%.2f", c[i].other);
		busy += atof(other) >= g;
	}
	if (busy)
		printf(
		       "note: other processes used %s CPUs or more during %d configuration(s); see other\n",
		       guard, busy);
	printf("\n");
}

static void print_all(const struct sweep_config *c, int nc, FILE *csv, const char *guard)
{
	struct sweep_row w;
	bool first = true;

	guard_note(c, nc, guard);
	if (csv)
		fputs(
		      "variant,mode,producers,batch,runs,events_per_sec,spread_pct,ns_per_event,ns_over_trig_prog,drops_pct,in_run_stddev_pct,other_cpus,records_per_wakeup_min,records_per_wakeup_max,regimes\n",
		      csv);
	printf("%-12s %-7s %4s %6s %12s %8s %10s %10s %8s %6s %13s\n", "variant", "mode",
	       "prod", "batch", "events/s", "spread", "ns/event", "over-base", "drops",
	       "other", "rec/wake-up");
	for (int i = 0; i < nc; i++) {
		derive(&c[i], baseline(c, nc, c[i].key->producers), &w);
		if (csv)
			csv_row(csv, &c[i], &w);
		table_row(&c[i], &w);
	}
	for (int i = 0; i < nc; i++) {
		derive(&c[i], baseline(c, nc, c[i].key->producers), &w);
		if (w.regimes) {
			regime_note(&c[i], &w, first);
			first = false;
		}
	}
}

int sweep_stats_print(const struct sweep_run *runs, int n, const char *csv_path,
		      const char *guard)
{
	struct sweep_config *c;
	struct atomic_file af;
	int nc = 0, err = 0;

	c = pool_runs(runs, n, &nc);
	if (!c) {
		fprintf(stderr, "bench sweep-table: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	if (csv_path)
		err = atomic_file_open(&af, csv_path);
	if (!err) {
		print_all(c, nc, csv_path ? af.f : NULL, guard);
		if (csv_path)
			err = atomic_file_finish(&af, ferror(af.f) ? -EIO : 0);
	}
	free_configs(c, nc);
	if (err) {
		fprintf(stderr, "bench sweep-table: --csv '%s': %s\n", csv_path, strerror(-err));
		return BENCH_EXIT_FAIL;
	}
	return 0;
}
