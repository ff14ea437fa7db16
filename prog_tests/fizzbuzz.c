// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci XDP classifier (progs/fizzbuzz_*.bpf.c): the loop,
 * lookup and ring buffer variants must classify every frame as the table
 * in progs/fizzbuzz_common.h says and as an independent userspace
 * reference computes, both under BPF_PROG_TEST_RUN and attached to a veth
 * in a private network namespace with frames sent through the pair.
 * Nothing the test creates (programs, maps, links, namespace, veth) may
 * outlive it.
 *
 * serial_test_fizzbuzz(), at the end, runs the subtests in this order:
 * the reference itself, the compiled loop, each frame set under test run,
 * each variant attached to a veth, and the leak checks.  The frames and
 * the reference are in helpers/fizzbuzz_frames.h, the loaded programs in
 * helpers/fizzbuzz_progs.h, the veth pair in lib/xdp_veth.h.
 */
#define _GNU_SOURCE
#include <net/if.h>

#include "bpf_ids.h"
#include "errname.h"
#include "netns.h"
#include "probe.h"
#include "test_progs.h"
#include "xdp_veth.h"
#include "fizzbuzz_frames.h"
#include "fizzbuzz_progs.h"
#include "fizzbuzz_loop.skel.h"
#include "fizzbuzz_lookup.skel.h"
#include "fizzbuzz_ringbuf.skel.h"

#define XDP_DEV			"fbf-xdp"
#define PEER_DEV		"fbf-peer"
#define LEAK_TIMEOUT_MS		2000

struct fixture {
	struct fbf_progs *progs;
	struct fbf_frames frames;
	ino_t netns_used[FBF_NR_VARIANTS];	/* namespaces the attach tests made */
};

/* ---- the reference and the programs as compiled --------------------- */

static void subtest_reference(void)
{
	static const unsigned int fibs[] = {
		0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233,
	};
	/*
	 * Worked by hand: 2^32-1 = 3*5*17*257*65537, 2^25-1 = 31*601*1801,
	 * 2^26-1 = 3*2731*8191, 2^28-1 = 3*5*29*43*113*127, 0x104 = 260.
	 */
	static const struct { __u32 addr, class; } worked[] = {
		{ 0x0000000f, FBF_FIZZBUZZ }, { 0x00000009, FBF_FIZZ },
		{ 0x0000000a, FBF_BUZZ }, { 0x00000007, FBF_NONE },
		{ 0xffffffff, FBF_FIZZBUZZ }, { 0x01ffffff, FBF_NONE },
		{ 0x03ffffff, FBF_FIZZ }, { 0x0fffffff, FBF_FIZZBUZZ },
		{ 0x00000104, FBF_BUZZ }, { 0x010000e9, FBF_FIBONACCI },
	};
	size_t k = 0;

	/* The reference's Fibonacci octets are exactly the list. */
	for (unsigned int n = 0; n < 256; n++) {
		bool listed = k < ARRAY_SIZE(fibs) && fibs[k] == n;

		if (!ASSERT_EQ(fbf_ref_is_fibonacci(n), listed, "Fibonacci octet"))
			fprintf(stderr, "  octet %u\n", n);
		k += listed;
	}
	for (size_t i = 0; i < ARRAY_SIZE(worked); i++)
		if (!ASSERT_EQ(fbf_ref_class(worked[i].addr), worked[i].class,
			       "reference class"))
			fprintf(stderr, "  address 0x%08x\n", worked[i].addr);
}

/* Index of the first backward jump in prog's instructions, or -1. */
static int first_backward_jump(const struct bpf_program *prog)
{
	const struct bpf_insn *insn = bpf_program__insns(prog);
	size_t n = bpf_program__insn_cnt(prog);

	for (size_t i = 0; i < n; i++) {
		__u8 class = BPF_CLASS(insn[i].code), op = BPF_OP(insn[i].code);

		if ((class == BPF_JMP || class == BPF_JMP32) &&
		    op != BPF_CALL && op != BPF_EXIT && insn[i].off < 0)
			return i;
	}
	return -1;
}

