// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_holder.h"

#define STATS_LINK "anon_inode:bpf-stats"

static bool holds_stats_fd(int pid)
{
	char path[64], target[64];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return false;	/* gone, or not ours to read */
	while (!found && (e = readdir(d))) {
		ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);

		if (n < 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, STATS_LINK);
	}
	closedir(d);
	return found;
}

static void describe(int pid, char *who, size_t len)
{
	char path[64], comm[32] = "?";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(who, len, "pid %d (%s)", pid, comm);
}

int bpf_stats_holder(char *who, size_t len)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	int pid = 0;

	if (!proc)
		return 0;
	while (!pid && (e = readdir(proc))) {
		int p = isdigit((unsigned char)e->d_name[0]) ? atoi(e->d_name) : 0;

		if (p > 0 && holds_stats_fd(p)) {
			pid = p;
			describe(pid, who, len);
		}
	}
	closedir(proc);
	return pid;
}
