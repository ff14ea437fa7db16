/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Result files written to a temporary name beside the target and renamed
 * into place only when complete: a failed or interrupted run leaves no
 * partial file.
 */
#ifndef BPFCHECK_ATOMIC_FILE_H
#define BPFCHECK_ATOMIC_FILE_H

#include <stdio.h>

struct atomic_file {
	char *path;
	char *tmp_path;		/* exists on disk while open */
	FILE *f;
};

/* Create the temporary file now, so a bad path fails before any test. */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Close and rename into place; on error the temporary file is removed. */
int atomic_file_commit(struct atomic_file *af);
/* Close and remove the temporary file; safe on a zeroed struct. */
void atomic_file_abort(struct atomic_file *af);

#endif
