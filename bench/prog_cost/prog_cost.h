/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog-cost: what one run of a BPF program costs, measured two
 * independent ways and reported side by side.
 *
 *   test_run   BPF_PROG_TEST_RUN with repeat over the benchmark's inputs;
 *              the kernel times the loop and reports whole ns per run.
 *   bpf_stats  the program runs attached and triggered for real (XDP on a
 *              veth pair in a private network namespace, or a tracepoint
 *              hit by a syscall) with BPF_ENABLE_STATS on; the cost is
 *              the growth of run_time_ns over that of run_cnt.
 *   userspace  (map-batch) userspace map operations timed by the clock.
 *
 * Statistics are off while test_run samples are taken: with them on,
 * every run also pays for the two clock reads that time it.  They are
 * on for every program while any process holds a BPF_ENABLE_STATS fd
 * (another bench, a profiler), which the sysctl does not show: a
 * test_run call during which the program's run_cnt moved is left out.
 *
 *   prog_cost.c          the options and the run: samples, text report
 *   cost_methods.c       test_run, bpf_stats
 *   prog_cost_report.c   JSON and BMF
 *   cost_inputs.c        frames and --data-in files
 *   cost_veth.c          XDP attached to a veth pair, frames sent to it
 *   bench_cost_*.c       the benchmarks
 */
#ifndef BPFCHECK_BENCH_PROG_COST_H
#define BPFCHECK_BENCH_PROG_COST_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

#define COST_MAX_INPUTS		1024
#define COST_REASON_MAX		256
#define COST_STATS_SYSCTL	"/proc/sys/kernel/bpf_stats_enabled"

enum cost_method_id {
	COST_TEST_RUN,
	COST_BPF_STATS,
	COST_USERSPACE,
	COST__METHODS,
};

/* One input of a test run (the packet, for XDP and skb programs). */
struct cost_input {
	void *data;
	size_t len;
};

struct cost_inputs {
	struct cost_input in[COST_MAX_INPUTS];
	int n;
	char what[192];		/* what they are, for the report */
};

/* What one sample measured. */
struct cost_sample {
	double ns;		/* time measured, in total */
	__u64 runs;		/* runs (or elements) it covers */
	__u64 triggers;		/* bpf_stats: triggers made (frames, syscalls) */
	__u64 calls;		/* test_run: BPF_PROG_TEST_RUN calls */
	__u64 stats_on_calls;	/* test_run: of those, left out: statistics were on */
};

struct cost_method;
typedef int (*cost_sample_fn)(struct cost_method *m, __u64 budget_ns,
			      struct cost_sample *s, char *err, size_t len);
/* One trigger batch for bpf_stats: how many triggers it made, or -errno. */
typedef long (*cost_trigger_fn)(void *ctx);

struct cost_method {
	enum cost_method_id id;
	bool available;
	char reason[COST_REASON_MAX];	/* when not available */
	char how[256];			/* program and how it is run */
	const char *prog_name;
	cost_sample_fn sample;
	/* test_run */
	int prog_fd;
	const struct cost_inputs *inputs;
	__u32 repeat;			/* per call; chosen on the first sample */
	bool keep_stats_on;		/* the sysctl has statistics on: no call is clean */
	/* bpf_stats */
	cost_trigger_fn trigger;
	void *trigger_ctx;
	/* userspace */
	void *ctx;
	/* results */
	double *samples;		/* warm-up first */
	__u64 runs;			/* measured samples only */
	__u64 triggers;
	__u64 calls;			/* test_run, measured samples only */
	__u64 stats_on_calls;
};

/* --data-in files prog-cost takes at most. */
#define COST_MAX_DATA_IN	64

/* The prog-cost options (prog_cost.c), defaults filled in by the check. */
struct cost_args {
	const char *variant;		/* which program of the pair, or a label */
	unsigned int keys;
	unsigned int hit_pct;
	const char *op;
	const char *obj_path;
	const char *prog_name;
	const char *data_in[COST_MAX_DATA_IN];
	int n_data_in;
};

struct cost_run {
	const struct bench_env *env;
	const struct cost_args *args;
	struct cost_method m[COST__METHODS];
	struct cost_inputs *inputs;
	int n_iters;			/* samples taken per method, warm-up first */
	int n_warmup;
	double *other_cpus;		/* per iteration */
	double *steal_cpus;
	bool stats_on_system_wide;	/* kernel.bpf_stats_enabled was 1 */
	bool interrupted;
};

