// SPDX-License-Identifier: GPL-2.0
/*
 * FizzBuzzFibonacci XDP classifier (progs/fizzbuzz_*.bpf.c): the loop,
 * lookup and ring buffer variants must classify every frame as the table
 * in progs/fizzbuzz_common.h says and as an independent userspace
 * reference computes, both under BPF_PROG_TEST_RUN and attached to a veth
 * in a private network namespace with frames sent through the pair.
 * Nothing the test creates (programs, maps, links, namespace, veth) may
 * outlive it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <net/if.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <time.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>

#include "clock.h"
#include "bpf_ids.h"
#include "frames.h"
#include "netns.h"
#include "probe.h"
#include "rtnl_link.h"
#include "test_progs.h"
#include "fizzbuzz_class.h"
#include "fizzbuzz_loop.skel.h"
#include "fizzbuzz_lookup.skel.h"
#include "fizzbuzz_ringbuf.skel.h"

#define MAX_FRAMES		1024
#define MAX_CLASSES		1024
#define PAYLOAD			"fbf!"
#define PAYLOAD_LEN		4
#define IPV4_HLEN		20
#define DST_ADDR		0x0a000002	/* 10.0.0.2 */
/* Fibonacci (10.0.0.1): a frame from it that records nothing was not read. */
#define CLASSIFIABLE_SRC	0x0a000001
#define XDP_DEV			"fbf-xdp"
#define PEER_DEV		"fbf-peer"
/* Frames in flight through the veth, well below its 256-entry ring. */
#define SEND_CHUNK		32
#define ARRIVAL_TIMEOUT_MS	2000
#define LEAK_TIMEOUT_MS		2000

static const unsigned char dst_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xfb, 2 };
static const unsigned char src_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xfb, 1 };

/* ---- the userspace reference ---------------------------------------- */

static bool is_square(__u64 x)
{
	__u64 r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r * r == x;
}

/*
 * Gessel's test, on purpose a different method from the BPF side's: n is
 * a Fibonacci number iff 5n^2 + 4 or 5n^2 - 4 is a perfect square.
 */
static bool ref_is_fibonacci(unsigned int n)
{
	__u64 m = 5ULL * n * n;

	return is_square(m + 4) || (m >= 4 && is_square(m - 4));
}

/* Class of a source address given in host order (a<<24 | ... | d). */
static __u32 ref_class(__u32 addr)
{
	if (ref_is_fibonacci(addr & 0xff))
		return FBF_FIBONACCI;
	switch ((addr % 3 == 0) << 1 | (addr % 5 == 0)) {
	case 3:
		return FBF_FIZZBUZZ;
	case 2:
		return FBF_FIZZ;
	case 1:
		return FBF_BUZZ;
	}
	return FBF_NONE;
}

static const char *class_name(__u32 class)
{
	static const char *const names[] = {
		[FBF_NONE] = "none", [FBF_FIBONACCI] = "Fibonacci",
		[FBF_FIZZBUZZ] = "FizzBuzz", [FBF_FIZZ] = "Fizz",
		[FBF_BUZZ] = "Buzz",
	};

	return class < ARRAY_SIZE(names) ? names[class] : "invalid";
}

/* ---- frames and what each must get ---------------------------------- */

struct frame {
	/* Ethernet, maybe a VLAN tag, IPv4 with options or IPv6, UDP */
	unsigned char data[ETH_HLEN + 4 + FRAME_L3_MAX + PAYLOAD_LEN];
	size_t len;
	char what[64];		/* for failure messages */
	int run_err;		/* BPF_PROG_TEST_RUN's expected result */
	__u32 verdict;		/* expected XDP verdict */
	__u32 class;		/* expected class; FBF_NONE: nothing recorded */
};

struct frame_list {
	struct frame *f;
	int n;
};

