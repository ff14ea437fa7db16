/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the producer/consumer families share: the producer programs'
 * options (--batch-cnt, --sampled, --b2b, --attach), loading a producer
 * with the best attach type this kernel has, and their part of the
 * reports.  Each progs/bench_*.bpf.c defines every producer three times
 * (fentry, tp, raw_tp; see progs/bench_producer.h).
 */
#ifndef BPFCHECK_BENCH_PRODUCER_H
#define BPFCHECK_BENCH_PRODUCER_H

#include "bench.h"

struct bpf_link;
struct bpf_object_skeleton;
struct json_writer;

enum bench_attach {
	BENCH_ATTACH_AUTO,	/* fentry, else tp, else raw_tp */
	BENCH_ATTACH_FENTRY,
	BENCH_ATTACH_TP,
	BENCH_ATTACH_RAW_TP,
};

/* --sampled N: wake the consumer once per N records; 0: for each. */
unsigned int producer_sampled(void);

/* Fill the producers' read-only configuration before load. */
void producer_config_fill(struct bench_config *cfg);

/*
 * Load a skeleton with only the program "<prefix>_<attach>" enabled,
 * then attach it.  On failure a reason in err, and *link stays NULL.
 */
int producer_load_attach(struct bpf_object_skeleton *s, const char *prefix,
			 enum bench_attach mode, struct bpf_link **link,
			 char *err, size_t len);

/*
 * Call load(mode) for --attach, or for fentry, tp, raw_tp in turn when
 * it is auto, until one succeeds.  load must release what it took when
 * it fails.
 */
typedef int (*producer_load_fn)(enum bench_attach mode, char *err, size_t len);
int producer_load(producer_load_fn load, char *err, size_t len);

/*
 * bench_ops.missed_runs of the families: the loaded program's
 * recursion_misses, the runs the kernel skipped (bench/totals.h).
 */
int producer_missed_runs(__u64 *runs);

/* --b2b: the consumer, having drained, triggers the next batch. */
void producer_b2b_next(struct bench_thread *t);

/* bench_ops.check of the families: --b2b and --sampled against -p, batch. */
int producer_check(const struct bench_env *env, char *err, size_t len);

/* The bench_family hooks for the producer options. */
unsigned int producer_per_trigger(const struct bench_env *env);
bool producer_one_trigger(const struct bench_env *env);
void producer_header(const struct bench_env *env, FILE *f);
void producer_config_name(const struct bench_env *env, char *buf, size_t len);
void producer_json_options(const struct bench_env *env, struct json_writer *w);
void producer_json_environment(const struct bench_env *env, struct json_writer *w);

#endif
