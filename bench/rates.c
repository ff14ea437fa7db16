// SPDX-License-Identifier: GPL-2.0
/* The per-second rates of a run's samples, and their statistics. */
#include <errno.h>
#include <stdlib.h>

#include "rates.h"

static double per_sec(__u64 n, const struct bench_sample *s)
{
	return s->duration_ns ? n * 1e9 / s->duration_ns : 0;
}

double rate_hits(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->hits, s);
}

/* arg: the number of producers. */
double rate_hits_per_prod(const struct bench_sample *s, int arg)
{
	return per_sec(s->hits, s) / arg;
}

double rate_drops(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->drops, s);
}

double rate_total(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->hits + s->drops, s);
}

double rate_producer(const struct bench_sample *s, int arg)
{
	return per_sec(s->prod_triggers[arg], s);
}

double rate_wakeups(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->wakeups, s);
}

/* CPUs' worth of time other processes, or the hypervisor, took. */
double rate_other_cpus(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->other_ns, s) / 1e9;
}

double rate_steal_cpus(const struct bench_sample *s, int arg __maybe_unused)
{
	return per_sec(s->steal_ns, s) / 1e9;
}

/* Statistics of a rate over the measured (not warm-up) samples. */
int rates_summarize(const struct bench_result *r, rate_fn fn, int arg,
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
