// SPDX-License-Identifier: GPL-2.0
/* Sockets, packets and named namespaces of the kernel's network_helpers.h. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>

#include "network_helpers.h"

#define DEFAULT_TIMEOUT_MS 3000

struct ipv4_packet pkt_v4 = {
	.eth.h_proto = __bpf_constant_htons(ETH_P_IP),
	.iph.ihl = 5,
	.iph.protocol = IPPROTO_TCP,
	.iph.tot_len = __bpf_constant_htons(MAGIC_BYTES),
	.tcp.urg_ptr = 123,
	.tcp.doff = 5,
};

struct ipv6_packet pkt_v6 = {
	.eth.h_proto = __bpf_constant_htons(ETH_P_IPV6),
	.iph.nexthdr = IPPROTO_TCP,
	.iph.payload_len = __bpf_constant_htons(MAGIC_BYTES),
	.tcp.urg_ptr = 123,
	.tcp.doff = 5,
};

int settimeo(int fd, int timeout_ms)
{
	struct timeval tv = {
		.tv_sec = timeout_ms / 1000,
		.tv_usec = (timeout_ms % 1000) * 1000,
	};

	if (!timeout_ms)
		tv.tv_sec = DEFAULT_TIMEOUT_MS / 1000;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -1;
	return 0;
}

int make_sockaddr(int family, const char *addr_str, __u16 port,
		  struct sockaddr_storage *addr, socklen_t *len)
{
	memset(addr, 0, sizeof(*addr));
	if (family == AF_INET) {
		struct sockaddr_in *sin = (void *)addr;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		if (addr_str && inet_pton(AF_INET, addr_str, &sin->sin_addr) != 1)
			goto bad;
		if (len)
			*len = sizeof(*sin);
		return 0;
	}
	if (family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (void *)addr;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		if (addr_str && inet_pton(AF_INET6, addr_str, &sin6->sin6_addr) != 1)
			goto bad;
		if (len)
			*len = sizeof(*sin6);
		return 0;
	}
bad:
	fprintf(stderr, "%s: bad address '%s' for family %d\n", __func__,
		addr_str ? addr_str : "(null)", family);
	errno = EINVAL;
	return -1;
}

static int new_socket(int family, int type, const struct network_helper_opts *opts)
{
	int fd = socket(family, type, opts ? opts->proto : 0);

	if (fd < 0)
		return -1;
	if (settimeo(fd, opts ? opts->timeout_ms : 0) ||
	    (opts && opts->post_socket_cb && opts->post_socket_cb(fd, opts->cb_opts))) {
		close(fd);
		return -1;
	}
	return fd;
}

int start_server_addr(int type, const struct sockaddr_storage *addr,
		      socklen_t len, const struct network_helper_opts *opts)
{
	int one = 1, backlog = opts ? opts->backlog : 0;
	int fd = new_socket(addr->ss_family, type, opts);

	if (fd < 0)
		return -1;
	backlog = backlog > 0 ? backlog : backlog == 0 ? 1 : 0;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (const struct sockaddr *)addr, len) ||
	    ((type & SOCK_TYPE_MASK) == SOCK_STREAM && listen(fd, backlog))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int start_server_str(int family, int type, const char *addr_str, __u16 port,
		     const struct network_helper_opts *opts)
{
	struct sockaddr_storage addr;
	socklen_t len;

	if (make_sockaddr(family, addr_str, port, &addr, &len))
		return -1;
	return start_server_addr(type, &addr, len, opts);
}

int start_server(int family, int type, const char *addr, __u16 port,
		 int timeout_ms)
{
	struct network_helper_opts opts = { .timeout_ms = timeout_ms };

	return start_server_str(family, type, addr, port, &opts);
}

static int set_reuseport(int fd, void *opts)
{
	int one = 1;

	(void)opts;
	return setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
}

int *start_reuseport_server(int family, int type, const char *addr_str,
			    __u16 port, int timeout_ms, unsigned int nr_listens)
{
	struct network_helper_opts opts = {
		.timeout_ms = timeout_ms,
		.post_socket_cb = set_reuseport,
	};
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	int *fds;

	if (!nr_listens)
		return NULL;
	fds = malloc(nr_listens * sizeof(*fds));
	if (!fds)
		return NULL;
	fds[0] = start_server_str(family, type, addr_str, port, &opts);
	if (fds[0] < 0 || getsockname(fds[0], (struct sockaddr *)&addr, &len)) {
		free_fds(fds, fds[0] < 0 ? 0 : 1);
		return NULL;
	}
	/* The others on the address (and port) the first one got. */
	for (unsigned int i = 1; i < nr_listens; i++) {
		fds[i] = start_server_addr(type, &addr, len, &opts);
		if (fds[i] < 0) {
			free_fds(fds, i);
			return NULL;
		}
	}
	return fds;
}

