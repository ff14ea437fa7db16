/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench: how fast events move from BPF programs to userspace, in the
 * shape of the kernel's tools/testing/selftests/bpf/bench.
 *
 * Producer threads make a cheap syscall (getpgid); a BPF program on it
 * emits --batch-cnt records into a ring buffer, a perf buffer or a queue
 * map; consumer threads drain them.  Once a second the main thread
 * samples the counters; the reporters summarize the samples.
 *
 *   bench.c     main, threads, the sampling loop, shutdown
 *   options.c   command line
 *   cpus.c      CPU lists ("0,2-3") and the online CPUs
 *   cpustat.c   CPU time other processes used meanwhile
 *   attach.c    loading and attaching the producer programs
 *   report.c    text, JSON and BMF reports
 *   stats.c     mean, stddev, percentiles
 *   bench_*.c   the benchmarks, one file per family
 */
#ifndef BPFCHECK_BENCH_H
#define BPFCHECK_BENCH_H

#include <linux/types.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench_common.h"
#include "errname.h"
#include "stats.h"
#include "util.h"

struct bpf_object_skeleton;
struct bpf_link;

#define BENCH_MAX_THREADS	64
/* Consumers wake at least this often to see that the run is over. */
#define BENCH_POLL_TIMEOUT_MS	100

/* Exit codes. */
#define BENCH_EXIT_FAIL		1	/* set-up failed, a thread failed, counters disagree */
#define BENCH_EXIT_USAGE	2	/* bad command line */
#define BENCH_EXIT_SIGNAL	128	/* + signal number, after a clean stop */

enum bench_attach {
	BENCH_ATTACH_AUTO,	/* fentry, else tp, else raw_tp */
	BENCH_ATTACH_FENTRY,
	BENCH_ATTACH_TP,
	BENCH_ATTACH_RAW_TP,
};

/* Benchmark-specific options, as bits: which were given, which apply. */
enum {
	BENCH_OPT_CONSUMERS	= 1 << 0,	/* -c */
	BENCH_OPT_CONS_CPUS	= 1 << 1,	/* --cons-affinity */
	BENCH_OPT_BATCH		= 1 << 2,	/* --batch-cnt */
	BENCH_OPT_SAMPLED	= 1 << 3,	/* --sampled */
	BENCH_OPT_B2B		= 1 << 4,	/* --b2b */
	BENCH_OPT_ATTACH	= 1 << 5,	/* --attach */
	BENCH_OPT_RB_SIZE	= 1 << 6,	/* --rb-size */
	BENCH_OPT_PB_PAGES	= 1 << 7,	/* --pb-pages */
	BENCH_OPT_QUEUE_SIZE	= 1 << 8,	/* --queue-size */
	BENCH_OPT_PRODUCERS	= 1 << 9,	/* -p */
	BENCH_OPT_PROD_CPUS	= 1 << 10,	/* -a, --prod-affinity */
	BENCH_OPT_VARIANT	= 1 << 11,	/* --variant */
	BENCH_OPT_KEYS		= 1 << 12,	/* --keys */
	BENCH_OPT_HIT_PCT	= 1 << 13,	/* --hit-pct */
	BENCH_OPT_OP		= 1 << 14,	/* --op */
	BENCH_OPT_OBJ		= 1 << 15,	/* --obj, --prog, --data-in */
};

/* What every producer/consumer benchmark accepts. */
#define BENCH_OPTS_PRODUCERS	(BENCH_OPT_PRODUCERS | BENCH_OPT_PROD_CPUS)

/* --data-in files prog-cost takes at most. */
#define BENCH_MAX_DATA_IN	64

struct bench_cpus {
	cpu_set_t set;
	const char *spec;	/* as given; NULL: none given */
	int next;		/* round-robin position in set */
};

struct bench_env {
	const char *name;
	const struct bench_ops *bench;
	int duration_sec;
	int warmup_sec;
	int producer_cnt;
	int consumer_cnt;
	bool affinity;
	bool quiet;
	bool verbose;
	bool list;
	struct bench_cpus prod_cpus;
	struct bench_cpus cons_cpus;
	const char *json_path;
	const char *bmf_path;
	unsigned int given;		/* BENCH_OPT_* on the command line */

	unsigned int batch_cnt;
	unsigned int sampled;		/* 0: notify for every record */
	bool b2b;			/* back-to-back: consumer triggers */
	enum bench_attach attach;
	unsigned long rb_size;		/* bytes */
	unsigned int pb_pages;		/* per CPU */
	unsigned int queue_size;	/* elements */

	/* prog-cost */
	const char *variant;		/* NULL: the benchmark's default */
	unsigned int keys;
	unsigned int hit_pct;
	const char *op;			/* NULL: the benchmark's default */
	const char *obj_path;
	const char *prog_name;
	const char *data_in[BENCH_MAX_DATA_IN];
	int n_data_in;

