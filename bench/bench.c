// SPDX-License-Identifier: GPL-2.0
/*
 * The bench framework: set up the benchmark, start consumers then
 * producers, sample the counters once a second, stop, drain, report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "stream_error.h"
#include "mounts.h"
#include "prog_cost.h"
#include "trigger.h"

/* The kernel's "operation not supported" for a missing map operation. */
#define ENOTSUPP 524

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct bench_env env;
int bench_stop_producers;
int bench_stop_consumers;

const struct bench_ops *const bench_list[] = {
	&bench_rb_libbpf, &bench_rb_custom, &bench_rb_output, &bench_pb_libbpf,
	&bench_queue_pop, &bench_queue_batch,
	&bench_trig_syscall, &bench_trig_prog,
	&bench_cost_fizzbuzz, &bench_cost_task, &bench_cost_bloom,
	&bench_cost_subprog, &bench_cost_isa, &bench_cost_map_batch,
	&bench_cost_obj,
};
const int bench_list_cnt = ARRAY_SIZE(bench_list);

static struct bench_thread producers[BENCH_MAX_THREADS];
static struct bench_thread consumers[BENCH_MAX_THREADS];

static volatile sig_atomic_t got_signal;

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int failed;
static char fail_reason[256];

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

void bench_trigger(void)
{
	trigger_getpgid(1);
}

void bench_b2b_next(struct bench_thread *t)
{
	if (!env.b2b || bench_producers_done())
		return;
	bench_trigger();
	bench_count_add(&t->triggers, 1);
}

struct bench_thread *bench_consumer(int i)
{
	return &consumers[i];
}

int bench_producer_cpu(int i)
{
	return producers[i].cpu;
}

int bench_consumer_cpu(int i)
{
	return consumers[i].cpu;
}

int bench_signal(void)
{
	return got_signal;
}

void bench_fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (!failed) {
		va_start(ap, fmt);
		vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
		va_end(ap);
		__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&fail_lock);
	__atomic_store_n(&bench_stop_producers, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&bench_stop_consumers, 1, __ATOMIC_RELAXED);
}

