/* SPDX-License-Identifier: GPL-2.0 */
/* The per-second rates of a run's samples, and their statistics. */
#ifndef BPFCHECK_BENCH_RATES_H
#define BPFCHECK_BENCH_RATES_H

#include "result.h"
#include "stats.h"

/* A per-second rate taken from a sample; arg picks a producer. */
typedef double (*rate_fn)(const struct bench_sample *s, int arg);

double rate_hits(const struct bench_sample *s, int arg);
/* arg: the number of producers. */
double rate_hits_per_prod(const struct bench_sample *s, int arg);
double rate_drops(const struct bench_sample *s, int arg);
double rate_total(const struct bench_sample *s, int arg);
/* arg: the producer. */
double rate_producer(const struct bench_sample *s, int arg);
double rate_wakeups(const struct bench_sample *s, int arg);
/* CPUs' worth of time other processes, or the hypervisor, took. */
double rate_other_cpus(const struct bench_sample *s, int arg);
double rate_steal_cpus(const struct bench_sample *s, int arg);

/* Statistics of a rate over the measured (not warm-up) samples. */
int rates_summarize(const struct bench_result *r, rate_fn fn, int arg,
		    struct stats_summary *out);

#endif