/* Whether prog, as compiled, has a loop: what want_loop says. */
static void check_loop(const struct bpf_program *prog, bool want_loop)
{
	int at;

	if (!ASSERT_GT(bpf_program__insn_cnt(prog), 0, "instructions"))
		return;
	at = first_backward_jump(prog);
	if (ASSERT_EQ(at >= 0, want_loop, "has a backward jump"))
		return;
	if (want_loop)
		fprintf(stderr, "  program %s: no loop left, clang folded it\n",
			bpf_program__name(prog));
	else
		fprintf(stderr, "  program %s: backward jump at insn %d\n",
			bpf_program__name(prog), at);
}

/*
 * The benchmark compares a per-packet loop with a table lookup: that only
 * means something if the compiler kept the loop and the lookup has none.
 * Looked at in the objects as compiled (opened, not loaded).
 */
static void subtest_loop_kept(void)
{
	struct fizzbuzz_loop *loop = fizzbuzz_loop__open();
	struct fizzbuzz_lookup *lookup = fizzbuzz_lookup__open();
	struct fizzbuzz_ringbuf *ringbuf = fizzbuzz_ringbuf__open();

	if (ASSERT_OK_PTR(loop, "fizzbuzz_loop__open"))
		check_loop(loop->progs.fizzbuzz_loop, true);
	if (ASSERT_OK_PTR(lookup, "fizzbuzz_lookup__open"))
		check_loop(lookup->progs.fizzbuzz_lookup, false);
	if (ASSERT_OK_PTR(ringbuf, "fizzbuzz_ringbuf__open"))
		check_loop(ringbuf->progs.fizzbuzz_ringbuf, false);
	fizzbuzz_ringbuf__destroy(ringbuf);
	fizzbuzz_lookup__destroy(lookup);
	fizzbuzz_loop__destroy(loop);
}

/* ---- BPF_PROG_TEST_RUN ---------------------------------------------- */

/* Run one frame through one program; check verdict and what it recorded. */
static bool check_test_run(struct fbf_variant *v, const struct fbf_frame *f)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = f->data,
		.data_size_in = f->len,
	);
	int err = bpf_prog_test_run_opts(bpf_program__fd(v->prog), &opts);
	bool ok;

	v->n_got = 0;
	ok = ASSERT_EQ(err, f->run_err, "BPF_PROG_TEST_RUN result") &&
	     (err || ASSERT_EQ(opts.retval, f->verdict, "XDP verdict")) &&
	     ASSERT_OK(fbf_collect(v), "collect recorded classes") &&
	     ASSERT_EQ(v->n_got, f->class != FBF_NONE, "classes recorded") &&
	     (!v->n_got || ASSERT_EQ(v->got[0], f->class, "class recorded"));
	if (!ok)
		fprintf(stderr, "  program %s, frame: %s (%zu bytes), expected class %s\n",
			v->name, f->what, f->len, fbf_class_name(f->class));
	return ok;
}

/* Every frame through every variant; stops at the first mismatch. */
static void check_frames(struct fixture *fx)
{
	for (int i = 0; i < FBF_NR_VARIANTS; i++) {
		struct fbf_variant *v = &fx->progs->v[i];

		fbf_reset(v);
		for (int j = 0; j < fx->frames.n; j++)
			if (!check_test_run(v, &fx->frames.f[j]))
				break;
		fbf_check_sink_errors(v);
	}
}

static void subtest_octets(struct fixture *fx)
{
	/* 10.0.0, 192.168.1 and 203.0.113 */
	static const __u32 prefixes[] = { 0x0a000000, 0xc0a80100, 0xcb007100 };
	int seen[FBF_BUZZ + 1] = { 0 };

	fx->frames.n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		fbf_add_octet_sweep(&fx->frames, prefixes[i]);
	for (int i = 0; i < fx->frames.n; i++)
		seen[fx->frames.f[i].class]++;
	/* The inputs must exercise every class, or the check proves little. */
	for (__u32 c = FBF_NONE; c <= FBF_BUZZ; c++)
		if (!ASSERT_GT(seen[c], 0, "frames of each class"))
			fprintf(stderr, "  no frame of class %s\n", fbf_class_name(c));
	check_frames(fx);
}

