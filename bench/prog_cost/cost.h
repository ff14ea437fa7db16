/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog-cost's data: the methods, their inputs and samples, the options,
 * the run, and what a prog-cost benchmark provides.  Types only: each
 * file of prog_cost/ declares its functions in a header of its own name.
 */
#ifndef BPFCHECK_PROG_COST_TYPES_H
#define BPFCHECK_PROG_COST_TYPES_H

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

static inline const struct cost_ops *cost_ops_of(const struct bench_ops *b)
{
	return b->priv;
}

#endif
