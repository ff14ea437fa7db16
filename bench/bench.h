/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench: how fast events move from BPF programs to userspace, in the
 * shape of the kernel's tools/testing/selftests/bpf/bench.
 *
 * Producer threads make a cheap syscall (getpgid); a BPF program on it
 * emits records into a ring buffer, a perf buffer or a queue map;
 * consumer threads drain them.  Once a second the main thread samples
 * the counters; the reporters summarize the samples.
 *
 *   main.c      a command ("bench compare") or one benchmark's run
 *   options.c   the option core; benchmarks add theirs (options.h)
 *   run.c       threads, the sampling loop, shutdown
 *   bench.c     what a running benchmark calls: stop flags, failure
 *   report.c    the text report of a result (report.h); report_json.c,
 *               report_env.c, report_bmf.c the JSON, its environment and
 *               BMF; report_files.c the files; rates.c the per-second rates
 *   stats.c     mean, stddev, percentiles
 *   totals.c    whether a run's totals add up (skipped runs included)
 *   cpus.c      CPU lists ("0,2-3"), cpustat.c other processes' CPU time
 *   benchs/     the producer/consumer families, one file each
 *   prog_cost/  per-program cost by test run and by BPF statistics
 *   gate/       bench compare, the regression gate
 *   sweep/      bench sweep-table, the ring buffer vs queue sweep's table
 *
 * This header is what a benchmark sees of the framework.
 */
#ifndef BPFCHECK_BENCH_H
#define BPFCHECK_BENCH_H

#include <linux/types.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench_common.h"
#include "errname.h"
#include "util.h"

#define BENCH_MAX_THREADS	64
/* Consumers wake at least this often to see that the run is over. */
#define BENCH_POLL_TIMEOUT_MS	100

/* Exit codes. */
#define BENCH_EXIT_FAIL		1	/* set-up failed, a thread failed, counters disagree */
#define BENCH_EXIT_USAGE	2	/* bad command line */
#define BENCH_EXIT_SIGNAL	128	/* + signal number, after a clean stop */

struct bench_cpus {
	cpu_set_t set;
	const char *spec;	/* as given; NULL: none given */
	int next;		/* round-robin position in set */
};

/* The framework's options and the machine, read-only once parsed. */
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
	cpu_set_t online;
	int nr_online;
	int argc;
	char **argv;
};

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

struct json_writer;

/*
 * What a family of benchmarks tells the framework about its own options
 * (every hook may be NULL): how it paces the producers, and what the
 * reports say about it.
 */
struct bench_family {
	/* Records the BPF side emits per trigger (default 1). */
	unsigned int (*per_trigger)(const struct bench_env *env);
	/* Producers trigger once, consumers trigger the rest (--b2b). */
	bool (*one_trigger)(const struct bench_env *env);
	/* Appended to the "Benchmark ..." line, e.g. ", batch 500". */
	void (*header)(const struct bench_env *env, FILE *f);
	/* Appended to the config name "NAME/pN/cN", e.g. "/b500". */
	void (*config_name)(const struct bench_env *env, char *buf, size_t len);
	/* Members of the JSON report's "options" and "environment" objects. */
	void (*json_options)(const struct bench_env *env, struct json_writer *w);
	void (*json_environment)(const struct bench_env *env, struct json_writer *w);
};

struct bench_ops {
	const char *name;
	const char *desc;
	/* The options of BENCH_OPTIONS groups it takes, NULL-terminated. */
	const char *const *opts;
	enum bench_hits hits;
	int max_consumers;		/* 0: no consumer threads */
	bool waits;			/* consumers wait to be woken (wake-ups counted) */
	const struct bench_family *family;
	/* Options that contradict each other here; a reason in err. */
	int (*check)(const struct bench_env *env, char *err, size_t len);
	/* Load and attach; on failure a one-line reason in err. */
	int (*setup)(const struct bench_env *env, char *err, size_t len);
	/* Consumer thread body: runs until bench_consumers_done(). */
	void (*consume)(struct bench_thread *t);
	/* Main thread, after every thread is joined: take what is left (0 or -errno). */
	int (*drain)(struct bench_thread *t);
	/* The producers' per-CPU counters (mmapped .bss), or NULL. */
	const struct bench_cpu_counters *(*counters)(void);
	/*
	 * Runs of the producer program the kernel skipped so far (its
	 * recursion_misses, bench/totals.h): 0 or -errno.  NULL: counters
	 * must match the triggers exactly.
	 */
	int (*missed_runs)(__u64 *runs);
	/* Release everything setup took, also after a failed setup. */
	void (*teardown)(void);
	/*
	 * A benchmark with a loop of its own (prog-cost) runs it here and
	 * returns the exit code; the producer/consumer hooks above are unused.
	 */
	int (*run)(const struct bench_env *env);
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

/* The registered benchmarks, in link order; NULL past the last. */
const struct bench_ops *bench_nth(int i);
/* Whether b takes the option --opt of a BENCH_OPTIONS group. */
bool bench_takes(const struct bench_ops *b, const char *opt);

/* A command of its own ("bench compare ..."): its name and main. */
struct bench_command {
	const char *name;
	int (*main)(int argc, char **argv);
};

#define BENCH_COMMAND(var, cmd_name, fn)				\
	static const struct bench_command var				\
	__attribute__((section("bench_commands"), used,		\
		       aligned(sizeof(void *)))) = {			\
		.name = cmd_name, .main = fn,				\
	}

/* The linker's bounds of the registration sections, for bench.c. */
extern const struct bench_ops *const __start_bench_ops[], *const __stop_bench_ops[];
extern const struct bench_command __start_bench_commands[], __stop_bench_commands[];

/* The command argv[1] names, or NULL. */
const struct bench_command *bench_find_command(int argc, char **argv);

/* ---- during a run (bench.c) ---- */

bool bench_producers_done(void);
bool bench_consumers_done(void);

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
/* Producer and consumer thread i (valid from before setup until exit). */
struct bench_thread *bench_producer(int i);
struct bench_thread *bench_consumer(int i);
/* The signal that asked the run to stop, or 0. */
int bench_signal(void);
/* A thread hit an error: remember the first reason and stop the run. */
void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The first failure's reason, or NULL. */
const char *bench_failed(void);
/* snprintf into err; returns -1 so setup code can "return bench_err(...)". */
int bench_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* For the framework's run loop: stop the threads, take the signals. */
void bench_stop_producers(void);
void bench_stop_consumers(void);
void bench_install_signals(void);

#endif