static void subtest_frame_set(struct fixture *fx, void (*add)(struct fbf_frames *l))
{
	fx->frames.n = 0;
	add(&fx->frames);
	check_frames(fx);
}

static void add_truncated_all(struct fbf_frames *l)
{
	fbf_add_truncated(l, 0);
}

/* ---- attached to a veth in a private namespace ---------------------- */

/* Assert that an xdp_veth call worked; if not, say which step failed. */
static bool veth_ok(const struct xdp_veth *vx, int err, const char *what)
{
	const struct xdp_veth_error *e = &vx->error;

	if (ASSERT_OK(err, what))
		return true;
	fprintf(stderr, "  %s: %s%s%s\n", e->step, errname(e->err),
		*e->detail ? ": " : "", e->detail);
	return false;
}

/* The pair in a new namespace; skips if the kernel lacks what it takes. */
static bool open_veth(struct xdp_veth *vx)
{
	const struct xdp_veth_error *e = &vx->error;
	int err = xdp_veth_open(vx, XDP_DEV, PEER_DEV);

	if (err && e->feature) {
		test__skip_reason("%s not available: %s failed (%s%s%s)",
				  e->feature, e->step, errname(e->err),
				  *e->detail ? ": " : "", e->detail);
		return false;
	}
	return veth_ok(vx, err, "set up the veth pair");
}

/* What the real path sends: every kind of frame the test-run cases have. */
static void add_wire_frames(struct fbf_frames *l)
{
	l->n = 0;
	fbf_add_octet_sweep(l, 0x0a000000);
	fbf_add_edge_addresses(l);
	fbf_add_non_ipv4(l);
	fbf_add_ipv4_options(l);
	fbf_add_malformed(l);
	/* A socket cannot send less than an Ethernet header. */
	fbf_add_truncated(l, ETH_HLEN);
	/* Classified and last: once its class is in, every frame was seen. */
	fbf_add_udp4(l, 0x0a0000e9);
}

static __u32 prog_id(const struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return 0;
	return info.id;
}

static bool check_attached(struct xdp_veth *vx, const struct fbf_variant *v)
{
	__u32 id, want = prog_id(v->prog);
	__u8 mode;

	if (!ASSERT_GT(want, 0, "ID of the program") ||
	    !veth_ok(vx, xdp_veth_query(vx, &id, &mode), "bpf_xdp_query") ||
	    !ASSERT_EQ(id, want, "program attached to " XDP_DEV))
		return false;
	if (test__verbosity())
		printf("%s attached to %s in %s mode\n", v->name, XDP_DEV,
		       xdp_veth_mode_name(mode));
	return true;
}

/* What arrived must be the expected classes, in the order sent. */
static void check_arrivals(struct fbf_variant *v, const struct fbf_frames *l)
{
	int k = 0, want = 0;

	for (int i = 0; i < l->n; i++)
		want += l->f[i].class != FBF_NONE;
	if (!ASSERT_OK(fbf_collect(v), "collect recorded classes") ||
	    !ASSERT_EQ(v->n_got, want, "classes received"))
		return;
	for (int i = 0; i < l->n && k < v->n_got && k < FBF_MAX_CLASSES; i++) {
		if (l->f[i].class == FBF_NONE)
			continue;
		if (!ASSERT_EQ(v->got[k], l->f[i].class, "class received")) {
			fprintf(stderr, "  class #%d is %s; expected %s, of frame #%d (%s)\n",
				k, fbf_class_name(v->got[k]),
				fbf_class_name(l->f[i].class), i, l->f[i].what);
			return;
		}
		k++;
	}
	fbf_check_sink_errors(v);
}

/* Attach, send, check what arrived, detach and see the program gone. */
static void attach_send_check(struct fixture *fx, struct fbf_variant *v,
			      struct xdp_veth *vx)
{
	__u32 id;
	__u8 mode;

	if (!veth_ok(vx, xdp_veth_attach(vx, bpf_program__fd(v->prog)),
		     "attach XDP to " XDP_DEV))
		return;
	if (check_attached(vx, v) && fbf_send_and_collect(v, vx, &fx->frames))
		check_arrivals(v, &fx->frames);
	if (veth_ok(vx, xdp_veth_detach(vx), "detach XDP") &&
	    veth_ok(vx, xdp_veth_query(vx, &id, &mode), "bpf_xdp_query"))
		ASSERT_EQ(id, 0, "program attached after detaching");
}

