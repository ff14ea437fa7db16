// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's test API as bpfcheck provides it (Documentation/
 * kernel-tests.md): the helper libraries against the running kernel, the
 * checks that pass, env, the objects directory, libbpf log capture.
 * The kernel's own tests exercise it further (tests/scripts/kernel_tests_check.sh).
 */
#include <fcntl.h>
#include <libgen.h>
#include <linux/types.h>
#include <sys/stat.h>

#include "cap_helpers.h"
#include "cgroup_helpers.h"
#include "network_helpers.h"
#include "test_progs.h"

static int duration;

static void subtest_packets(void)
{
	struct iphdr iph = { .ihl = 5, .version = 4, .ttl = 64,
			     .protocol = IPPROTO_UDP,
			     .tot_len = __bpf_constant_htons(28),
			     .saddr = __bpf_constant_htonl(0x7f000001),
			     .daddr = __bpf_constant_htonl(0x7f000002) };
	struct {
		struct udphdr udp;
		char data[8];
	} dgram = {
		.udp = { .source = __bpf_constant_htons(1234),
			 .dest = __bpf_constant_htons(53) },
		.data = "hello!!",
	};

	/* The kernel's test vectors: Ethernet, IP, TCP, MAGIC_BYTES long. */
	ASSERT_EQ(sizeof(pkt_v4), 14 + 20 + 20, "sizeof(pkt_v4)");
	ASSERT_EQ(sizeof(pkt_v6), 14 + 40 + 20, "sizeof(pkt_v6)");
	ASSERT_EQ(pkt_v4.eth.h_proto, htons(ETH_P_IP), "pkt_v4 proto");
	ASSERT_EQ(pkt_v4.iph.tot_len, htons(MAGIC_BYTES), "pkt_v4 tot_len");
	ASSERT_EQ(pkt_v6.iph.payload_len, htons(MAGIC_BYTES), "pkt_v6 len");
	ASSERT_EQ((int)pkt_v4.tcp.doff, 5, "pkt_v4 doff");
	/* A header with its checksum in sums to 0xffff: folds to 0. */
	iph.check = build_ip_csum(&iph);
	ASSERT_NEQ(iph.check, 0, "ip checksum");
	ASSERT_EQ(csum_fold((__u32)csum_partial(&iph, sizeof(iph), 0)), 0,
		  "checksum verifies");
	/* The same for UDP over its pseudo-header. */
	dgram.udp.len = htons(sizeof(dgram));
	dgram.udp.check = build_udp_v4_csum(&iph, &dgram.udp);
	ASSERT_NEQ(dgram.udp.check, 0, "udp checksum");
	ASSERT_EQ(build_udp_v4_csum(&iph, &dgram.udp), 0, "udp checksum verifies");
}

static void ping_pong(int family, const char *addr)
{
	int srv = start_server(family, SOCK_STREAM, addr, 0, 1000);
	int cli = -1, peer = -1;
	char c = 'k';

	if (!ASSERT_OK_FD(srv, "start_server"))
		return;
	ASSERT_GT(get_socket_local_port(srv), 0, "server port");
	cli = connect_to_fd(srv, 1000);
	if (!ASSERT_OK_FD(cli, "connect_to_fd"))
		goto out;
	peer = accept(srv, NULL, NULL);
	if (!ASSERT_OK_FD(peer, "accept"))
		goto out;
	ASSERT_EQ(send(cli, &c, 1, 0), 1, "send");
	c = 0;
	ASSERT_EQ(recv(peer, &c, 1, 0), 1, "recv");
	ASSERT_EQ(c, 'k', "byte received");
out:
	if (peer >= 0)
		close(peer);
	if (cli >= 0)
		close(cli);
	close(srv);
}

/* Two listeners on one port: the second gets the first one's port. */
static void reuseport_pair(void)
{
	int *fds = start_reuseport_server(AF_INET, SOCK_STREAM, "127.0.0.1", 0,
					  1000, 2);

	if (!ASSERT_OK_PTR(fds, "start_reuseport_server"))
		return;
	ASSERT_EQ(get_socket_local_port(fds[1]), get_socket_local_port(fds[0]),
		  "same port");
	free_fds(fds, 2);
}

