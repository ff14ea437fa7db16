/* SPDX-License-Identifier: GPL-2.0 */
/* One integer in a procfs/sysfs/tracefs file: sysctls, event ids. */
#ifndef BPFCHECK_INT_FILE_H
#define BPFCHECK_INT_FILE_H

/* The file's leading integer, or -1 when it cannot be read. */
int read_int_file(const char *path);
/* Write v and a newline.  0 or -errno. */
int write_int_file(const char *path, int v);

#endif