const char *bench_errname(int err)
{
	static __thread char buf[32];
	const char *name;

	if (err < 0)
		err = -err;
	if (err == ENOTSUPP)
		return "ENOTSUPP";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

int bench_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int libbpf_print(enum libbpf_print_level level __maybe_unused, const char *fmt,
			va_list ap)
{
	if (!env.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * No SA_RESTART: the main thread's sleep must end at Ctrl-C.  A second
 * Ctrl-C kills the process at once, should stopping hang.
 */
static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void *producer_main(void *arg)
{
	struct bench_thread *t = arg;

	/* Back-to-back: one batch to start; the consumer makes the rest. */
	if (env.b2b) {
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
	env.bench->consume(arg);
	return NULL;
}

static int pick_cpu(struct bench_cpus *cpus, int *default_next)
{
	if (!env.affinity)
		return -1;
	if (cpus->spec)
		return cpus_nth(&cpus->set, cpus->next++);
	return cpus_nth(&env.online, (*default_next)++);
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
static int start_threads(char *err, size_t len)
{
	sigset_t block, old;
	int next = 0, ret = 0, i;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < env.consumer_cnt && !ret; i++)
		ret = start_thread(&consumers[i], i, pick_cpu(&env.cons_cpus, &next),
				   consumer_main);
	for (i = 0; i < env.producer_cnt && !ret; i++)
		ret = start_thread(&producers[i], i, pick_cpu(&env.prod_cpus, &next),
				   producer_main);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return bench_err(err, len, "starting threads: %s", bench_errname(ret));
	return 0;
}

/* Producers first, so that nothing is produced once consumers stop. */
static void stop_threads(void)
{
	__atomic_store_n(&bench_stop_producers, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < env.producer_cnt; i++)
		if (producers[i].started)
			pthread_join(producers[i].tid, NULL);
	__atomic_store_n(&bench_stop_consumers, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < env.consumer_cnt; i++)
		if (consumers[i].started)
			pthread_join(consumers[i].tid, NULL);
}

static void read_bpf_counters(__u64 *produced, __u64 *dropped)
{
	const struct bench_cpu_counters *c;

	*produced = *dropped = 0;
	if (!env.bench->counters)
		return;
	c = env.bench->counters();
	for (int i = 0; i < BENCH_MAX_CPUS; i++) {
		*produced += bench_count_read(&c[i].produced);
		*dropped += bench_count_read(&c[i].dropped);
	}
}

static void take_snapshot(struct snapshot *s)
{
	__u64 consumed = 0;

	clock_gettime(CLOCK_MONOTONIC, &s->ts);
	if (cpustat_read(&s->cpu))
		memset(&s->cpu, 0, sizeof(s->cpu));
	s->triggers = 0;
	s->wakeups = 0;
	for (int i = 0; i < env.producer_cnt; i++) {
		s->prod_triggers[i] = bench_count_read(&producers[i].count);
		s->triggers += s->prod_triggers[i];
	}
	for (int i = 0; i < env.consumer_cnt; i++) {
		consumed += bench_count_read(&consumers[i].count);
		s->triggers += bench_count_read(&consumers[i].triggers);
		s->wakeups += bench_count_read(&consumers[i].wakeups);
	}
	read_bpf_counters(&s->produced, &s->drops);
	switch (env.bench->hits) {
	case BENCH_HITS_CONSUMED: s->hits = consumed; break;
	case BENCH_HITS_PRODUCED: s->hits = s->produced; break;
	case BENCH_HITS_TRIGGERS: s->hits = s->triggers; break;
	}
}

static __u64 ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static void fill_sample(struct bench_sample *s, const struct snapshot *a,
			const struct snapshot *b)
{
	s->duration_ns = ts_ns(&b->ts) - ts_ns(&a->ts);
	s->hits = b->hits - a->hits;
	s->drops = b->drops - a->drops;
	s->triggers = b->triggers - a->triggers;
	s->wakeups = b->wakeups - a->wakeups;
	s->other_ns = cpustat_other_ns(&a->cpu, &b->cpu);
	s->steal_ns = b->cpu.steal_ns - a->cpu.steal_ns;
	for (int i = 0; i < env.producer_cnt; i++)
		s->prod_triggers[i] = b->prod_triggers[i] - a->prod_triggers[i];
}

/* Sleep to an absolute time; non-zero if a signal or a failure ends the run. */
static int sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		if (got_signal)
			return -1;
	return got_signal || __atomic_load_n(&failed, __ATOMIC_RELAXED);
}

/* One sample per second boundary since the threads started. */
static void sample_loop(struct bench_result *r)
{
	int total = env.warmup_sec + env.duration_sec;
	struct snapshot prev, cur;
	struct timespec next;

	take_snapshot(&prev);
	next = prev.ts;
	for (int i = 0; i < total; i++) {
		next.tv_sec++;
		if (sleep_until(&next))
			break;
		take_snapshot(&cur);
		fill_sample(&r->samples[i], &prev, &cur);
		r->n_samples = i + 1;
		r->n_warmup = i < env.warmup_sec ? i + 1 : env.warmup_sec;
		if (!env.quiet)
			report_progress(r, i);
		prev = cur;
	}
}

/*
 * Once everything is drained every record the BPF side tried is either
 * consumed or dropped, and it tried batch_cnt per trigger.
 */
static void compute_totals(struct bench_totals *t)
{
	__u64 per_trigger = env.bench->accepts & BENCH_OPT_BATCH ? env.batch_cnt : 1;
	struct snapshot s;

	take_snapshot(&s);
	t->triggers = s.triggers;
	t->produced = s.produced;
	t->hits = s.hits;
	t->drops = s.drops;
	t->bpf_counts = env.bench->counters != NULL;
	t->consistent = true;
	if (!t->bpf_counts)
		return;
	if (t->hits + t->drops != t->produced) {
		t->consistent = false;
		snprintf(t->why, sizeof(t->why),
			 "hits %llu + drops %llu != produced %llu",
			 t->hits, t->drops, t->produced);
	} else if (t->produced != t->triggers * per_trigger) {
		t->consistent = false;
		snprintf(t->why, sizeof(t->why),
			 "produced %llu != triggers %llu x %llu per trigger",
			 t->produced, t->triggers, per_trigger);
	}
}

static void print_header(void)
{
	const struct bench_ops *b = env.bench;

	printf("Benchmark '%s': %d producer%s, %d consumer%s", env.name,
	       env.producer_cnt, env.producer_cnt == 1 ? "" : "s",
	       env.consumer_cnt, env.consumer_cnt == 1 ? "" : "s");
	if (b->accepts & BENCH_OPT_BATCH)
		printf(", batch %u", env.batch_cnt);
	if (env.sampled)
		printf(", wake-up every %u records", env.sampled);
	if (env.b2b)
		printf(", back-to-back");
	if (b->setup && (b->accepts & BENCH_OPT_ATTACH)) {
		printf(", attach %s", bench_attach_name(bench_attach_used));
		if (bench_attach_note[0])
			printf(" (%s)", bench_attach_note);
	}
	printf("\n");
	fflush(stdout);
}

/* Run the threads and collect samples, then stop, drain and count. */
static int measure(struct bench_result *r)
{
	char err[256];
	int ret;

	ret = start_threads(err, sizeof(err));
	if (!ret)
		sample_loop(r);
	stop_threads();
	if (ret) {
		fprintf(stderr, "bench: %s: %s\n", env.name, err);
		return BENCH_EXIT_FAIL;
	}
	if (env.bench->drain && !failed) {
		ret = env.bench->drain(&consumers[0]);
		if (ret < 0)
			bench_fail("draining what is left: %s", bench_errname(ret));
	}
	if (failed) {
		fprintf(stderr, "bench: %s: %s\n", env.name, fail_reason);
		return BENCH_EXIT_FAIL;
	}
	r->interrupted = got_signal != 0;
	compute_totals(&r->totals);
	return 0;
}

static int run(void)
{
	const struct bench_ops *b = env.bench;
	struct bench_result r = {};
	char err[512];
	int ret = 0;

	r.samples = calloc(env.warmup_sec + env.duration_sec, sizeof(*r.samples));
	if (!r.samples) {
		fprintf(stderr, "bench: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	if (b->setup) {
		/* tp programs need tracefs; a failure shows as the attach error. */
		mounts_prepare(env.verbose);
		if (b->setup(err, sizeof(err))) {
			fprintf(stderr, "bench: %s: %s\n", env.name, err);
			ret = BENCH_EXIT_FAIL;
			goto out;
		}
	}
	if (got_signal)
		goto out;
	if (!env.quiet)
		print_header();
	ret = measure(&r);
	if (ret)
		goto out;
	report_final(&r);
	ret = report_files(&r) ? BENCH_EXIT_FAIL : 0;
	if (!ret && !r.totals.consistent) {
		fprintf(stderr, "bench: %s: counters disagree: %s\n", env.name,
			r.totals.why);
		ret = BENCH_EXIT_FAIL;
	}
out:
	if (b->teardown)
		b->teardown();
	free(r.samples);
	/* A signal ends the run early; the exit code says which. */
	if (got_signal && !ret)
		ret = BENCH_EXIT_SIGNAL + got_signal;
	return ret;
}

/*
 * The summary on stdout is the result: a full disk or /dev/full must not
 * exit 0 with it lost.
 */
static int check_stdout(int ret)
{
	int err = stream_error(stdout);

	if (!err)
		return ret;
	fprintf(stderr, "bench: cannot write to stdout: %s\n", strerror(err));
	return ret ? ret : BENCH_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc > 1 && !strcmp(argv[1], "compare"))
		return check_stdout(compare_main(argc - 1, argv + 1));
	ret = bench_parse_args(argc, argv);

	if (ret >= 0)
		return check_stdout(ret);
	libbpf_set_print(libbpf_print);
	install_signals();
	if (env.bench->cost)
		return check_stdout(prog_cost_run(env.bench->cost));
	return check_stdout(run());
}
