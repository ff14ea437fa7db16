/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An XDP program run for real, for tests and for prog-cost: attached to
 * one end of a veth pair in a private network namespace, and sent frames
 * into the other end through an AF_PACKET socket.
 *
 * The namespace has no name under /run/netns: the kernel destroys it, with
 * the pair in it, once this process lets go of it, in xdp_veth_close() or
 * when the process dies.  IPv6 is off there before the pair exists, so the
 * kernel sends nothing of its own over the pair: the program runs once per
 * frame sent.  Between calls the calling thread is in the namespace it
 * started in; each call that needs the private one goes in and comes back.
 *
 * No call here asserts or prints: a failed step returns -errno and leaves
 * in v->error what failed, for the caller to report as it reports things
 * (a test fails or skips, the bench marks a method unavailable).
 */
#ifndef BPFCHECK_XDP_VETH_H
#define BPFCHECK_XDP_VETH_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <net/if.h>
#include <linux/types.h>

#include "netns.h"

/* Most frames one xdp_veth_send_batch() takes. */
#define XDP_VETH_BATCH_MAX	64

/* What the last failed call could not do. */
struct xdp_veth_error {
	int err;		/* -errno; 0: nothing failed */
	const char *step;	/* e.g. "creating a veth pair" */
	/*
	 * The kernel feature the step needs when a kernel or sandbox may
	 * lack it ("network namespaces", "veth", "AF_PACKET sockets"): tests
	 * skip on these.  NULL for the other steps.
	 */
	const char *feature;
	char detail[256];	/* the kernel's extended-ack message, or "" */
};

struct xdp_veth {
	struct netns ns;	/* ns.ino names it, also after close */
	char xdp_dev[IFNAMSIZ];	/* the end the program is attached to */
	char peer_dev[IFNAMSIZ];	/* the end frames are sent into */
	int xdp_ifindex;	/* in ns; 0 until the pair exists */
	int peer_ifindex;
	int sock;		/* AF_PACKET, bound to the peer end, in ns */
	int link_fd;		/* the XDP link while attached, else -1 */
	__u8 mode;		/* XDP_ATTACHED_* that attach found */
	struct xdp_veth_error error;
};

#define XDP_VETH_INIT { .ns = NETNS_INIT, .sock = -1, .link_fd = -1 }

/*
 * The pair's interface counters since it was made: what went in at the
 * peer and what came out at the xdp end, so that a caller can tell frames
 * lost on the way from frames the program did not record.  The xdp end's
 * drop counter is left out on purpose: it also counts frames the stack
 * discarded after the program passed them, differently across kernels
 * (after the fizzbuzz test's frames: 1 on 6.1, 6.12 and 7.2, 0 on 6.18).
 */
struct xdp_veth_counters {
	__u64 peer_tx;		/* frames the peer end sent into the pair */
	__u64 peer_tx_dropped;	/* frames it could not send (ring full, ...) */
	__u64 xdp_rx;		/* frames the xdp end received */
};

/*
 * Create the namespace and in it the pair xdp_dev <-> peer_dev, both up,
 * and the socket.  On failure everything made so far is gone again.
 * 0 or -errno.
 */
int xdp_veth_open(struct xdp_veth *v, const char *xdp_dev,
		  const char *peer_dev);
/*
 * Attach prog_fd to the xdp end through a BPF link, in the mode the
 * kernel picks (native on veth); sets v->mode.  0 or -errno.
 */
int xdp_veth_attach(struct xdp_veth *v, int prog_fd);
/* What is attached to the xdp end now: program ID (0: none) and mode. */
int xdp_veth_query(struct xdp_veth *v, __u32 *prog_id, __u8 *mode);
/* Destroy the link.  0 or -errno. */
int xdp_veth_detach(struct xdp_veth *v);
/* Read the counters of both ends.  0 or -errno. */
int xdp_veth_counters(struct xdp_veth *v, struct xdp_veth_counters *c);

/*
 * Send one frame (Ethernet header first) into the peer end: the bytes
 * sent or -errno.  The send calls leave v->error alone: they are the
 * bench's hot path.
 */
ssize_t xdp_veth_send(struct xdp_veth *v, const void *frame, size_t len);
/* Up to XDP_VETH_BATCH_MAX frames in one call: how many went, or -errno. */
int xdp_veth_send_batch(struct xdp_veth *v, const struct iovec *frames,
			unsigned int n);

/*
 * Detach, delete the pair from inside the namespace (and check that both
 * ends are gone), close the socket and let go of the namespace.  Safe on
 * XDP_VETH_INIT and after a failed open.  0, or the first -errno; the
 * rest of the teardown is done anyway.
 */
int xdp_veth_close(struct xdp_veth *v);

/* "native", "generic", ... for an XDP_ATTACHED_* mode. */
const char *xdp_veth_mode_name(__u8 mode);

#endif
