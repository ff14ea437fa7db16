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
 * Keys are __u32 below KEY_SPACE, so a whole map content fits in a table
 * indexed by key ("snapshot") and two contents compare by memcmp.
 */
#include <dirent.h>
#include <linux/types.h>
#include <stdlib.h>

#include "test_progs.h"

/* Kernel-internal errno (not in <errno.h>) for an op a map type lacks. */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

#define MAX_ENTRIES	100
#define FEW_ENTRIES	37			/* a map filled below capacity */
#define BIG_BATCH	(MAX_ENTRIES + 50)	/* more than the map holds */
#define KEY_SPACE	1024			/* every key used is below this */

/* Batch sizes: one element, odd sizes, and larger than the map. */
static const __u32 batch_sizes[] = { 1, 7, 13, BIG_BATCH };

struct bmap {
	enum bpf_map_type type;
	int fd;
	__u32 vwords;		/* __u64 words per value: 1, or one per CPU */
};

/* Keys and values as passed to, or returned by, one batch call. */
struct kv_buf {
	__u32 *keys;
	__u64 *vals;
	__u32 cap;		/* elements */
	__u32 vwords;
};

/* A map's content by key, with what was odd about how it was read. */
struct snapshot {
	__u32 n;		/* distinct keys */
	__u32 dups;		/* keys returned more than once */
	__u32 strays;		/* keys outside KEY_SPACE */
	__u32 unordered;	/* keys not one above the previous key */
	__s64 last_key;
	__u32 vwords;
	bool seen[KEY_SPACE];
	__u64 *vals;		/* KEY_SPACE * vwords, zero where not seen */
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

static bool is_array(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static bool is_percpu(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static __u32 min_u32(__u32 a, __u32 b)
{
	return a < b ? a : b;
}

static bool bmap_create(struct bmap *m, enum bpf_map_type type)
{
	/* A zero hash seed puts keys in the same buckets on every run. */
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		.map_flags = is_array(type) ? 0 : BPF_F_ZERO_SEED,
	);
	/* Per-CPU values are one 8-byte slot per possible CPU. */
	int words = is_percpu(type) ? libbpf_num_possible_cpus() : 1;

	m->type = type;
	m->fd = -1;
	if (!ASSERT_GT(words, 0, "libbpf_num_possible_cpus"))
		return false;
	m->vwords = words;
	m->fd = bpf_map_create(type, "batch_test", sizeof(__u32),
			       sizeof(__u64), MAX_ENTRIES, &opts);
	return ASSERT_OK_FD(m->fd, "bpf_map_create");
}

static void bmap_close(struct bmap *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

/* Hash keys are sparse so that they are not simply bucket numbers. */
static __u32 key_of(const struct bmap *m, __u32 i)
{
	return is_array(m->type) ? i : i * 5 + 3;
}

/* Distinct for every key, CPU slot and generation of writes. */
static __u64 value_of(__u32 key, __u32 word, __u32 gen)
{
	return (__u64)gen << 48 | (__u64)word << 32 | key;
}

static bool kv_alloc(struct kv_buf *b, __u32 cap, __u32 vwords)
{
	b->cap = cap;
	b->vwords = vwords;
	b->keys = calloc(cap, sizeof(*b->keys));
	b->vals = calloc((size_t)cap * vwords, sizeof(*b->vals));
	return ASSERT_OK_PTR(b->keys, "calloc keys") &&
	       ASSERT_OK_PTR(b->vals, "calloc values");
}

static void kv_free(struct kv_buf *b)
{
	free(b->keys);
	free(b->vals);
	b->keys = NULL;
	b->vals = NULL;
}

static __u64 *kv_val(const struct kv_buf *b, __u32 i)
{
	return &b->vals[(size_t)i * b->vwords];
}

/* Element j is key_of(first + j * stride), for j < n (n <= cap). */
static void kv_fill(struct kv_buf *b, const struct bmap *m, __u32 first,
		    __u32 stride, __u32 n, __u32 gen)
{
	for (__u32 j = 0; j < n; j++) {
		__u32 key = key_of(m, first + j * stride);

		b->keys[j] = key;
		for (__u32 w = 0; w < b->vwords; w++)
			kv_val(b, j)[w] = value_of(key, w, gen);
	}
}

static bool snap_init(struct snapshot *s, __u32 vwords)
{
	memset(s, 0, sizeof(*s));
	s->vwords = vwords;
	s->last_key = -1;
	s->vals = calloc((size_t)KEY_SPACE * vwords, sizeof(*s->vals));
	return ASSERT_OK_PTR(s->vals, "calloc snapshot");
}

static void snap_free(struct snapshot *s)
{
	free(s->vals);
	s->vals = NULL;
}

static void snap_add(struct snapshot *s, __u32 key, const __u64 *val)
{
	if (key != s->last_key + 1)
		s->unordered++;
	s->last_key = key;
	if (key >= KEY_SPACE) {
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

static void snap_add_kv(struct snapshot *s, const struct kv_buf *b, __u32 n)
{
	for (__u32 i = 0; i < n; i++)
		snap_add(s, b->keys[i], kv_val(b, i));
}

/* The reference: the map read element by element (get_next_key+lookup). */
static bool snap_dump(int fd, struct snapshot *s)
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
		    !ASSERT_LE(s->n + s->dups, KEY_SPACE, "dump length"))
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
static int snap_first_diff(const struct snapshot *a, const struct snapshot *b)
{
	size_t len = a->vwords * sizeof(*a->vals);

	for (int k = 0; k < KEY_SPACE; k++) {
		if (a->seen[k] != b->seen[k] ||
		    memcmp(&a->vals[(size_t)k * a->vwords],
			   &b->vals[(size_t)k * b->vwords], len))
			return k;
	}
	return -1;
}

static bool snap_equal(const struct snapshot *actual,
		       const struct snapshot *expected, const char *what)
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

/* Dump the map element by element and compare with expected. */
static bool map_matches(int fd, const struct snapshot *expected,
			const char *what)
{
	struct snapshot s;
	bool ok;

	if (!snap_init(&s, expected->vwords))
		return false;
	ok = snap_dump(fd, &s) && snap_equal(&s, expected, what);
	snap_free(&s);
	return ok;
}

/* Dump two maps element by element and compare them. */
static bool maps_match(int fd_a, int fd_b, __u32 vwords, const char *what)
{
	struct snapshot b;
	bool ok;

	if (!snap_init(&b, vwords))
		return false;
	ok = snap_dump(fd_b, &b) && map_matches(fd_a, &b, what);
	snap_free(&b);
	return ok;
}

/*
 * Element-by-element twins of the batch updates and deletes: stop at the
 * first error, return it, and say in *done how many succeeded before.
 */
static int update_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done)
{
	int err = 0;

	for (*done = 0; *done < n; (*done)++) {
		err = bpf_map_update_elem(fd, &b->keys[*done],
					  kv_val(b, *done), BPF_ANY);
		if (err)
			break;
	}
	return err;
}

static int delete_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done)
{
	int err = 0;

	for (*done = 0; *done < n; (*done)++) {
		err = bpf_map_delete_elem(fd, &b->keys[*done]);
		if (err)
			break;
	}
	return err;
}

/* The map with elements 0..n-1 of generation 1, written one by one. */
static bool fill_each(const struct bmap *m, __u32 n)
{
	struct kv_buf b;
	__u32 done;
	bool ok;

	ok = kv_alloc(&b, n, m->vwords);
	if (ok) {
		kv_fill(&b, m, 0, 1, n, 1);
		ok = ASSERT_OK(update_each(m->fd, &b, n, &done), "update_elem");
	}
	kv_free(&b);
	return ok;
}

/* Update (or delete) b's n elements in calls of at most chunk each. */
static bool batch_in_chunks(int fd, bool del, const struct kv_buf *b,
			    __u32 n, __u32 chunk)
{
	for (__u32 done = 0; done < n; ) {
		__u32 want = min_u32(chunk, n - done), count = want;
		int err;

		if (del)
			err = bpf_map_delete_batch(fd, &b->keys[done], &count,
						   NULL);
		else
			err = bpf_map_update_batch(fd, &b->keys[done],
						   kv_val(b, done), &count,
						   NULL);
		/* On success count is left at the number asked for. */
		if (!ASSERT_OK(err, del ? "delete_batch" : "update_batch") ||
		    !ASSERT_EQ(count, want, "count after a full batch"))
			return false;
		done += want;
	}
	return true;
}

/*
 * One lookup (or lookup-and-delete) batch from in.  A hash map returns
 * whole buckets only and fails with -ENOSPC (count 0) when the first
 * bucket it reaches holds more elements than count; as a user must, we
 * then retry the same call with a larger count, doubling it for this call
 * only.  *size is the count asked for by the call that counted.
 */
static int lookup_batch(int fd, bool del, void *in, __u32 *out,
			struct kv_buf *b, __u32 *size, __u32 *count,
			struct walk *w)
{
	int err;

	for (;;) {
		*count = *size;
		if (del)
			err = bpf_map_lookup_and_delete_batch(fd, in, out,
					b->keys, b->vals, count, NULL);
		else
			err = bpf_map_lookup_batch(fd, in, out, b->keys,
						   b->vals, count, NULL);
		w->calls++;
		if (err != -ENOSPC || *size >= b->cap)
			return err;
		w->enospc++;
		ASSERT_EQ(*count, 0, "count with -ENOSPC");
		*size = min_u32(*size * 2, b->cap);
	}
}

static void walk_account(struct walk *w, __u32 size, __u32 count, int err)
{
	w->batches++;
	w->total += count;
	if (count > size)
		w->oversize++;
	if (!err && count < size)
		w->short_batches++;
	w->last_count = count;
}

/*
 * Read the whole map with batches of size into s: in_batch NULL first,
 * then each out_batch passed back as the next in_batch, until the call
 * that reaches the end returns -ENOENT.
 */
static bool walk_map(const struct bmap *m, bool del, __u32 size,
		     struct snapshot *s, struct walk *w)
{
	__u32 in, out = 0, count, used;
	void *in_p = NULL;
	struct kv_buf b;
	bool ok = false;
	int err;

	memset(w, 0, sizeof(*w));
	if (!kv_alloc(&b, BIG_BATCH, m->vwords))
		goto out;
	for (;;) {
		used = size;
		err = lookup_batch(m->fd, del, in_p, &out, &b, &used, &count,
				   w);
		if ((err && !ASSERT_EQ(err, -ENOENT, "lookup batch")) ||
		    !ASSERT_LE(count, b.cap, "count"))
			goto out;
		snap_add_kv(s, &b, count);
		walk_account(w, used, count, err);
		if (err)
			break;
		/* Only the last batch may be empty, or this never ends. */
		if (!ASSERT_GT(count, 0, "count of a batch before the end") ||
		    !ASSERT_LE(w->batches, 2 * MAX_ENTRIES, "batches"))
			goto out;
		in = out;
		in_p = &in;
	}
	w->token = out;
	ok = true;
out:
	kv_free(&b);
	return ok;
}

/* After the call that returned -ENOENT, the next one finds nothing. */
static void check_past_end(const struct bmap *m, bool del, __u32 token)
{
	struct kv_buf b;
	__u32 count = 7, out = token;
	int err;

	if (!kv_alloc(&b, count, m->vwords))
		goto out;
	if (del)
		err = bpf_map_lookup_and_delete_batch(m->fd, &token, &out,
				b.keys, b.vals, &count, NULL);
	else
		err = bpf_map_lookup_batch(m->fd, &token, &out, b.keys,
					   b.vals, &count, NULL);
	ASSERT_EQ(err, -ENOENT, "batch after the end");
	ASSERT_EQ(count, 0, "count after the end");
out:
	kv_free(&b);
}

static void print_walk(__u32 size, const struct walk *w)
{
	printf("batch %u: %u calls, %u -ENOSPC retries, last batch %u, "
	       "out_batch %u\n", size, w->calls, w->enospc, w->last_count,
	       w->token);
}

/* What the number and sizes of batches must be for a map of n entries. */
static void check_walk_shape(const struct bmap *m, __u32 size, __u32 n,
			     const struct walk *w, const struct snapshot *s)
{
	ASSERT_EQ(w->total, n, "sum of counts");
	ASSERT_EQ(w->oversize, 0, "batches above the size asked");
	ASSERT_EQ(s->dups + s->strays, 0, "keys returned twice or stray");
	if (is_array(m->type)) {
		/*
		 * Arrays fill every batch; the end is found by the call
		 * after the last element, so an exact fit ends with an
		 * extra, empty batch.
		 */
		ASSERT_EQ(s->unordered, 0, "array keys out of index order");
		ASSERT_EQ(w->short_batches, 0, "short batches before the end");
		ASSERT_EQ(w->calls, n / size + 1, "calls");
		ASSERT_EQ(w->last_count, n % size, "count of the last batch");
	} else if (size >= n) {
		/* A hash map returns all of it and -ENOENT in one call. */
		ASSERT_EQ(w->calls, 1, "calls");
		ASSERT_EQ(w->last_count, n, "count of the last batch");
	}
}

/* Lookup-walk a map holding n entries with every batch size. */
static void check_lookup(enum bpf_map_type type, __u32 n)
{
	struct snapshot ref = {}, got;
	struct bmap m = { .fd = -1 };
	struct walk w;

	if (!bmap_create(&m, type) || !snap_init(&ref, m.vwords) ||
	    !fill_each(&m, n) || !snap_dump(m.fd, &ref))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(batch_sizes); i++) {
		__u32 size = batch_sizes[i];

		if (!snap_init(&got, m.vwords))
			break;
		if (walk_map(&m, false, size, &got, &w)) {
			print_walk(size, &w);
			check_walk_shape(&m, size, ref.n, &w, &got);
			snap_equal(&got, &ref, "batch lookup vs dump");
			check_past_end(&m, false, w.token);
			/*
			 * 100 keys in 128 buckets (max_entries rounded up
			 * to a power of two) share buckets: with the fixed
			 * seed they do, so batches of 1 must meet -ENOSPC.
			 */
			if (!is_array(type) && size == 1 && n == MAX_ENTRIES)
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
	struct snapshot got = {};
	struct bmap m = { .fd = -1 };
	struct walk w;

	if (!bmap_create(&m, type) || !snap_init(&got, m.vwords))
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
static void check_not_supported(const struct bmap *m, bool lookup)
{
	struct snapshot before = {};
	__u32 count = 5, out;
	struct kv_buf b = {};
	int err;

	if (!snap_init(&before, m->vwords) || !kv_alloc(&b, count, m->vwords))
		goto out;
	if (!fill_each(m, MAX_ENTRIES) || !snap_dump(m->fd, &before))
		goto out;
	kv_fill(&b, m, 0, 1, count, 1);
	if (lookup)
		err = bpf_map_lookup_and_delete_batch(m->fd, NULL, &out,
				b.keys, b.vals, &count, NULL);
	else
		err = bpf_map_delete_batch(m->fd, b.keys, &count, NULL);
	/* No map_*_batch op: bpf_map_do_batch() says -ENOTSUPP. */
	ASSERT_EQ(err, -ENOTSUPP, "refused batch op on an array");
	ASSERT_EQ(count, 5, "count left as passed");
	map_matches(m->fd, &before, "array after a refused batch");
	/* Element by element, arrays refuse deletes with -EINVAL instead. */
	ASSERT_EQ(bpf_map_delete_elem(m->fd, &b.keys[0]), -EINVAL,
		  "delete_elem on an array");
out:
	kv_free(&b);
	snap_free(&before);
}

/* Lookup-and-delete a full (or partly full) hash map with one size. */
static void check_lookup_and_delete(enum bpf_map_type type, __u32 n,
				    __u32 size)
{
	struct snapshot ref = {}, got = {};
	struct bmap m = { .fd = -1 };
	struct walk w;
	__u32 key;

	if (!bmap_create(&m, type) ||
	    !snap_init(&ref, m.vwords) || !snap_init(&got, m.vwords) ||
	    !fill_each(&m, n) || !snap_dump(m.fd, &ref) ||
	    !walk_map(&m, true, size, &got, &w))
		goto out;
	print_walk(size, &w);
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
	struct bmap m = { .fd = -1 };

	if (is_array(type)) {
		if (bmap_create(&m, type))
			check_not_supported(&m, true);
		bmap_close(&m);
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
	struct bmap a = { .fd = -1 }, b = { .fd = -1 };
	struct kv_buf kv = {};
	__u32 done;

	if (!bmap_create(&a, type) || !bmap_create(&b, type) ||
	    !kv_alloc(&kv, n, a.vwords))
		goto out;
	kv_fill(&kv, &a, 0, 1, n, 1);
	if (!batch_in_chunks(a.fd, false, &kv, n, chunk) ||
	    !ASSERT_OK(update_each(b.fd, &kv, n, &done), "update_elem") ||
	    !maps_match(a.fd, b.fd, a.vwords, "batch vs element updates"))
		goto out;
	kv_fill(&kv, &a, 0, 3, (n + 2) / 3, 2);
	if (!batch_in_chunks(a.fd, false, &kv, (n + 2) / 3, chunk) ||
	    !ASSERT_OK(update_each(b.fd, &kv, (n + 2) / 3, &done),
		       "update_elem"))
		goto out;
	maps_match(a.fd, b.fd, a.vwords, "batch vs element overwrites");
out:
	kv_free(&kv);
	bmap_close(&a);
	bmap_close(&b);
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
static void check_update_fails(const struct bmap *a, const struct bmap *b,
			       const struct kv_buf *kv, __u32 n, __u32 ok,
			       int err)
{
	__u32 count = n, done;

	ASSERT_EQ(bpf_map_update_batch(a->fd, kv->keys, kv->vals, &count,
				       NULL), err, "update_batch error");
	ASSERT_EQ(count, ok, "count: elements updated before the error");
	ASSERT_EQ(update_each(b->fd, kv, n, &done), err, "update_elem error");
	ASSERT_EQ(done, ok, "elements updated one by one");
	maps_match(a->fd, b->fd, a->vwords, "after a failed batch");
}

/* A hash map takes max_entries keys; the next new key gets -E2BIG. */
static void subtest_update_overflow(enum bpf_map_type type)
{
	struct bmap a = { .fd = -1 }, b = { .fd = -1 };
	struct kv_buf kv = {};

	if (!bmap_create(&a, type) || !bmap_create(&b, type) ||
	    !kv_alloc(&kv, BIG_BATCH, a.vwords))
		goto out;
	kv_fill(&kv, &a, 0, 1, BIG_BATCH, 1);
	check_update_fails(&a, &b, &kv, BIG_BATCH, MAX_ENTRIES, -E2BIG);
	/* A full map still takes updates of keys it holds. */
	kv_fill(&kv, &a, 0, 1, MAX_ENTRIES, 2);
	if (batch_in_chunks(a.fd, false, &kv, MAX_ENTRIES, BIG_BATCH) &&
	    batch_in_chunks(b.fd, false, &kv, MAX_ENTRIES, 1))
		maps_match(a.fd, b.fd, a.vwords, "overwrite in a full map");
out:
	kv_free(&kv);
	bmap_close(&a);
	bmap_close(&b);
}

/* An array index past max_entries fails the batch there with -E2BIG. */
static void subtest_update_out_of_range(enum bpf_map_type type)
{
	struct bmap a = { .fd = -1 }, b = { .fd = -1 };
	struct kv_buf kv = {};

	if (!bmap_create(&a, type) || !bmap_create(&b, type) ||
	    !kv_alloc(&kv, 20, a.vwords))
		goto out;
	kv_fill(&kv, &a, 0, 1, 20, 1);
	kv.keys[10] = MAX_ENTRIES + 5;
	check_update_fails(&a, &b, &kv, 20, 10, -E2BIG);
out:
	kv_free(&kv);
	bmap_close(&a);
	bmap_close(&b);
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
	if (is_array(m->type)) {
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
	struct snapshot ref = {};
	struct bmap m = { .fd = -1 };
	struct kv_buf kv = {};
	__u32 count;

	if (!bmap_create(&m, type) || !snap_init(&ref, m.vwords) ||
	    !kv_alloc(&kv, MAX_ENTRIES, m.vwords) ||
	    !fill_each(&m, MAX_ENTRIES) || !snap_dump(m.fd, &ref))
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
		snap_add_kv(&ref, &kv, MAX_ENTRIES);
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
	struct bmap a = { .fd = -1 }, b = { .fd = -1 };
	__u32 done, n = MAX_ENTRIES / 2;
	struct snapshot rest = {};
	struct kv_buf kv = {};

	if (!bmap_create(&a, type) || !bmap_create(&b, type) ||
	    !snap_init(&rest, a.vwords) || !kv_alloc(&kv, n, a.vwords) ||
	    !fill_each(&a, MAX_ENTRIES) || !fill_each(&b, MAX_ENTRIES))
		goto out;
	kv_fill(&kv, &a, 0, 2, n, 1);
	snap_add_kv(&rest, &kv, n);
	kv_fill(&kv, &a, 1, 2, n, 1);
	if (!batch_in_chunks(a.fd, true, &kv, n, chunk) ||
	    !ASSERT_OK(delete_each(b.fd, &kv, n, &done), "delete_elem"))
		goto out;
	map_matches(a.fd, &rest, "what batch deletes left");
	maps_match(a.fd, b.fd, a.vwords, "batch vs element deletes");
out:
	kv_free(&kv);
	bmap_close(&a);
	bmap_close(&b);
	snap_free(&rest);
}

static void subtest_delete(enum bpf_map_type type)
{
	struct bmap m = { .fd = -1 };

	if (is_array(type)) {
		if (bmap_create(&m, type))
			check_not_supported(&m, false);
		bmap_close(&m);
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
	struct bmap a = { .fd = -1 }, b = { .fd = -1 };
	struct kv_buf kv = {};
	__u32 count = 5, done;

	if (!bmap_create(&a, type) || !bmap_create(&b, type) ||
	    !kv_alloc(&kv, count, a.vwords) || !fill_each(&a, MAX_ENTRIES) ||
	    !fill_each(&b, MAX_ENTRIES))
		goto out;
	kv_fill(&kv, &a, 0, 1, count, 1);
	kv.keys[3] = key_of(&a, MAX_ENTRIES + 1);	/* never inserted */
	ASSERT_EQ(bpf_map_delete_batch(a.fd, kv.keys, &count, NULL), -ENOENT,
		  "delete_batch with a missing key");
	ASSERT_EQ(count, 3, "count: deleted before the missing key");
	ASSERT_EQ(delete_each(b.fd, &kv, 5, &done), -ENOENT,
		  "delete_elem of a missing key");
	ASSERT_EQ(done, 3, "deleted one by one");
	ASSERT_OK(bpf_map_lookup_elem(a.fd, &kv.keys[4], kv.vals),
		  "key after the missing one is still there");
	maps_match(a.fd, b.fd, a.vwords, "after a failed delete batch");
out:
	kv_free(&kv);
	bmap_close(&a);
	bmap_close(&b);
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
		bool array = is_array(map_kinds[k].type);

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
