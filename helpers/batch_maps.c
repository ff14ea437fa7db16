// SPDX-License-Identifier: GPL-2.0
/* Maps, buffers and walks for tests of batch map operations (batch_maps.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_maps.h"
#include "test_progs.h"

static __u32 min_u32(__u32 a, __u32 b)
{
	return a < b ? a : b;
}

bool bmap_is_array(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static bool is_percpu(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

bool bmap_create(struct bmap *m, enum bpf_map_type type, __u32 max_entries)
{
	/* A zero hash seed puts keys in the same buckets on every run. */
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		.map_flags = bmap_is_array(type) ? 0 : BPF_F_ZERO_SEED,
	);
	/* Per-CPU values are one 8-byte slot per possible CPU. */
	int words = is_percpu(type) ? libbpf_num_possible_cpus() : 1;

	m->type = type;
	m->fd = -1;
	m->max_entries = max_entries;
	if (!ASSERT_GT(words, 0, "libbpf_num_possible_cpus"))
		return false;
	m->vwords = words;
	m->fd = bpf_map_create(type, "batch_test", sizeof(__u32),
			       sizeof(__u64), max_entries, &opts);
	return ASSERT_OK_FD(m->fd, "bpf_map_create");
}

void bmap_close(struct bmap *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

/* Hash keys are sparse so that they are not simply bucket numbers. */
__u32 bmap_key(const struct bmap *m, __u32 i)
{
	return bmap_is_array(m->type) ? i : i * 5 + 3;
}

/* Distinct for every key, CPU slot and generation of writes. */
static __u64 value_of(__u32 key, __u32 word, __u32 gen)
{
	return (__u64)gen << 48 | (__u64)word << 32 | key;
}

bool kv_alloc(struct kv_buf *b, __u32 cap, __u32 vwords)
{
	b->cap = cap;
	b->vwords = vwords;
	b->keys = calloc(cap, sizeof(*b->keys));
	b->vals = calloc((size_t)cap * vwords, sizeof(*b->vals));
	return ASSERT_OK_PTR(b->keys, "calloc keys") &&
	       ASSERT_OK_PTR(b->vals, "calloc values");
}

void kv_free(struct kv_buf *b)
{
	free(b->keys);
	free(b->vals);
	b->keys = NULL;
	b->vals = NULL;
}

__u64 *kv_val(const struct kv_buf *b, __u32 i)
{
	return &b->vals[(size_t)i * b->vwords];
}

void kv_fill(struct kv_buf *b, const struct bmap *m, __u32 first,
	     __u32 stride, __u32 n, __u32 gen)
{
	for (__u32 j = 0; j < n; j++) {
		__u32 key = bmap_key(m, first + j * stride);

		b->keys[j] = key;
		for (__u32 w = 0; w < b->vwords; w++)
			kv_val(b, j)[w] = value_of(key, w, gen);
	}
}

void kv_snap_add(struct map_snapshot *s, const struct kv_buf *b, __u32 n)
{
	snap_add_batch(s, b->keys, b->vals, n);
}

int kv_update_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done)
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

int kv_delete_each(int fd, const struct kv_buf *b, __u32 n, __u32 *done)
{
	int err = 0;

	for (*done = 0; *done < n; (*done)++) {
		err = bpf_map_delete_elem(fd, &b->keys[*done]);
		if (err)
			break;
	}
	return err;
}

bool bmap_fill_each(const struct bmap *m, __u32 n)
{
	struct kv_buf b;
	__u32 done;
	bool ok;

	ok = kv_alloc(&b, n, m->vwords);
	if (ok) {
		kv_fill(&b, m, 0, 1, n, 1);
		ok = ASSERT_OK(kv_update_each(m->fd, &b, n, &done),
			       "update_elem");
	}
	kv_free(&b);
	return ok;
}

bool bmap_open_filled(struct bmap *m, enum bpf_map_type type,
		      __u32 max_entries, __u32 n, struct map_snapshot *ref)
{
	return bmap_create(m, type, max_entries) && snap_init(ref, m->vwords) &&
	       bmap_fill_each(m, n) && snap_dump(m->fd, ref);
}

