// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>

#include "proc_maps.h"

int proc_exec_ranges(pid_t pid, struct addr_range *r, int max)
{
	unsigned long start, end;
	char path[64], perms[5];
	int n = 0, ret = 0;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "r");
	if (!f)
		return -errno;
	/* "start-end perms offset dev inode [path]": skip past the newline. */
	while (fscanf(f, "%lx-%lx %4s%*[^\n]", &start, &end, perms) == 3) {
		if (perms[2] != 'x')
			continue;
		if (n == max) {
			ret = -E2BIG;
			break;
		}
		r[n].start = start;
		r[n].end = end;
		n++;
	}
	fclose(f);
	return ret ? ret : n;
}

bool addr_in_ranges(unsigned long addr, const struct addr_range *r, int n)
{
	for (int i = 0; i < n; i++)
		if (addr >= r[i].start && addr < r[i].end)
			return true;
	return false;
}
