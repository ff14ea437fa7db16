// SPDX-License-Identifier: GPL-2.0
/*
 * Reading reports into a batch of results (hist_ingest.h).  bench --json
 * goes through the gate's reader (bench/report_reader.c), which checks
 * every sample; the mean and stddev are bench/stats.c's.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist_ingest.h"
#include "json_file.h"
#include "json_reader.h"
#include "opt_values.h"
#include "report_reader.h"
#include "stats.h"
#include "util.h"

#define WHO "bench history"

void hist_batch_free(struct hist_batch *b)
{
	for (size_t i = 0; i < b->n_points; i++) {
		free(b->points[i].benchmark);
		free(b->points[i].measure);
		free(b->points[i].units);
	}
	for (size_t i = 0; i < b->n_testbeds; i++) {
		free(b->testbeds[i].name);
		free(b->testbeds[i].machine);
		free(b->testbeds[i].kernel);
		free(b->testbeds[i].accel);
	}
	free(b->points);
	free(b->testbeds);
	memset(b, 0, sizeof(*b));
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* The testbed of that name, added if new; its index, or -1. */
static long testbed_index(struct hist_batch *b, const char *name, const char *machine,
			  const char *kernel, const char *accel, bool icount)
{
	struct hist_testbed *more, *t;

	for (size_t i = 0; i < b->n_testbeds; i++)
		if (!strcmp(b->testbeds[i].name, name))
			return i;
	more = reallocarray(b->testbeds, b->n_testbeds + 1, sizeof(*more));
	if (!more)
		return -1;
	b->testbeds = more;
	t = &b->testbeds[b->n_testbeds];
	t->name = dup_or_empty(name);
	t->machine = dup_or_empty(machine);
	t->kernel = dup_or_empty(kernel);
	t->accel = dup_or_empty(accel);
	t->icount = icount;
	if (!t->name || !t->machine || !t->kernel || !t->accel)
		return -1;
	return b->n_testbeds++;
}

static int add_point(const char *path, struct hist_batch *b, const struct hist_point *p)
{
	struct hist_point *more, *q;

	if (!isfinite(p->mean) || p->mean < 0 || !isfinite(p->stddev) || p->stddev < 0)
		return bench_cmd_usage_error(WHO,
					   "%s: %s, measure '%s': value %g, spread %g: expected finite numbers >= 0",
					   path, p->benchmark, p->measure, p->mean, p->stddev);
	for (size_t i = 0; i < b->n_points; i++) {
		q = &b->points[i];
		if (q->testbed == p->testbed && !strcmp(q->benchmark, p->benchmark) &&
		    !strcmp(q->measure, p->measure))
			return bench_cmd_usage_error(WHO,
						   "%s: %s, measure '%s' on testbed %s given twice; pool the runs into one file (jq -s)",
						   path, p->benchmark, p->measure,
						   b->testbeds[p->testbed].name);
	}
	more = reallocarray(b->points, b->n_points + 1, sizeof(*more));
	if (!more)
		return bench_cmd_usage_error(WHO, "out of memory");
	b->points = more;
	q = &b->points[b->n_points];
	*q = *p;
	q->benchmark = strdup(p->benchmark);
	q->measure = strdup(p->measure);
	q->units = strdup(p->units);
	b->n_points++;
	if (!q->benchmark || !q->measure || !q->units)
		return bench_cmd_usage_error(WHO, "out of memory");
	return 0;
}

/* Every available metric of a run, as points of one testbed. */
static int add_run(const char *path, struct hist_batch *b, const struct report_run *r,
		   const char *benchmark, size_t tb)
{
	for (size_t i = 0; i < r->n_metrics; i++) {
		const struct report_metric *m = &r->metrics[i];
		struct hist_point p = {
			.benchmark = (char *)benchmark, .measure = (char *)m->name,
			.units = (char *)m->unit, .higher_is_better = m->higher_is_better,
			.testbed = tb,
		};
		int ret;

		if (!m->available || !m->n)
			continue;
		p.mean = stats_mean(m->samples, m->n);
		p.stddev = stats_stddev(m->samples, m->n);
		p.n = m->n;
		ret = add_point(path, b, &p);
		if (ret)
			return ret;
	}
	return 0;
}

/* bench --json: a run or an array of runs, on the machine it describes. */
static int ingest_bench(const char *path, const char *testbed, struct hist_batch *b)
{
	struct report_file f = { .path = path, .who = WHO };
	int ret = report_read_file(&f);

	for (size_t i = 0; !ret && i < f.n_runs; i++) {
		const struct json_value *env = json_get(f.runs[i].json, "environment");
		const char *release = json_get_string(env, "kernel_release");
		/* "machine" is what bench wrote before "arch" (one key for both binaries). */
		const char *arch = json_get_string(env, "arch") ?: json_get_string(env, "machine");
		const char *cpu = json_get_string(env, "cpu_model");
		char name[256], machine[256];
		double cpus = 0;
		long tb;

		json_get_number(env, "cpus_online", &cpus);
		snprintf(name, sizeof(name), "%s-%gcpu-%s", arch ? arch : "unknown",
			 cpus, release ? release : "unknown");
		snprintf(machine, sizeof(machine), "%s, %s, %g CPUs",
			 arch ? arch : "?", cpu ? cpu : "?", cpus);
		tb = testbed_index(b, testbed ? testbed : name, machine, release, "host", false);
		ret = tb < 0 ? bench_cmd_usage_error(WHO, "out of memory") :
		      add_run(path, b, &f.runs[i], f.runs[i].config, tb);
	}
	report_free_file(&f);
	return ret;
}