	cpu_set_t online;
	int nr_online;
	int argc;
	char **argv;
};

extern struct bench_env env;

/* One producer or consumer; aligned so no two share a cache line. */
struct bench_thread {
	__u64 count;		/* producer: triggers; consumer: records */
	__u64 triggers;		/* consumer: triggers it made (--b2b) */
	__u64 wakeups;		/* consumer: returns from its wait for records */
	int idx;
	int cpu;		/* pinned to, or -1 */
	pthread_t tid;
	bool started;
} __attribute__((aligned(BENCH_CACHE_LINE)));

/* Where a benchmark's hits come from. */
enum bench_hits {
	BENCH_HITS_CONSUMED,	/* records the consumers received */
	BENCH_HITS_PRODUCED,	/* records (runs) the BPF side counted */
	BENCH_HITS_TRIGGERS,	/* syscalls the producers made */
};

struct bench_ops {
	const char *name;
	const char *desc;
	unsigned int accepts;		/* BENCH_OPT_* that apply */
	enum bench_hits hits;
	int max_consumers;		/* 0: no consumer threads */
	bool waits;			/* consumers wait to be woken (wake-ups counted) */
	/* Options that contradict each other here; a reason in err. */
	int (*check)(char *err, size_t len);
	/* Load and attach; on failure a one-line reason in err. */
	int (*setup)(char *err, size_t len);
	/* Consumer thread body: runs until bench_consumers_done(). */
	void (*consume)(struct bench_thread *t);
	/* Main thread, after every thread is joined: take what is left (0 or -errno). */
	int (*drain)(struct bench_thread *t);
	/* The producers' per-CPU counters (mmapped .bss), or NULL. */
	const struct bench_cpu_counters *(*counters)(void);
	/* Release everything setup took, also after a failed setup. */
	void (*teardown)(void);
	/*
	 * A benchmark with a loop of its own (prog-cost) runs it here and
	 * returns the exit code; the producer/consumer hooks above are unused.
	 */
	int (*run)(const struct bench_ops *b);
	/* The benchmark's own description (prog-cost: its cost_ops). */
	const void *priv;
};

/*
 * A benchmark registers itself next to its code: the linker gathers the
 * pointers in the section "bench_ops", so that the framework lists none
 * and a new benchmark is one new file.
 */
#define BENCH_REGISTER(ops)						\
	static const struct bench_ops *const bench_reg_##ops		\
	__attribute__((section("bench_ops"), used, aligned(sizeof(void *)))) = &(ops)

/* The registered benchmarks, in no particular order; NULL past the last. */
const struct bench_ops *bench_nth(int i);

/* A command of its own ("bench compare ..."): its name and main. */
struct bench_command {
	const char *name;
	int (*main)(int argc, char **argv);
};

#define BENCH_COMMAND(var, cmd_name, fn)				\
	static const struct bench_command var				\
	__attribute__((section("bench_commands"), used, aligned(sizeof(void *)))) = {	\
		.name = cmd_name, .main = fn,				\
	}

/* ---- for the benchmarks (bench.c) ---- */

extern int bench_stop_producers;
extern int bench_stop_consumers;

static inline bool bench_producers_done(void)
{
	return __atomic_load_n(&bench_stop_producers, __ATOMIC_RELAXED);
}

static inline bool bench_consumers_done(void)
{
	return __atomic_load_n(&bench_stop_consumers, __ATOMIC_RELAXED);
}

