// SPDX-License-Identifier: GPL-2.0
/* An XDP program on a veth pair in a private network namespace (xdp_veth.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "netns.h"
#include "rtnl_link.h"
#include "xdp_veth.h"

/* Record the first failure of a call; returns err for "return fail(...)". */
static int fail(struct xdp_veth *v, int err, const char *step,
		const char *feature)
{
	if (v->error.err)
		return err;
	v->error.err = err;
	v->error.step = step;
	v->error.feature = feature;
	v->error.detail[0] = '\0';
	return err;
}

/* A failed rtnetlink request: also keep the kernel's message. */
static int fail_rtnl(struct xdp_veth *v, int err, const char *step,
		     const char *feature)
{
	bool first = !v->error.err;

	fail(v, err, step, feature);
	if (first)
		snprintf(v->error.detail, sizeof(v->error.detail), "%s",
			 rtnl_last_message());
	return err;
}

static void clear_error(struct xdp_veth *v)
{
	v->error = (struct xdp_veth_error){ 0 };
}

static int enter(struct xdp_veth *v)
{
	int err = netns_enter(&v->ns);

	return err ? fail(v, err, "entering the private namespace", NULL) : 0;
}

/* Back to the original namespace after a step that returned err. */
static int come_back(struct xdp_veth *v, int err)
{
	int ret = netns_leave(&v->ns);

	if (ret)
		fail(v, ret, "leaving the private namespace", NULL);
	return err ?: ret;
}

/* In the namespace: the pair, up, with no IPv6 on it. */
static int make_pair(struct xdp_veth *v)
{
	int err;

	/* Before the pair exists: its interfaces then get no IPv6 at all. */
	err = netns_disable_ipv6();
	if (err)
		return fail(v, err, "disabling IPv6 in the namespace", NULL);
	err = rtnl_veth_add(v->xdp_dev, v->peer_dev);
	if (err)
		return fail_rtnl(v, err, "creating a veth pair", "veth");
	v->xdp_ifindex = if_nametoindex(v->xdp_dev);
	v->peer_ifindex = if_nametoindex(v->peer_dev);
	if (!v->xdp_ifindex || !v->peer_ifindex)
		return fail(v, -ENODEV, "finding the ifindex of the veth pair",
			    NULL);
	err = rtnl_link_set_up(v->xdp_ifindex);
	if (!err)
		err = rtnl_link_set_up(v->peer_ifindex);
	if (err)
		return fail_rtnl(v, err, "setting the veth pair up", NULL);
	return 0;
}

/* In the namespace: a send-only (protocol 0) socket bound to the peer. */
static int open_socket(struct xdp_veth *v)
{
	struct sockaddr_ll addr = {
		.sll_family = AF_PACKET,
		.sll_ifindex = v->peer_ifindex,
	};
	int one = 1;

	v->sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (v->sock < 0)
		return fail(v, -errno, "socket(AF_PACKET)", "AF_PACKET sockets");
	if (bind(v->sock, (struct sockaddr *)&addr, sizeof(addr)))
		return fail(v, -errno, "binding the packet socket to the peer",
			    NULL);
	/* Straight to the driver: no queueing discipline on the way. */
	setsockopt(v->sock, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	return 0;
}

/* In the namespace, and only there: delete the pair, see it gone. */
static int delete_pair(struct xdp_veth *v)
{
	int err = enter(v);

	if (err)
		return err;
	/* An ifindex means nothing outside the namespace it came from. */
	if (netns_current_ino() != v->ns.ino)
		return fail(v, -EXDEV, "checking the thread is in the private namespace",
			    NULL);
	err = rtnl_link_del(v->xdp_ifindex);
	if (err)
		return fail_rtnl(v, err, "deleting the veth pair", NULL);
	if (if_nametoindex(v->xdp_dev) || if_nametoindex(v->peer_dev))
		return fail(v, -EEXIST, "checking that the veth pair is gone",
			    NULL);
	return 0;
}

/* Everything xdp_veth_close() does, keeping an earlier failure first. */
static int teardown(struct xdp_veth *v)
{
	int err = 0, ret;

	if (v->link_fd >= 0)
		close(v->link_fd);
	v->link_fd = -1;
	if (v->ns.fd >= 0 && v->xdp_ifindex)
		err = delete_pair(v);
	if (v->sock >= 0)
		close(v->sock);
	v->sock = -1;
	v->xdp_ifindex = 0;
	v->peer_ifindex = 0;
	/* The socket was the last reference but ours: the namespace dies. */
	ret = netns_destroy(&v->ns);
	if (ret)
		fail(v, ret, "returning to the original namespace", NULL);
	return err ?: ret;
}

int xdp_veth_open(struct xdp_veth *v, const char *xdp_dev,
		  const char *peer_dev)
{
	int err;

	*v = (struct xdp_veth)XDP_VETH_INIT;
	if (strlen(xdp_dev) >= IFNAMSIZ || strlen(peer_dev) >= IFNAMSIZ)
		return fail(v, -ENAMETOOLONG, "naming the veth pair", NULL);
	snprintf(v->xdp_dev, sizeof(v->xdp_dev), "%s", xdp_dev);
	snprintf(v->peer_dev, sizeof(v->peer_dev), "%s", peer_dev);
	err = netns_create(&v->ns);
	if (err)
		return fail(v, err, "unshare(CLONE_NEWNET)", "network namespaces");
	err = make_pair(v);
	if (!err)
		err = open_socket(v);
	/* The socket stays in the namespace it was made in. */
	err = come_back(v, err);
	if (err)
		teardown(v);
	return err;
}

static int query(struct xdp_veth *v, __u32 *prog_id, __u8 *mode)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, opts);
	int err = bpf_xdp_query(v->xdp_ifindex, 0, &opts);

	if (err)
		return fail(v, err, "bpf_xdp_query", NULL);
	*prog_id = opts.prog_id;
	*mode = opts.attach_mode;
	return 0;
}

