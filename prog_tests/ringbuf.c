// SPDX-License-Identifier: GPL-2.0
/*
 * BPF ring buffer: records produced by reserve/submit, reserve/discard and
 * bpf_ringbuf_output arrive complete, in order and with the right bytes;
 * when the ring is full the BPF side's drop count is exactly what was
 * lost.
 */
#include <linux/types.h>

#include "probe.h"
#include "test_progs.h"
#include "trigger.h"
#include "ringbuf_common.h"
#include "test_ringbuf.skel.h"

#define N_EVENTS 200
/* Ring buffer records carry an 8-byte header and are 8-byte aligned. */
#define RB_HDR_LEN 8

struct received {
	int count;
	int bad_size;
	struct rb_record rec[N_EVENTS];
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct received *got = ctx;

	if (size != sizeof(struct rb_record)) {
		got->bad_size++;
		return 0;
	}
	if (got->count < N_EVENTS)
		memcpy(&got->rec[got->count], data, size);
	got->count++;
	return 0;
}

static void reset_counters(struct test_ringbuf *skel)
{
	skel->bss->next_seq = 0;
	skel->bss->submitted = 0;
	skel->bss->discarded = 0;
	skel->bss->dropped = 0;
}

/* Check record i carries sequence number seq and its exact payload. */
static bool check_record(const struct rb_record *r, __u64 seq, __u32 kind)
{
	__u8 want[RB_PAYLOAD_LEN];

	for (int i = 0; i < RB_PAYLOAD_LEN; i++)
		want[i] = rb_payload_byte(seq, i);
	return ASSERT_EQ(r->seq, seq, "record seq") &&
	       ASSERT_EQ(r->pid, (__u32)getpid(), "record pid") &&
	       ASSERT_EQ(r->kind, kind, "record kind") &&
	       ASSERT_MEMEQ(r->payload, want, RB_PAYLOAD_LEN, "payload");
}

/*
 * Attach one producer, fire it n times, then drain ring map_fd into got.
 * The ring is read only after producing, so nothing races the check.
 */
static bool produce_and_drain(struct bpf_program *prog, int map_fd, int n,
			      struct received *got)
{
	struct ring_buffer *rb = NULL;
	struct bpf_link *link;
	bool ok = false;
	int consumed;

	memset(got, 0, sizeof(*got));
	link = bpf_program__attach(prog);
	if (!ASSERT_OK_PTR(link, "attach producer"))
		return false;
	rb = ring_buffer__new(map_fd, on_record, got, NULL);
	if (!ASSERT_OK_PTR(rb, "ring_buffer__new"))
		goto out;
	trigger_getpgid(n);
	consumed = ring_buffer__consume(rb);
	ok = ASSERT_GE(consumed, 0, "ring_buffer__consume") &&
	     ASSERT_EQ(got->bad_size, 0, "records of the wrong size");
out:
	ring_buffer__free(rb);
	bpf_link__destroy(link);
	return ok;
}

static void subtest_reserve_submit(struct test_ringbuf *skel)
{
	struct received *got = calloc(1, sizeof(*got));

	if (!ASSERT_OK_PTR(got, "alloc"))
		return;
	reset_counters(skel);
	if (!produce_and_drain(skel->progs.rb_reserve_submit,
			       bpf_map__fd(skel->maps.rb), N_EVENTS, got))
		goto out;
	ASSERT_EQ(got->count, N_EVENTS, "records received");
	ASSERT_EQ(skel->bss->submitted, N_EVENTS, "submitted by BPF");
	ASSERT_EQ(skel->bss->dropped, 0, "dropped by BPF");
	for (int i = 0; i < got->count && i < N_EVENTS; i++)
		if (!check_record(&got->rec[i], i, RB_KIND_SUBMIT))
			break;
out:
	free(got);
}

