// SPDX-License-Identifier: GPL-2.0
/*
 * BPF object ID snapshots and leak detection (bpf_ids.h).  Which objects
 * other processes hold is read from /proc/<pid>/fdinfo, where the kernel
 * shows the prog_id, map_id or link_id behind every BPF fd.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "clock.h"
#include "bpf_ids.h"

#define POLL_INTERVAL_NS (10 * 1000 * 1000)

static const struct {
	const char *name;
	const char *fdinfo_key;
	int (*next_id)(__u32 start, __u32 *next);
	int (*fd_by_id)(__u32 id);
} kinds[BPF_ID__NR_KINDS] = {
	[BPF_ID_PROG] = { "prog", "prog_id:", bpf_prog_get_next_id,
			  bpf_prog_get_fd_by_id },
	[BPF_ID_MAP] = { "map", "map_id:", bpf_map_get_next_id,
			 bpf_map_get_fd_by_id },
	[BPF_ID_LINK] = { "link", "link_id:", bpf_link_get_next_id,
			  bpf_link_get_fd_by_id },
};

const char *bpf_id_kind_name(enum bpf_id_kind kind)
{
	return kind < BPF_ID__NR_KINDS ? kinds[kind].name : "?";
}

static int list_add(struct bpf_id_list *l, __u32 id)
{
	if (l->cnt == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		__u32 *ids = realloc(l->ids, cap * sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		l->ids = ids;
		l->cap = cap;
	}
	l->ids[l->cnt++] = id;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static bool list_has(const struct bpf_id_list *l, __u32 id)
{
	return l->cnt && bsearch(&id, l->ids, l->cnt, sizeof(id), cmp_u32);
}

void bpf_ids_free(struct bpf_ids *ids)
{
	for (int k = 0; k < BPF_ID__NR_KINDS; k++)
		free(ids->kind[k].ids);
	memset(ids, 0, sizeof(*ids));
}

size_t bpf_ids_count(const struct bpf_ids *ids)
{
	size_t n = 0;

	for (int k = 0; k < BPF_ID__NR_KINDS; k++)
		n += ids->kind[k].cnt;
	return n;
}

/* The kernel hands IDs out in ascending order, so lists come out sorted. */
static int snapshot_kind(enum bpf_id_kind k, struct bpf_id_list *l)
{
	__u32 id = 0;
	int err;

	while (!(err = kinds[k].next_id(id, &id))) {
		err = list_add(l, id);
		if (err)
			return err;
	}
	return err == -ENOENT ? 0 : err;
}

int bpf_ids_snapshot(struct bpf_ids *ids)
{
	int err;

	memset(ids, 0, sizeof(*ids));
	for (int k = 0; k < BPF_ID__NR_KINDS; k++) {
		err = snapshot_kind(k, &ids->kind[k]);
		if (err) {
			bpf_ids_free(ids);
			return err;
		}
	}
	return 0;
}

/* Parse "prog_id:", "map_id:" and "link_id:" lines of one fdinfo file. */
static int read_fdinfo(const char *path, struct bpf_ids *held)
{
	FILE *f = fopen(path, "re");
	char line[128];
	int err = 0;

	if (!f)
		return 0;	/* the fd or the process went away */
	while (!err && fgets(line, sizeof(line), f)) {
		for (int k = 0; k < BPF_ID__NR_KINDS; k++) {
			size_t n = strlen(kinds[k].fdinfo_key);
			unsigned int id;

			if (strncmp(line, kinds[k].fdinfo_key, n) == 0 &&
			    sscanf(line + n, "%u", &id) == 1)
				err = list_add(&held->kind[k], id);
		}
	}
	fclose(f);
	return err;
}

/* Every BPF object process pid holds an fd to. */
static int scan_process(const char *pid, struct bpf_ids *held)
{
	char path[PATH_MAX], target[64];
	struct dirent *de;
	int err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (de = readdir(dir))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		/* bpf-prog, bpf-map, bpf_link: anon inodes named "bpf..." */
		if (strncmp(target, "anon_inode:bpf", 14) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid,
			 de->d_name);
		err = read_fdinfo(path, held);
	}
	closedir(dir);
	return err;
}

/* Add the IDs of the maps program prog_id uses to maps. */
static int add_used_maps(__u32 prog_id, struct bpf_id_list *maps)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), n;
	__u32 *ids = NULL;
	int fd, err;

	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return 0;	/* already gone */
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	n = info.nr_map_ids;
	if (err || !n)
		goto out;
	ids = calloc(n, sizeof(*ids));
	if (!ids) {
		err = -ENOMEM;
		goto out;
	}
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = n;
	info.map_ids = (__u64)(unsigned long)ids;
	len = sizeof(info);
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	for (__u32 i = 0; !err && i < n && i < info.nr_map_ids; i++)
		err = list_add(maps, ids[i]);