/* A new frame with the defaults: XDP_PASS, nothing recorded. */
static struct frame *add_frame(struct frame_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct frame *add_frame(struct frame_list *l, const char *fmt, ...)
{
	struct frame *f;
	va_list ap;

	/* Stays within MAX_FRAMES by construction; fail loudly if not. */
	if (!ASSERT_LT(l->n, MAX_FRAMES, "frames in the list"))
		return &l->f[MAX_FRAMES - 1];
	f = &l->f[l->n++];
	memset(f, 0, sizeof(*f));
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	f->verdict = XDP_PASS;
	f->class = FBF_NONE;
	return f;
}

/* Ethernet header; returns where its payload starts. */
static unsigned char *put_eth(struct frame *f, __u16 ethertype)
{
	f->len = frame_put_eth(f->data, dst_mac, src_mac, ethertype);
	return f->data + f->len;
}

/* IPv4 header (any version, any IHL) and UDP at "at", from saddr. */
static void put_ipv4_udp(struct frame *f, unsigned char *at, __u32 saddr,
			 __u8 version, __u8 ihl)
{
	f->len = at - f->data + frame_put_ipv4_udp(at, saddr, DST_ADDR, version,
						   ihl, PAYLOAD, PAYLOAD_LEN);
}

static void addr_str(__u32 addr, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", addr >> 24, addr >> 16 & 0xff,
		 addr >> 8 & 0xff, addr & 0xff);
}

/* A well-formed UDP/IPv4 frame from saddr: classified by the reference. */
static void add_udp4(struct frame_list *l, __u32 saddr)
{
	struct frame *f;
	char a[16];

	addr_str(saddr, a, sizeof(a));
	f = add_frame(l, "UDP/IPv4 from %s", a);
	put_ipv4_udp(f, put_eth(f, ETH_P_IP), saddr, 4, 5);
	f->class = ref_class(saddr);
}

/* Every last octet under the prefix a.b.c (given as a<<24|b<<16|c<<8). */
static void add_octet_sweep(struct frame_list *l, __u32 prefix)
{
	for (__u32 d = 0; d < 256; d++)
		add_udp4(l, prefix | d);
}

static void add_edge_addresses(struct frame_list *l)
{
	static const __u32 addrs[] = {
		0x00000000, 0xffffffff, 0x01000000, 0x01ffffff, 0x02ffffff,
		0x03ffffff, 0x0fffffff, 0x7fffffff, 0x80000000, 0x00000104,
		/* the wrong octet (first, not last) would say Fibonacci */
		0x0d000004, 0x0400000d, 0x0000000f, 0x000000ff,
	};

	for (size_t i = 0; i < ARRAY_SIZE(addrs); i++)
		add_udp4(l, addrs[i]);
}

/*
 * Frames that are not IPv4 by EtherType pass unrecorded, even when an IPv4
 * header from a classifiable source follows the Ethernet header.
 */
static void add_non_ipv4(struct frame_list *l)
{
	struct frame *f;
	unsigned char *at;

	f = add_frame(l, "ARP request");
	at = put_eth(f, ETH_P_ARP);
	f->len += frame_put_arp_request(at, src_mac, CLASSIFIABLE_SRC, DST_ADDR);
	f = add_frame(l, "UDP/IPv6");
	at = put_eth(f, ETH_P_IPV6);
	f->len += frame_put_ipv6_udp(at, PAYLOAD, PAYLOAD_LEN);
	put_eth(add_frame(l, "bare Ethernet header, EtherType IPv6"),
		ETH_P_IPV6);
	f = add_frame(l, "VLAN-tagged UDP/IPv4");
	at = put_eth(f, ETH_P_8021Q);
	at += frame_put_vlan(at, 100, ETH_P_IP);
	put_ipv4_udp(f, at, CLASSIFIABLE_SRC, 4, 5);
	f = add_frame(l, "IPv4 header under EtherType IPv6");
	put_ipv4_udp(f, put_eth(f, ETH_P_IPV6), CLASSIFIABLE_SRC, 4, 5);
	f = add_frame(l, "IPv4 header under EtherType ARP");
	put_ipv4_udp(f, put_eth(f, ETH_P_ARP), CLASSIFIABLE_SRC, 4, 5);
	/* Catches a missing byte swap of the EtherType on little endian. */
	f = add_frame(l, "IPv4 header under EtherType 0x0008");
	put_ipv4_udp(f, put_eth(f, 0x0008), CLASSIFIABLE_SRC, 4, 5);
}

