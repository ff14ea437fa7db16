/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Result files that never destroy what is at their path.  A regular file
 * (or a path that does not exist yet) is written to a temporary name
 * beside its target and renamed into place only when complete: a failed
 * or interrupted run leaves no partial file.  A symlink is followed and
 * its target replaced, the link kept.  Anything else (a device such as
 * /dev/null, a FIFO a reader waits on, /dev/stdout, a file under /proc)
 * is written through, never replaced.
 */
#ifndef BPFCHECK_ATOMIC_FILE_H
#define BPFCHECK_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

struct atomic_file {
	char *path;		/* the target: absolute, symlinks resolved */
	char *tmp_path;		/* exists on disk while open; NULL written through */
	FILE *f;		/* the content, in memory until commit */
	char *buf;
	size_t len;
	int fd;			/* the temporary file, or the target written through */
};

/*
 * Resolve the target and create the temporary file (or open the target
 * written through) now, so that a bad path fails before any test.
 */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Write the content out and rename it into place; returns 0 or -errno. */
int atomic_file_commit(struct atomic_file *af);
/* Close and remove the temporary file; safe on a zeroed struct. */
void atomic_file_abort(struct atomic_file *af);
/* Commit when write_err is 0, else abort; the error that explains it. */
int atomic_file_finish(struct atomic_file *af, int write_err);
/* Whether two paths name one file (a link, another spelling). */
bool atomic_file_same_path(const char *a, const char *b);

#endif