static void subtest_reserve_discard(struct test_ringbuf *skel)
{
	struct received *got = calloc(1, sizeof(*got));

	if (!ASSERT_OK_PTR(got, "alloc"))
		return;
	reset_counters(skel);
	if (!produce_and_drain(skel->progs.rb_reserve_discard,
			       bpf_map__fd(skel->maps.rb), N_EVENTS, got))
		goto out;
	/* Odd records were discarded: only the even ones arrive. */
	ASSERT_EQ(got->count, N_EVENTS / 2, "records received");
	ASSERT_EQ(skel->bss->discarded, N_EVENTS / 2, "discarded by BPF");
	ASSERT_EQ(skel->bss->submitted, N_EVENTS / 2, "submitted by BPF");
	ASSERT_EQ(skel->bss->dropped, 0, "dropped by BPF");
	for (int i = 0; i < got->count && i < N_EVENTS / 2; i++)
		if (!check_record(&got->rec[i], 2 * i, RB_KIND_DISCARD_KEPT))
			break;
out:
	free(got);
}

static void subtest_output(struct test_ringbuf *skel)
{
	struct received *got = calloc(1, sizeof(*got));

	if (!ASSERT_OK_PTR(got, "alloc"))
		return;
	reset_counters(skel);
	if (!produce_and_drain(skel->progs.rb_output,
			       bpf_map__fd(skel->maps.rb), N_EVENTS, got))
		goto out;
	ASSERT_EQ(got->count, N_EVENTS, "records received");
	ASSERT_EQ(skel->bss->submitted, N_EVENTS, "output by BPF");
	ASSERT_EQ(skel->bss->dropped, 0, "dropped by BPF");
	for (int i = 0; i < got->count && i < N_EVENTS; i++)
		if (!check_record(&got->rec[i], i, RB_KIND_OUTPUT))
			break;
out:
	free(got);
}

/*
 * Fill a one-page ring without consuming: exactly as many records fit as
 * the page holds, every later one is counted as dropped by BPF, and the
 * records that made it are the first ones, intact.
 */
static void subtest_full(struct test_ringbuf *skel)
{
	__u32 ring_size = bpf_map__max_entries(skel->maps.rb_small);
	int fit = ring_size / (RB_HDR_LEN + sizeof(struct rb_record));
	struct received *got = calloc(1, sizeof(*got));

	if (!ASSERT_OK_PTR(got, "alloc"))
		return;
	reset_counters(skel);
	if (!produce_and_drain(skel->progs.rb_fill_small,
			       bpf_map__fd(skel->maps.rb_small), N_EVENTS,
			       got))
		goto out;
	ASSERT_LT(fit, N_EVENTS, "the test overflows the ring");
	ASSERT_EQ(got->count, fit, "records that fit in the ring");
	ASSERT_EQ(skel->bss->submitted, (__u64)got->count, "submitted");
	ASSERT_EQ(skel->bss->dropped, (__u64)(N_EVENTS - got->count),
		  "drops counted by BPF");
	ASSERT_EQ(got->count + skel->bss->dropped, N_EVENTS,
		  "received + dropped = produced");
	for (int i = 0; i < got->count && i < N_EVENTS; i++)
		if (!check_record(&got->rec[i], i, RB_KIND_SMALL))
			break;

	/* Once drained, the ring takes records again. */
	reset_counters(skel);
	if (produce_and_drain(skel->progs.rb_fill_small,
			      bpf_map__fd(skel->maps.rb_small), 1, got))
		ASSERT_EQ(got->count, 1, "record after draining");
out:
	free(got);
}

void test_ringbuf(void)
{
	struct test_ringbuf *skel;

	if (!test__need(FEAT_RINGBUF) || !test__need(FEAT_TRACEPOINT))
		return;
	skel = test_ringbuf__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_ringbuf__open_and_load"))
		return;
	skel->bss->target_pid = getpid();

	if (test__start_subtest("reserve_submit"))
		subtest_reserve_submit(skel);
	if (test__start_subtest("reserve_discard"))
		subtest_reserve_discard(skel);
	if (test__start_subtest("output"))
		subtest_output(skel);
	if (test__start_subtest("full_drops"))
		subtest_full(skel);

	test_ringbuf__destroy(skel);
}