int xdp_veth_attach(struct xdp_veth *v, int prog_fd)
{
	__u32 prog_id;
	int err;

	clear_error(v);
	if (v->link_fd >= 0)
		return fail(v, -EBUSY, "attaching XDP a second time", NULL);
	err = enter(v);
	if (err)
		return err;
	/* A link: whatever happens to this process, the program goes too. */
	v->link_fd = bpf_link_create(prog_fd, v->xdp_ifindex, BPF_XDP, NULL);
	if (v->link_fd < 0) {
		err = fail(v, v->link_fd, "attaching XDP to the veth", NULL);
		v->link_fd = -1;
	} else {
		err = query(v, &prog_id, &v->mode);
	}
	return come_back(v, err);
}

int xdp_veth_query(struct xdp_veth *v, __u32 *prog_id, __u8 *mode)
{
	int err;

	clear_error(v);
	err = enter(v);
	if (err)
		return err;
	return come_back(v, query(v, prog_id, mode));
}

int xdp_veth_detach(struct xdp_veth *v)
{
	int fd = v->link_fd;

	clear_error(v);
	if (fd < 0)
		return fail(v, -ENOENT, "detaching XDP: nothing attached", NULL);
	v->link_fd = -1;
	if (close(fd))
		return fail(v, -errno, "closing the XDP link", NULL);
	return 0;
}

/*
 * In the namespace: the two ends' lines of /proc/thread-self/net/dev
 * (/proc/net shows the namespace of the process, not of this thread).
 * After "name:" come 8 receive then 8 transmit counters; packets are the
 * second of each group, drops the fourth.
 */
static int read_counters(struct xdp_veth *v, struct xdp_veth_counters *c)
{
	FILE *f = fopen("/proc/thread-self/net/dev", "re");
	unsigned long long rx, tx, tx_drop;
	char line[512], *colon, *name;
	int found = 0;

	if (!f)
		return fail(v, -errno, "opening /proc/thread-self/net/dev", NULL);
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		name = line + strspn(line, " ");
		if (sscanf(colon + 1, "%*u %llu %*u %*u %*u %*u %*u %*u %*u %llu %*u %llu",
			   &rx, &tx, &tx_drop) != 3)
			continue;
		if (!strcmp(name, v->xdp_dev)) {
			c->xdp_rx = rx;
			found |= 1;
		} else if (!strcmp(name, v->peer_dev)) {
			c->peer_tx = tx;
			c->peer_tx_dropped = tx_drop;
			found |= 2;
		}
	}
	fclose(f);
	return found == 3 ? 0 : fail(v, -ENODEV, "finding the pair in /proc/net/dev", NULL);
}

int xdp_veth_counters(struct xdp_veth *v, struct xdp_veth_counters *c)
{
	int err;

	clear_error(v);
	err = enter(v);
	if (err)
		return err;
	return come_back(v, read_counters(v, c));
}

ssize_t xdp_veth_send(struct xdp_veth *v, const void *frame, size_t len)
{
	ssize_t sent = send(v->sock, frame, len, 0);

	return sent < 0 ? -errno : sent;
}

int xdp_veth_send_batch(struct xdp_veth *v, const struct iovec *frames,
			unsigned int n)
{
	struct mmsghdr msgs[XDP_VETH_BATCH_MAX];
	int sent;

	if (n > XDP_VETH_BATCH_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		msgs[i] = (struct mmsghdr){
			/* sendmmsg() only reads the frames. */
			.msg_hdr.msg_iov = (struct iovec *)&frames[i],
			.msg_hdr.msg_iovlen = 1,
		};
	sent = sendmmsg(v->sock, msgs, n, 0);
	return sent < 0 ? -errno : sent;
}

int xdp_veth_close(struct xdp_veth *v)
{
	clear_error(v);
	return teardown(v);
}

const char *xdp_veth_mode_name(__u8 mode)
{
	switch (mode) {
	case XDP_ATTACHED_NONE:
		return "none";
	case XDP_ATTACHED_DRV:
		return "native";
	case XDP_ATTACHED_SKB:
		return "generic";
	case XDP_ATTACHED_HW:
		return "offload";
	case XDP_ATTACHED_MULTI:
		return "multi";
	default:
		return "unknown";
	}
}
