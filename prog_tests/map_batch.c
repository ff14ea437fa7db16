// SPDX-License-Identifier: GPL-2.0
/*
 * Batch map operations: BPF_MAP_UPDATE_BATCH, BPF_MAP_LOOKUP_BATCH,
 * BPF_MAP_LOOKUP_AND_DELETE_BATCH and BPF_MAP_DELETE_BATCH on hash and
 * array maps (plain and per-CPU) leave or read back exactly what
 * element-by-element operations do, for batches of 1, of odd sizes and
 * larger than the map.  The end of the map, partial batches, errors part
 * way through a batch and the count out-parameter behave as documented.
 *
 * Maps are made here with bpf_map_create(); no BPF program is involved.
 * Keys are __u32 below MAP_SNAPSHOT_KEYS, so a whole map content fits in a
 * table indexed by key (helpers/map_snapshot.h) and two contents compare
 * by memcmp.  The maps, key/value buffers and lookup walks are in
 * helpers/batch_maps.h, the checks of a walk's end and shape in
 * helpers/batch_checks.h.  test_map_batch(), at the end, runs every
 * operation's subtests on every kind of map that has the operation.
 */
#include <dirent.h>
#include <linux/types.h>
#include <stdlib.h>

#include "batch_checks.h"
#include "batch_maps.h"
#include "map_snapshot.h"
#include "test_progs.h"
#include "util.h"

#define MAX_ENTRIES	100
#define FEW_ENTRIES	37			/* a map filled below capacity */
#define BIG_BATCH	(MAX_ENTRIES + 50)	/* more than the map holds */

/* Batch sizes: one element, odd sizes, and larger than the map. */
static const __u32 batch_sizes[] = { 1, 7, 13, BIG_BATCH };

/* Lookup-walk a map holding n entries with every batch size. */
static void check_lookup(enum bpf_map_type type, __u32 n)
{
	struct map_snapshot ref = {}, got;
	struct bmap m = BMAP_INIT;
	struct walk w;

	if (!bmap_open_filled(&m, type, MAX_ENTRIES, n, &ref))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(batch_sizes); i++) {
		__u32 size = batch_sizes[i];

		if (!snap_init(&got, m.vwords))
			break;
		if (walk_map(&m, false, size, &got, &w)) {
			walk_print(size, &w);
			check_walk_shape(&m, size, ref.n, &w, &got);
			snap_equal(&got, &ref, "batch lookup vs dump");
			check_past_end(&m, false, w.token);
			/*
			 * 100 keys in 128 buckets (max_entries rounded up
			 * to a power of two) share buckets: with the fixed
			 * seed they do, so batches of 1 must meet -ENOSPC.
			 */
			if (!bmap_is_array(type) && size == 1 && n == MAX_ENTRIES)
				ASSERT_GT(w.enospc, 0, "-ENOSPC retries");
		}
		snap_free(&got);
	}
out:
	bmap_close(&m);
	snap_free(&ref);
}

static void subtest_lookup(enum bpf_map_type type)
{
	check_lookup(type, MAX_ENTRIES);
}

static void subtest_lookup_partial(enum bpf_map_type type)
{
	check_lookup(type, FEW_ENTRIES);
}

/* An empty hash map: the first call is the end, with count 0. */
static void subtest_lookup_empty(enum bpf_map_type type)
{
	struct map_snapshot got = {};
	struct bmap m = BMAP_INIT;
	struct walk w;

	if (!bmap_create(&m, type, MAX_ENTRIES) || !snap_init(&got, m.vwords))
		goto out;
	for (int del = 0; del <= 1; del++) {
		if (!walk_map(&m, del, 7, &got, &w))
			break;
		ASSERT_EQ(w.calls, 1, del ? "lookup_and_delete calls" :
			  "lookup calls");
		ASSERT_EQ(w.last_count, 0, "count on an empty map");
	}
	ASSERT_EQ(got.n, 0, "elements returned");
out:
	bmap_close(&m);
	snap_free(&got);
}

