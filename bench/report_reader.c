// SPDX-License-Identifier: GPL-2.0
/*
 * Reading bench --json reports back (report_reader.h): the runs, their
 * metrics and samples, checked as they are read, since a gate or a
 * history that takes a bad number for a sample decides on nonsense.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"
#include "options.h"
#include "report_reader.h"

void report_free_run(struct report_run *r)
{
	for (size_t j = 0; j < r->n_metrics; j++)
		free(r->metrics[j].samples);
	free(r->metrics);
	memset(r, 0, sizeof(*r));
}

void report_free_file(struct report_file *f)
{
	for (size_t i = 0; i < f->n_runs; i++)
		report_free_run(&f->runs[i]);
	free(f->runs);
	json_free(f->root);
}

static int read_samples(const struct report_file *f, const struct report_run *r,
			const struct json_value *arr, struct report_metric *m)
{
	if (!arr || arr->type != JSON_ARRAY)
		return bench_cmd_usage_error(f->who,
				 "%s: %s, metric '%s': 'samples' is missing or not an array",
				 f->path, r->config, m->name);
	m->samples = calloc(arr->array.n ? arr->array.n : 1, sizeof(*m->samples));
	if (!m->samples)
		return bench_cmd_usage_error(f->who, "out of memory");
	for (size_t i = 0; i < arr->array.n; i++) {
		if (arr->array.items[i].type != JSON_NUMBER)
			return bench_cmd_usage_error(f->who,
					 "%s: %s, metric '%s': sample %zu is %s, not a number",
					 f->path, r->config, m->name, i,
					 json_type_name(arr->array.items[i].type));
		m->samples[i] = arr->array.items[i].number;
		/* Rates, costs and counts: a negative one would flip the delta. */
		if (!isfinite(m->samples[i]) || m->samples[i] < 0)
			return bench_cmd_usage_error(f->who,
					 "%s: %s, metric '%s': sample %zu is %g, expected a finite number >= 0",
					 f->path, r->config,
					 m->name, i, m->samples[i]);
	}
	m->n = arr->array.n;
	return 0;
}

static int read_metric(const struct report_file *f, const struct report_run *r,
		       const struct json_value *v, struct report_metric *m)
{
	const struct json_value *avail = json_get(v, "available");
	const char *better;

	m->name = json_get_string(v, "name");
	m->unit = json_get_string(v, "unit");
	better = json_get_string(v, "better");
	if (!m->name || !m->unit || !better)
		return bench_cmd_usage_error(f->who,
					   "%s: %s: a metric without 'name', 'unit' or 'better'",
				 f->path, r->config);
	if (strcmp(better, "higher") && strcmp(better, "lower"))
		return bench_cmd_usage_error(f->who,
				 "%s: %s, metric '%s': 'better' is '%s', expected 'higher' or 'lower'",
				 f->path, r->config, m->name,
				 better);
	m->higher_is_better = !strcmp(better, "higher");
	m->available = !avail || (avail->type == JSON_BOOL && avail->boolean);
	if (!m->available) {
		m->reason = json_get_string(v, "reason");
		return 0;
	}
	return read_samples(f, r, json_get(v, "samples"), m);
}

int report_read_run(const struct report_file *f, size_t idx,
		    const struct json_value *v, struct report_run *r)
{
	const struct json_value *metrics;
	int ret;

	r->json = v;
	r->config = json_get_string(v, "config");
	r->variant = json_get_string(v, "variant");
	metrics = json_get(v, "metrics");
	if (!r->config)
		return bench_cmd_usage_error(f->who,
				 "%s: run %zu has no 'config': not a bench --json report",
				 f->path, idx);
	if (!metrics || metrics->type != JSON_ARRAY || !metrics->array.n)
		return bench_cmd_usage_error(f->who,
				 "%s: %s: no 'metrics' array: not a bench --json report (or one from an older bench)",
				 f->path,
				 r->config);
	r->metrics = calloc(metrics->array.n, sizeof(*r->metrics));
	if (!r->metrics)
		return bench_cmd_usage_error(f->who, "out of memory");
	for (size_t i = 0; i < metrics->array.n; i++) {
		r->n_metrics = i + 1;
		ret = read_metric(f, r, &metrics->array.items[i], &r->metrics[i]);
		if (ret)
			return ret;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->metrics[j].name, r->metrics[i].name))
				return bench_cmd_usage_error(f->who, "%s: %s: metric '%s' twice",
							   f->path,
						 r->config, r->metrics[i].name);
	}
	return 0;
}