static void subtest_netns_sockets(void)
{
	char buf[8] = {}, name[64], path[128];
	struct netns_obj *ns;
	int fd;

	/* Named after the process: runs of the suite side by side differ. */
	snprintf(name, sizeof(name), "bpfcheck_kapi_%d", getpid());
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	ns = netns_new(name, true);
	if (!ASSERT_OK_PTR(ns, "netns_new"))
		return;
	ASSERT_OK(access(path, F_OK), "netns made");
	ping_pong(AF_INET, "127.0.0.1");
	ping_pong(AF_INET6, "::1");
	reuseport_pair();
	/* A per-namespace sysctl, written in the new namespace only. */
	if (!write_sysctl("/proc/sys/net/ipv4/ip_forward", "1")) {
		fd = open("/proc/sys/net/ipv4/ip_forward", O_RDONLY);
		if (ASSERT_OK_FD(fd, "open ip_forward")) {
			ASSERT_EQ(read(fd, buf, sizeof(buf) - 1), 2, "read");
			ASSERT_STREQ(buf, "1\n", "ip_forward");
			close(fd);
		}
	}
	netns_free(ns);
	ASSERT_NEQ(access(path, F_OK), 0, "netns removed");
}

static void subtest_kallsyms(void)
{
	const char *name = SYS_PREFIX "sys_getpid";
	unsigned long long addr = 0;
	struct ksym *sym;
	long a;

	if (!ASSERT_OK(load_kallsyms(), "load_kallsyms"))
		return;
	a = ksym_get_addr(name);
	if (!ASSERT_NEQ(a, 0, name))
		return;
	sym = ksym_search(a + 1);
	if (ASSERT_OK_PTR(sym, "ksym_search"))
		ASSERT_STREQ(sym->name, name, "symbol at the address");
	ASSERT_OK(kallsyms_find(name, &addr), "kallsyms_find");
	ASSERT_EQ(addr, (unsigned long long)a, "same address");
	ASSERT_EQ(kallsyms_find("no_such_symbol_here", &addr), -ENOENT, "absent");
}

static void subtest_build_id(void)
{
	char id[64], hex[41] = {}, want[128] = {}, exe[1024] = {}, cmd[1200];
	FILE *f;
	int len = read_build_id("/proc/self/exe", id, sizeof(id));

	/* gcc and ld link a GNU build ID (a SHA-1) in by default. */
	if (!ASSERT_EQ(len, 20, "read_build_id"))
		return;
	for (int i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)id[i]);
	/* Asked of readelf about this binary (its /proc/self is not ours). */
	if (!ASSERT_GT(readlink("/proc/self/exe", exe, sizeof(exe) - 1), 0, "readlink"))
		return;
	snprintf(cmd, sizeof(cmd),
		 "readelf -n '%s' 2>/dev/null | grep -o 'Build ID: [0-9a-f]*'", exe);
	f = popen(cmd, "r");
	if (ASSERT_OK_PTR(f, "readelf")) {
		if (fgets(want, sizeof(want), f))
			ASSERT_HAS_SUBSTR(want, hex, "the same as readelf's");
		else
			ASSERT_FAIL("readelf -n printed no build ID");
		pclose(f);
	}
	ASSERT_LT(read_build_id("/proc/self/status", id, sizeof(id)), 0, "not ELF");
}

static void subtest_cgroup(void)
{
	char line[512] = {}, want[64];
	FILE *f;
	int fd = test__join_cgroup("/kapi");

	if (!ASSERT_OK_FD(fd, "test__join_cgroup"))
		return;
	f = fopen("/proc/self/cgroup", "r");
	if (ASSERT_OK_PTR(f, "open /proc/self/cgroup")) {
		snprintf(want, sizeof(want), "/bpfcheck-%d/kapi", getpid());
		while (fgets(line, sizeof(line), f) && strncmp(line, "0::", 3))
			;
		ASSERT_HAS_SUBSTR(line, want, "in the test's cgroup");
		fclose(f);
	}
	ASSERT_NEQ(get_cgroup_id("/kapi"), 0, "get_cgroup_id");
	close(fd);
}

static void subtest_parse_num_list(void)
{
	bool *set = NULL;
	int len = 0;

	if (ASSERT_OK(parse_num_list("1,3-5", &set, &len), "parse 1,3-5")) {
		ASSERT_EQ(len, 6, "length");
		ASSERT_TRUE(set[1] && set[3] && set[4] && set[5], "members");
		ASSERT_FALSE(set[0] || set[2], "non-members");
	}
	free(set);
	ASSERT_EQ(parse_num_list("5-3", &set, &len), -EINVAL, "reversed range");
	ASSERT_EQ(parse_num_list("x", &set, &len), -EINVAL, "not a number");
}