/* IPv4 with options passes unrecorded, whether the options fit or not. */
static void add_ipv4_options(struct frame_list *l)
{
	struct frame *f;

	for (__u8 ihl = 6; ihl <= 15; ihl++) {
		f = add_frame(l, "IPv4 with IHL %u", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), CLASSIFIABLE_SRC, 4, ihl);
	}
	for (__u8 ihl = 6; ihl <= 15; ihl += 9) {
		f = add_frame(l, "IPv4 with IHL %u, options cut off", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), CLASSIFIABLE_SRC, 4, ihl);
		f->len = ETH_HLEN + IPV4_HLEN;
	}
}

/* A complete 20-byte header that is not a valid IPv4 header: aborted. */
static void add_malformed(struct frame_list *l)
{
	struct frame *f;

	for (__u8 version = 0; version <= 15; version++) {
		if (version == 4)
			continue;
		f = add_frame(l, "EtherType IPv4, version %u", version);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), CLASSIFIABLE_SRC,
			     version, 5);
		f->verdict = XDP_ABORTED;
	}
	for (__u8 ihl = 0; ihl < 5; ihl++) {
		f = add_frame(l, "IPv4 with IHL %u", ihl);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), CLASSIFIABLE_SRC, 4, ihl);
		f->verdict = XDP_ABORTED;
	}
}

/*
 * The first len bytes of a classifiable UDP/IPv4 frame, for every len
 * from min_len to 34: below 14 BPF_PROG_TEST_RUN refuses the frame with
 * EINVAL (the program never runs), 14 to 33 bytes cannot hold the IPv4
 * header (XDP_ABORTED), and 34 bytes, the header exactly, is classified.
 */
static void add_truncated(struct frame_list *l, size_t min_len)
{
	const size_t full_hdr = ETH_HLEN + IPV4_HLEN;
	struct frame *f;

	for (size_t len = min_len; len <= full_hdr; len++) {
		f = add_frame(l, "UDP/IPv4 cut to %zu bytes", len);
		put_ipv4_udp(f, put_eth(f, ETH_P_IP), CLASSIFIABLE_SRC, 4, 5);
		f->len = len;
		if (len < ETH_HLEN)
			f->run_err = -EINVAL;
		else if (len < full_hdr)
			f->verdict = XDP_ABORTED;
		else
			f->class = ref_class(CLASSIFIABLE_SRC);
	}
}

/* ---- the three programs and what they recorded ---------------------- */

enum { V_LOOP, V_LOOKUP, V_RINGBUF, NR_VARIANTS };

struct variant {
	const char *name;
	struct bpf_program *prog;
	__u64 *record_errors;		/* in the program's .bss */
	int queue_fd;			/* queue variants */
	struct ring_buffer *rb;		/* ring buffer variant */
	__u32 got[MAX_CLASSES];		/* classes collected, in order */
	int n_got;			/* how many; may exceed MAX_CLASSES */
	int bad_records;		/* ring buffer records not 4 bytes */
};

struct fixture {
	struct fizzbuzz_loop *loop;
	struct fizzbuzz_lookup *lookup;
	struct fizzbuzz_ringbuf *ringbuf;
	struct variant v[NR_VARIANTS];
	ino_t netns_used[NR_VARIANTS];	/* namespaces the attach tests made */
	struct frame_list frames;
};

static void got_class(struct variant *v, __u32 class)
{
	if (v->n_got < MAX_CLASSES)
		v->got[v->n_got] = class;
	v->n_got++;
}

static int on_rb_record(void *ctx, void *data, size_t size)
{
	struct variant *v = ctx;
	__u32 class;

	if (size != sizeof(class)) {
		v->bad_records++;
		return 0;
	}
	memcpy(&class, data, sizeof(class));
	got_class(v, class);
	return 0;
}

/* Append every class recorded since the last call to v->got. */
static int collect(struct variant *v)
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

/* Forget whatever an earlier (possibly failed) subtest left recorded. */
static void reset(struct variant *v)
{
	collect(v);
	v->n_got = 0;
	v->bad_records = 0;
	*v->record_errors = 0;
}

