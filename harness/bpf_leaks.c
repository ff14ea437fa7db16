// SPDX-License-Identifier: GPL-2.0
/*
 * The leak checker test_progs runs with --leak-check: a snapshot is a
 * sorted list of "kind name" strings for pins, named network namespaces
 * and interfaces, plus the BPF ID lists (bpf_ids.c, which also waits for
 * the kernel's deferred frees before it calls anything a leak).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_ids.h"
#include "bpf_leaks.h"
#include "mounts.h"

#define BPF_FREE_TIMEOUT_MS 2000
#define NETNS_DIR "/run/netns"

struct name_list {
	char **names;
	size_t cnt, cap;
};

struct leak_snapshot {
	struct bpf_ids ids;
	struct name_list names;
};

static int add_name(struct name_list *l, const char *kind, const char *name)
{
	char *s;

	if (l->cnt == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		char **n = realloc(l->names, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->names = n;
		l->cap = cap;
	}
	if (asprintf(&s, "%s %s", kind, name) < 0)
		return -ENOMEM;
	l->names[l->cnt++] = s;
	return 0;
}

static void free_names(struct name_list *l)
{
	for (size_t i = 0; i < l->cnt; i++)
		free(l->names[i]);
	free(l->names);
	memset(l, 0, sizeof(*l));
}

/* Every file under a bpffs directory, recursively: pinned objects. */
static int scan_pins(struct name_list *l, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return 0;	/* no bpffs: nothing can be pinned */
	while (!err && (de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (de->d_type == DT_DIR)
			err = scan_pins(l, path);
		else
			err = add_name(l, "pin", path);
		free(path);
	}
	closedir(d);
	return err;
}

static int scan_netns(struct name_list *l)
{
	struct dirent *de;
	DIR *d = opendir(NETNS_DIR);
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d)))
		if (de->d_name[0] != '.')
			err = add_name(l, "netns", de->d_name);
	closedir(d);
	return err;
}

static int scan_interfaces(struct name_list *l)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int err = 0;

	if (!ifs)
		return -errno;
	for (i = ifs; !err && i->if_index; i++)
		err = add_name(l, "interface", i->if_name);
	if_freenameindex(ifs);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int scan_names(struct name_list *l)
{
	int err = scan_pins(l, BPFFS_PATH);

	if (!err)
		err = scan_netns(l);
	if (!err)
		err = scan_interfaces(l);
	if (!err && l->cnt)
		qsort(l->names, l->cnt, sizeof(char *), cmp_str);
	return err;
}

static void release(void *p)
{
	struct leak_snapshot *snap = p;

	if (!snap)
		return;
	bpf_ids_free(&snap->ids);
	free_names(&snap->names);
	free(snap);
}

static void *snapshot(void)
{
	struct leak_snapshot *snap = calloc(1, sizeof(*snap));
	int err;

	if (!snap)
		return NULL;
	err = bpf_ids_snapshot(&snap->ids);
	if (!err)
		err = scan_names(&snap->names);
	if (err) {
		release(snap);
		errno = -err;
		return NULL;
	}
	return snap;
}

static bool has_name(const struct name_list *l, const char *name)
{
	return l->cnt && bsearch(&name, l->names, l->cnt, sizeof(char *),
				 cmp_str);
}

static int report_names(const struct leak_snapshot *before, FILE *out)
{
	struct name_list now = { 0 };
	int err = scan_names(&now), n = 0;

	for (size_t i = 0; !err && i < now.cnt; i++) {
		if (has_name(&before->names, now.names[i]))
			continue;
		fprintf(out, "leaked %s\n", now.names[i]);
		n++;
	}
	free_names(&now);
	return err ? err : n;
}

static int report(const void *p, FILE *out)
{
	const struct leak_snapshot *before = p;
	struct bpf_ids leaked = { 0 };
	int n_ids, n_names;

	n_ids = bpf_ids_leaked(&before->ids, BPF_FREE_TIMEOUT_MS, &leaked);
	if (n_ids < 0)
		return n_ids;
	if (n_ids) {
		fprintf(out, "leaked BPF objects:\n");
		bpf_ids_print(&leaked, out);
	}
	bpf_ids_free(&leaked);
	n_names = report_names(before, out);
	if (n_names < 0)
		return n_names;
	return n_ids + n_names;
}

const struct leak_checker test_progs_leaks = {
	.snapshot = snapshot,
	.report = report,
	.release = release,
};
