// SPDX-License-Identifier: GPL-2.0
/*
 * Perf buffer benchmark.  One consumer thread polls the per-CPU rings, as
 * libbpf does:
 *
 *   pb-libbpf   bpf_perf_event_output, libbpf's perf_buffer__poll
 *
 * Its --pb-pages is in buf_opts.c, next to the ring buffers' --rb-size.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_perfbuf.skel.h"
#include "buf_opts.h"
#include "json_writer.h"
#include "producer.h"

/* perf_event_header, u32 raw size, 8 bytes, padded to 8. */
#define PB_RECORD_BYTES	24

static struct {
	struct bench_perfbuf *skel;
	struct bpf_link *link;
	struct perf_buffer *perf;
} pb;

static int pb_load(enum bench_attach mode, char *err, size_t len)
{
	struct bench_perfbuf *skel = bench_perfbuf__open();

	if (!skel)
		return bench_err(err, len, "opening the BPF object: %s",
				 errname(errno));
	producer_config_fill(&skel->rodata->cfg);
	if (producer_load_attach(skel->skeleton, "bench_pb_output", mode, &pb.link, err, len)) {
		bench_perfbuf__destroy(skel);
		return -1;
	}
	pb.skel = skel;
	return 0;
}

static enum bpf_perf_event_ret on_perf_event(void *ctx, int cpu __maybe_unused,
					     struct perf_event_header *e)
{
	struct bench_thread *t = ctx;

	/* Lost records are counted where they are lost, by the program. */
	if (e->type == PERF_RECORD_SAMPLE)
		bench_count_add(&t->count, 1);
	return LIBBPF_PERF_EVENT_CONT;
}

static int pb_libbpf_setup(const struct bench_env *env __maybe_unused, char *err,
			size_t len)
{
	/* As libbpf's perf_buffer__new, but with a wake-up period. */
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = producer_sampled() ? producer_sampled() : 1,
	};
	int fd;

	if (producer_load(pb_load, err, len))
		return -1;
	fd = bpf_map__fd(pb.skel->maps.perfbuf);
	pb.perf = perf_buffer__new_raw(fd, buf_pb_pages(), &attr, on_perf_event,
				       bench_consumer(0), NULL);
	if (!pb.perf)
		return bench_err(err, len, "perf_buffer__new_raw: %s",
				 errname(errno));
	return 0;
}

static void pb_libbpf_consume(struct bench_thread *t)
{
	int ret;

	while (!bench_consumers_done()) {
		ret = perf_buffer__poll(pb.perf, BENCH_POLL_TIMEOUT_MS);
		if (ret < 0 && ret != -EINTR) {
			bench_fail("perf_buffer__poll: %s", errname(ret));
			return;
		}
		bench_consumer_woke(t);
		producer_b2b_next(t);
	}
}

static int pb_libbpf_drain(struct bench_thread *t __maybe_unused)
{
	return perf_buffer__consume(pb.perf);
}

static const struct bench_cpu_counters *pb_counters(void)
{
	return pb.skel->bss->counters;
}

/* A wake-up threshold beyond half a CPU's buffer might never be reached. */
static int pb_check(const struct bench_env *env, char *err, size_t len)
{
	__u64 bytes = (__u64)buf_pb_pages() * sysconf(_SC_PAGESIZE);

	if (producer_check(env, err, len))
		return -1;
	if ((__u64)producer_sampled() * PB_RECORD_BYTES > bytes / 2)
		return bench_err(err, len,
				 "--sampled %u: %u records of %d bytes do not fit in half a CPU's perf buffer (--pb-pages %u)",
				 producer_sampled(), producer_sampled(), PB_RECORD_BYTES,
				 buf_pb_pages());
	return 0;
}

static void pb_teardown(void)
{
	perf_buffer__free(pb.perf);
	pb.perf = NULL;
	bpf_link__destroy(pb.link);
	pb.link = NULL;
	bench_perfbuf__destroy(pb.skel);
	pb.skel = NULL;
}

static void pb_json_options(const struct bench_env *env, struct json_writer *w)
{
	producer_json_options(env, w);
	json_key(w, "pb_pages");
	json_uint(w, buf_pb_pages());
}

static const struct bench_family pb_family = {
	.per_trigger = producer_per_trigger,
	.one_trigger = producer_one_trigger,
	.header = producer_header,
	.config_name = producer_config_name,
	.json_options = pb_json_options,
	.json_environment = producer_json_environment,
};

static const char *const pb_opts[] = {
	"batch-cnt", "sampled", "b2b", "attach", "pb-pages", NULL,
};

static const struct bench_ops bench_pb_libbpf = {
	.name = "pb-libbpf",
	.desc = "perf buffer, bpf_perf_event_output, libbpf perf_buffer__poll consumer",
	.opts = pb_opts,
	.family = &pb_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = 1,
	.waits = true,
	.check = pb_check,
	.setup = pb_libbpf_setup,
	.consume = pb_libbpf_consume,
	.drain = pb_libbpf_drain,
	.counters = pb_counters,
	.missed_runs = producer_missed_runs,
	.teardown = pb_teardown,
};
BENCH_REGISTER(bench_pb_libbpf);