static int append_samples(const char *who, struct report_metric *to,
			  const struct report_metric *from)
{
	double *more;

	if (!from->n)
		return 0;
	more = reallocarray(to->samples, to->n + from->n, sizeof(*more));
	if (!more)
		return bench_cmd_usage_error(who, "out of memory");
	memcpy(more + to->n, from->samples, from->n * sizeof(*more));
	to->samples = more;
	to->n += from->n;
	return 0;
}

const struct report_run *report_find_run(const struct report_file *f, const char *config)
{
	for (size_t i = 0; i < f->n_runs; i++)
		if (!strcmp(f->runs[i].config, config))
			return &f->runs[i];
	return NULL;
}

/* Another run of into's config: its samples join into's, metric by metric. */
static int pool_run(const struct report_file *f, struct report_run *into,
		    const struct report_run *r)
{
	bool same_variant = !into->variant == !r->variant &&
			    (!r->variant || !strcmp(into->variant, r->variant));

	if (!same_variant || into->n_metrics != r->n_metrics)
		return bench_cmd_usage_error(f->who,
				 "%s: runs of '%s' differ in variant or metrics; only runs of the same build pool",
				 f->path, r->config);
	for (size_t j = 0; j < r->n_metrics; j++) {
		const struct report_metric *m = &r->metrics[j];
		struct report_metric *to = &into->metrics[j];

		if (strcmp(to->name, m->name) || strcmp(to->unit, m->unit) ||
		    to->higher_is_better != m->higher_is_better || to->available != m->available)
			return bench_cmd_usage_error(f->who,
						   "%s: runs of '%s' differ in metric '%s'",
						   f->path, r->config, m->name);
		if (append_samples(f->who, to, m))
			return BENCH_EXIT_USAGE;
	}
	into->pooled++;
	return 0;
}

int report_read_file(struct report_file *f)
{
	const struct json_value *runs;
	size_t n;
	char err[512];
	int ret;

	f->root = json_parse_file(f->path, err, sizeof(err));
	if (!f->root)
		return bench_cmd_usage_error(f->who, "%s: %s", f->path, err);
	runs = f->root;
	n = runs->type == JSON_ARRAY ? runs->array.n : 1;
	if (runs->type != JSON_ARRAY && runs->type != JSON_OBJECT)
		return bench_cmd_usage_error(f->who,
				 "%s: %s, expected a bench report (an object) or an array of them",
				 f->path,
				 json_type_name(runs->type));
	if (!n)
		return bench_cmd_usage_error(f->who, "%s: an empty array, no runs", f->path);
	f->runs = calloc(n, sizeof(*f->runs));
	if (!f->runs)
		return bench_cmd_usage_error(f->who, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct report_run *r = &f->runs[f->n_runs++], *first;

		ret = report_read_run(f, i, runs->type == JSON_ARRAY ?
			       &runs->array.items[i] : runs, r);
		if (ret)
			return ret;
		r->pooled = 1;
		first = (struct report_run *)report_find_run(f, r->config);
		if (first == r)
			continue;
		ret = pool_run(f, first, r);
		report_free_run(r);
		f->n_runs--;
		if (ret)
			return ret;
	}
	return 0;
}

const struct report_metric *report_find_metric(const struct report_run *r,
					    const char *name)
{
	for (size_t i = 0; i < r->n_metrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}