void free_fds(int *fds, unsigned int nr_close_fds)
{
	if (!fds)
		return;
	for (unsigned int i = 0; i < nr_close_fds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

int client_socket(int family, int type, const struct network_helper_opts *opts)
{
	return new_socket(family, type, opts);
}

int connect_to_addr(int type, const struct sockaddr_storage *addr,
		    socklen_t len, const struct network_helper_opts *opts)
{
	int fd = new_socket(addr->ss_family, type, opts);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)addr, len) && errno != EINPROGRESS) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int connect_to_addr_str(int family, int type, const char *addr_str,
			__u16 port, const struct network_helper_opts *opts)
{
	struct sockaddr_storage addr;
	socklen_t len;

	if (make_sockaddr(family, addr_str, port, &addr, &len))
		return -1;
	return connect_to_addr(type, &addr, len, opts);
}

int connect_to_fd_opts(int server_fd, const struct network_helper_opts *opts)
{
	struct network_helper_opts o = opts ? *opts : (struct network_helper_opts){};
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr), optlen = sizeof(int);
	int type, proto;

	if (getsockname(server_fd, (struct sockaddr *)&addr, &len) ||
	    getsockopt(server_fd, SOL_SOCKET, SO_TYPE, &type, &optlen))
		return -1;
	optlen = sizeof(proto);
	if (!o.proto && !getsockopt(server_fd, SOL_SOCKET, SO_PROTOCOL, &proto, &optlen))
		o.proto = proto;
	return connect_to_addr(type, &addr, len, &o);
}

int connect_to_fd(int server_fd, int timeout_ms)
{
	struct network_helper_opts opts = { .timeout_ms = timeout_ms };

	return connect_to_fd_opts(server_fd, &opts);
}

int connect_fd_to_fd(int client_fd, int server_fd, int timeout_ms)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);

	if (settimeo(client_fd, timeout_ms) ||
	    getsockname(server_fd, (struct sockaddr *)&addr, &len) ||
	    (connect(client_fd, (struct sockaddr *)&addr, len) && errno != EINPROGRESS))
		return -1;
	return 0;
}

int get_socket_local_port(int sock_fd)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);

	if (getsockname(sock_fd, (struct sockaddr *)&addr, &len))
		return -1;
	if (addr.ss_family == AF_INET)
		return ((struct sockaddr_in *)&addr)->sin_port;
	if (addr.ss_family == AF_INET6)
		return ((struct sockaddr_in6 *)&addr)->sin6_port;
	return -1;
}

const char *ping_command(int family)
{
	if (family == AF_INET6 && !access("/bin/ping6", X_OK))
		return "ping6";
	return family == AF_INET6 ? "ping -6" : "ping";
}

/* Write n bytes, then read n bytes back on the accepted side. */
int send_recv_data(int lfd, int fd, uint32_t total_bytes)
{
	int afd = accept(lfd, NULL, NULL);
	uint32_t sent = 0, got = 0;
	char buf[4096] = {};
	int err = 0;

	if (afd < 0)
		return -1;
	while (got < total_bytes && !err) {
		uint32_t want = total_bytes - sent < sizeof(buf) ?
				total_bytes - sent : sizeof(buf);
		ssize_t n = want ? send(fd, buf, want, MSG_DONTWAIT) : 0;

		if (n > 0)
			sent += n;
		else if (n < 0 && errno != EAGAIN)
			err = -1;
		n = recv(afd, buf, sizeof(buf), 0);
		if (n > 0)
			got += n;
		else
			err = -1;
	}
	close(afd);
	return err;
}

int tc_prog_attach(const char *dev, int ingress_fd, int egress_fd)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts);
	int err;

	hook.ifindex = if_nametoindex(dev);
	if (!hook.ifindex)
		return -1;
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	if (ingress_fd >= 0) {
		hook.attach_point = BPF_TC_INGRESS;
		opts.prog_fd = ingress_fd;
		err = bpf_tc_attach(&hook, &opts);
		if (err)
			return err;
	}
	if (egress_fd >= 0) {
		hook.attach_point = BPF_TC_EGRESS;
		opts.prog_fd = egress_fd;
		opts.prog_id = 0;
		opts.handle = opts.priority = 0;
		err = bpf_tc_attach(&hook, &opts);
	}
	return err;
}

struct nstoken {
	int orig_fd;
};

struct nstoken *open_netns(const char *name)
{
	struct nstoken *tok = calloc(1, sizeof(*tok));
	char path[256];
	int fd;

	if (!tok)
		return NULL;
	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	tok->orig_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (tok->orig_fd < 0 || fd < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "%s %s: %s\n", __func__, name, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (tok->orig_fd >= 0)
			close(tok->orig_fd);
		free(tok);
		return NULL;
	}
	close(fd);
	return tok;
}

void close_netns(struct nstoken *token)
{
	if (!token)
		return;
	if (setns(token->orig_fd, CLONE_NEWNET))
		fprintf(stderr, "%s: %s\n", __func__, strerror(errno));
	close(token->orig_fd);
	free(token);
}

int make_netns(const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "ip netns add %s && ip -net %s link set dev lo up",
		 name, name);
	return system(cmd) ? -1 : 0;
}

int remove_netns(const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "ip netns del %s >/dev/null 2>&1", name);
	return system(cmd) ? -1 : 0;
}

int append_tid(char *str, size_t sz)
{
	size_t end = strnlen(str, sz);
	long tid = syscall(SYS_gettid);

	if (end + 8 > sz)
		return -1;
	snprintf(str + end, sz - end, "%07ld", tid % 10000000);
	return 0;
}
