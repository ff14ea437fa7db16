/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maps for tests of the batch map operations (prog_tests/map_batch.c):
 * hash and array maps, plain and per-CPU, with __u32 keys and __u64
 * values, made with bpf_map_create(); key/value buffers as one batch call
 * passes or returns them; the element-by-element twins of batch updates
 * and deletes; and a walk that reads a whole map with lookup batches the
 * way a user must.  What a map holds is compared with map_snapshot.h.
 * The functions here assert (test API).
 */
#ifndef BPFCHECK_BATCH_MAPS_H
#define BPFCHECK_BATCH_MAPS_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/types.h>

#include "map_snapshot.h"

struct bmap {
	enum bpf_map_type type;
	int fd;
	__u32 vwords;		/* __u64 words per value: 1, or one per CPU */
	__u32 max_entries;
};

#define BMAP_INIT { .fd = -1 }

/* Keys and values as passed to, or returned by, one batch call. */
struct kv_buf {
	__u32 *keys;
	__u64 *vals;
	__u32 cap;		/* elements */
	__u32 vwords;
};

/* How a walk over the map with lookup batches went. */
struct walk {
	__u32 calls;		/* syscalls, -ENOSPC retries included */
	__u32 batches;		/* calls that returned elements or the end */
	__u32 enospc;		/* retries because a bucket did not fit */
	__u32 total;		/* sum of the returned counts */
	__u32 oversize;		/* batches with count above the size asked */
	__u32 short_batches;	/* batches before the end with count < size */
	__u32 last_count;	/* count of the call that returned -ENOENT */
	__u32 token;		/* out_batch after that call */
};

bool bmap_is_array(enum bpf_map_type type);

/* A map of this type; hash maps get a fixed (zero) hash seed. */
bool bmap_create(struct bmap *m, enum bpf_map_type type, __u32 max_entries);
void bmap_close(struct bmap *m);
/* Key number i: the index for arrays, sparse keys for hash maps. */
__u32 bmap_key(const struct bmap *m, __u32 i);
/* The map with keys 0..n-1 of generation 1, written one by one. */
bool bmap_fill_each(const struct bmap *m, __u32 n);

/*
 * A map with keys 0..n-1 written one by one, and in ref (zeroed by the
 * caller, freed with snap_free()) what it then holds, read back element
 * by element.
 */
bool bmap_open_filled(struct bmap *m, enum bpf_map_type type,
		      __u32 max_entries, __u32 n, struct map_snapshot *ref);

/*
 * Two maps of one type and a buffer: a batch operation runs on a, its
 * element-by-element twin on b, and the two must end up alike.
 */
struct bmap_twins {
	struct bmap a, b;
	struct kv_buf kv;
};

#define BMAP_TWINS_INIT { .a = BMAP_INIT, .b = BMAP_INIT }

/* Both maps, keys 0..fill-1 written to each one by one, a buffer of kv_cap. */
bool twins_open(struct bmap_twins *t, enum bpf_map_type type,
		__u32 max_entries, __u32 fill, __u32 kv_cap);
void twins_close(struct bmap_twins *t);
/*
 * The first n elements of t->kv written (or deleted) in batches of at
 * most chunk on a and one by one on b; then the two maps must match.
 */
bool twins_update(struct bmap_twins *t, __u32 n, __u32 chunk, const char *what);
bool twins_delete(struct bmap_twins *t, __u32 n, __u32 chunk, const char *what);

bool kv_alloc(struct kv_buf *b, __u32 cap, __u32 vwords);
void kv_free(struct kv_buf *b);
__u64 *kv_val(const struct kv_buf *b, __u32 i);
/*
 * Element j is key bmap_key(m, first + j * stride) with a value distinct
 * for every key, CPU slot and generation gen, for j < n (n <= cap).
 */
void kv_fill(struct kv_buf *b, const struct bmap *m, __u32 first,
	     __u32 stride, __u32 n, __u32 gen);
/* b's n elements into a snapshot. */
void kv_snap_add(struct map_snapshot *s, const struct kv_buf *b, __u32 n);

/*
 * Element-by-element twins of the batch updates and deletes: stop at the
 * first error, return it, and say in *done how many succeeded before.
 */
int kv_update_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done);
int kv_delete_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done);
/* Update (or delete) b's n elements in calls of at most chunk each. */
bool kv_batch_in_chunks(int fd, bool del, const struct kv_buf *b, __u32 n,
			__u32 chunk);

/* One BPF_MAP_LOOKUP_BATCH, or LOOKUP_AND_DELETE_BATCH if del, into b. */
int kv_lookup_batch(int fd, bool del, void *in, __u32 *out,
		    struct kv_buf *b, __u32 *count);
/*
 * Read the whole map with batches of size into s: in_batch NULL first,
 * then each out_batch passed back as the next in_batch, until the call
 * that reaches the end returns -ENOENT.  A bucket larger than size is
 * retried with a larger count, as a user must; w says how it went.
 */
bool walk_map(const struct bmap *m, bool del, __u32 size,
	      struct map_snapshot *s, struct walk *w);
void walk_print(__u32 size, const struct walk *w);

#endif