/* Counters have one writer each: a relaxed store, no locked add. */
static inline void bench_count_add(__u64 *c, __u64 n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

static inline __u64 bench_count_read(const __u64 *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/*
 * A consumer's wait (epoll through libbpf or its own) returned.  How
 * many records one wake-up brings tells which regime a run settled in:
 * a consumer that keeps up is woken for few records, and each wake-up
 * costs the producers a notification.
 */
static inline void bench_consumer_woke(struct bench_thread *t)
{
	bench_count_add(&t->wakeups, 1);
}

/* One trigger: the syscall the producer programs run on. */
void bench_trigger(void);
/* --b2b: the consumer, having drained, triggers the next batch. */
void bench_b2b_next(struct bench_thread *t);
/* Consumer thread i (valid from before setup until exit). */
struct bench_thread *bench_consumer(int i);
/* The CPU thread i is pinned to, or -1. */
int bench_producer_cpu(int i);
int bench_consumer_cpu(int i);
/* The signal that asked the run to stop, or 0. */
int bench_signal(void);
/* A thread hit an error: remember the first reason and stop the run. */
void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* snprintf into err; returns -1 so setup code can "return bench_err(...)". */
int bench_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- attach.c ---- */

const char *bench_attach_name(enum bench_attach a);
int bench_attach_parse(const char *s, enum bench_attach *a);

/* The attach type in use after setup, and why better ones were not. */
extern enum bench_attach bench_attach_used;
extern char bench_attach_note[256];

/* Fill the producers' read-only configuration before load. */
void bench_config_fill(struct bench_config *cfg);

/*
 * Load a skeleton with only the program "<prefix>_<attach>" enabled,
 * then attach it.  On failure a reason in err, and *link stays NULL.
 */
int bench_load_attach(struct bpf_object_skeleton *s, const char *prefix,
		      enum bench_attach mode, struct bpf_link **link,
		      char *err, size_t len);

/*
 * Call load(mode) for env.attach, or for fentry, tp, raw_tp in turn
 * when it is auto, until one succeeds.  load must release what it took
 * when it fails.
 */
typedef int (*bench_load_fn)(enum bench_attach mode, char *err, size_t len);
int bench_load_producer(bench_load_fn load, char *err, size_t len);

/* ---- cpus.c ---- */

/* Parse "0,2-3" into set.  0, or -1 with a reason in err. */
int cpus_parse(const char *spec, cpu_set_t *set, char *err, size_t len);
/* The online CPUs (from sysfs, else the affinity mask). */
int cpus_online(cpu_set_t *set);
/* Print a set as a CPU list into buf. */
void cpus_format(const cpu_set_t *set, char *buf, size_t len);
/* The n-th CPU of set, counting round (n may exceed the count). */
int cpus_nth(const cpu_set_t *set, int n);

/* ---- cpustat.c ---- */

struct cpustat {
	__u64 busy_ns;		/* user + nice + system time of all CPUs */
	__u64 steal_ns;		/* taken by the hypervisor */
	__u64 self_ns;		/* this process's CPU time */
};

int cpustat_read(struct cpustat *c);
/*
 * CPU time others used between a and b: all CPUs' busy time less this
 * process's.  Both are tick-based, so it is clamped at 0.
 */
__u64 cpustat_other_ns(const struct cpustat *a, const struct cpustat *b);

/* ---- options.c ---- */

/*
 * Parse and check argv into env.  -1 to run the benchmark, else the exit
 * code to leave with (0 after --help or -l).
 */
int bench_parse_args(int argc, char **argv);
/* The name a BMF report files the run under, e.g. "rb-libbpf/p1/c1/b500". */
void bench_config_name(char *buf, size_t len);

/* ---- report.c ---- */

/* What one second brought: deltas of the cumulative counters. */
struct bench_sample {
	__u64 duration_ns;
	__u64 hits;
	__u64 drops;
	__u64 triggers;
	__u64 other_ns;		/* CPU time of other processes */
	__u64 steal_ns;		/* CPU time the hypervisor took */
	__u64 wakeups;		/* of the consumers (0: they do not wait) */
	__u64 prod_triggers[BENCH_MAX_THREADS];
};

struct bench_totals {
	__u64 triggers;		/* syscalls by producers and --b2b consumers */
	__u64 produced;		/* records the BPF side tried to emit */
	__u64 hits;
	__u64 drops;
	bool bpf_counts;	/* produced/drops come from the BPF side */
	bool consistent;
	char why[160];		/* when not consistent */
};

struct bench_result {
	struct bench_sample *samples;	/* warm-up first */
	int n_samples;
	int n_warmup;			/* of n_samples */
	struct bench_totals totals;
	bool interrupted;
};

struct json_writer;

/* One metric for bench compare: its samples, unit and better direction. */
struct report_metric {
	const char *name;
	const char *unit;
	bool higher_is_better;
	const char *reason;	/* not NULL: unavailable, and why */
	const double *samples;
	size_t n;
};

void report_progress(const struct bench_result *r, int iter);
void report_final(const struct bench_result *r);
/* --json and --bmf, when asked for and the run is complete.  0 or -1. */
int report_files(const struct bench_result *r);

typedef void (*report_fn)(struct json_writer *w, const void *ctx);
/* Write a file through fn: to a temporary name, renamed when complete. */
int report_write_file(const char *opt, const char *path, report_fn fn,
		      const void *ctx);
/* --json and --bmf through json and bmf, if asked for; only a complete run. */
int report_write_files(bool complete, report_fn json, report_fn bmf, const void *ctx);
/* Building blocks of the JSON reports. */
void report_json_environment(struct json_writer *w);
void report_json_summary(struct json_writer *w, const char *key,
			 const struct stats_summary *s);
/* {"name", "unit", "better", "available", "reason" | "samples", "summary"} */
void report_json_metric(struct json_writer *w, const struct report_metric *m);
/* BMF: "bench": {"measure": {"value", "lower_value", "upper_value"}}, mean -/+ stddev. */
void report_bmf_entry(struct json_writer *w, const char *bench, const char *measure,
		      const struct stats_summary *s);

#endif
