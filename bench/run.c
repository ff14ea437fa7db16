// SPDX-License-Identifier: GPL-2.0
/*
 * A producer/consumer run: set up the benchmark, start consumers then
 * producers, sample the counters once a second (the sampling loop),
 * stop, drain, hand the result to the reporters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cpus.h"
#include "cpustat.h"
#include "mounts.h"
#include "report.h"
#include "report_files.h"
#include "run.h"

/* Cumulative counters at one instant. */
struct snapshot {
	struct timespec ts;
	__u64 hits;
	__u64 drops;
	__u64 produced;
	__u64 triggers;
	__u64 wakeups;
	struct cpustat cpu;
	__u64 prod_triggers[BENCH_MAX_THREADS];
};

/* For the threads, which get only their bench_thread. */
static const struct bench_ops *cur;
static bool one_trigger;

static void *producer_main(void *arg)
{
	struct bench_thread *t = arg;

	/* Back-to-back: one batch to start; the consumer makes the rest. */
	if (one_trigger) {
		bench_trigger();
		bench_count_add(&t->count, 1);
		return NULL;
	}
	while (!bench_producers_done()) {
		bench_trigger();
		bench_count_add(&t->count, 1);
	}
	return NULL;
}

static void *consumer_main(void *arg)
{
	cur->consume(arg);
	return NULL;
}

static int pick_cpu(const struct bench_env *env, const struct bench_cpus *cpus,
		    int *next, int *default_next)
{
	if (!env->affinity)
		return -1;
	if (cpus->spec)
		return cpus_nth(&cpus->set, (*next)++);
	return cpus_nth(&env->online, (*default_next)++);
}

static int start_thread(struct bench_thread *t, int idx, int cpu,
			void *(*fn)(void *))
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	t->idx = idx;
	t->cpu = cpu;
	ret = pthread_attr_init(&attr);
	if (ret)
		return ret;
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (!ret)
		ret = pthread_create(&t->tid, &attr, fn, t);
	pthread_attr_destroy(&attr);
	t->started = !ret;
	return ret;
}

/*
 * Consumers first, so they wait when the records start.  Threads are
 * created with SIGINT and SIGTERM blocked: the main thread gets them.
 */
static int start_threads(const struct bench_env *env, char *err, size_t len)
{
	int next = 0, next_prod = 0, next_cons = 0, ret = 0, i;
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < env->consumer_cnt && !ret; i++)
		ret = start_thread(bench_consumer(i), i,
				   pick_cpu(env, &env->cons_cpus, &next_cons, &next),
				   consumer_main);
	for (i = 0; i < env->producer_cnt && !ret; i++)
		ret = start_thread(bench_producer(i), i,
				   pick_cpu(env, &env->prod_cpus, &next_prod, &next),
				   producer_main);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return bench_err(err, len, "starting threads: %s", errname(ret));
	return 0;
}

/* Producers first, so that nothing is produced once consumers stop. */
static void stop_threads(const struct bench_env *env)
{
	bench_stop_producers();
	for (int i = 0; i < env->producer_cnt; i++) {
		if (bench_producer(i)->started)
			pthread_join(bench_producer(i)->tid, NULL);
	}
	bench_stop_consumers();
	for (int i = 0; i < env->consumer_cnt; i++) {
		if (bench_consumer(i)->started)
			pthread_join(bench_consumer(i)->tid, NULL);
	}
}

static void read_bpf_counters(__u64 *produced, __u64 *dropped)
{
	const struct bench_cpu_counters *c;

	*produced = *dropped = 0;
	if (!cur->counters)
		return;
	c = cur->counters();
	for (int i = 0; i < BENCH_MAX_CPUS; i++) {
		*produced += bench_count_read(&c[i].produced);
		*dropped += bench_count_read(&c[i].dropped);
	}
}

static void take_snapshot(const struct bench_env *env, struct snapshot *s)
{
	__u64 consumed = 0;

	clock_gettime(CLOCK_MONOTONIC, &s->ts);
	if (cpustat_read(&s->cpu))
		memset(&s->cpu, 0, sizeof(s->cpu));
	s->triggers = 0;
	s->wakeups = 0;
	for (int i = 0; i < env->producer_cnt; i++) {
		s->prod_triggers[i] = bench_count_read(&bench_producer(i)->count);
		s->triggers += s->prod_triggers[i];
	}
	for (int i = 0; i < env->consumer_cnt; i++) {
		const struct bench_thread *t = bench_consumer(i);

		consumed += bench_count_read(&t->count);
		s->triggers += bench_count_read(&t->triggers);
		s->wakeups += bench_count_read(&t->wakeups);
	}
	read_bpf_counters(&s->produced, &s->drops);
	switch (cur->hits) {
	case BENCH_HITS_CONSUMED:
		s->hits = consumed;
		break;
	case BENCH_HITS_PRODUCED:
		s->hits = s->produced;
		break;
	case BENCH_HITS_TRIGGERS:
		s->hits = s->triggers;
		break;
	}
}

static __u64 ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static void fill_sample(int producer_cnt, struct bench_sample *s,
			const struct snapshot *a, const struct snapshot *b)
{
	s->duration_ns = ts_ns(&b->ts) - ts_ns(&a->ts);
	s->hits = b->hits - a->hits;
	s->drops = b->drops - a->drops;
	s->triggers = b->triggers - a->triggers;
	s->wakeups = b->wakeups - a->wakeups;
	s->other_ns = cpustat_other_ns(&a->cpu, &b->cpu);
	s->steal_ns = b->cpu.steal_ns - a->cpu.steal_ns;
	for (int i = 0; i < producer_cnt; i++)
		s->prod_triggers[i] = b->prod_triggers[i] - a->prod_triggers[i];
}

