// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer benchmarks.  One consumer thread (a ring has a single
 * consumer position):
 *
 *   rb-libbpf   reserve/submit, libbpf's ring_buffer__poll
 *   rb-custom   reserve/submit, a consumer here over the mmapped ring
 *   rb-output   bpf_ringbuf_output, libbpf's ring_buffer__poll
 *
 * The perf buffer's pb-libbpf is in bench_perfbuf.c; --rb-size is in
 * buf_opts.c, next to its --pb-pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_ringbuf.skel.h"
#include "buf_opts.h"
#include "json_writer.h"
#include "producer.h"

/* Bytes one 8-byte record takes in the ring, header included. */
#define RB_RECORD_BYTES	(BPF_RINGBUF_HDR_SZ + 8)

/* The consumer of rb-custom: the ring's pages, mapped here. */
struct custom_ring {
	int epoll_fd;
	unsigned long *consumer_pos;		/* read-write page */
	const unsigned long *producer_pos;	/* read-only page, then data */
	const char *data;			/* mapped twice in a row */
	unsigned long mask;
	size_t page_size;
	size_t data_map_len;
};

static struct {
	const char *prog;		/* producer program to load */
	struct bench_ringbuf *rb_skel;
	struct bpf_link *link;
	struct ring_buffer *ring;
	struct custom_ring custom;
} ringbufs = { .custom.epoll_fd = -1 };

/* ---- loading ---- */

static int rb_load(enum bench_attach mode, char *err, size_t len)
{
	struct bench_ringbuf *skel = bench_ringbuf__open();
	int ret;

	if (!skel)
		return bench_err(err, len, "opening the BPF object: %s",
				 errname(errno));
	producer_config_fill(&skel->rodata->cfg);
	ret = bpf_map__set_max_entries(skel->maps.ringbuf, buf_rb_size());
	if (ret)
		bench_err(err, len, "setting the ring size: %s", errname(ret));
	else
		ret = producer_load_attach(skel->skeleton, ringbufs.prog, mode, &ringbufs.link,
					err, len);
	if (ret) {
		bench_ringbuf__destroy(skel);
		return -1;
	}
	ringbufs.rb_skel = skel;
	return 0;
}

/* ---- rb-libbpf, rb-output ---- */

static int on_sample(void *ctx, void *data __maybe_unused,
		     size_t size __maybe_unused)
{
	struct bench_thread *t = ctx;

	bench_count_add(&t->count, 1);
	return 0;
}

static int libbpf_ring_setup(const char *prog, char *err, size_t len)
{
	int fd;

	ringbufs.prog = prog;
	if (producer_load(rb_load, err, len))
		return -1;
	fd = bpf_map__fd(ringbufs.rb_skel->maps.ringbuf);
	ringbufs.ring = ring_buffer__new(fd, on_sample, bench_consumer(0), NULL);
	if (!ringbufs.ring)
		return bench_err(err, len, "ring_buffer__new: %s",
				 errname(errno));
	return 0;
}

static int rb_libbpf_setup(const struct bench_env *env __maybe_unused, char *err,
			size_t len)
{
	return libbpf_ring_setup("bench_rb_reserve", err, len);
}

static int rb_output_setup(const struct bench_env *env __maybe_unused, char *err,
			size_t len)
{
	return libbpf_ring_setup("bench_rb_output", err, len);
}

static void rb_libbpf_consume(struct bench_thread *t)
{
	int ret;

	while (!bench_consumers_done()) {
		ret = ring_buffer__poll(ringbufs.ring, BENCH_POLL_TIMEOUT_MS);
		if (ret < 0 && ret != -EINTR) {
			bench_fail("ring_buffer__poll: %s", errname(ret));
			return;
		}
		bench_consumer_woke(t);
		producer_b2b_next(t);
	}
}

static int rb_libbpf_drain(struct bench_thread *t __maybe_unused)
{
	int ret;

	while ((ret = ring_buffer__consume(ringbufs.ring)) > 0)
		;
	return ret;
}

