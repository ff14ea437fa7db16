// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = strdup(path);
	if (!af->path || asprintf(&af->tmp_path, "%s.XXXXXX", path) < 0) {
		af->tmp_path = NULL;
		atomic_file_abort(af);
		return -ENOMEM;
	}
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		int err = -errno;

		free(af->tmp_path);
		af->tmp_path = NULL;	/* nothing was created */
		atomic_file_abort(af);
		return err;
	}
	fchmod(fd, 0666 & ~current_umask());	/* mkstemp made it 0600 */
	af->f = fdopen(fd, "w");
	if (!af->f) {
		close(fd);
		atomic_file_abort(af);
		return -ENOMEM;
	}
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp_path)
		unlink(af->tmp_path);
	free(af->tmp_path);
	free(af->path);
	memset(af, 0, sizeof(*af));
}

int atomic_file_commit(struct atomic_file *af)
{
	int err = ferror(af->f) ? -EIO : 0;

	if (fclose(af->f) && !err)
		err = -errno;
	af->f = NULL;
	if (!err && rename(af->tmp_path, af->path))
		err = -errno;
	if (!err) {
		free(af->tmp_path);
		af->tmp_path = NULL;	/* renamed: nothing to remove */
	}
	atomic_file_abort(af);
	return err;
}