/* Arrays cannot delete: the call fails before touching count or map. */
static void check_not_supported(enum bpf_map_type type, bool lookup)
{
	struct map_snapshot before = {};
	struct bmap m = BMAP_INIT;
	__u32 count = 5, out;
	struct kv_buf b = {};
	int err;

	if (!bmap_open_filled(&m, type, MAX_ENTRIES, MAX_ENTRIES, &before) ||
	    !kv_alloc(&b, count, m.vwords))
		goto out;
	kv_fill(&b, &m, 0, 1, count, 1);
	if (lookup)
		err = kv_lookup_batch(m.fd, true, NULL, &out, &b, &count);
	else
		err = bpf_map_delete_batch(m.fd, b.keys, &count, NULL);
	/* No map_*_batch op: bpf_map_do_batch() says -ENOTSUPP. */
	ASSERT_EQ(err, -ENOTSUPP, "refused batch op on an array");
	ASSERT_EQ(count, 5, "count left as passed");
	map_matches(m.fd, &before, "array after a refused batch");
	/* Element by element, arrays refuse deletes with -EINVAL instead. */
	ASSERT_EQ(bpf_map_delete_elem(m.fd, &b.keys[0]), -EINVAL,
		  "delete_elem on an array");
out:
	kv_free(&b);
	bmap_close(&m);
	snap_free(&before);
}

/* Lookup-and-delete a full (or partly full) hash map with one size. */
static void check_lookup_and_delete(enum bpf_map_type type, __u32 n,
				    __u32 size)
{
	struct map_snapshot ref = {}, got = {};
	struct bmap m = BMAP_INIT;
	struct walk w;
	__u32 key;

	if (!bmap_open_filled(&m, type, MAX_ENTRIES, n, &ref) ||
	    !snap_init(&got, m.vwords) || !walk_map(&m, true, size, &got, &w))
		goto out;
	walk_print(size, &w);
	check_walk_shape(&m, size, n, &w, &got);
	snap_equal(&got, &ref, "lookup_and_delete vs dump before");
	ASSERT_EQ(bpf_map_get_next_key(m.fd, NULL, &key), -ENOENT,
		  "get_next_key on the emptied map");
	check_past_end(&m, true, w.token);
out:
	bmap_close(&m);
	snap_free(&ref);
	snap_free(&got);
}

static void subtest_lookup_and_delete(enum bpf_map_type type)
{
	if (bmap_is_array(type)) {
		check_not_supported(type, true);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(batch_sizes); i++)
		check_lookup_and_delete(type, MAX_ENTRIES, batch_sizes[i]);
	check_lookup_and_delete(type, FEW_ENTRIES, 7);
}

/*
 * Write n elements in batches of chunk to one map and one by one to a
 * twin, then overwrite every third element the same two ways.
 */
static void check_update(enum bpf_map_type type, __u32 n, __u32 chunk)
{
	struct bmap_twins t = BMAP_TWINS_INIT;

	if (!twins_open(&t, type, MAX_ENTRIES, 0, n))
		goto out;
	kv_fill(&t.kv, &t.a, 0, 1, n, 1);
	if (!twins_update(&t, n, chunk, "batch vs element updates"))
		goto out;
	kv_fill(&t.kv, &t.a, 0, 3, (n + 2) / 3, 2);
	twins_update(&t, (n + 2) / 3, chunk, "batch vs element overwrites");
out:
	twins_close(&t);
}

static void subtest_update(enum bpf_map_type type)
{
	for (size_t i = 0; i < ARRAY_SIZE(batch_sizes); i++) {
		check_update(type, MAX_ENTRIES, batch_sizes[i]);
		check_update(type, FEW_ENTRIES, batch_sizes[i]);
	}
}

/*
 * Run one update batch of n elements that must fail after `ok` of them
 * with err, and the same updates one by one on a twin: same error, same
 * number done, same content.
 */
static void check_update_fails(const struct bmap_twins *t, __u32 n, __u32 ok, int err)
{
	__u32 count = n, done;

	ASSERT_EQ(bpf_map_update_batch(t->a.fd, t->kv.keys, t->kv.vals, &count, NULL), err,
		  "update_batch error");
	ASSERT_EQ(count, ok, "count: elements updated before the error");
	ASSERT_EQ(kv_update_each(t->b.fd, &t->kv, n, &done), err, "update_elem error");
	ASSERT_EQ(done, ok, "elements updated one by one");
	maps_match(t->a.fd, t->b.fd, t->a.vwords, "after a failed batch");
}