/* ---- rb-custom ---- */

static int custom_open(struct custom_ring *c, int map_fd, unsigned long size,
		       char *err, size_t len)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = map_fd };
	void *p;

	c->page_size = sysconf(_SC_PAGESIZE);
	c->mask = size - 1;
	p = mmap(NULL, c->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 map_fd, 0);
	if (p == MAP_FAILED)
		return bench_err(err, len, "mmap of the consumer page: %s",
				 errname(errno));
	c->consumer_pos = p;
	/* The data pages follow twice, so a record never wraps. */
	c->data_map_len = c->page_size + 2 * size;
	p = mmap(NULL, c->data_map_len, PROT_READ, MAP_SHARED, map_fd,
		 c->page_size);
	if (p == MAP_FAILED)
		return bench_err(err, len, "mmap of the data pages: %s",
				 errname(errno));
	c->producer_pos = p;
	c->data = (const char *)p + c->page_size;
	c->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epoll_fd < 0)
		return bench_err(err, len, "epoll_create1: %s", errname(errno));
	if (epoll_ctl(c->epoll_fd, EPOLL_CTL_ADD, map_fd, &ev))
		return bench_err(err, len, "epoll_ctl: %s", errname(errno));
	return 0;
}

static void custom_close(struct custom_ring *c)
{
	if (c->epoll_fd >= 0)
		close(c->epoll_fd);
	c->epoll_fd = -1;
	if (c->producer_pos)
		munmap((void *)c->producer_pos, c->data_map_len);
	c->producer_pos = NULL;
	if (c->consumer_pos)
		munmap(c->consumer_pos, c->page_size);
	c->consumer_pos = NULL;
}

/*
 * Walk the committed records from our position to the producer's, then
 * publish the new position once (libbpf publishes after every record).
 * Stops at a record still being written: its commit will wake us, since
 * the kernel wakes the consumer when it commits at the consumer's
 * position.  Returns the records seen.
 */
static __u64 custom_process(struct custom_ring *c)
{
	unsigned long cons = *c->consumer_pos;	/* we are its only writer */
	unsigned long prod = __atomic_load_n(c->producer_pos, __ATOMIC_ACQUIRE);
	__u64 n = 0;
	__u32 hdr;

	while (cons < prod) {
		hdr = __atomic_load_n((const __u32 *)(c->data + (cons & c->mask)),
				      __ATOMIC_ACQUIRE);
		if (hdr & BPF_RINGBUF_BUSY_BIT)
			break;
		if (!(hdr & BPF_RINGBUF_DISCARD_BIT))
			n++;
		hdr &= ~BPF_RINGBUF_DISCARD_BIT;
		cons += (hdr + BPF_RINGBUF_HDR_SZ + 7) & ~7UL;
		if (cons == prod)
			prod = __atomic_load_n(c->producer_pos, __ATOMIC_ACQUIRE);
	}
	__atomic_store_n(c->consumer_pos, cons, __ATOMIC_RELEASE);
	return n;
}

static int rb_custom_setup(const struct bench_env *env __maybe_unused, char *err,
			size_t len)
{
	int fd;

	ringbufs.prog = "bench_rb_reserve";
	if (producer_load(rb_load, err, len))
		return -1;
	fd = bpf_map__fd(ringbufs.rb_skel->maps.ringbuf);
	return custom_open(&ringbufs.custom, fd,
			   bpf_map__max_entries(ringbufs.rb_skel->maps.ringbuf),
			   err, len);
}

static void rb_custom_consume(struct bench_thread *t)
{
	struct custom_ring *c = &ringbufs.custom;
	struct epoll_event ev;
	__u64 n;

	while (!bench_consumers_done()) {
		if (epoll_wait(c->epoll_fd, &ev, 1, BENCH_POLL_TIMEOUT_MS) < 0 &&
		    errno != EINTR) {
			bench_fail("epoll_wait: %s", errname(errno));
			return;
		}
		bench_consumer_woke(t);
		while ((n = custom_process(c)))
			bench_count_add(&t->count, n);
		producer_b2b_next(t);
	}
}