static void subtest_attach(struct fixture *fx, enum fbf_variant_id which)
{
	struct fbf_variant *v = &fx->progs->v[which];
	struct xdp_veth vx;

	fbf_reset(v);
	add_wire_frames(&fx->frames);
	if (open_veth(&vx))
		attach_send_check(fx, v, &vx);
	/* Deletes the pair from inside the namespace, then leaves it. */
	veth_ok(&vx, xdp_veth_close(&vx), "tear down the veth pair");
	fx->netns_used[which] = vx.ns.ino;
	if (vx.ns.ino)
		ASSERT_EQ(netns_refs_held(vx.ns.ino), 0,
			  "references left to the test netns");
}

/* ---- hygiene -------------------------------------------------------- */

static void subtest_no_leftovers(const struct bpf_ids *before,
				 ino_t orig_netns, const ino_t *netns_used)
{
	struct bpf_ids leaked = {};
	int n = bpf_ids_leaked(before, LEAK_TIMEOUT_MS, &leaked);

	if (ASSERT_GE(n, 0, "list BPF objects") &&
	    !ASSERT_EQ(n, 0, "BPF programs, maps and links left behind"))
		bpf_ids_print(&leaked, stderr);
	bpf_ids_free(&leaked);
	ASSERT_EQ(netns_current_ino(), orig_netns, "in the original netns");
	for (int i = 0; i < FBF_NR_VARIANTS; i++)
		if (netns_used[i])
			ASSERT_EQ(netns_refs_held(netns_used[i]), 0,
				  "references left to a test netns");
	/* The pair only ever existed inside the test namespaces. */
	ASSERT_EQ(if_nametoindex(XDP_DEV), 0, XDP_DEV " in the original netns");
}

/* ---- the test ------------------------------------------------------- */

static void run_subtests(struct fixture *fx)
{
	if (test__start_subtest("octets"))
		subtest_octets(fx);
	if (test__start_subtest("edge_addresses"))
		subtest_frame_set(fx, fbf_add_edge_addresses);
	if (test__start_subtest("non_ipv4"))
		subtest_frame_set(fx, fbf_add_non_ipv4);
	if (test__start_subtest("ipv4_options"))
		subtest_frame_set(fx, fbf_add_ipv4_options);
	if (test__start_subtest("malformed_ipv4"))
		subtest_frame_set(fx, fbf_add_malformed);
	if (test__start_subtest("truncated"))
		subtest_frame_set(fx, add_truncated_all);
	if (test__start_subtest("attach_loop"))
		subtest_attach(fx, FBF_LOOP);
	if (test__start_subtest("attach_lookup"))
		subtest_attach(fx, FBF_LOOKUP);
	if (test__start_subtest("attach_ringbuf"))
		subtest_attach(fx, FBF_RINGBUF);
}

/* Serial: the leak check compares the kernel's global ID lists. */
void serial_test_fizzbuzz(void)
{
	ino_t orig_netns = netns_current_ino();
	struct bpf_ids before = {};
	struct fixture fx = {};

	if (!test__need(FEAT_XDP) || !test__need(FEAT_QUEUE_STACK) ||
	    !test__need(FEAT_RINGBUF))
		return;
	if (!ASSERT_OK(bpf_ids_snapshot(&before), "snapshot BPF object IDs"))
		return;
	if (test__start_subtest("reference"))
		subtest_reference();
	if (test__start_subtest("loop_kept"))
		subtest_loop_kept();
	if (fbf_frames_alloc(&fx.frames)) {
		fx.progs = fbf_progs_open();
		if (fx.progs)
			run_subtests(&fx);
	}
	fbf_progs_close(fx.progs);
	fbf_frames_free(&fx.frames);
	if (test__start_subtest("no_leftovers"))
		subtest_no_leftovers(&before, orig_netns, fx.netns_used);
	bpf_ids_free(&before);
}
