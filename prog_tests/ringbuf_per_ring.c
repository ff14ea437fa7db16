// SPDX-License-Identifier: GPL-2.0
/*
 * One ring_buffer manager over two BPF ring buffers, read one ring at a
 * time with libbpf's per-ring API: ring_buffer__ring() finds each ring by
 * index, ring__map_fd() and ring__size() say which map it is, the producer
 * and consumer positions and ring__avail_data_size() count the unread
 * bytes exactly, and ring__consume() drains only its own ring.
 */
/* bpfcheck: requires libbpf 1.3 (ring_buffer__ring, ring__consume, ring__avail_data_size) */
#include <linux/types.h>

#include "probe.h"
#include "test_progs.h"
#include "trigger.h"
#include "ringbuf_common.h"
#include "test_ringbuf.skel.h"

/* A record takes an 8-byte header plus its size rounded up to 8 bytes. */
#define RECORD_BYTES (8 + ((sizeof(struct rb_record) + 7) & ~7ul))
#define N_BIG 20
/* Fewer than the one-page ring holds, so none is dropped. */
#define N_SMALL 10

struct received {
	int count;
	int wrong;	/* records of another kind or size than expected */
	__u32 kind;
	__u64 next_seq;
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct received *got = ctx;
	const struct rb_record *r = data;

	if (size != sizeof(*r) || r->kind != got->kind ||
	    r->seq != got->next_seq || r->pid != (__u32)getpid())
		got->wrong++;
	got->next_seq = r->seq + 1;
	got->count++;
	return 0;
}

struct rings {
	struct ring_buffer *mgr;
	struct ring *big;	/* index 0: map rb */
	struct ring *small;	/* index 1: map rb_small */
	struct received got_big, got_small;
};

static bool rings_open(struct rings *r, struct test_ringbuf *skel)
{
	memset(r, 0, sizeof(*r));
	r->got_big.kind = RB_KIND_SUBMIT;
	r->got_small.kind = RB_KIND_SMALL;
	r->mgr = ring_buffer__new(bpf_map__fd(skel->maps.rb), on_record,
				  &r->got_big, NULL);
	if (!ASSERT_OK_PTR(r->mgr, "ring_buffer__new"))
		return false;
	if (!ASSERT_OK(ring_buffer__add(r->mgr, bpf_map__fd(skel->maps.rb_small),
					on_record, &r->got_small), "ring_buffer__add"))
		return false;
	r->big = ring_buffer__ring(r->mgr, 0);
	r->small = ring_buffer__ring(r->mgr, 1);
	return ASSERT_OK_PTR(r->big, "ring_buffer__ring(0)") &&
	       ASSERT_OK_PTR(r->small, "ring_buffer__ring(1)");
}

/* The rings are the maps, in the order they were added; index 2 is none. */
static void subtest_lookup(struct test_ringbuf *skel, struct rings *r)
{
	struct ring *none;

	ASSERT_EQ(ring__map_fd(r->big), bpf_map__fd(skel->maps.rb), "ring 0 fd");
	ASSERT_EQ(ring__size(r->big), bpf_map__max_entries(skel->maps.rb),
		  "ring 0 size");
	ASSERT_EQ(ring__map_fd(r->small), bpf_map__fd(skel->maps.rb_small),
		  "ring 1 fd");
	ASSERT_EQ(ring__size(r->small), bpf_map__max_entries(skel->maps.rb_small),
		  "ring 1 size");
	errno = 0;
	none = ring_buffer__ring(r->mgr, 2);
	ASSERT_NULL(none, "ring_buffer__ring(2)");
	ASSERT_EQ(errno, ERANGE, "errno for an index past the last ring");
}

static bool produce(struct bpf_program *prog, int n)
{
	struct bpf_link *link = bpf_program__attach(prog);

	if (!ASSERT_OK_PTR(link, "attach producer"))
		return false;
	trigger_getpgid(n);
	bpf_link__destroy(link);
	return true;
}

/* What is unread is exactly what was produced, in bytes and positions. */
static bool expect_unread(struct ring *ring, size_t records, const char *what)
{
	size_t want = records * RECORD_BYTES;

	return ASSERT_EQ(ring__avail_data_size(ring), want, what) &&
	       ASSERT_EQ(ring__producer_pos(ring) - ring__consumer_pos(ring), want,
			 what);
}

/*
 * Records in both rings; consuming one ring leaves the other's unread, to
 * the byte, and hands the callback only that ring's records, in order.
 */
static void subtest_consume_one(struct test_ringbuf *skel, struct rings *r)
{
	unsigned long big_prod;

	skel->bss->next_seq = 0;
	if (!produce(skel->progs.rb_reserve_submit, N_BIG))
		return;
	skel->bss->next_seq = 0;
	if (!produce(skel->progs.rb_fill_small, N_SMALL))
		return;
	ASSERT_EQ(skel->bss->dropped, 0, "dropped by BPF");
	if (!expect_unread(r->big, N_BIG, "ring 0 unread") ||
	    !expect_unread(r->small, N_SMALL, "ring 1 unread"))
		return;

	big_prod = ring__producer_pos(r->big);
	ASSERT_EQ(ring__consume(r->small), N_SMALL, "ring__consume(ring 1)");
	ASSERT_EQ(r->got_small.count, N_SMALL, "ring 1 records seen");
	ASSERT_EQ(r->got_small.wrong, 0, "ring 1 records out of order or foreign");
	ASSERT_EQ(r->got_big.count, 0, "ring 0 records seen meanwhile");
	expect_unread(r->small, 0, "ring 1 unread after its consume");
	expect_unread(r->big, N_BIG, "ring 0 unread after ring 1's consume");

	ASSERT_EQ(ring__consume(r->big), N_BIG, "ring__consume(ring 0)");
	ASSERT_EQ(r->got_big.count, N_BIG, "ring 0 records seen");
	ASSERT_EQ(r->got_big.wrong, 0, "ring 0 records out of order or foreign");
	expect_unread(r->big, 0, "ring 0 unread after its consume");
	ASSERT_EQ(ring__consumer_pos(r->big), big_prod,
		  "ring 0 consumer caught up with the producer");
	/* Nothing is left for either ring. */
	ASSERT_EQ(ring__consume(r->big), 0, "ring__consume(ring 0) again");
	ASSERT_EQ(ring_buffer__consume(r->mgr), 0, "ring_buffer__consume");
}

void test_ringbuf_per_ring(void)
{
	struct test_ringbuf *skel;
	struct rings r;

	if (!test__need(FEAT_RINGBUF) || !test__need(FEAT_TRACEPOINT))
		return;
	skel = test_ringbuf__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_ringbuf__open_and_load"))
		return;
	skel->bss->target_pid = getpid();
	if (!rings_open(&r, skel))
		goto out;

	if (test__start_subtest("lookup"))
		subtest_lookup(skel, &r);
	if (test__start_subtest("consume_one_ring"))
		subtest_consume_one(skel, &r);
out:
	ring_buffer__free(r.mgr);
	test_ringbuf__destroy(skel);
}
