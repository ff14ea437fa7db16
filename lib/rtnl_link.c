// SPDX-License-Identifier: GPL-2.0
/* Network interfaces over rtnetlink (rtnl_link.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "rtnl_link.h"

#define REQ_SIZE 1024
#define REPLY_SIZE 8192

/* A request being built: one netlink message, attributes appended. */
struct rtnl_req {
	union {
		struct nlmsghdr nh;
		char buf[REQ_SIZE];
	};
	bool overflow;
};

static char last_message[256];

const char *rtnl_last_message(void)
{
	return last_message;
}

static void req_init(struct rtnl_req *r, __u16 type, __u16 flags)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_HDRLEN;
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->nh.nlmsg_seq = 1;
}

static void *req_tail(struct rtnl_req *r)
{
	return r->buf + NLMSG_ALIGN(r->nh.nlmsg_len);
}

/* Append len bytes (len may be 0) plus padding; NULL when out of room. */
static void *req_put(struct rtnl_req *r, const void *data, size_t len)
{
	void *at = req_tail(r);
	size_t end = NLMSG_ALIGN(r->nh.nlmsg_len) + RTA_ALIGN(len);

	if (end > sizeof(r->buf)) {
		r->overflow = true;
		return NULL;
	}
	if (len)
		memcpy(at, data, len);
	r->nh.nlmsg_len = end;
	return at;
}

/* Append an attribute; with no data it opens a nest for nest_end(). */
static struct rtattr *req_attr(struct rtnl_req *r, unsigned short type,
			       const void *data, size_t len)
{
	struct rtattr hdr = { .rta_len = RTA_LENGTH(len), .rta_type = type };
	struct rtattr *rta = req_put(r, &hdr, sizeof(hdr));

	if (rta && len && !req_put(r, data, len))
		return NULL;
	return rta;
}

static void nest_end(struct rtnl_req *r, struct rtattr *nest)
{
	if (nest)
		nest->rta_len = (char *)req_tail(r) - (char *)nest;
}

/* Keep the kernel's NLMSGERR_ATTR_MSG, if the error carries one. */
static void save_extack(const struct nlmsghdr *nh, const struct nlmsgerr *e)
{
	size_t off = NLMSG_HDRLEN + sizeof(*e);

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	while (off + sizeof(struct nlattr) <= nh->nlmsg_len) {
		const struct nlattr *a = (const void *)((const char *)nh + off);

		if (a->nla_len < sizeof(*a) || off + a->nla_len > nh->nlmsg_len)
			return;
		if (a->nla_type == NLMSGERR_ATTR_MSG) {
			snprintf(last_message, sizeof(last_message), "%.*s",
				 (int)(a->nla_len - sizeof(*a)),
				 (const char *)(a + 1));
			return;
		}
		off += NLA_ALIGN(a->nla_len);
	}
}

static int parse_ack(const void *buf, ssize_t len)
{
	const struct nlmsghdr *nh = buf;
	const struct nlmsgerr *e = NLMSG_DATA(nh);

	if (!NLMSG_OK(nh, (size_t)len) || nh->nlmsg_type != NLMSG_ERROR ||
	    nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EPROTO;
	if (e->error)
		save_extack(nh, e);
	return e->error;
}

/* Send the request, wait for its acknowledgement: 0 or -errno. */
static int rtnl_talk(struct rtnl_req *r)
{
	char reply[REPLY_SIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
	int fd, one = 1, err;
	ssize_t n;

	last_message[0] = '\0';
	if (r->overflow)
		return -EMSGSIZE;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	/* Best effort: error strings, and no echo of our request in them. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (send(fd, r->buf, r->nh.nlmsg_len, 0) < 0) {
		err = -errno;
		goto out;
	}
	n = recv(fd, reply, sizeof(reply), 0);
	err = n < 0 ? -errno : parse_ack(reply, n);
out:
	close(fd);
	return err;
}

/* Name and queue counts, for either end of the pair. */
static void put_link_attrs(struct rtnl_req *r, const char *name)
{
	__u32 one = 1;

	req_attr(r, IFLA_IFNAME, name, strlen(name) + 1);
	req_attr(r, IFLA_NUM_TX_QUEUES, &one, sizeof(one));
	req_attr(r, IFLA_NUM_RX_QUEUES, &one, sizeof(one));
}

int rtnl_veth_add(const char *name, const char *peer)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *linkinfo, *data, *peer_info;
	struct rtnl_req r;

	if (strlen(name) >= IFNAMSIZ || strlen(peer) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	req_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	req_put(&r, &ifi, sizeof(ifi));
	put_link_attrs(&r, name);
	linkinfo = req_attr(&r, IFLA_LINKINFO, NULL, 0);
	req_attr(&r, IFLA_INFO_KIND, "veth", sizeof("veth"));
	data = req_attr(&r, IFLA_INFO_DATA, NULL, 0);
	/* The peer is described by a whole ifinfomsg plus attributes. */
	peer_info = req_attr(&r, VETH_INFO_PEER, NULL, 0);
	req_put(&r, &ifi, sizeof(ifi));
	put_link_attrs(&r, peer);
	nest_end(&r, peer_info);
	nest_end(&r, data);
	nest_end(&r, linkinfo);
	return rtnl_talk(&r);
}

int rtnl_link_set_up(int ifindex)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = IFF_UP,
		.ifi_change = IFF_UP,
	};
	struct rtnl_req r;

	req_init(&r, RTM_NEWLINK, 0);
	req_put(&r, &ifi, sizeof(ifi));
	return rtnl_talk(&r);
}

int rtnl_link_del(int ifindex)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
	};
	struct rtnl_req r;

	req_init(&r, RTM_DELLINK, 0);
	req_put(&r, &ifi, sizeof(ifi));
	return rtnl_talk(&r);
}
