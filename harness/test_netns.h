/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFCHECK_TEST_NETNS_H
#define BPFCHECK_TEST_NETNS_H

/*
 * The kernel's test_progs runs a test whose name starts with "ns_" in a
 * network namespace of its own, with lo up; such tests change the
 * namespace's devices (ns_check_mtu sets lo's MTU to 10, which takes
 * 127.0.0.1 off lo for good).  test_netns_enter() does the same for
 * NAME (nothing for other names); test_netns_leave() goes back.
 */
void test_netns_enter(const char *name);
void test_netns_leave(void);

#endif