/* What a prog-cost benchmark provides (bench_ops.priv). */
struct cost_ops {
	const char *const *variants;	/* NULL-terminated, [0] the default */
	unsigned int default_keys;	/* when it takes --keys */
	const char *const *ops;		/* --op choices, [0] the default */
	/* The configuration without the variant, e.g. "prog-cost-task/keys1000". */
	void (*config_name)(const struct cost_run *r, char *buf, size_t len);
	/*
	 * Load for r->args->variant, fill r's methods and inputs.  0, or the exit
	 * code (BENCH_EXIT_FAIL, BENCH_EXIT_USAGE) with a one-line reason.
	 */
	int (*setup)(struct cost_run *r, char *err, size_t len);
	/* Release what setup took, also after it failed. */
	void (*teardown)(void);
};

/* ---- prog_cost.c ---- */

/* bench_ops.run of every prog-cost benchmark: the exit code. */
int prog_cost_run(const struct bench_env *env);

static inline const struct cost_ops *cost_ops_of(const struct bench_ops *b)
{
	return b->priv;
}
/* bench_ops.check of every prog-cost benchmark: variant, keys, op. */
int prog_cost_check(const struct bench_env *env, char *err, size_t len);
const char *cost_method_name(enum cost_method_id id);
const char *cost_method_unit(enum cost_method_id id);

/* For setup: a one-line reason in err; returns BENCH_EXIT_FAIL. */
int cost_setup_failed(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Method set-up helpers for the benchmarks. */
void cost_unavailable(struct cost_method *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * test_run of prog_fd over inputs.  Probes one run first: a program type
 * the kernel cannot test-run (or not with repeat) leaves the method
 * unavailable with the kernel's answer as the reason.
 */
void cost_use_test_run(struct cost_method *m, int prog_fd, const char *prog_name,
		       const struct cost_inputs *inputs);
/* bpf_stats of prog_fd, which trigger makes run. */
void cost_use_bpf_stats(struct cost_method *m, int prog_fd, const char *prog_name,
			cost_trigger_fn trigger, void *ctx);
/* The program type's name ("xdp", "tracepoint", ...) of a program fd. */
const char *cost_prog_type(int prog_fd);

/* ---- prog_cost_report.c ---- */

void cost_report_header(const struct cost_run *r);
void cost_report_progress(const struct cost_run *r, int iter);
void cost_report_final(const struct cost_run *r);
/* --json and --bmf, when asked for and the run is complete.  0 or -1. */
int cost_report_files(const struct cost_run *r);

/* ---- cost_inputs.c ---- */

/* n frames of len bytes of pseudo-random content (same seed, same frames). */
int cost_inputs_random(struct cost_inputs *in, int n, size_t len, __u32 seed);
/* One UDP/IPv4 frame from saddr (host order) to 10.0.0.2 with 4 bytes of payload. */
int cost_inputs_add_udp4(struct cost_inputs *in, __u32 saddr);
/* The --data-in files, or one UDP/IPv4 frame when none is given. */
int cost_inputs_from_files(struct cost_inputs *in, const struct cost_args *args,
			   char *err, size_t len);
void cost_inputs_free(struct cost_inputs *in);

/* ---- cost_veth.c ---- */

struct cost_veth;
/*
 * Attach the XDP program prog_fd to one end of a new veth pair in a
 * private network namespace; cost_veth_send() then sends the frames,
 * round-robin, into the other end.  NULL with a reason on failure.
 */
struct cost_veth *cost_veth_open(int prog_fd, const struct cost_inputs *frames,
				 char *err, size_t len);
/* A batch of frames (a cost_trigger_fn): the number sent, or -errno. */
long cost_veth_send(void *veth);
void cost_veth_close(struct cost_veth *v);
/*
 * bpf_stats of the XDP program prog_fd on a veth pair sent the frames;
 * the method is unavailable, with the reason, when the pair cannot be
 * made.  The pair to close at teardown, or NULL.
 */
struct cost_veth *cost_use_veth(struct cost_method *m, int prog_fd,
				const char *prog_name, const struct cost_inputs *frames);

#endif