/* A hash map takes max_entries keys; the next new key gets -E2BIG. */
static void subtest_update_overflow(enum bpf_map_type type)
{
	struct bmap_twins t = BMAP_TWINS_INIT;

	if (!twins_open(&t, type, MAX_ENTRIES, 0, BIG_BATCH))
		goto out;
	kv_fill(&t.kv, &t.a, 0, 1, BIG_BATCH, 1);
	check_update_fails(&t, BIG_BATCH, MAX_ENTRIES, -E2BIG);
	/* A full map still takes updates of keys it holds. */
	kv_fill(&t.kv, &t.a, 0, 1, MAX_ENTRIES, 2);
	if (kv_batch_in_chunks(t.a.fd, false, &t.kv, MAX_ENTRIES, BIG_BATCH) &&
	    kv_batch_in_chunks(t.b.fd, false, &t.kv, MAX_ENTRIES, 1))
		maps_match(t.a.fd, t.b.fd, t.a.vwords, "overwrite in a full map");
out:
	twins_close(&t);
}

/* An array index past max_entries fails the batch there with -E2BIG. */
static void subtest_update_out_of_range(enum bpf_map_type type)
{
	struct bmap_twins t = BMAP_TWINS_INIT;

	if (twins_open(&t, type, MAX_ENTRIES, 0, 20)) {
		kv_fill(&t.kv, &t.a, 0, 1, 20, 1);
		t.kv.keys[10] = MAX_ENTRIES + 5;
		check_update_fails(&t, 20, 10, -E2BIG);
	}
	twins_close(&t);
}

static void check_lookup_flags(const struct bmap *m)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .flags = 1);
	__u32 count = 5, out;
	struct kv_buf kv;
	int err;

	if (!kv_alloc(&kv, count, m->vwords))
		goto out;
	err = bpf_map_lookup_batch(m->fd, NULL, &out, kv.keys, kv.vals,
				   &count, &opts);
	/*
	 * The hash table's own lookup rejects any batch.flags; arrays use
	 * generic_map_lookup_batch(), which never reads them.
	 */
	if (bmap_is_array(m->type)) {
		ASSERT_OK(err, "array lookup_batch with flags");
		ASSERT_EQ(count, 5, "count");
	} else {
		ASSERT_EQ(err, -EINVAL, "hash lookup_batch with flags");
	}
out:
	kv_free(&kv);
}

/*
 * Update batches take per-element flags in elem_flags, and only BPF_F_LOCK
 * there: BPF_NOEXIST is refused with -EINVAL before anything is done, and
 * count is not written.  The batch-wide flags field is not read by
 * generic_map_update_batch() at all, so BPF_NOEXIST there does not stop
 * existing keys from being overwritten.
 */
static void subtest_update_flags(enum bpf_map_type type)
{
	LIBBPF_OPTS(bpf_map_batch_opts, elem, .elem_flags = BPF_NOEXIST);
	LIBBPF_OPTS(bpf_map_batch_opts, batch, .flags = BPF_NOEXIST);
	struct map_snapshot ref = {};
	struct bmap m = BMAP_INIT;
	struct kv_buf kv = {};
	__u32 count;

	if (!bmap_open_filled(&m, type, MAX_ENTRIES, MAX_ENTRIES, &ref) ||
	    !kv_alloc(&kv, MAX_ENTRIES, m.vwords))
		goto out;
	kv_fill(&kv, &m, 0, 1, MAX_ENTRIES, 2);
	count = MAX_ENTRIES;
	ASSERT_EQ(bpf_map_update_batch(m.fd, kv.keys, kv.vals, &count, &elem),
		  -EINVAL, "elem_flags BPF_NOEXIST");
	ASSERT_EQ(count, MAX_ENTRIES, "count left as passed");
	map_matches(m.fd, &ref, "after elem_flags BPF_NOEXIST");

	count = MAX_ENTRIES;
	ASSERT_OK(bpf_map_update_batch(m.fd, kv.keys, kv.vals, &count, &batch),
		  "flags BPF_NOEXIST");
	ASSERT_EQ(count, MAX_ENTRIES, "count");
	snap_free(&ref);
	if (snap_init(&ref, m.vwords)) {
		kv_snap_add(&ref, &kv, MAX_ENTRIES);
		map_matches(m.fd, &ref, "overwritten despite flags BPF_NOEXIST");
	}
	check_lookup_flags(&m);
out:
	kv_free(&kv);
	bmap_close(&m);
	snap_free(&ref);
}

/*
 * Delete the odd-numbered elements in batches of chunk from one map and
 * one by one from a twin; exactly the even-numbered ones must remain.
 */
