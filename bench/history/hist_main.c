// SPDX-License-Identifier: GPL-2.0
/*
 * bench history: add, check, report and threshold; plot (hist_plot.c),
 * export and import (hist_bmf.c).  Reports are read and checked whole
 * before the database is opened, and every write is one transaction.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "hist_add.h"
#include "hist_bmf.h"
#include "hist_cli.h"
#include "hist_db.h"
#include "hist_eval.h"
#include "hist_ingest.h"
#include "hist_plot.h"

/* A database failure: one line, the transaction rolled back. */
static int db_failed(struct hist_db *db, const char *path, const char *what)
{
	fprintf(stderr, "%s: %s: %s: %s; the history is as it was\n", HIST_WHO, path,
		what, hdb_errmsg(db));
	hdb_rollback(db);
	return BENCH_EXIT_FAIL;
}

static struct hist_db *open_db(const struct hist_opts *o, bool create)
{
	char err[512];
	struct hist_db *db = hdb_open(o->db, create, o->schema, err, sizeof(err));

	if (!db)
		fprintf(stderr, "%s: %s\n", HIST_WHO, err);
	return db;
}

static int read_reports(const struct hist_opts *o, struct hist_batch *b)
{
	for (int i = 0; i < o->n_files; i++) {
		int ret = hist_ingest(o->files[i], o->testbed, b);

		if (ret)
			return ret;
	}
	return 0;
}

static int cmd_add(const struct hist_opts *o, struct hist_batch *b)
{
	struct hist_db *db;
	int added = 0, ret;

	db = open_db(o, true);
	if (!db)
		return BENCH_EXIT_FAIL;
	if (hdb_begin(db)) {
		ret = db_failed(db, o->db, "starting the transaction");
		goto out;
	}
	ret = hist_add_batch(db, o, b, &added);
	if (ret > 0) {
		hdb_rollback(db);
		goto out;
	}
	if (ret || hdb_commit(db)) {
		ret = db_failed(db, o->db, "adding");
		goto out;
	}
	if (added)
		printf("%s: added %d result%s of %zu testbed%s to branch %s at commit %.12s\n",
		       HIST_WHO, added, added == 1 ? "" : "s", b->n_testbeds,
		       b->n_testbeds == 1 ? "" : "s", o->branch, o->commit);
	else
		printf("%s: this run of commit %.12s is already in branch %s: nothing added\n",
		       HIST_WHO, o->commit, o->branch);
out:
	hdb_close(db);
	return ret;
}

/*
 * "alert: ...", "inconclusive: ..." or "unconfirmed: ...": one line, the
 * limit, the run's bound, the window.
 */
static void print_verdict(const char *label, const struct hist_point *p,
			  const struct hist_eval *e, const char *branch, const char *testbed)
{
	const char *side = e->above ? "upper" : "lower";
	char win[256], own[160] = "";

	hist_window_text(e, branch, testbed, win, sizeof(win));
	if (e->model.candidate && p->n > 1 && p->stddev > 0)
		snprintf(own, sizeof(own), "; its %g%% bound %.6g from %ld samples, stddev %.3g",
			 100 * e->model.candidate, e->bound, p->n, p->stddev);
	printf("%s: %s %s: %.6g %s %s the %s limit %.6g (%s, %s boundary %g%s%s; window: %s)\n",
	       label, p->benchmark, p->measure, p->mean, p->units,
	       e->above ? "above" : "below", side, e->limit, hist_test_name(e->model.test),
	       side, e->boundary, own, e->inconclusive ? ", not past it" : "", win);
}

/* The series of p in the store; false when any part of it is new. */
static bool find_series(struct hist_db *db, const struct hist_opts *o,
			const struct hist_batch *b, const struct hist_point *p,
			struct hdb_series *s)
{
	int64_t project = hdb_project(db, o->project, false);

	memset(s, 0, sizeof(*s));
	s->measure_name = p->measure;
	if (project <= 0)
		return false;
	s->branch = hdb_branch(db, project, o->branch, false, 0, 0);
	if (s->branch > 0)
		hdb_branch_start(db, s->branch, &s->start_branch, &s->start_time);
	else if (o->start_point) {
		s->start_branch = hdb_branch(db, project, o->start_point, false, 0, 0);
		s->start_time = o->time;
	}
	s->testbed = hdb_testbed(db, project, &b->testbeds[p->testbed], false);
	s->benchmark = hdb_benchmark(db, project, p->benchmark, false);
	s->measure = hdb_measure(db, project, p->measure, p->units, false, false);
	return s->testbed > 0 && s->benchmark > 0 && s->measure > 0 &&
	       (s->branch > 0 || s->start_branch > 0);
}