out:
	free(ids);
	close(fd);
	return err == -ENOENT ? 0 : err;
}

/*
 * Objects held by processes other than this one, directly or, for maps,
 * through a program they hold (links name their program in fdinfo too).
 */
static int scan_foreign(struct bpf_ids *held)
{
	char self[16];
	struct dirent *de;
	DIR *proc;
	int err = 0;
	size_t n;

	memset(held, 0, sizeof(*held));
	snprintf(self, sizeof(self), "%d", getpid());
	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while (!err && (de = readdir(proc))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    strcmp(de->d_name, self) == 0)
			continue;
		err = scan_process(de->d_name, held);
	}
	closedir(proc);
	n = held->kind[BPF_ID_PROG].cnt;
	for (size_t i = 0; !err && i < n; i++)
		err = add_used_maps(held->kind[BPF_ID_PROG].ids[i],
				    &held->kind[BPF_ID_MAP]);
	for (int k = 0; k < BPF_ID__NR_KINDS; k++)
		if (held->kind[k].cnt)
			qsort(held->kind[k].ids, held->kind[k].cnt,
			      sizeof(__u32), cmp_u32);
	if (err)
		bpf_ids_free(held);
	return err;
}

/* Objects in now that are not in before and, if foreign, not in foreign. */
static int subtract(const struct bpf_ids *now, const struct bpf_ids *before,
		    const struct bpf_ids *foreign, struct bpf_ids *out)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < BPF_ID__NR_KINDS; k++) {
		const struct bpf_id_list *l = &now->kind[k];

		for (size_t i = 0; !err && i < l->cnt; i++) {
			if (list_has(&before->kind[k], l->ids[i]) ||
			    (foreign && list_has(&foreign->kind[k], l->ids[i])))
				continue;
			err = list_add(&out->kind[k], l->ids[i]);
		}
	}
	if (err)
		bpf_ids_free(out);
	return err;
}

/* One look: new objects now alive that no other process holds. */
static int leaked_now(const struct bpf_ids *before, struct bpf_ids *leaked)
{
	struct bpf_ids now, fresh, foreign;
	int err;

	err = bpf_ids_snapshot(&now);
	if (err)
		return err;
	err = subtract(&now, before, NULL, &fresh);
	bpf_ids_free(&now);
	if (err || !bpf_ids_count(&fresh)) {
		*leaked = fresh;
		return err;
	}
	/* Only worth walking /proc when something new is there. */
	err = scan_foreign(&foreign);
	if (!err)
		err = subtract(&fresh, before, &foreign, leaked);
	bpf_ids_free(&foreign);
	bpf_ids_free(&fresh);
	return err;
}

int bpf_ids_leaked(const struct bpf_ids *before, int timeout_ms,
		   struct bpf_ids *leaked)
{
	long long deadline = now_ns() + timeout_ms * 1000000LL;
	const struct timespec pause = { .tv_nsec = POLL_INTERVAL_NS };
	int err;

	for (;;) {
		err = leaked_now(before, leaked);
		if (err)
			return err;
		if (!bpf_ids_count(leaked) || now_ns() >= deadline)
			return bpf_ids_count(leaked);
		bpf_ids_free(leaked);
		nanosleep(&pause, NULL);
	}
}

static const char *or_unknown(const char *s)
{
	return s ? s : "unknown type";
}

static void describe(enum bpf_id_kind k, __u32 id, char *buf, size_t len)
{
	union {
		struct bpf_prog_info prog;
		struct bpf_map_info map;
		struct bpf_link_info link;
	} info;
	__u32 info_len = sizeof(info);
	int fd = kinds[k].fd_by_id(id);

	if (fd < 0) {
		snprintf(buf, len, "gone by now (%s)", strerror(errno));
		return;
	}
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len)) {
		snprintf(buf, len, "no info (%s)", strerror(errno));
	} else if (k == BPF_ID_PROG) {
		snprintf(buf, len, "%s \"%s\"",
			 or_unknown(libbpf_bpf_prog_type_str(info.prog.type)),
			 info.prog.name);
	} else if (k == BPF_ID_MAP) {
		snprintf(buf, len, "%s \"%s\"",
			 or_unknown(libbpf_bpf_map_type_str(info.map.type)),
			 info.map.name);
	} else {
		snprintf(buf, len, "%s, prog id %u",
			 or_unknown(libbpf_bpf_link_type_str(info.link.type)),
			 info.link.prog_id);
	}
	close(fd);
}

void bpf_ids_print(const struct bpf_ids *ids, FILE *out)
{
	char what[128];

	for (int k = 0; k < BPF_ID__NR_KINDS; k++) {
		for (size_t i = 0; i < ids->kind[k].cnt; i++) {
			describe(k, ids->kind[k].ids[i], what, sizeof(what));
			fprintf(out, "  %s id %u: %s\n", kinds[k].name,
				ids->kind[k].ids[i], what);
		}
	}
}
