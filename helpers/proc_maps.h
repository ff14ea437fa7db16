/* SPDX-License-Identifier: GPL-2.0 */
/* Address ranges of a process's executable mappings, from /proc/PID/maps. */
#ifndef BPFCHECK_PROC_MAPS_H
#define BPFCHECK_PROC_MAPS_H

#include <stdbool.h>
#include <sys/types.h>

struct addr_range {
	unsigned long start;	/* first byte */
	unsigned long end;	/* one past the last byte */
};

/*
 * Fill r[] with up to max executable mappings of pid (0: this process).
 * Returns how many, or -errno.  More than max mappings is -E2BIG.
 */
int proc_exec_ranges(pid_t pid, struct addr_range *r, int max);

bool addr_in_ranges(unsigned long addr, const struct addr_range *r, int n);

#endif