/* The rerun's result of p's benchmark, measure and testbed, or NULL. */
static const struct hist_point *rerun_of(const struct hist_batch *b, const struct hist_point *p,
					 const struct hist_batch *rerun)
{
	for (size_t i = 0; i < rerun->n_points; i++) {
		const struct hist_point *q = &rerun->points[i];

		if (!strcmp(q->benchmark, p->benchmark) && !strcmp(q->measure, p->measure) &&
		    !strcmp(rerun->testbeds[q->testbed].name, b->testbeds[p->testbed].name))
			return q;
	}
	return NULL;
}

/*
 * Whether p's alert stands: without a rerun, yes; with one, when the
 * rerun's result is past the same window's limit too (or missing: then
 * nothing contradicts it).  The rerun's line goes to note.  <0 on a
 * failure.
 */
static int alert_confirmed(struct hist_db *db, const struct hist_opts *o,
			   const struct hist_batch *b, const struct hist_point *p,
			   struct hdb_series *s, const struct hist_batch *rerun,
			   char *note, size_t len)
{
	const struct hist_point *q;
	struct hist_candidate c;
	struct hist_eval e = { .enough = false };
	int ret;

	note[0] = 0;
	if (!rerun)
		return 1;
	q = rerun_of(b, p, rerun);
	if (!q) {
		snprintf(note, len, "  rerun: no %s %s in %s; the alert stands\n", p->benchmark,
			 p->measure, o->confirm);
		return 1;
	}
	c = (struct hist_candidate){ .mean = q->mean, .stddev = q->stddev, .n = q->n };
	ret = hist_evaluate(db, o, s, q->higher_is_better, &c, o->time, 0, &e);
	if (ret)
		return ret > 0 ? -ret : -1;
	snprintf(note, len, "  rerun (%s): %.6g %s, %s\n", o->confirm, q->mean, q->units,
		 e.alert ? "past the limit too: confirmed" : "within it: not confirmed");
	return e.alert;
}

static int check_batch(const struct hist_opts *o, const struct hist_batch *b,
		       const struct hist_batch *rerun)
{
	int alerts = 0, unsure = 0, thin = 0, unconfirmed = 0;
	struct hist_db *db;

	if (access(o->db, F_OK)) {
		printf("%s: %s does not exist yet: %zu results, no history, 0 alerts\n", HIST_WHO,
		       o->db, b->n_points);
		return 0;
	}
	db = open_db(o, false);
	if (!db)
		return BENCH_EXIT_FAIL;
	for (size_t i = 0; i < b->n_points; i++) {
		const struct hist_point *p = &b->points[i];
		struct hdb_series s;
		struct hist_candidate c = { .mean = p->mean, .stddev = p->stddev, .n = p->n };
		struct hist_eval e = { .enough = false };
		char note[512];
		int ret = find_series(db, o, b, p, &s) ?
			  hist_evaluate(db, o, &s, p->higher_is_better, &c, o->time, 0, &e) : 0;

		if (ret) {
			ret = ret > 0 ? ret : db_failed(db, o->db, "reading the window");
			hdb_close(db);
			return ret;
		}
		if (!e.enough)
			thin++;
		if (e.alert) {
			ret = alert_confirmed(db, o, b, p, &s, rerun, note, sizeof(note));
			if (ret < 0) {
				ret = ret == -1 ? db_failed(db, o->db, "reading the window") : -ret;
				hdb_close(db);
				return ret;
			}
			print_verdict(ret ? "alert" : "unconfirmed", p, &e, o->branch,
				      b->testbeds[p->testbed].name);
			fputs(note, stdout);
			alerts += ret > 0;
			unconfirmed += !ret;
		} else if (e.inconclusive) {
			print_verdict("inconclusive", p, &e, o->branch,
				      b->testbeds[p->testbed].name);
		}
		unsure += e.inconclusive;
	}
	printf("%s: %zu result%s checked on branch %s: ", HIST_WHO, b->n_points,
	       b->n_points == 1 ? "" : "s", o->branch);
	printf("%d alert%s, %d inconclusive, ", alerts, alerts == 1 ? "" : "s", unsure);
	if (rerun)
		printf("%d not confirmed by the rerun, ", unconfirmed);
	printf("%d with too little history\n", thin);
	hdb_close(db);
	return alerts ? 1 : 0;
}

static int cmd_check(const struct hist_opts *o, const struct hist_batch *b)
{
	struct hist_batch rerun = {};
	int ret;

	if (o->confirm) {
		ret = hist_ingest(o->confirm, o->testbed, &rerun);
		if (!ret)
			ret = check_batch(o, b, &rerun);
		hist_batch_free(&rerun);
		return ret;
	}
	return check_batch(o, b, NULL);
}

struct report_ctx {
	struct hist_db *db;
	const struct hist_opts *o;
	int failed;
};

static void fmt_limit(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.6g", v);
}

