/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel test API's functions that bpfcheck's test_progs.h adds
 * (kernel_api.c).  The 7.x series declare id_from_prog_fd,
 * id_from_link_fd (test_progs.h) and open_tuntap (network_helpers.h);
 * 6.12 and older define them static in their tests' own tc_helpers.h and
 * lwt_helpers.h, so a series' build (BPFCHECK_KERNEL_SERIES, major * 100
 * + minor: kernel-tests/build.sh) below 7.0 does not see them here.
 */
#ifndef BPFCHECK_KERNEL_API_H
#define BPFCHECK_KERNEL_API_H

#include <stdbool.h>
#include <linux/types.h>

#if !defined(BPFCHECK_KERNEL_SERIES) || BPFCHECK_KERNEL_SERIES >= 700
__u32 id_from_prog_fd(int fd);
__u32 id_from_link_fd(int fd);
int open_tuntap(const char *dev_name, bool need_mac);
#endif

/* Read or write sz bytes of bpf_testmod's test file: 0, or -errno. */
int trigger_module_test_read(int read_sz);
int trigger_module_test_write(int write_sz);

#endif