/* Sleep to an absolute time; non-zero if a signal or a failure ends the run. */
static int sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR) {
		if (bench_signal())
			return -1;
	}
	return bench_signal() || bench_failed();
}

/* One sample per second boundary since the threads started. */
static void sample_loop(const struct bench_env *env, struct bench_result *r)
{
	int total = env->warmup_sec + env->duration_sec;
	struct snapshot prev, now;
	struct timespec next;

	take_snapshot(env, &prev);
	next = prev.ts;
	for (int i = 0; i < total; i++) {
		next.tv_sec++;
		if (sleep_until(&next))
			break;
		take_snapshot(env, &now);
		fill_sample(env->producer_cnt, &r->samples[i], &prev, &now);
		r->n_samples = i + 1;
		r->n_warmup = i < env->warmup_sec ? i + 1 : env->warmup_sec;
		if (!env->quiet)
			report_progress(env, r, i);
		prev = now;
	}
}

/*
 * Once everything is drained every record the BPF side tried is either
 * consumed or dropped, and it tried batch_cnt per trigger it ran for
 * (totals.h); missed is the runs the kernel skipped meanwhile.
 */
static void compute_totals(const struct bench_env *env, __u64 missed,
			   struct bench_totals *t)
{
	const struct bench_family *f = cur->family;
	__u64 per_trigger = f && f->per_trigger ? f->per_trigger(env) : 1;
	struct snapshot s;

	take_snapshot(env, &s);
	t->triggers = s.triggers;
	t->produced = s.produced;
	t->hits = s.hits;
	t->drops = s.drops;
	t->missed_runs = missed;
	t->bpf_counts = cur->counters != NULL;
	bench_totals_check(t, per_trigger);
}

/* The producer program's skipped runs so far; 0 with no program. */
static int read_missed(__u64 *runs, char *err, size_t len)
{
	int ret;

	*runs = 0;
	if (!cur->missed_runs)
		return 0;
	ret = cur->missed_runs(runs);
	if (ret)
		return bench_err(err, len, "reading the program's recursion_misses: %s",
				 errname(ret));
	return 0;
}

static void print_header(const struct bench_env *env)
{
	const struct bench_family *f = cur->family;

	printf("Benchmark '%s': %d producer%s, %d consumer%s", env->name,
	       env->producer_cnt, env->producer_cnt == 1 ? "" : "s",
	       env->consumer_cnt, env->consumer_cnt == 1 ? "" : "s");
	if (f && f->header)
		f->header(env, stdout);
	printf("\n");
	fflush(stdout);
}

/* Run the threads and collect samples, then stop, drain and count. */
static int measure(const struct bench_env *env, struct bench_result *r)
{
	__u64 missed_before = 0, missed_after = 0;
	char err[256];
	int ret;

	ret = read_missed(&missed_before, err, sizeof(err));
	if (!ret)
		ret = start_threads(env, err, sizeof(err));
	if (!ret)
		sample_loop(env, r);
	stop_threads(env);
	if (ret) {
		fprintf(stderr, "bench: %s: %s\n", env->name, err);
		return BENCH_EXIT_FAIL;
	}
	if (cur->drain && !bench_failed()) {
		ret = cur->drain(bench_consumer(0));
		if (ret < 0)
			bench_fail("draining what is left: %s", errname(ret));
	}
	if (!bench_failed() && read_missed(&missed_after, err, sizeof(err)))
		bench_fail("%s", err);
	if (bench_failed()) {
		fprintf(stderr, "bench: %s: %s\n", env->name, bench_failed());
		return BENCH_EXIT_FAIL;
	}
	r->interrupted = bench_signal() != 0;
	for (int i = 0; i < env->producer_cnt; i++)
		r->producer_cpu[i] = bench_producer(i)->cpu;
	for (int i = 0; i < env->consumer_cnt; i++)
		r->consumer_cpu[i] = bench_consumer(i)->cpu;
	compute_totals(env, missed_after - missed_before, &r->totals);
	return 0;
}

int bench_run(const struct bench_env *env)
{
	const struct bench_ops *b = env->bench;
	struct bench_result r = {};
	char err[512];
	int ret = 0;

	cur = b;
	one_trigger = b->family && b->family->one_trigger &&
		      b->family->one_trigger(env);
	r.samples = calloc(env->warmup_sec + env->duration_sec, sizeof(*r.samples));
	if (!r.samples) {
		fprintf(stderr, "bench: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	if (b->setup) {
		/* tp programs need tracefs; a failure shows as the attach error. */
		mounts_prepare(env->verbose);
		if (b->setup(env, err, sizeof(err))) {
			fprintf(stderr, "bench: %s: %s\n", env->name, err);
			ret = BENCH_EXIT_FAIL;
			goto out;
		}
	}
	if (bench_signal())
		goto out;
	if (!env->quiet)
		print_header(env);
	ret = measure(env, &r);
	if (ret)
		goto out;
	report_final(env, &r);
	ret = report_files(env, &r) ? BENCH_EXIT_FAIL : 0;
	if (!ret && !r.totals.consistent) {
		fprintf(stderr, "bench: %s: counters disagree: %s\n", env->name,
			r.totals.why);
		ret = BENCH_EXIT_FAIL;
	}
out:
	if (b->teardown)
		b->teardown();
	free(r.samples);
	/* A signal ends the run early; the exit code says which. */
	if (bench_signal() && !ret)
		ret = BENCH_EXIT_SIGNAL + bench_signal();
	return ret;
}