/* One line: the latest result, the limits of the window before it, the trend. */
static int report_series(const struct hdb_series_row *r, void *vctx)
{
	struct report_ctx *c = vctx;
	struct hdb_series s = { .branch = r->branch, .testbed = r->testbed,
				.benchmark = r->benchmark, .measure = r->measure,
				.measure_name = r->measure_name, .max_n = 1 };
	char lo[32], hi[32], tr[32];
	struct hdb_value *last;
	struct hist_candidate cand;
	struct hist_eval e;
	size_t n;

	hdb_branch_start(c->db, r->branch, &s.start_branch, &s.start_time);
	c->failed = hdb_window(c->db, &s, &last, &n) || !n ? -1 : 0;
	if (!c->failed) {
		cand = (struct hist_candidate){ last[0].mean, last[0].stddev, last[0].n };
		c->failed = hist_evaluate(c->db, c->o, &s, r->higher_is_better, &cand,
					  last[0].time, 1, &e);
	}
	if (c->failed) {
		free(last);
		return 1;
	}
	fmt_limit(lo, sizeof(lo), e.lim.lower);
	fmt_limit(hi, sizeof(hi), e.lim.upper);
	snprintf(tr, sizeof(tr), isnan(e.trend_pct) ? "-" : "%+.2f%%/result", e.trend_pct);
	printf("%-32s %-10s %-10s %-26s %5ld  %.7s %12.6g %-10s %12s %12s %14s  %s\n",
	       r->benchmark_name, r->measure_name, r->branch_name, r->testbed_name, r->count,
	       last[0].commit, last[0].mean, r->units, lo, hi, tr,
	       !e.enough ? "too little history" : e.alert ? "ALERT" :
	       e.inconclusive ? "inconclusive" : "ok");
	free(last);
	return 0;
}

static int cmd_report(const struct hist_opts *o)
{
	struct hist_db *db = open_db(o, false);
	struct report_ctx c = { .db = db, .o = o };

	if (!db)
		return BENCH_EXIT_FAIL;
	printf("%-32s %-10s %-10s %-26s %5s  %-7s %12s %-10s %12s %12s %14s  %s\n",
	       "benchmark", "measure", "branch", "testbed", "runs", "latest", "value", "units",
	       "lower limit", "upper limit", "trend", "status");
	if (hdb_each_series(db, report_series, &c) || c.failed) {
		c.failed = c.failed > 0 ? c.failed : db_failed(db, o->db, "reading");
		hdb_close(db);
		return c.failed;
	}
	hdb_close(db);
	return 0;
}

static int cmd_threshold(const struct hist_opts *o)
{
	struct hist_db *db = open_db(o, true);
	struct hdb_threshold t = {};
	struct hist_model m;
	int ret = 0;

	if (!db)
		return BENCH_EXIT_FAIL;
	/* The direction is the measure's: boundaries given here are kept as given. */
	hist_model_for(o, NULL, false, &m);
	snprintf(t.test, sizeof(t.test), "%s", hist_test_name(m.test));
	t.min_n = m.min_n;
	t.max_n = m.max_n;
	t.window_sec = m.window_sec;
	t.lower = m.lower;
	t.upper = m.upper;
	if (hdb_begin(db) || hdb_set_threshold(db, o->measure, &t) || hdb_commit(db))
		ret = db_failed(db, o->db, "setting the threshold");
	else
		printf("%s: measure %s: %s, boundaries %g (lower), %g (upper), %ld-%ld results\n",
		       HIST_WHO, o->measure, t.test, t.lower, t.upper, t.min_n, t.max_n);
	hdb_close(db);
	return ret;
}

/* FNV-1a over the reports' bytes: the same files are the same run. */
static int digest_files(const struct hist_opts *o, uint64_t *h)
{
	*h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < o->n_files; i++) {
		FILE *f = fopen(o->files[i], "rb");
		int c;

		if (!f)
			return hist_usage_error("%s: cannot read it", o->files[i]);
		while ((c = getc(f)) != EOF)
			*h = (*h ^ (unsigned char)c) * 0x100000001b3ULL;
		fclose(f);
	}
	return 0;
}

static int history_main(int argc, char **argv)
{
	struct hist_batch b = {};
	struct hist_opts o;
	int ret = hist_parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (o.cmd == HIST_ADD || o.cmd == HIST_CHECK) {
		ret = read_reports(&o, &b);
		if (!ret)
			ret = digest_files(&o, &b.digest);
		if (!ret)
			ret = o.cmd == HIST_ADD ? cmd_add(&o, &b) : cmd_check(&o, &b);
		hist_batch_free(&b);
		return ret;
	}
	switch (o.cmd) {
	case HIST_REPORT:
		return cmd_report(&o);
	case HIST_PLOT:
		return hist_plot(&o);
	case HIST_EXPORT:
		return hist_export(&o);
	case HIST_IMPORT:
		return hist_import(&o);
	default:
		return cmd_threshold(&o);
	}
}

BENCH_COMMAND(history_command, "history", history_main);
