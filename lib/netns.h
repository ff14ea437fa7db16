/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private network namespaces for tests.  A namespace made here gets no name
 * under /run/netns: it lives exactly as long as this process refers to it,
 * so a test that crashes or is killed leaves no namespace (and none of the
 * interfaces in it) behind.  The calling thread moves in and out with
 * setns(); sockets keep the namespace they were created in.
 */
#ifndef BPFCHECK_NETNS_H
#define BPFCHECK_NETNS_H

#include <sys/types.h>

struct netns {
	int orig_fd;	/* the namespace the thread started in */
	int fd;		/* the private namespace */
	ino_t ino;	/* its nsfs inode: how the kernel names it */
};

#define NETNS_INIT { .orig_fd = -1, .fd = -1 }

/* Create a private network namespace and enter it.  0 or -errno. */
int netns_create(struct netns *ns);
/* Move the calling thread into the private namespace.  0 or -errno. */
int netns_enter(const struct netns *ns);
/* Move the calling thread back to the original namespace.  0 or -errno. */
int netns_leave(const struct netns *ns);
/*
 * Return to the original namespace and drop this process's references to
 * the private one: once nothing else refers to it the kernel destroys it,
 * with every interface in it.  Safe on NETNS_INIT and after a failed
 * netns_create().  0, or -errno when the thread could not get back.
 */
int netns_destroy(struct netns *ns);

/*
 * In the current namespace: interfaces created from now on get no IPv6,
 * so they send no router solicitations or MLD reports.  0 when IPv6 is off
 * or not built in, else -errno.
 */
int netns_disable_ipv6(void);

/* nsfs inode of the calling thread's network namespace, 0 on error. */
ino_t netns_current_ino(void);
/*
 * How many references this process holds to the namespace with inode ino:
 * threads in it, fds opened on it, sockets created in it, nsfs mounts of
 * it.  Zero after netns_destroy() unless something was left open.
 * -errno when /proc could not be read.
 */
int netns_refs_held(ino_t ino);

#endif
