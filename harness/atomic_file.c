// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

#define MAX_LINK_HOPS 40

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

static char *absolute(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/')
		return strdup(path);
	if (!getcwd(cwd, sizeof(cwd)) || asprintf(&abs, "%s/%s", cwd, path) < 0)
		return NULL;
	return abs;
}

/* A path that does not exist: its directory resolved, its name kept. */
static char *resolve_parent(const char *abs)
{
	char *copy = strdup(abs), *slash, *dir = NULL, *res = NULL;

	if (!copy)
		return NULL;
	slash = strrchr(copy, '/');
	*slash = '\0';
	dir = realpath(*copy ? copy : "/", NULL);
	if (dir && asprintf(&res, "%s/%s", strcmp(dir, "/") ? dir : "", slash + 1) < 0)
		res = NULL;
	free(dir);
	free(copy);
	return res;
}

/* What the symlink at abs points to, as an absolute path. */
static char *link_target(const char *abs)
{
	char target[PATH_MAX], *res = NULL;
	ssize_t n = readlink(abs, target, sizeof(target) - 1);
	int dir_len;

	if (n < 0)
		return NULL;
	target[n] = '\0';
	if (target[0] == '/')
		return strdup(target);
	dir_len = strrchr(abs, '/') - abs;
	if (asprintf(&res, "%.*s/%s", dir_len, abs, target) < 0)
		return NULL;
	return res;
}

/*
 * The file a rename must replace: absolute, every symlink followed, also
 * a dangling one (its target is what gets created).
 */
static int resolve_target(const char *path, char **out)
{
	char *p = absolute(path);
	int hops = 0, err = 0;
	struct stat st;

	*out = NULL;
	for (; p && hops < MAX_LINK_HOPS; hops++) {
		char *next;

		*out = realpath(p, NULL);
		if (*out || errno != ENOENT)
			break;
		if (lstat(p, &st) || !S_ISLNK(st.st_mode)) {
			*out = resolve_parent(p);
			break;
		}
		next = link_target(p);
		free(p);
		p = next;
	}
	if (!*out)
		err = !p ? -ENOMEM : hops == MAX_LINK_HOPS ? -ELOOP : -(errno ? errno : ENOENT);
	free(p);
	return err;
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N...: never renamed over. */
static bool pseudo_path(const char *path)
{
	return !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
}

/* /dev/stdout, /dev/fd/N...: one of our descriptors, or -1. */
static int own_fd(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long fd;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (strncmp(path, prefixes[i], n) || !path[n])
			continue;
		fd = strtol(path + n, &end, 10);
		if (!*end && fd >= 0 && fd < INT_MAX)
			return fd;
	}
	return -1;
}

/*
 * Not a regular file (or one under /dev or /proc): write into it, as a
 * shell's '>' would.  One of our own descriptors is written through a
 * copy of it, so that a regular file behind /dev/stdout is written at the
 * shell's offset, not over what it holds.
 */
static int open_through(struct atomic_file *af, const char *path)
{
	int fd = own_fd(path);

	af->path = strdup(path);
	if (!af->path)
		return -ENOMEM;
	if (fd >= 0)
		af->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	else
		af->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	return af->fd < 0 ? -errno : 0;
}

static int open_temporary(struct atomic_file *af, const char *path, mode_t mode)
{
	int err = resolve_target(path, &af->path);

	if (err)
		return err;
	if (asprintf(&af->tmp_path, "%s.XXXXXX", af->path) < 0) {
		af->tmp_path = NULL;
		return -ENOMEM;
	}
	af->fd = mkostemp(af->tmp_path, O_CLOEXEC);
	if (af->fd < 0) {
		err = -errno;
		free(af->tmp_path);
		af->tmp_path = NULL;	/* nothing was created */
		return err;
	}
	fchmod(af->fd, mode);	/* mkstemp made it 0600 */
	return 0;
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	mode_t mode = 0666 & ~current_umask();
	struct stat st;
	bool exists;
	int err;

	memset(af, 0, sizeof(*af));
	af->fd = -1;
	exists = !stat(path, &st);
	if (exists)
		mode = st.st_mode & 07777;	/* a replaced file keeps its mode */
	if (exists && (!S_ISREG(st.st_mode) || pseudo_path(path)))
		err = open_through(af, path);
	else
		err = open_temporary(af, path, mode);
	if (!err) {
		af->f = open_memstream(&af->buf, &af->len);
		if (!af->f)
			err = -ENOMEM;
	}
	if (err)
		atomic_file_abort(af);
	return err;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->path && af->fd >= 0)	/* a zeroed struct has no fd */
		close(af->fd);
	if (af->tmp_path)
		unlink(af->tmp_path);
	free(af->buf);
	free(af->tmp_path);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * The content was kept in memory, so that the write that fails (a full
 * disk: ENOSPC, /dev/full) is one whose errno is known.
 */
int atomic_file_commit(struct atomic_file *af)
{
	int err = fclose(af->f) ? -errno : 0;

	af->f = NULL;
	if (!af->tmp_path)
		fflush(NULL);	/* what stdio holds for the same file goes first */
	if (!err)
		err = write_all(af->fd, af->buf, af->len);
	/* Complete on disk before the name points at it. */
	if (!err && af->tmp_path && fsync(af->fd))
		err = -errno;
	if (close(af->fd) && !err)
		err = -errno;
	af->fd = -1;
	if (!err && af->tmp_path && rename(af->tmp_path, af->path))
		err = -errno;
	if (!err) {
		free(af->tmp_path);
		af->tmp_path = NULL;	/* renamed: nothing to remove */
	}
	atomic_file_abort(af);
	return err;
}

int atomic_file_finish(struct atomic_file *af, int write_err)
{
	if (!write_err)
		return atomic_file_commit(af);
	atomic_file_abort(af);
	return write_err;
}

bool atomic_file_same_path(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ra = NULL, *rb = NULL;
	bool same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	same = !resolve_target(a, &ra) && !resolve_target(b, &rb) && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}
