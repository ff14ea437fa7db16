// SPDX-License-Identifier: GPL-2.0
/*
 * An XDP program run for real: attached to one end of a veth pair in a
 * private network namespace, with frames sent into the other end through
 * an AF_PACKET socket.  The pair lives only in that namespace, which
 * goes away with everything in it when the bench lets go of it.  IPv6 is
 * off there, so the kernel sends nothing of its own over the pair: the
 * program runs once per frame sent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "netns.h"
#include "prog_cost.h"
#include "rtnl_link.h"

#define XDP_DEV		"cost-xdp"
#define PEER_DEV	"cost-peer"
/* Frames per sendmmsg(): well below the veth's 256-entry ring. */
#define SEND_BATCH	32

struct cost_veth {
	struct netns ns;
	int xdp_ifindex;
	int peer_ifindex;
	int sock;
	bool attached;
	__u8 mode;			/* XDP_ATTACHED_* */
	const struct cost_inputs *frames;
	int next;			/* frame to send next */
	struct mmsghdr msgs[SEND_BATCH];
	struct iovec iov[SEND_BATCH];
};

static int make_pair(struct cost_veth *v, char *err, size_t len)
{
	int ret;

	/* Before the pair exists: its interfaces then get no IPv6 at all. */
	ret = netns_disable_ipv6();
	if (ret)
		return bench_err(err, len, "disabling IPv6 in the namespace: %s",
				 bench_errname(ret));
	ret = rtnl_veth_add(XDP_DEV, PEER_DEV);
	if (ret)
		return bench_err(err, len, "creating a veth pair: %s%s%s",
				 bench_errname(ret), *rtnl_last_message() ? ": " : "",
				 rtnl_last_message());
	v->xdp_ifindex = if_nametoindex(XDP_DEV);
	v->peer_ifindex = if_nametoindex(PEER_DEV);
	if (!v->xdp_ifindex || !v->peer_ifindex)
		return bench_err(err, len, "the veth pair has no ifindex");
	ret = rtnl_link_set_up(v->xdp_ifindex);
	if (!ret)
		ret = rtnl_link_set_up(v->peer_ifindex);
	if (ret)
		return bench_err(err, len, "setting the veth pair up: %s",
				 bench_errname(ret));
	return 0;
}

/* Send-only (protocol 0) packet socket bound to the peer end. */
static int open_socket(struct cost_veth *v, char *err, size_t len)
{
	struct sockaddr_ll addr = {
		.sll_family = AF_PACKET,
		.sll_ifindex = v->peer_ifindex,
	};
	int one = 1;

	v->sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (v->sock < 0)
		return bench_err(err, len, "AF_PACKET socket: %s", bench_errname(errno));
	if (bind(v->sock, (struct sockaddr *)&addr, sizeof(addr)))
		return bench_err(err, len, "binding to %s: %s", PEER_DEV,
				 bench_errname(errno));
	/* Straight to the driver: no queueing discipline on the way. */
	setsockopt(v->sock, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	return 0;
}

static int attach(struct cost_veth *v, int prog_fd, char *err, size_t len)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int ret = bpf_xdp_attach(v->xdp_ifindex, prog_fd, 0, NULL);

	if (ret)
		return bench_err(err, len, "attaching XDP to %s: %s", XDP_DEV,
				 bench_errname(ret));
	v->attached = true;
	ret = bpf_xdp_query(v->xdp_ifindex, 0, &q);
	if (ret)
		return bench_err(err, len, "bpf_xdp_query: %s", bench_errname(ret));
	v->mode = q.attach_mode;
	return 0;
}

struct cost_veth *cost_veth_open(int prog_fd, const struct cost_inputs *frames,
				 char *err, size_t len)
{
	struct cost_veth *v = calloc(1, sizeof(*v));
	int ret;

	if (!v) {
		bench_err(err, len, "out of memory");
		return NULL;
	}
	v->ns = (struct netns)NETNS_INIT;
	v->sock = -1;
	v->frames = frames;
	ret = netns_create(&v->ns);
	if (ret) {
		bench_err(err, len, "a private network namespace: %s",
			  bench_errname(ret));
		free(v);
		return NULL;
	}
	if (make_pair(v, err, len) || open_socket(v, err, len) ||
	    attach(v, prog_fd, err, len)) {
		cost_veth_close(v);
		return NULL;
	}
	/* The socket stays in the namespace it was made in. */
	ret = netns_leave(&v->ns);
	if (ret) {
		bench_err(err, len, "leaving the namespace: %s", bench_errname(ret));
		cost_veth_close(v);
		return NULL;
	}
	return v;
}

long cost_veth_send(void *ctx)
{
	struct cost_veth *v = ctx;
	const struct cost_inputs *f = v->frames;
	int sent;

	for (int i = 0; i < SEND_BATCH; i++) {
		const struct cost_input *in = &f->in[(v->next + i) % f->n];

		v->iov[i].iov_base = in->data;
		v->iov[i].iov_len = in->len;
		v->msgs[i].msg_hdr = (struct msghdr){
			.msg_iov = &v->iov[i],
			.msg_iovlen = 1,
		};
	}
	sent = sendmmsg(v->sock, v->msgs, SEND_BATCH, 0);
	if (sent < 0)
		return -errno;
	v->next = (v->next + sent) % f->n;
	return sent;
}

static const char *mode_name(const struct cost_veth *v)
{
	switch (v->mode) {
	case XDP_ATTACHED_DRV: return "native";
	case XDP_ATTACHED_SKB: return "generic";
	default: return "unknown";
	}
}

/* From inside the namespace: detach, delete the pair, then let go of it. */
void cost_veth_close(struct cost_veth *v)
{
	if (!v)
		return;
	if (!netns_enter(&v->ns)) {
		if (v->attached)
			bpf_xdp_detach(v->xdp_ifindex, 0, NULL);
		if (v->xdp_ifindex)
			rtnl_link_del(v->xdp_ifindex);
	}
	if (v->sock >= 0)
		close(v->sock);
	netns_destroy(&v->ns);
	free(v);
}

struct cost_veth *cost_use_veth(struct cost_method *m, int prog_fd,
				const char *prog_name, const struct cost_inputs *frames)
{
	struct cost_veth *v = cost_veth_open(prog_fd, frames, m->reason,
					     sizeof(m->reason));

	if (!v) {
		m->available = false;
		return NULL;
	}
	cost_use_bpf_stats(m, prog_fd, prog_name, cost_veth_send, v);
	snprintf(m->how, sizeof(m->how), "xdp program %s attached to a veth (%s mode) "
		 "in a private network namespace, the inputs sent through its peer",
		 prog_name, mode_name(v));
	return v;
}
