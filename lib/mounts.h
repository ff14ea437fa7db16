/* SPDX-License-Identifier: GPL-2.0 */
/* Mount tracefs, bpffs and debugfs where the kernel expects them. */
#ifndef BPFCHECK_MOUNTS_H
#define BPFCHECK_MOUNTS_H

#define TRACEFS_PATH "/sys/kernel/tracing"
#define BPFFS_PATH "/sys/fs/bpf"
#define DEBUGFS_PATH "/sys/kernel/debug"

/*
 * Enter a private mount namespace (so nothing we mount or pin outlives the
 * run or shows on the host) and mount the three file systems where they
 * are missing.  Returns 0, or the negative errno of the first failure;
 * failures are not fatal: tests that need a file system skip.
 */
int mounts_prepare(int verbosity);
/* NULL if the file system at path is mounted, else why it is not. */
const char *mounts_missing(const char *path);

#endif