static bool check_sink_errors(const struct variant *v)
{
	return ASSERT_EQ(*v->record_errors, 0, "classes the sink refused") &&
	       ASSERT_EQ(v->bad_records, 0, "ring buffer records of bad size");
}

static void fixture_close(struct fixture *fx)
{
	if (!fx)
		return;
	ring_buffer__free(fx->v[V_RINGBUF].rb);
	fizzbuzz_ringbuf__destroy(fx->ringbuf);
	fizzbuzz_lookup__destroy(fx->lookup);
	fizzbuzz_loop__destroy(fx->loop);
	free(fx->frames.f);
	free(fx);
}

static void set_variants(struct fixture *fx)
{
	fx->v[V_LOOP] = (struct variant){
		.name = "loop",
		.prog = fx->loop->progs.fizzbuzz_loop,
		.record_errors = &fx->loop->bss->record_errors,
		.queue_fd = bpf_map__fd(fx->loop->maps.classes),
	};
	fx->v[V_LOOKUP] = (struct variant){
		.name = "lookup",
		.prog = fx->lookup->progs.fizzbuzz_lookup,
		.record_errors = &fx->lookup->bss->record_errors,
		.queue_fd = bpf_map__fd(fx->lookup->maps.classes),
	};
	fx->v[V_RINGBUF] = (struct variant){
		.name = "ringbuf",
		.prog = fx->ringbuf->progs.fizzbuzz_ringbuf,
		.record_errors = &fx->ringbuf->bss->record_errors,
		.queue_fd = -1,
	};
}

static struct fixture *fixture_open(void)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!ASSERT_OK_PTR(fx, "alloc fixture"))
		return NULL;
	fx->frames.f = calloc(MAX_FRAMES, sizeof(*fx->frames.f));
	if (!ASSERT_OK_PTR(fx->frames.f, "alloc frames"))
		goto err;
	fx->loop = fizzbuzz_loop__open_and_load();
	if (!ASSERT_OK_PTR(fx->loop, "fizzbuzz_loop__open_and_load"))
		goto err;
	fx->lookup = fizzbuzz_lookup__open_and_load();
	if (!ASSERT_OK_PTR(fx->lookup, "fizzbuzz_lookup__open_and_load"))
		goto err;
	fx->ringbuf = fizzbuzz_ringbuf__open_and_load();
	if (!ASSERT_OK_PTR(fx->ringbuf, "fizzbuzz_ringbuf__open_and_load"))
		goto err;
	set_variants(fx);
	fx->v[V_RINGBUF].rb =
		ring_buffer__new(bpf_map__fd(fx->ringbuf->maps.classes_rb),
				 on_rb_record, &fx->v[V_RINGBUF], NULL);
	if (!ASSERT_OK_PTR(fx->v[V_RINGBUF].rb, "ring_buffer__new"))
		goto err;
	return fx;
err:
	fixture_close(fx);
	return NULL;
}

/* ---- BPF_PROG_TEST_RUN ------------------------------------------------ */

/* Run one frame through one program; check verdict and what it recorded. */
static bool check_test_run(struct variant *v, const struct frame *f)
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
	     ASSERT_OK(collect(v), "collect recorded classes") &&
	     ASSERT_EQ(v->n_got, f->class != FBF_NONE, "classes recorded") &&
	     (!v->n_got || ASSERT_EQ(v->got[0], f->class, "class recorded"));
	if (!ok)
		fprintf(stderr, "  program %s, frame: %s (%zu bytes), "
			"expected class %s\n", v->name, f->what, f->len,
			class_name(f->class));
	return ok;
}

/* Every frame through every variant; stops at the first mismatch. */
static void check_frames(struct fixture *fx)
{
	for (int i = 0; i < NR_VARIANTS; i++) {
		struct variant *v = &fx->v[i];

		reset(v);
		for (int j = 0; j < fx->frames.n; j++)
			if (!check_test_run(v, &fx->frames.f[j]))
				break;
		check_sink_errors(v);
	}
}

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

		if (!ASSERT_EQ(ref_is_fibonacci(n), listed, "Fibonacci octet"))
			fprintf(stderr, "  octet %u\n", n);
		k += listed;
	}
	for (size_t i = 0; i < ARRAY_SIZE(worked); i++)
		if (!ASSERT_EQ(ref_class(worked[i].addr), worked[i].class,
			       "reference class"))
			fprintf(stderr, "  address 0x%08x\n", worked[i].addr);
}

