// SPDX-License-Identifier: GPL-2.0
/* A map's content as a table indexed by key (map_snapshot.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map_snapshot.h"
#include "test_progs.h"

bool snap_init(struct map_snapshot *s, __u32 vwords)
{
	memset(s, 0, sizeof(*s));
	s->vwords = vwords;
	s->last_key = -1;
	s->vals = calloc((size_t)MAP_SNAPSHOT_KEYS * vwords, sizeof(*s->vals));
	return ASSERT_OK_PTR(s->vals, "calloc snapshot");
}

void snap_free(struct map_snapshot *s)
{
	free(s->vals);
	s->vals = NULL;
}

void snap_add(struct map_snapshot *s, __u32 key, const __u64 *val)
{
	if (key != s->last_key + 1)
		s->unordered++;
	s->last_key = key;
	if (key >= MAP_SNAPSHOT_KEYS) {
		s->strays++;
		return;
	}
	if (s->seen[key]) {
		s->dups++;
		return;
	}
	s->seen[key] = true;
	memcpy(&s->vals[(size_t)key * s->vwords], val,
	       s->vwords * sizeof(*val));
	s->n++;
}

void snap_add_batch(struct map_snapshot *s, const __u32 *keys,
		    const __u64 *vals, __u32 n)
{
	for (__u32 i = 0; i < n; i++)
		snap_add(s, keys[i], &vals[(size_t)i * s->vwords]);
}

bool snap_dump(int fd, struct map_snapshot *s)
{
	__u64 *val = calloc(s->vwords, sizeof(*val));
	__u32 key, next;
	void *prev = NULL;
	bool ok = false;
	int err;

	if (!ASSERT_OK_PTR(val, "calloc value"))
		return false;
	while (!(err = bpf_map_get_next_key(fd, prev, &next))) {
		key = next;
		prev = &key;
		if (!ASSERT_OK(bpf_map_lookup_elem(fd, &key, val),
			       "lookup_elem") ||
		    !ASSERT_LE(s->n + s->dups, MAP_SNAPSHOT_KEYS, "dump length"))
			goto out;
		snap_add(s, key, val);
	}
	ok = ASSERT_EQ(err, -ENOENT, "get_next_key at the end") &&
	     ASSERT_EQ(s->dups + s->strays, 0, "odd keys in the dump");
out:
	free(val);
	return ok;
}

/* First key present in only one snapshot or with different values. */
static int snap_first_diff(const struct map_snapshot *a,
			   const struct map_snapshot *b)
{
	size_t len = a->vwords * sizeof(*a->vals);

	for (int k = 0; k < MAP_SNAPSHOT_KEYS; k++) {
		if (a->seen[k] != b->seen[k] ||
		    memcmp(&a->vals[(size_t)k * a->vwords],
			   &b->vals[(size_t)k * b->vwords], len))
			return k;
	}
	return -1;
}

bool snap_equal(const struct map_snapshot *actual,
		const struct map_snapshot *expected, const char *what)
{
	int k = snap_first_diff(actual, expected);

	if (k >= 0)
		printf("%s: key %d: present %d vs %d, first word 0x%llx vs 0x%llx\n",
		       what, k, actual->seen[k], expected->seen[k],
		       (unsigned long long)actual->vals[(size_t)k * actual->vwords],
		       (unsigned long long)expected->vals[(size_t)k * expected->vwords]);
	return ASSERT_EQ(actual->n, expected->n, what) &&
	       ASSERT_EQ(k, -1, what);
}

bool map_matches(int fd, const struct map_snapshot *expected,
		 const char *what)
{
	struct map_snapshot s;
	bool ok;

	if (!snap_init(&s, expected->vwords))
		return false;
	ok = snap_dump(fd, &s) && snap_equal(&s, expected, what);
	snap_free(&s);
	return ok;
}

bool maps_match(int fd_a, int fd_b, __u32 vwords, const char *what)
{
	struct map_snapshot b;
	bool ok;

	if (!snap_init(&b, vwords))
		return false;
	ok = snap_dump(fd_b, &b) && map_matches(fd_a, &b, what);
	snap_free(&b);
	return ok;
}
