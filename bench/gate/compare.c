// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare BASELINE.json CANDIDATE.json: the regression gate.
 *
 * Each file is one bench --json report, or an array of them (e.g.
 * "jq -s . runs/NAME.json").  Runs are matched by their "config"; several
 * runs of one config in a file are pooled, so that runs of the baseline
 * and the candidate taken in turns share whatever the machine was doing.
 * Every metric of a run's "metrics" array (samples, unit, which direction
 * is better) is compared with Welch's t-test plus a minimum effect size
 * (gate.c).  One table, then the exit code: 0 nothing regressed, 1 a
 * regression, 2 bad input (unreadable file, not a bench report, different
 * benchmarks or metrics, fewer than GATE_MIN_SAMPLES samples).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gate.h"
#include "json_reader.h"
#include "options.h"
#include "report.h"
#include "report_reader.h"

#define DEFAULT_THRESHOLD_PCT	5.0
#define DEFAULT_ALPHA		0.05

#define EXIT_NO_REGRESSION	0
#define EXIT_REGRESSED		1
#define EXIT_BAD_INPUT		BENCH_EXIT_USAGE

struct cmp_opts {
	double threshold_pct;
	double alpha;
};

struct cmp_counts {
	int verdicts[GATE_INCONCLUSIVE + 1];
	int unavailable;
};

static const char usage_text[] =
"Usage: bench compare BASELINE.json CANDIDATE.json [--threshold PCT] [--alpha A]\n"
"\n"
"Compares two bench --json reports (each one run, or an array of runs),\n"
"benchmark by benchmark (matched by config) and metric by metric: Welch's\n"
"t-test on the samples and a minimum effect size.  A metric regressed when\n"
"it moved the wrong way (lower throughput, higher ns/run) by at least PCT\n"
"percent with p < A; improved likewise the right way; a smaller change is\n"
"no change; a larger one with p >= A is inconclusive.\n"
"\n"
"  --threshold PCT  minimum effect, percent of the baseline (default 5)\n"
"  --alpha A        significance level of the t-test (default 0.05)\n"
"\n"
"Exit codes: 0 nothing regressed, 1 a metric regressed, 2 bad input\n"
"(unreadable or not a bench report, different benchmarks or metrics,\n"
"fewer than 3 samples).\n";

#define bad_input(...) bench_cmd_usage_error("bench compare", __VA_ARGS__)

static const char *better_name(const struct report_metric *m)
{
	return m->higher_is_better ? "higher" : "lower";
}

/* Every run of a in b; every metric of each such run in b's, alike. */
static int check_same_runs(const struct report_file *a, const struct report_file *b)
{
	for (size_t i = 0; i < a->n_runs; i++) {
		const struct report_run *ra = &a->runs[i];
		const struct report_run *rb = report_find_run(b, ra->config);

		if (!rb)
			return bad_input(
					 "different benchmarks: '%s' is in %s but not in %s",
					 ra->config, a->path, b->path);
		if (ra->n_metrics != rb->n_metrics)
			return bad_input("%s: %s has %zu metrics, %s has %zu", ra->config,
					 a->path, ra->n_metrics, b->path, rb->n_metrics);
		for (size_t j = 0; j < ra->n_metrics; j++) {
			const struct report_metric *ma = &ra->metrics[j];
			const struct report_metric *mb = report_find_metric(rb, ma->name);

			if (!mb)
				return bad_input("%s: metric '%s' is in %s but not in %s",
						 ra->config, ma->name, a->path, b->path);
			if (strcmp(ma->unit, mb->unit) ||
			    ma->higher_is_better != mb->higher_is_better)
				return bad_input(
						 "%s, metric '%s': unit or direction differ (%s, %s is better in %s; %s, %s in %s)",
						 ra->config, ma->name, ma->unit,
						 better_name(ma), a->path, mb->unit,
						 better_name(mb),
						 b->path);
		}
	}
	return 0;
}

static int check_sample_counts(const struct report_file *f)
{
	for (size_t i = 0; i < f->n_runs; i++)
		for (size_t j = 0; j < f->runs[i].n_metrics; j++) {
			const struct report_metric *m = &f->runs[i].metrics[j];

			if (m->available && m->n < GATE_MIN_SAMPLES)
				return bad_input(
						 "%s: %s, metric '%s': %zu sample%s, the t-test needs at least %d (run longer, -d)",
						 f->path, f->runs[i].config, m->name, m->n,
						 m->n == 1 ? "" : "s", GATE_MIN_SAMPLES);
		}
	return 0;
}

/* A value for the table: k and M for the large rates. */
static void fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.3fM %s", v / 1e6, unit);
	else if (fabs(v) >= 1e4)
		snprintf(buf, len, "%.2fk %s", v / 1e3, unit);
	else
		snprintf(buf, len, "%.2f %s", v, unit);
}

static void print_header(void)
{
	printf("%-40s %-12s %20s %20s %9s %9s  %s\n", "benchmark", "metric",
	       "baseline", "candidate", "delta", "p-value", "verdict");
}

static void print_unavailable(const struct report_run *r, const struct report_metric *ma,
			      const struct report_metric *mb, struct cmp_counts *c)
{
	const struct report_metric *off = ma->available ? mb : ma;

	printf("%-40s %-12s %20s %20s %9s %9s  n/a: %s in the %s (%s)\n", r->config,
	       ma->name, ma->available ? "-" : "n/a", mb->available ? "-" : "n/a",
	       "-", "-", "unavailable", off == ma ? "baseline" : "candidate",
	       off->reason ? off->reason : "no reason given");
	c->unavailable++;
}

