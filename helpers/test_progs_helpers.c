// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers of the kernel's test_progs.h (test_progs_helpers.h).  Weak:
 * older kernels' tests define some of them themselves, and theirs win.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "network_helpers.h"
#include "test_progs_helpers.h"

#define MAX_STACK_IPS 127	/* PERF_MAX_STACK_DEPTH */

__attribute__((weak))
int bpf_find_map(const char *test, struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	if (!map) {
		printf("%s:FAIL:map '%s' not found\n", test, name);
		return -1;
	}
	return bpf_map__fd(map);
}

/* A buffer for one value of the map (per-CPU maps: of every CPU). */
static void *value_buf(int fd, __u32 *key_size)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return NULL;
	*key_size = info.key_size;
	return calloc(libbpf_num_possible_cpus() > 0 ?
		      libbpf_num_possible_cpus() : 1, info.value_size + 8);
}

__attribute__((weak))
int compare_map_keys(int map1_fd, int map2_fd)
{
	__u32 key_size = 0;
	char key[512], next[512];
	void *val = value_buf(map2_fd, &key_size);
	int err = -1;

	if (!val || key_size > sizeof(key))
		goto out;
	/* An empty map1 is an error, as in the kernel's version. */
	if (bpf_map_get_next_key(map1_fd, NULL, key))
		goto out;
	err = 0;
	while (!err) {
		if (bpf_map_lookup_elem(map2_fd, key, val)) {
			err = -1;
			break;
		}
		err = bpf_map_get_next_key(map1_fd, key, next);
		memcpy(key, next, key_size);
	}
	err = err == -ENOENT ? 0 : -1;
out:
	free(val);
	return err;
}

__attribute__((weak))
int compare_stack_ips(int smap_fd, int amap_fd, int stack_trace_len)
{
	__u64 sips[MAX_STACK_IPS], aips[MAX_STACK_IPS];
	__u32 key, next;
	int err = bpf_map_get_next_key(smap_fd, NULL, &key);

	if (stack_trace_len < 0 || (size_t)stack_trace_len > sizeof(sips))
		return -1;
	if (err)
		return err;
	for (;;) {
		if (bpf_map_lookup_elem(smap_fd, &key, sips) ||
		    bpf_map_lookup_elem(amap_fd, &key, aips) ||
		    memcmp(sips, aips, stack_trace_len))
			return -1;
		err = bpf_map_get_next_key(smap_fd, &key, &next);
		if (err)
			return err == -ENOENT ? 0 : -1;
		key = next;
	}
}

__attribute__((weak))
int get_bpf_max_tramp_links_from(struct btf *btf)
{
	int cnt = btf__type_cnt(btf);

	for (int id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (int i = 0; i < (int)btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off),
				    "BPF_MAX_TRAMP_LINKS"))
				return e[i].val;
	}
	return -1;
}

__attribute__((weak))
int get_bpf_max_tramp_links(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int n;

	if (!btf)
		return -1;
	n = get_bpf_max_tramp_links_from(btf);
	btf__free(btf);
	return n;
}

__attribute__((weak))
void hexdump(const char *prefix, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		if (i % 16 == 0)
			printf("%s", prefix);
		printf("%02x%s", p[i], i % 16 == 15 || i + 1 == len ? "\n" : " ");
	}
}

struct netns_obj {
	char *name;
	struct nstoken *token;
};

void netns_free(struct netns_obj *netns)
{
	if (!netns)
		return;
	close_netns(netns->token);
	if (netns->name)
		remove_netns(netns->name);
	free(netns->name);
	free(netns);
}

struct netns_obj *netns_new(const char *name, bool open)
{
	struct netns_obj *ns = calloc(1, sizeof(*ns));

	if (!ns)
		return NULL;
	ns->name = strdup(name);
	if (!ns->name)
		goto fail;
	/* A namespace of that name left by an earlier run goes first. */
	remove_netns(name);
	if (make_netns(name)) {
		fprintf(stderr, "%s: cannot make network namespace %s\n", __func__, name);
		free(ns->name);
		free(ns);
		return NULL;
	}
	if (open) {
		ns->token = open_netns(name);
		if (!ns->token)
			goto fail;
	}
	return ns;
fail:
	netns_free(ns);
	return NULL;
}
