// SPDX-License-Identifier: GPL-2.0
/* The three FizzBuzzFibonacci classifiers and what they recorded. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "fizzbuzz_progs.h"
#include "test_progs.h"
#include "fizzbuzz_loop.skel.h"
#include "fizzbuzz_lookup.skel.h"
#include "fizzbuzz_ringbuf.skel.h"

/* Frames in flight through the veth, well below its 256-entry ring. */
#define SEND_CHUNK		32
#define ARRIVAL_TIMEOUT_MS	2000

static void got_class(struct fbf_variant *v, __u32 class)
{
	if (v->n_got < FBF_MAX_CLASSES)
		v->got[v->n_got] = class;
	v->n_got++;
}

static int on_rb_record(void *ctx, void *data, size_t size)
{
	struct fbf_variant *v = ctx;
	__u32 class;

	if (size != sizeof(class)) {
		v->bad_records++;
		return 0;
	}
	memcpy(&class, data, sizeof(class));
	got_class(v, class);
	return 0;
}

int fbf_collect(struct fbf_variant *v)
{
	__u32 class;
	int err;

	if (v->rb) {
		err = ring_buffer__consume(v->rb);
		return err < 0 ? err : 0;
	}
	while (!(err = bpf_map_lookup_and_delete_elem(v->queue_fd, NULL,
						      &class)))
		got_class(v, class);
	return err == -ENOENT ? 0 : err;
}

void fbf_reset(struct fbf_variant *v)
{
	fbf_collect(v);
	v->n_got = 0;
	v->bad_records = 0;
	*v->record_errors = 0;
}

bool fbf_check_sink_errors(const struct fbf_variant *v)
{
	return ASSERT_EQ(*v->record_errors, 0, "classes the sink refused") &&
	       ASSERT_EQ(v->bad_records, 0, "ring buffer records of bad size");
}

void fbf_progs_close(struct fbf_progs *p)
{
	if (!p)
		return;
	ring_buffer__free(p->v[FBF_RINGBUF].rb);
	fizzbuzz_ringbuf__destroy(p->ringbuf);
	fizzbuzz_lookup__destroy(p->lookup);
	fizzbuzz_loop__destroy(p->loop);
	free(p);
}

static void set_variants(struct fbf_progs *p)
{
	p->v[FBF_LOOP] = (struct fbf_variant){
		.name = "loop",
		.prog = p->loop->progs.fizzbuzz_loop,
		.record_errors = &p->loop->bss->record_errors,
		.queue_fd = bpf_map__fd(p->loop->maps.classes),
	};
	p->v[FBF_LOOKUP] = (struct fbf_variant){
		.name = "lookup",
		.prog = p->lookup->progs.fizzbuzz_lookup,
		.record_errors = &p->lookup->bss->record_errors,
		.queue_fd = bpf_map__fd(p->lookup->maps.classes),
	};
	p->v[FBF_RINGBUF] = (struct fbf_variant){
		.name = "ringbuf",
		.prog = p->ringbuf->progs.fizzbuzz_ringbuf,
		.record_errors = &p->ringbuf->bss->record_errors,
		.queue_fd = -1,
	};
}

struct fbf_progs *fbf_progs_open(void)
{
	struct fbf_progs *p = calloc(1, sizeof(*p));

	if (!ASSERT_OK_PTR(p, "alloc fizzbuzz programs"))
		return NULL;
	p->loop = fizzbuzz_loop__open_and_load();
	if (!ASSERT_OK_PTR(p->loop, "fizzbuzz_loop__open_and_load"))
		goto err;
	p->lookup = fizzbuzz_lookup__open_and_load();
	if (!ASSERT_OK_PTR(p->lookup, "fizzbuzz_lookup__open_and_load"))
		goto err;
	p->ringbuf = fizzbuzz_ringbuf__open_and_load();
	if (!ASSERT_OK_PTR(p->ringbuf, "fizzbuzz_ringbuf__open_and_load"))
		goto err;
	set_variants(p);
	p->v[FBF_RINGBUF].rb =
		ring_buffer__new(bpf_map__fd(p->ringbuf->maps.classes_rb),
				 on_rb_record, &p->v[FBF_RINGBUF], NULL);
	if (!ASSERT_OK_PTR(p->v[FBF_RINGBUF].rb, "ring_buffer__new"))
		goto err;
	return p;
err:
	fbf_progs_close(p);
	return NULL;
}

/* Collect until want classes are in or the deadline passes. */
static bool wait_for_classes(struct fbf_variant *v, int want, long long deadline)
{
	const struct timespec pause = { .tv_nsec = 200 * 1000 };

	for (;;) {
		if (!ASSERT_OK(fbf_collect(v), "collect recorded classes"))
			return false;
		if (v->n_got >= want || now_ms() > deadline)
			break;
		nanosleep(&pause, NULL);
	}
	return ASSERT_GE(v->n_got, want, "classes arrived in time");
}

/*
 * Every frame went into the pair and came out at the program's end, the
 * ones that record nothing too.  The counters move after the NAPI poll
 * that ran the program, so they may trail the last class by a moment.
 */
static bool check_delivered(struct xdp_veth *vx, __u64 n)
{
	const struct timespec pause = { .tv_nsec = 200 * 1000 };
	long long deadline = now_ms() + ARRIVAL_TIMEOUT_MS;
	struct xdp_veth_counters c;

	for (;;) {
		if (!ASSERT_OK(xdp_veth_counters(vx, &c), "read the pair's counters")) {
			fprintf(stderr, "  %s\n", vx->error.step);
			return false;
		}
		if (c.xdp_rx >= n || now_ms() > deadline)
			break;
		nanosleep(&pause, NULL);
	}
	return ASSERT_EQ(c.peer_tx, n, "frames the peer sent") &&
	       ASSERT_EQ(c.peer_tx_dropped, 0, "frames the peer dropped") &&
	       ASSERT_EQ(c.xdp_rx, n, "frames the XDP end received");
}

bool fbf_send_and_collect(struct fbf_variant *v, struct xdp_veth *vx,
			  const struct fbf_frames *l)
{
	long long deadline = now_ms() + ARRIVAL_TIMEOUT_MS;
	int want = 0;

	for (int i = 0; i < l->n; i++) {
		const struct fbf_frame *f = &l->f[i];
		ssize_t sent = xdp_veth_send(vx, f->data, f->len);

		if (!ASSERT_EQ(sent, (ssize_t)f->len, "send")) {
			fprintf(stderr, "  frame %s: %s\n", f->what,
				sent < 0 ? strerror(-sent) : "sent in part");
			return false;
		}
		want += f->class != FBF_NONE;
		if ((i + 1) % SEND_CHUNK && i + 1 < l->n)
			continue;
		if (!wait_for_classes(v, want, deadline)) {
			fprintf(stderr, "  after frame %d of %d (%s)\n", i + 1,
				l->n, f->what);
			return false;
		}
	}
	return check_delivered(vx, l->n);
}
