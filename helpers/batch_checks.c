// SPDX-License-Identifier: GPL-2.0
/* The checks of a batch walk (batch_checks.h). */
#include <errno.h>

#include "batch_checks.h"
#include "test_progs.h"

/* After the call that returned -ENOENT, the next one finds nothing. */
void check_past_end(const struct bmap *m, bool del, __u32 token)
{
	struct kv_buf b;
	__u32 count = 7, out = token;
	int err;

	if (!kv_alloc(&b, count, m->vwords))
		goto out;
	err = kv_lookup_batch(m->fd, del, &token, &out, &b, &count);
	ASSERT_EQ(err, -ENOENT, "batch after the end");
	ASSERT_EQ(count, 0, "count after the end");
out:
	kv_free(&b);
}

/* What the number and sizes of batches must be for a map of n entries. */
void check_walk_shape(const struct bmap *m, __u32 size, __u32 n,
		      const struct walk *w, const struct map_snapshot *s)
{
	ASSERT_EQ(w->total, n, "sum of counts");
	ASSERT_EQ(w->oversize, 0, "batches above the size asked");
	ASSERT_EQ(s->dups + s->strays, 0, "keys returned twice or stray");
	if (bmap_is_array(m->type)) {
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