static int rb_custom_drain(struct bench_thread *t)
{
	__u64 n;

	while ((n = custom_process(&ringbufs.custom)))
		bench_count_add(&t->count, n);
	return 0;
}

/* ---- common ---- */

static const struct bench_cpu_counters *rb_counters(void)
{
	return ringbufs.rb_skel->bss->counters;
}


/* A wake-up threshold beyond half the buffer might never be reached. */
static int rb_check(const struct bench_env *env, char *err, size_t len)
{
	if (producer_check(env, err, len))
		return -1;
	if ((__u64)producer_sampled() * RB_RECORD_BYTES > buf_rb_size() / 2)
		return bench_err(err, len,
				 "--sampled %u: %u records of %d bytes do not fit in half the ring (--rb-size %lu)",
				 producer_sampled(), producer_sampled(), RB_RECORD_BYTES,
				 buf_rb_size());
	return 0;
}

static void rbs_teardown(void)
{
	ring_buffer__free(ringbufs.ring);
	ringbufs.ring = NULL;
	custom_close(&ringbufs.custom);
	bpf_link__destroy(ringbufs.link);
	ringbufs.link = NULL;
	bench_ringbuf__destroy(ringbufs.rb_skel);
	ringbufs.rb_skel = NULL;
}

static void rb_json_options(const struct bench_env *env, struct json_writer *w)
{
	producer_json_options(env, w);
	json_key(w, "rb_size");
	json_uint(w, buf_rb_size());
}

static const struct bench_family rb_family = {
	.per_trigger = producer_per_trigger,
	.one_trigger = producer_one_trigger,
	.header = producer_header,
	.config_name = producer_config_name,
	.json_options = rb_json_options,
	.json_environment = producer_json_environment,
};

static const char *const rb_opts[] = {
	"batch-cnt", "sampled", "b2b", "attach", "rb-size", NULL,
};

static const struct bench_ops bench_rb_libbpf = {
	.name = "rb-libbpf",
	.desc = "ring buffer, reserve/submit, libbpf ring_buffer__poll consumer",
	.opts = rb_opts,
	.family = &rb_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = 1,
	.waits = true,
	.check = rb_check,
	.setup = rb_libbpf_setup,
	.consume = rb_libbpf_consume,
	.drain = rb_libbpf_drain,
	.counters = rb_counters,
	.missed_runs = producer_missed_runs,
	.teardown = rbs_teardown,
};
BENCH_REGISTER(bench_rb_libbpf);

static const struct bench_ops bench_rb_custom = {
	.name = "rb-custom",
	.desc = "ring buffer, reserve/submit, consumer over the mmapped ring",
	.opts = rb_opts,
	.family = &rb_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = 1,
	.waits = true,
	.check = rb_check,
	.setup = rb_custom_setup,
	.consume = rb_custom_consume,
	.drain = rb_custom_drain,
	.counters = rb_counters,
	.missed_runs = producer_missed_runs,
	.teardown = rbs_teardown,
};
BENCH_REGISTER(bench_rb_custom);

static const struct bench_ops bench_rb_output = {
	.name = "rb-output",
	.desc = "ring buffer, bpf_ringbuf_output, libbpf ring_buffer__poll consumer",
	.opts = rb_opts,
	.family = &rb_family,
	.hits = BENCH_HITS_CONSUMED,
	.max_consumers = 1,
	.waits = true,
	.check = rb_check,
	.setup = rb_output_setup,
	.consume = rb_libbpf_consume,
	.drain = rb_libbpf_drain,
	.counters = rb_counters,
	.missed_runs = producer_missed_runs,
	.teardown = rbs_teardown,
};
BENCH_REGISTER(bench_rb_output);
