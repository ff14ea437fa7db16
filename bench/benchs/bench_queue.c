// SPDX-License-Identifier: GPL-2.0
/*
 * BPF queue map: the producer program pushes, consumer threads pop.  A
 * queue has no notification, so consumers poll: one element per
 * syscall (queue-pop), or a batch per syscall (queue-batch) where the
 * kernel has BPF_MAP_LOOKUP_AND_DELETE_BATCH for queues.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_queue.skel.h"
#include "json_writer.h"
#include "options.h"
#include "producer.h"

/* Elements per batch pop. */
#define POP_BATCH 256

static struct {
	struct bench_queue *skel;
	struct bpf_link *link;
	int map_fd;
} q;

static struct {
	unsigned int queue_size;	/* elements */
} args = {
	.queue_size = 32768,
};

static int parse_queue_size(const char *arg)
{
	return bench_parse_uint("--queue-size", arg, 1, 1 << 24,
				"the queue map capacity in elements", &args.queue_size);
}

static const struct bench_opt queue_opts[] = {
	{ "queue-size", NULL, "N", "queue map capacity in elements (default 32768)",
	  parse_queue_size, NULL },
	{},
};

static const struct bench_opt_group queue_group = {
	.title = "Queue map options",
	.opts = queue_opts,
};
BENCH_OPTIONS(queue_group);

static int queue_load(enum bench_attach mode, char *err, size_t len)
{
	struct bench_queue *skel = bench_queue__open();
	int ret;

	if (!skel)
		return bench_err(err, len, "opening the BPF object: %s",
				 errname(errno));
	producer_config_fill(&skel->rodata->cfg);
	ret = bpf_map__set_max_entries(skel->maps.queue, args.queue_size);
	if (ret)
		bench_err(err, len, "setting the queue size: %s",
			  errname(ret));
	else
		ret = producer_load_attach(skel->skeleton, "bench_queue_push", mode,
					&q.link, err, len);
	if (ret) {
		bench_queue__destroy(skel);
		return -1;
	}
	q.skel = skel;
	q.map_fd = bpf_map__fd(skel->maps.queue);
	return 0;
}

static int queue_pop_setup(const struct bench_env *env __maybe_unused, char *err,
			   size_t len)
{
	return producer_load(queue_load, err, len);
}

/* 1 popped, 0 empty, or -errno. */
static int pop_one(struct bench_thread *t)
{
	__u64 val;

	if (!bpf_map_lookup_and_delete_elem(q.map_fd, NULL, &val)) {
		bench_count_add(&t->count, 1);
		return 1;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Elements popped (0: empty), or -errno. */
static int pop_batch(struct bench_thread *t)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u64 vals[POP_BATCH];
	__u32 count = POP_BATCH, out;
	int ret;

	ret = bpf_map_lookup_and_delete_batch(q.map_fd, NULL, &out, NULL, vals,
					      &count, &opts);
	/* ENOENT: the queue ran dry during the batch; count says how far. */
	if (ret && errno != ENOENT)
		return -errno;
	bench_count_add(&t->count, count);
	return count;
}

static void consume(struct bench_thread *t, int (*pop)(struct bench_thread *))
{
	int ret;

	while (!bench_consumers_done()) {
		ret = pop(t);
		if (ret < 0) {
			bench_fail("popping from the queue: %s",
				   errname(ret));
			return;
		}
	}
}

static int drain(struct bench_thread *t, int (*pop)(struct bench_thread *))
{
	int ret;

	while ((ret = pop(t)) > 0)
		;
	return ret;
}

static void queue_pop_consume(struct bench_thread *t)
{
	consume(t, pop_one);
}

static int queue_pop_drain(struct bench_thread *t)
{
	return drain(t, pop_one);
}

static void queue_batch_consume(struct bench_thread *t)
{
	consume(t, pop_batch);
}

static int queue_batch_drain(struct bench_thread *t)
{
	return drain(t, pop_batch);
}

/*
 * A batch pop from the empty queue: ENOENT where queues have batch
 * operations; mainline kernels have none for queues and say ENOTSUPP.
 */
static int queue_batch_setup(const struct bench_env *env, char *err, size_t len)
{
	struct utsname u = {};
	int ret;

	if (queue_pop_setup(env, err, len))
		return -1;
	ret = pop_batch(bench_consumer(0));
	if (ret >= 0)
		return 0;
	uname(&u);
	return bench_err(err, len,
			 "BPF_MAP_LOOKUP_AND_DELETE_BATCH on a queue map fails with %s: kernel %s has no batch operations for queue maps",
			 errname(ret), u.release);
}

static const struct bench_cpu_counters *queue_counters(void)
{
	return q.skel->bss->counters;
}

static void queue_teardown(void)
{
	bpf_link__destroy(q.link);
	q.link = NULL;
	bench_queue__destroy(q.skel);
	q.skel = NULL;
}

static void queue_json_options(const struct bench_env *env, struct json_writer *w)
{
	producer_json_options(env, w);
	json_key(w, "queue_size");
	json_uint(w, args.queue_size);
}

static const struct bench_family queue_family = {
	.per_trigger = producer_per_trigger,
	.header = producer_header,
	.config_name = producer_config_name,
	.json_options = queue_json_options,
	.json_environment = producer_json_environment,
};

static const char *const queue_opt_names[] = { "batch-cnt", "attach", "queue-size", NULL };

static const struct bench_ops bench_queue_pop = {
	.name = "queue-pop",
	.desc = "queue map, consumers pop one element per syscall",
	.opts = queue_opt_names,
	.family = &queue_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = BENCH_MAX_THREADS,
	.setup = queue_pop_setup,
	.consume = queue_pop_consume,
	.drain = queue_pop_drain,
	.counters = queue_counters,
	.missed_runs = producer_missed_runs,
	.teardown = queue_teardown,
};
BENCH_REGISTER(bench_queue_pop);

static const struct bench_ops bench_queue_batch = {
	.name = "queue-batch",
	.desc = "queue map, consumers pop with lookup-and-delete batches (if the kernel can)",
	.opts = queue_opt_names,
	.family = &queue_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = BENCH_MAX_THREADS,
	.setup = queue_batch_setup,
	.consume = queue_batch_consume,
	.drain = queue_batch_drain,
	.counters = queue_counters,
	.missed_runs = producer_missed_runs,
	.teardown = queue_teardown,
};
BENCH_REGISTER(bench_queue_batch);
