// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "mounts.h"

#define TRACEFS_MAGIC_NR	0x74726163
#define BPFFS_MAGIC_NR		0xcafe4a11
#define DEBUGFS_MAGIC_NR	0x64626720

struct fs_mount {
	const char *path;
	const char *type;
	unsigned long magic;
	char why_missing[160];
};

static struct fs_mount mounts[] = {
	{ TRACEFS_PATH, "tracefs", TRACEFS_MAGIC_NR, "not checked yet" },
	{ BPFFS_PATH, "bpf", BPFFS_MAGIC_NR, "not checked yet" },
	{ DEBUGFS_PATH, "debugfs", DEBUGFS_MAGIC_NR, "not checked yet" },
};

static bool is_mounted(const struct fs_mount *m)
{
	struct statfs sfs;

	return statfs(m->path, &sfs) == 0 &&
	       (unsigned long)sfs.f_type == m->magic;
}

static int mount_one(struct fs_mount *m, int verbosity)
{
	if (is_mounted(m)) {
		m->why_missing[0] = '\0';
		return 0;
	}
	if (mount(m->type, m->path, m->type, 0, NULL) < 0) {
		int err = errno;

		snprintf(m->why_missing, sizeof(m->why_missing),
			 "%s is not mounted at %s and mounting it failed (%s)",
			 m->type, m->path, strerrorname_np(err));
		return -err;
	}
	m->why_missing[0] = '\0';
	if (verbosity)
		fprintf(stderr, "mounted %s at %s\n", m->type, m->path);
	return 0;
}

/*
 * A private mount namespace keeps our mounts and bpffs pins from leaking
 * to the host.  Where unshare is not allowed we mount in place instead.
 */
static void enter_private_mount_ns(int verbosity)
{
	if (unshare(CLONE_NEWNS) < 0) {
		if (verbosity)
			fprintf(stderr,
				"unshare(CLONE_NEWNS): %s; mounting in the current namespace\n",
				strerror(errno));
		return;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 &&
	    verbosity)
		fprintf(stderr, "making / private: %s\n", strerror(errno));
}

int mounts_prepare(int verbosity)
{
	int first_err = 0;

	enter_private_mount_ns(verbosity);
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		int err = mount_one(&mounts[i], verbosity);

		if (err && !first_err)
			first_err = err;
	}
	return first_err;
}

const char *mounts_missing(const char *path)
{
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		struct fs_mount *m = &mounts[i];

		if (strcmp(m->path, path))
			continue;
		if (is_mounted(m))
			return NULL;
		if (!strcmp(m->why_missing, "not checked yet"))
			snprintf(m->why_missing, sizeof(m->why_missing),
				 "%s is not mounted at %s", m->type, m->path);
		return m->why_missing;
	}
	return "unknown mount point";
}