static void compare_metric(const struct report_run *r, const struct report_metric *ma,
			   const struct report_metric *mb, const struct cmp_opts *o,
			   struct cmp_counts *c)
{
	char vb[32], vc[32], p[16];
	struct gate_result g;

	if (!ma->available || !mb->available) {
		print_unavailable(r, ma, mb, c);
		return;
	}
	/* The sample counts were checked: it cannot fail here. */
	gate_compare(ma->samples, ma->n, mb->samples, mb->n, ma->higher_is_better,
		     o->threshold_pct, o->alpha, &g);
	c->verdicts[g.verdict]++;
	fmt_value(vb, sizeof(vb), g.base_mean, ma->unit);
	fmt_value(vc, sizeof(vc), g.cand_mean, ma->unit);
	snprintf(p, sizeof(p), g.welch.p < 1e-4 ? "%.1e" : "%.4f", g.welch.p);
	printf("%-40s %-12s %20s %20s %+8.1f%% %9s  %s\n", r->config, ma->name, vb,
	       vc, g.delta_pct, p, gate_verdict_name(g.verdict));
}

/* What differs from the plain case: variants compared, runs pooled. */
static void print_run_notes(const struct report_file *a, const struct report_file *b)
{
	for (size_t i = 0; i < a->n_runs; i++) {
		const struct report_run *ra = &a->runs[i];
		const struct report_run *rb = report_find_run(b, ra->config);

		if (ra->variant && rb->variant && strcmp(ra->variant, rb->variant))
			printf("%s: baseline variant '%s', candidate variant '%s'\n",
			       ra->config, ra->variant, rb->variant);
		if (ra->pooled > 1 || rb->pooled > 1)
			printf("%s: samples of %d baseline and %d candidate runs pooled\n",
			       ra->config, ra->pooled, rb->pooled);
	}
}

static int compare_files(const struct report_file *a, const struct report_file *b,
			 const struct cmp_opts *o)
{
	struct cmp_counts c = {};
	int metrics = 0;

	printf("Baseline %s, candidate %s: minimum effect %g%%, alpha %g\n",
	       a->path, b->path, o->threshold_pct, o->alpha);
	print_run_notes(a, b);
	print_header();
	for (size_t i = 0; i < a->n_runs; i++) {
		const struct report_run *ra = &a->runs[i];
		const struct report_run *rb = report_find_run(b, ra->config);

		for (size_t j = 0; j < ra->n_metrics; j++, metrics++)
			compare_metric(ra, &ra->metrics[j],
				       report_find_metric(rb, ra->metrics[j].name), o, &c);
	}
	printf(
	       "%zu benchmark%s, %d metric%s: %d regressed, %d improved, %d no change, %d inconclusive, %d unavailable\n",
	       a->n_runs,
	       a->n_runs == 1 ? "" : "s", metrics, metrics == 1 ? "" : "s",
	       c.verdicts[GATE_REGRESSED], c.verdicts[GATE_IMPROVED],
	       c.verdicts[GATE_NO_CHANGE], c.verdicts[GATE_INCONCLUSIVE],
	       c.unavailable);
	return c.verdicts[GATE_REGRESSED] ? EXIT_REGRESSED : EXIT_NO_REGRESSION;
}

static int parse_double(const char *opt, const char *arg, double min, double max,
			bool min_open, const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || isnan(v) || v > max ||
	    (min_open ? v <= min : v < min))
		return bad_input("%s '%s': expected %s, %s%g to %g", opt, arg, what,
				 min_open ? "above " : "", min, max);
	*out = v;
	return 0;
}

static int parse_compare_args(int argc, char **argv, struct cmp_opts *o,
			      const char **paths)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c, n = 0;

	o->threshold_pct = DEFAULT_THRESHOLD_PCT;
	o->alpha = DEFAULT_ALPHA;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		case 't':
			if (parse_double("--threshold", optarg, 0, 1000, false,
					 "a percentage", &o->threshold_pct))
				return EXIT_BAD_INPUT;
			break;
		case 'a':
			if (parse_double("--alpha", optarg, 0, 0.5, true,
					 "a significance level", &o->alpha))
				return EXIT_BAD_INPUT;
			break;
		case ':':
			return bad_input(
					 "option '%s' needs a value (see bench compare --help)",
					 argv[optind - 1]);
		default:
			return bad_input("unknown option '%s' (see bench compare --help)",
					 argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++, n++)
		if (n < 2)
			paths[n] = argv[i];
	if (n != 2)
		return bad_input(
				 "expected two files, BASELINE.json CANDIDATE.json, got %d (see bench compare --help)",
				 n);
	return 0;
}

static int compare_main(int argc, char **argv)
{
	struct report_file base = {}, cand = {};
	const char *paths[2];
	struct cmp_opts o;
	int ret;

	ret = parse_compare_args(argc, argv, &o, paths);
	if (ret)
		return ret < 0 ? 0 : ret;
	base.path = paths[0];
	base.who = "bench compare";
	cand.path = paths[1];
	cand.who = "bench compare";
	ret = report_read_file(&base);
	if (!ret)
		ret = report_read_file(&cand);
	if (!ret)
		ret = check_same_runs(&base, &cand);
	if (!ret)
		ret = check_same_runs(&cand, &base);
	if (!ret)
		ret = check_sample_counts(&base);
	if (!ret)
		ret = check_sample_counts(&cand);
	if (!ret)
		ret = compare_files(&base, &cand, &o);
	report_free_file(&base);
	report_free_file(&cand);
	return ret;
}

BENCH_COMMAND(compare_command, "compare", compare_main);