bool twins_open(struct bmap_twins *t, enum bpf_map_type type,
		__u32 max_entries, __u32 fill, __u32 kv_cap)
{
	return bmap_create(&t->a, type, max_entries) &&
	       bmap_create(&t->b, type, max_entries) &&
	       kv_alloc(&t->kv, kv_cap, t->a.vwords) &&
	       (!fill || (bmap_fill_each(&t->a, fill) &&
			  bmap_fill_each(&t->b, fill)));
}

void twins_close(struct bmap_twins *t)
{
	kv_free(&t->kv);
	bmap_close(&t->a);
	bmap_close(&t->b);
}

bool kv_batch_in_chunks(int fd, bool del, const struct kv_buf *b, __u32 n,
			__u32 chunk)
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

bool twins_update(struct bmap_twins *t, __u32 n, __u32 chunk, const char *what)
{
	__u32 done;

	return kv_batch_in_chunks(t->a.fd, false, &t->kv, n, chunk) &&
	       ASSERT_OK(kv_update_each(t->b.fd, &t->kv, n, &done), "update_elem") &&
	       maps_match(t->a.fd, t->b.fd, t->a.vwords, what);
}

bool twins_delete(struct bmap_twins *t, __u32 n, __u32 chunk, const char *what)
{
	__u32 done;

	return kv_batch_in_chunks(t->a.fd, true, &t->kv, n, chunk) &&
	       ASSERT_OK(kv_delete_each(t->b.fd, &t->kv, n, &done), "delete_elem") &&
	       maps_match(t->a.fd, t->b.fd, t->a.vwords, what);
}

int kv_lookup_batch(int fd, bool del, void *in, __u32 *out,
		    struct kv_buf *b, __u32 *count)
{
	if (del)
		return bpf_map_lookup_and_delete_batch(fd, in, out, b->keys,
						       b->vals, count, NULL);
	return bpf_map_lookup_batch(fd, in, out, b->keys, b->vals, count,
				    NULL);
}

/*
 * One lookup (or lookup-and-delete) batch from in.  A hash map returns
 * whole buckets only and fails with -ENOSPC (count 0) when the first
 * bucket it reaches holds more elements than count; as a user must, we
 * then retry the same call with a larger count, doubling it for this call
 * only.  *size is the count asked for by the call that counted.
 */
static int lookup_retrying(int fd, bool del, void *in, __u32 *out,
			   struct kv_buf *b, __u32 *size, __u32 *count,
			   struct walk *w)
{
	int err;

	for (;;) {
		*count = *size;
		err = kv_lookup_batch(fd, del, in, out, b, count);
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

bool walk_map(const struct bmap *m, bool del, __u32 size,
	      struct map_snapshot *s, struct walk *w)
{
	/* Room for more than the map holds, and for the size asked. */
	__u32 cap = m->max_entries + m->max_entries / 2;
	__u32 in, out = 0, count, used;
	void *in_p = NULL;
	struct kv_buf b;
	bool ok = false;
	int err;

	memset(w, 0, sizeof(*w));
	if (!kv_alloc(&b, size > cap ? size : cap, m->vwords))
		goto out;
	for (;;) {
		used = size;
		err = lookup_retrying(m->fd, del, in_p, &out, &b, &used, &count,
				      w);
		if ((err && !ASSERT_EQ(err, -ENOENT, "lookup batch")) ||
		    !ASSERT_LE(count, b.cap, "count"))
			goto out;
		kv_snap_add(s, &b, count);
		walk_account(w, used, count, err);
		if (err)
			break;
		/* Only the last batch may be empty, or this never ends. */
		if (!ASSERT_GT(count, 0, "count of a batch before the end") ||
		    !ASSERT_LE(w->batches, 2 * m->max_entries, "batches"))
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

void walk_print(__u32 size, const struct walk *w)
{
	printf("batch %u: %u calls, %u -ENOSPC retries, last batch %u, out_batch %u\n",
	       size, w->calls, w->enospc, w->last_count, w->token);
}