static void check_delete(enum bpf_map_type type, __u32 chunk)
{
	struct bmap_twins t = BMAP_TWINS_INIT;
	struct map_snapshot rest = {};
	__u32 n = MAX_ENTRIES / 2;

	if (!twins_open(&t, type, MAX_ENTRIES, MAX_ENTRIES, n) ||
	    !snap_init(&rest, t.a.vwords))
		goto out;
	kv_fill(&t.kv, &t.a, 0, 2, n, 1);
	kv_snap_add(&rest, &t.kv, n);
	kv_fill(&t.kv, &t.a, 1, 2, n, 1);
	twins_delete(&t, n, chunk, "batch vs element deletes");
	map_matches(t.a.fd, &rest, "what batch deletes left");
out:
	twins_close(&t);
	snap_free(&rest);
}

static void subtest_delete(enum bpf_map_type type)
{
	if (bmap_is_array(type)) {
		check_not_supported(type, false);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(batch_sizes); i++)
		check_delete(type, batch_sizes[i]);
}

/*
 * A key that is not in the map stops a delete batch with -ENOENT; count
 * says how many were deleted before it, and the keys after it stay.
 */
static void subtest_delete_missing(enum bpf_map_type type)
{
	struct bmap_twins t = BMAP_TWINS_INIT;
	struct kv_buf *kv = &t.kv;
	__u32 count = 5, done;

	if (!twins_open(&t, type, MAX_ENTRIES, MAX_ENTRIES, count))
		goto out;
	kv_fill(kv, &t.a, 0, 1, count, 1);
	kv->keys[3] = bmap_key(&t.a, MAX_ENTRIES + 1);	/* never inserted */
	ASSERT_EQ(bpf_map_delete_batch(t.a.fd, kv->keys, &count, NULL), -ENOENT,
		  "delete_batch with a missing key");
	ASSERT_EQ(count, 3, "count: deleted before the missing key");
	ASSERT_EQ(kv_delete_each(t.b.fd, kv, 5, &done), -ENOENT,
		  "delete_elem of a missing key");
	ASSERT_EQ(done, 3, "deleted one by one");
	ASSERT_OK(bpf_map_lookup_elem(t.a.fd, &kv->keys[4], kv->vals),
		  "key after the missing one is still there");
	maps_match(t.a.fd, t.b.fd, t.a.vwords, "after a failed delete batch");
out:
	twins_close(&t);
}

#define HASH_ONLY	1
#define ARRAY_ONLY	2

static const struct {
	const char *name;
	enum bpf_map_type type;
} map_kinds[] = {
	{ "hash", BPF_MAP_TYPE_HASH },
	{ "percpu_hash", BPF_MAP_TYPE_PERCPU_HASH },
	{ "array", BPF_MAP_TYPE_ARRAY },
	{ "percpu_array", BPF_MAP_TYPE_PERCPU_ARRAY },
};

static const struct {
	const char *name;
	void (*run)(enum bpf_map_type type);
	int only;
} ops[] = {
	{ "update", subtest_update, 0 },
	{ "update_overflow", subtest_update_overflow, HASH_ONLY },
	{ "update_out_of_range", subtest_update_out_of_range, ARRAY_ONLY },
	{ "update_flags", subtest_update_flags, 0 },
	{ "lookup", subtest_lookup, 0 },
	{ "lookup_partial", subtest_lookup_partial, HASH_ONLY },
	{ "lookup_empty", subtest_lookup_empty, HASH_ONLY },
	{ "lookup_and_delete", subtest_lookup_and_delete, 0 },
	{ "delete", subtest_delete, 0 },
	{ "delete_missing", subtest_delete_missing, HASH_ONLY },
};

/* Open fds of this process (the test runs in a process of its own). */
static int count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir)))
		n += de->d_name[0] != '.';
	closedir(dir);
	return n;
}

void test_map_batch(void)
{
	int fds_before = count_fds();
	char name[64];

	for (size_t k = 0; k < ARRAY_SIZE(map_kinds); k++) {
		bool array = bmap_is_array(map_kinds[k].type);

		for (size_t o = 0; o < ARRAY_SIZE(ops); o++) {
			if ((ops[o].only == HASH_ONLY && array) ||
			    (ops[o].only == ARRAY_ONLY && !array))
				continue;
			snprintf(name, sizeof(name), "%s_%s",
				 map_kinds[k].name, ops[o].name);
			if (test__start_subtest(name))
				ops[o].run(map_kinds[k].type);
		}
	}
	/* Every path above closes the maps it made. */
	if (test__start_subtest("no_leftover_fds") &&
	    ASSERT_GE(fds_before, 0, "count fds before"))
		ASSERT_EQ(count_fds(), fds_before, "open fds after the subtests");
}