/* vmtest --bench --json: every measured cell, a testbed per kernel. */
static int ingest_vmtest(const char *path, const struct json_value *root,
			 const char *testbed, struct hist_batch *b)
{
	const struct json_value *cells = json_get(root, "cells");
	const struct json_value *icount = json_get(root, "icount");
	const char *accel = json_get_string(root, "accelerator");
	bool ic = icount && icount->type == JSON_BOOL && icount->boolean;
	struct report_file f = { .path = path, .who = WHO };
	int ret = 0;

	if (!cells || cells->type != JSON_ARRAY)
		return bench_cmd_usage_error(WHO, "%s: 'cells' is not an array", path);
	for (size_t i = 0; !ret && i < cells->array.n; i++) {
		const struct json_value *c = &cells->array.items[i];
		const char *status = json_get_string(c, "status");
		const char *kernel = json_get_string(c, "kernel");
		const char *name = json_get_string(c, "name");
		struct report_run r = {};
		char tbname[256];
		long tb;

		if (!status || strcmp(status, "ok"))
			continue;
		if (!kernel || !name)
			return bench_cmd_usage_error(WHO, "%s: cell %zu has no 'kernel' or 'name'",
						   path, i);
		snprintf(tbname, sizeof(tbname), "%s%svm-%s%s-%s", testbed ? testbed : "",
			 testbed ? "-" : "", accel ? accel : "unknown", ic ? "-icount" : "",
			 kernel);
		tb = testbed_index(b, tbname, "QEMU guest", kernel, accel, ic);
		if (tb < 0)
			return bench_cmd_usage_error(WHO, "out of memory");
		ret = report_read_run(&f, i, c, &r);
		if (!ret)
			ret = add_run(path, b, &r, name, tb);
		report_free_run(&r);
	}
	return ret;
}

int hist_bmf_measure(const char *measure, const char **units, bool *higher_is_better)
{
	static const struct {
		const char *name, *units;
		bool higher;
	} known[] = {
		{ "latency", "ns", false },
		{ "throughput", "operations/s", true },
		{ "instructions", "instructions", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(measure, known[i].name)) {
			*units = known[i].units;
			*higher_is_better = known[i].higher;
			return 0;
		}
	return -1;
}

static int bmf_measure(const char *path, const char *bench, const struct json_member *mm,
		       size_t tb, struct hist_batch *b)
{
	struct hist_point p = { .benchmark = (char *)bench, .measure = mm->key, .n = 1,
				.testbed = tb };
	double lo, hi;
	const char *units;

	if (json_get_number(&mm->value, "value", &p.mean))
		return bench_cmd_usage_error(WHO, "%s: %s, measure '%s': no number 'value'",
					   path, bench, mm->key);
	if (hist_bmf_measure(mm->key, &units, &p.higher_is_better))
		return bench_cmd_usage_error(WHO,
					   "%s: %s, measure '%s': units unknown; BMF measures taken: latency, throughput, instructions (or bench history import with its manifest)",
					   path, bench, mm->key);
	p.units = (char *)units;
	if (!json_get_number(&mm->value, "lower_value", &lo) &&
	    !json_get_number(&mm->value, "upper_value", &hi))
		p.stddev = (hi - lo) / 2;
	return add_point(path, b, &p);
}

/* BMF: {"benchmark": {"measure": {"value", "lower_value", "upper_value"}}}. */
static int ingest_bmf(const char *path, const struct json_value *root,
		      const char *testbed, struct hist_batch *b)
{
	long tb;
	int ret = 0;

	if (!testbed)
		return bench_cmd_usage_error(WHO,
					   "%s: a BMF file says nothing of where it ran: give --testbed NAME",
					   path);
	tb = testbed_index(b, testbed, "", "", "", false);
	if (tb < 0)
		return bench_cmd_usage_error(WHO, "out of memory");
	for (size_t i = 0; !ret && i < root->object.n; i++) {
		const struct json_member *bm = &root->object.members[i];

		for (size_t j = 0; !ret && j < bm->value.object.n; j++)
			ret = bmf_measure(path, bm->key, &bm->value.object.members[j], tb, b);
	}
	return ret;
}

/* An object of objects of objects with "value": Bencher Metric Format. */
static bool is_bmf(const struct json_value *root)
{
	if (root->type != JSON_OBJECT || !root->object.n)
		return false;
	for (size_t i = 0; i < root->object.n; i++) {
		const struct json_value *bm = &root->object.members[i].value;

		if (bm->type != JSON_OBJECT || !bm->object.n)
			return false;
		for (size_t j = 0; j < bm->object.n; j++)
			if (!json_get(&bm->object.members[j].value, "value"))
				return false;
	}
	return true;
}

int hist_ingest(const char *path, const char *testbed, struct hist_batch *b)
{
	struct json_value *root;
	char err[512];
	int ret;

	root = json_parse_file(path, err, sizeof(err));
	if (!root)
		return bench_cmd_usage_error(WHO, "%s: %s", path, err);
	if (json_get(root, "cells") && json_get(root, "kernels"))
		ret = ingest_vmtest(path, root, testbed, b);
	else if (is_bmf(root))
		ret = ingest_bmf(path, root, testbed, b);
	else if (root->type == JSON_ARRAY || json_get(root, "metrics"))
		ret = ingest_bench(path, testbed, b);
	else
		ret = bench_cmd_usage_error(WHO,
					  "%s: not a report bench history reads (bench --json: 'metrics'; BMF: measures with 'value'; vmtest --bench --json: 'cells')",
					  path);
	json_free(root);
	if (!ret && !b->n_points)
		ret = bench_cmd_usage_error(WHO, "%s: no measured result in it", path);
	return ret;
}