static void subtest_libbpf_log(void)
{
	struct bpf_object *obj;
	char *log;

	if (!ASSERT_OK(start_libbpf_log_capture(), "start capture"))
		return;
	obj = bpf_object__open("no_such_object.bpf.o");
	log = stop_libbpf_log_capture();
	ASSERT_NULL(obj, "open fails");
	ASSERT_HAS_SUBSTR(log, "no_such_object.bpf.o", "libbpf's message kept");
	free(log);
}

static void subtest_env_and_checks(void)
{
	char cwd[4096] = {}, exe[4096] = {}, objs[4200];

	ASSERT_EQ(env.nr_cpus, libbpf_num_possible_cpus(), "env.nr_cpus");
	ASSERT_EQ((int)env.verbosity, test__verbosity(), "env.verbosity");
	ASSERT_EQ(env.jit_enabled, is_jit_enabled(), "env.jit_enabled");
	/*
	 * Tests run where the objects are (bpf/ beside the binary), as in the
	 * kernel's test_progs.  An installed tree (kselftest) has no bpf/:
	 * the skeletons embed the objects, and tests run where they start.
	 */
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) > 0 &&
	    snprintf(objs, sizeof(objs), "%s/bpf", dirname(exe)) > 0 &&
	    !access(objs, X_OK)) {
		ASSERT_OK(access("test_run_tests.bpf.o", R_OK), "./X.bpf.o opens");
		if (ASSERT_OK_PTR(getcwd(cwd, sizeof(cwd)), "getcwd"))
			ASSERT_STREQ(cwd, objs, "in the objects directory");
	}
	ASSERT_EQ(CHECK(false, "check", "never printed\n"), 0, "CHECK(false)");
	ASSERT_EQ(CHECK_FAIL(0), 0, "CHECK_FAIL(0)");
	ASSERT_STRNEQ("abcd", "abcx", 3, "ASSERT_STRNEQ");
	ASSERT_EQ(SYS_NOFAIL("true"), 0, "SYS_NOFAIL(true)");
	ASSERT_NEQ(SYS_NOFAIL("false"), 0, "SYS_NOFAIL(false)");
	SYS(out, "test -d /proc/self");
out:
	return;
}

static void subtest_percpu(void)
{
	BPF_DECLARE_PERCPU(long, vals);
	int cpus = bpf_num_possible_cpus(), fd, key = 0;

	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "kapi_pcpu", 4,
			    sizeof(long), 1, NULL);
	if (!ASSERT_OK_FD(fd, "percpu map"))
		return;
	for (int i = 0; i < cpus; i++)
		bpf_percpu(vals, i) = 100 + i;
	if (ASSERT_OK(bpf_map_update_elem(fd, &key, vals, 0), "update")) {
		memset(vals, 0, sizeof(vals));
		ASSERT_OK(bpf_map_lookup_elem(fd, &key, vals), "lookup");
		for (int i = 0; i < cpus; i++)
			ASSERT_EQ(bpf_percpu(vals, i), 100 + i, "value of a CPU");
	}
	close(fd);
}

static void subtest_caps(void)
{
	__u64 bit = 1ULL << CAP_BPF, old = 0, mid = 0;

	if (!ASSERT_OK(cap_disable_effective(bit, &old), "drop CAP_BPF"))
		return;
	ASSERT_TRUE(old & bit, "had CAP_BPF");
	ASSERT_OK(cap_enable_effective(bit, &mid), "raise CAP_BPF");
	ASSERT_FALSE(mid & bit, "dropped meanwhile");
}

void test_kernel_api(void)
{
	if (test__start_subtest("packets"))
		subtest_packets();
	if (test__start_subtest("netns_sockets"))
		subtest_netns_sockets();
	if (test__start_subtest("kallsyms"))
		subtest_kallsyms();
	if (test__start_subtest("build_id"))
		subtest_build_id();
	if (test__start_subtest("cgroup"))
		subtest_cgroup();
	if (test__start_subtest("parse_num_list"))
		subtest_parse_num_list();
	if (test__start_subtest("libbpf_log"))
		subtest_libbpf_log();
	if (test__start_subtest_with_desc("env_and_checks", "env, cwd, CHECK and SYS"))
		subtest_env_and_checks();
	if (test__start_subtest("percpu"))
		subtest_percpu();
	if (test__start_subtest("caps"))
		subtest_caps();
}
