/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network interfaces over rtnetlink, in the calling thread's network
 * namespace: create veth pairs, bring links up, delete them.  Direct
 * netlink rather than ip(8), so a failure comes back as the kernel's errno
 * (and its extended-ack message, when it sends one).
 */
#ifndef BPFCHECK_RTNL_LINK_H
#define BPFCHECK_RTNL_LINK_H

/*
 * Create the veth pair name <-> peer.  Each end gets one TX and one RX
 * queue, so frames sent on one end are received on the other in the order
 * they were sent (with several queues, flows spread over several NAPI
 * contexts).  0 or -errno; -EOPNOTSUPP means the kernel has no veth.
 */
int rtnl_veth_add(const char *name, const char *peer);
/* Set the link with this ifindex administratively up.  0 or -errno. */
int rtnl_link_set_up(int ifindex);
/* Delete the link with this ifindex (a veth takes its peer along). */
int rtnl_link_del(int ifindex);
/* The kernel's extended-ack message for the last failed call, or "". */
const char *rtnl_last_message(void);

#endif
