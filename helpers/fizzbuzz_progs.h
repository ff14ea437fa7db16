/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three FizzBuzzFibonacci classifiers (progs/fizzbuzz_*.bpf.c) loaded
 * for the test (prog_tests/fizzbuzz.c), and what each recorded: the loop
 * and lookup variants push classes to a queue map, the ringbuf variant
 * writes them to a ring buffer.  fbf_collect() reads either sink the same
 * way, in the order the program recorded, also while frames are on their
 * way through a veth pair (fbf_send_and_collect()).
 */
#ifndef BPFCHECK_FIZZBUZZ_PROGS_H
#define BPFCHECK_FIZZBUZZ_PROGS_H

#include <stdbool.h>
#include <linux/types.h>

#include "fizzbuzz_frames.h"
#include "xdp_veth.h"

#define FBF_MAX_CLASSES		1024

enum fbf_variant_id { FBF_LOOP, FBF_LOOKUP, FBF_RINGBUF, FBF_NR_VARIANTS };

struct fbf_variant {
	const char *name;
	struct bpf_program *prog;
	__u64 *record_errors;		/* in the program's .bss */
	int queue_fd;			/* queue variants */
	struct ring_buffer *rb;		/* ring buffer variant */
	__u32 got[FBF_MAX_CLASSES];	/* classes collected, in order */
	int n_got;			/* how many; may exceed FBF_MAX_CLASSES */
	int bad_records;		/* ring buffer records not 4 bytes */
};

struct fbf_progs {
	struct fizzbuzz_loop *loop;
	struct fizzbuzz_lookup *lookup;
	struct fizzbuzz_ringbuf *ringbuf;
	struct fbf_variant v[FBF_NR_VARIANTS];
};

/* Load the three programs (asserts); NULL if one did not load. */
struct fbf_progs *fbf_progs_open(void);
void fbf_progs_close(struct fbf_progs *p);

/* Append every class recorded since the last call to v->got: 0 or -errno. */
int fbf_collect(struct fbf_variant *v);
/* Forget whatever an earlier (possibly failed) subtest left recorded. */
void fbf_reset(struct fbf_variant *v);
/* Assert that the sink refused nothing and no record had a bad size. */
bool fbf_check_sink_errors(const struct fbf_variant *v);

/*
 * Send every frame of l into the veth pair v's program is attached to, in
 * chunks small enough for the veth's ring: after each chunk, collect until
 * the classes of all frames sent so far are in.  Then the pair's counters
 * must show every frame sent and received, none dropped on the way.
 * Asserts all.
 */
bool fbf_send_and_collect(struct fbf_variant *v, struct xdp_veth *vx,
			  const struct fbf_frames *l);

#endif