static void subtest_octets(struct fixture *fx)
{
	/* 10.0.0, 192.168.1 and 203.0.113 */
	static const __u32 prefixes[] = { 0x0a000000, 0xc0a80100, 0xcb007100 };
	int seen[FBF_BUZZ + 1] = { 0 };

	fx->frames.n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		add_octet_sweep(&fx->frames, prefixes[i]);
	for (int i = 0; i < fx->frames.n; i++)
		seen[fx->frames.f[i].class]++;
	/* The inputs must exercise every class, or the check proves little. */
	for (__u32 c = FBF_NONE; c <= FBF_BUZZ; c++)
		if (!ASSERT_GT(seen[c], 0, "frames of each class"))
			fprintf(stderr, "  no frame of class %s\n",
				class_name(c));
	check_frames(fx);
}

static void subtest_frame_set(struct fixture *fx,
			      void (*add)(struct frame_list *l))
{
	fx->frames.n = 0;
	add(&fx->frames);
	check_frames(fx);
}

static void add_truncated_all(struct frame_list *l)
{
	add_truncated(l, 0);
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

/* ---- attached to a veth in a private namespace ----------------------- */

static const char *err_name(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	return name ? name : "unknown error";
}

/* What the real path sends: every kind of frame the test-run cases have. */
static void add_wire_frames(struct frame_list *l)
{
	l->n = 0;
	add_octet_sweep(l, 0x0a000000);
	add_edge_addresses(l);
	add_non_ipv4(l);
	add_ipv4_options(l);
	add_malformed(l);
	/* A socket cannot send less than an Ethernet header. */
	add_truncated(l, ETH_HLEN);
	/* Classified and last: once its class is in, every frame was seen. */
	add_udp4(l, 0x0a0000e9);
}

/* The veth pair, both ends up; skips the subtest if there is no veth. */
static bool make_veth(int *xdp_ifindex, int *peer_ifindex)
{
	int err = rtnl_veth_add(XDP_DEV, PEER_DEV);

	if (err) {
		test__skip_reason("veth not available: creating a veth pair "
				  "failed (%s%s%s)", err_name(err),
				  *rtnl_last_message() ? ": " : "",
				  rtnl_last_message());
		return false;
	}
	*xdp_ifindex = if_nametoindex(XDP_DEV);
	*peer_ifindex = if_nametoindex(PEER_DEV);
	return ASSERT_GT(*xdp_ifindex, 0, "ifindex of " XDP_DEV) &&
	       ASSERT_GT(*peer_ifindex, 0, "ifindex of " PEER_DEV) &&
	       ASSERT_OK(rtnl_link_set_up(*xdp_ifindex), "set " XDP_DEV " up") &&
	       ASSERT_OK(rtnl_link_set_up(*peer_ifindex), "set " PEER_DEV " up");
}

/* Send-only packet socket (protocol 0: it receives nothing). */
static int packet_socket(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd < 0)
		test__skip_reason("AF_PACKET sockets not available (%s)",
				  err_name(errno));
	return fd;
}

static __u32 prog_id(const struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return 0;
	return info.id;
}

/* Which program is attached to ifindex, and how: 0 or -errno. */
static int xdp_attached(int ifindex, __u32 *id, __u8 *mode)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, opts);
	int err = bpf_xdp_query(ifindex, 0, &opts);

	*id = opts.prog_id;
	*mode = opts.attach_mode;
	return err;
}

