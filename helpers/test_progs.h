/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The API a test file uses: include this and the skeletons it needs, define
 * "void test_<name>(void)" (or "void serial_test_<name>(void)"), and the
 * build discovers it.  It is the kernel's test_progs.h API (a kernel
 * selftest builds here unmodified: the same names, the same headers
 * pulled in, RUN_TESTS()) plus bpfcheck's test__need() and skip reasons
 * (probe.h).  As in the kernel, network_helpers.h and cgroup_helpers.h
 * are for the tests that include them.
 */
#ifndef BPFCHECK_TEST_PROGS_H
#define BPFCHECK_TEST_PROGS_H

/* What the kernel's test_progs.h includes, which its tests rely on. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/rwonce.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/perf_event.h>
#include <linux/socket.h>
#include <linux/unistd.h>
#include <bpf/bpf.h>
#include <bpf/bpf_endian.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "test_api.h"
#include "test_iptunnel_common.h"
#include "bpf_util.h"
#include "test_loader.h"
#include "test_progs_helpers.h"
#include "kernel_api.h"
#include "testing_helpers.h"
#include "trace_helpers.h"

/* Join (and make) a cgroup for this test; removed when the test ends. */
int test__join_cgroup(const char *path);

#endif
