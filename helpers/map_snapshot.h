/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map's content as a table indexed by key, so that two contents compare
 * by memcmp whatever order they were read in.  For maps with __u32 keys
 * below MAP_SNAPSHOT_KEYS and values of vwords __u64 words (one, or one
 * per possible CPU for per-CPU maps).  A snapshot also counts what was odd
 * about how its content came in: keys twice, keys out of range, keys not
 * in ascending order.  The functions here assert (test API).
 */
#ifndef BPFCHECK_MAP_SNAPSHOT_H
#define BPFCHECK_MAP_SNAPSHOT_H

#include <stdbool.h>
#include <linux/types.h>

#define MAP_SNAPSHOT_KEYS	1024	/* every key is below this */

struct map_snapshot {
	__u32 n;		/* distinct keys */
	__u32 dups;		/* keys returned more than once */
	__u32 strays;		/* keys outside MAP_SNAPSHOT_KEYS */
	__u32 unordered;	/* keys not one above the previous key */
	__s64 last_key;
	__u32 vwords;
	bool seen[MAP_SNAPSHOT_KEYS];
	__u64 *vals;		/* MAP_SNAPSHOT_KEYS * vwords, 0 where not seen */
};

/* An empty snapshot; "= {}" before it makes snap_free() safe on failure. */
bool snap_init(struct map_snapshot *s, __u32 vwords);
void snap_free(struct map_snapshot *s);

/* One element, as read: val holds s->vwords words. */
void snap_add(struct map_snapshot *s, __u32 key, const __u64 *val);
/* n elements from the arrays of a batch call (vals: vwords per key). */
void snap_add_batch(struct map_snapshot *s, const __u32 *keys,
		    const __u64 *vals, __u32 n);

/*
 * The reference reading: the map fd element by element (get_next_key and
 * lookup) into s, which must be empty.  False, asserted, on any error, a
 * key seen twice or a key out of range.
 */
bool snap_dump(int fd, struct map_snapshot *s);

/* Assert that actual holds what expected does; what names the check. */
bool snap_equal(const struct map_snapshot *actual,
		const struct map_snapshot *expected, const char *what);
/* Dump the map element by element and compare with expected. */
bool map_matches(int fd, const struct map_snapshot *expected,
		 const char *what);
/* Dump two maps element by element and compare them. */
bool maps_match(int fd_a, int fd_b, __u32 vwords, const char *what);

#endif