static bool check_attached(int ifindex, const struct variant *v)
{
	static const char *const modes[] = {
		[XDP_ATTACHED_NONE] = "none", [XDP_ATTACHED_DRV] = "native",
		[XDP_ATTACHED_SKB] = "generic", [XDP_ATTACHED_HW] = "offload",
		[XDP_ATTACHED_MULTI] = "multi",
	};
	__u32 id, want = prog_id(v->prog);
	__u8 mode;

	if (!ASSERT_GT(want, 0, "ID of the program") ||
	    !ASSERT_OK(xdp_attached(ifindex, &id, &mode), "bpf_xdp_query") ||
	    !ASSERT_EQ(id, want, "program attached to " XDP_DEV))
		return false;
	if (test__verbosity())
		printf("%s attached to %s in %s mode\n", v->name, XDP_DEV,
		       mode < ARRAY_SIZE(modes) ? modes[mode] : "unknown");
	return true;
}

/* Collect until want classes are in or the deadline passes. */
static bool wait_for_classes(struct variant *v, int want, long long deadline)
{
	const struct timespec pause = { .tv_nsec = 200 * 1000 };

	for (;;) {
		if (!ASSERT_OK(collect(v), "collect recorded classes"))
			return false;
		if (v->n_got >= want || now_ms() > deadline)
			break;
		nanosleep(&pause, NULL);
	}
	return ASSERT_GE(v->n_got, want, "classes arrived in time");
}

static bool send_frames(struct variant *v, int sock, int ifindex,
			const struct frame_list *l)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_halen = ETH_ALEN,
	};
	long long deadline = now_ms() + ARRIVAL_TIMEOUT_MS;
	int want = 0;

	memcpy(to.sll_addr, dst_mac, ETH_ALEN);
	for (int i = 0; i < l->n; i++) {
		const struct frame *f = &l->f[i];
		ssize_t sent = sendto(sock, f->data, f->len, 0,
				      (struct sockaddr *)&to, sizeof(to));

		if (!ASSERT_EQ(sent, (ssize_t)f->len, "sendto")) {
			fprintf(stderr, "  frame %s: %s\n", f->what,
				strerror(errno));
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
	return true;
}

/* What arrived must be the expected classes, in the order sent. */
static void check_arrivals(struct variant *v, const struct frame_list *l)
{
	int k = 0, want = 0;

	for (int i = 0; i < l->n; i++)
		want += l->f[i].class != FBF_NONE;
	if (!ASSERT_OK(collect(v), "collect recorded classes") ||
	    !ASSERT_EQ(v->n_got, want, "classes received"))
		return;
	for (int i = 0; i < l->n && k < v->n_got && k < MAX_CLASSES; i++) {
		if (l->f[i].class == FBF_NONE)
			continue;
		if (!ASSERT_EQ(v->got[k], l->f[i].class, "class received")) {
			fprintf(stderr, "  received class #%d is %s; expected "
				"%s, of frame #%d (%s)\n", k,
				class_name(v->got[k]),
				class_name(l->f[i].class), i, l->f[i].what);
			return;
		}
		k++;
	}
	check_sink_errors(v);
}

/* Delete the pair, but only from inside the test's own namespace. */
static void delete_veth(const struct netns *ns, int xdp_ifindex)
{
	if (!ASSERT_EQ(netns_current_ino(), ns->ino, "inside the test netns"))
		return;
	ASSERT_OK(rtnl_link_del(xdp_ifindex), "delete the veth pair");
	ASSERT_EQ(if_nametoindex(XDP_DEV), 0, XDP_DEV " gone");
	ASSERT_EQ(if_nametoindex(PEER_DEV), 0, PEER_DEV " gone");
}

static void detach(struct bpf_link *link, int ifindex)
{
	__u32 id;
	__u8 mode;

	ASSERT_OK(bpf_link__destroy(link), "detach XDP");
	if (ASSERT_OK(xdp_attached(ifindex, &id, &mode), "bpf_xdp_query"))
		ASSERT_EQ(id, 0, "program attached after detaching");
}

/*
 * Called inside the test netns: attach, send from the original netns (the
 * socket stays in the one it was made in), come back, detach.
 */
static void attach_send_check(struct fixture *fx, struct variant *v,
			      struct netns *ns, int xdp_if, int peer_if)
{
	struct bpf_link *link;
	int sock = packet_socket();

	if (sock < 0)
		return;
	link = bpf_program__attach_xdp(v->prog, xdp_if);
	if (!ASSERT_OK_PTR(link, "attach XDP to " XDP_DEV))
		goto out_sock;
	if (!check_attached(xdp_if, v))
		goto out_detach;
	if (!ASSERT_OK(netns_leave(ns), "leave the test netns"))
		goto out_detach;
	if (send_frames(v, sock, peer_if, &fx->frames))
		check_arrivals(v, &fx->frames);
	if (!ASSERT_OK(netns_enter(ns), "re-enter the test netns")) {
		bpf_link__destroy(link);
		goto out_sock;
	}
out_detach:
	detach(link, xdp_if);
out_sock:
	close(sock);
}

static void subtest_attach(struct fixture *fx, int which)
{
	struct variant *v = &fx->v[which];
	struct netns ns = NETNS_INIT;
	int xdp_if = 0, peer_if = 0, err;

	reset(v);
	add_wire_frames(&fx->frames);
	err = netns_create(&ns);
	if (err) {
		test__skip_reason("network namespaces not available: "
				  "unshare(CLONE_NEWNET) failed (%s)",
				  err_name(err));
		return;
	}
	fx->netns_used[which] = ns.ino;
	ASSERT_OK(netns_disable_ipv6(), "disable IPv6 in the test netns");
	if (!make_veth(&xdp_if, &peer_if))
		goto out_veth;
	attach_send_check(fx, v, &ns, xdp_if, peer_if);
out_veth:
	if (xdp_if > 0)
		delete_veth(&ns, xdp_if);
	ASSERT_OK(netns_destroy(&ns), "return to the original netns");
	ASSERT_EQ(netns_refs_held(fx->netns_used[which]), 0,
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
	for (int i = 0; i < NR_VARIANTS; i++)
		if (netns_used[i])
			ASSERT_EQ(netns_refs_held(netns_used[i]), 0,
				  "references left to a test netns");
	/* The pair only ever existed inside the test namespaces. */
	ASSERT_EQ(if_nametoindex(XDP_DEV), 0, XDP_DEV " in the original netns");
}

static void run_subtests(struct fixture *fx)
{
	if (test__start_subtest("octets"))
		subtest_octets(fx);
	if (test__start_subtest("edge_addresses"))
		subtest_frame_set(fx, add_edge_addresses);
	if (test__start_subtest("non_ipv4"))
		subtest_frame_set(fx, add_non_ipv4);
	if (test__start_subtest("ipv4_options"))
		subtest_frame_set(fx, add_ipv4_options);
	if (test__start_subtest("malformed_ipv4"))
		subtest_frame_set(fx, add_malformed);
	if (test__start_subtest("truncated"))
		subtest_frame_set(fx, add_truncated_all);
	if (test__start_subtest("attach_loop"))
		subtest_attach(fx, V_LOOP);
	if (test__start_subtest("attach_lookup"))
		subtest_attach(fx, V_LOOKUP);
	if (test__start_subtest("attach_ringbuf"))
		subtest_attach(fx, V_RINGBUF);
}

/* Serial: the leak check compares the kernel's global ID lists. */
void serial_test_fizzbuzz(void)
{
	ino_t netns_used[NR_VARIANTS] = { 0 };
	ino_t orig_netns = netns_current_ino();
	struct bpf_ids before = {};
	struct fixture *fx;

	if (!test__need(FEAT_XDP) || !test__need(FEAT_QUEUE_STACK) ||
	    !test__need(FEAT_RINGBUF))
		return;
	if (!ASSERT_OK(bpf_ids_snapshot(&before), "snapshot BPF object IDs"))
		return;
	if (test__start_subtest("reference"))
		subtest_reference();
	if (test__start_subtest("loop_kept"))
		subtest_loop_kept();
	fx = fixture_open();
	if (fx) {
		run_subtests(fx);
		memcpy(netns_used, fx->netns_used, sizeof(netns_used));
		fixture_close(fx);
	}
	if (test__start_subtest("no_leftovers"))
		subtest_no_leftovers(&before, orig_netns, netns_used);
	bpf_ids_free(&before);
}
