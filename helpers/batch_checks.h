/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks prog_tests/map_batch.c makes after a walk over a map with
 * lookup (or lookup-and-delete) batches (batch_maps.h's walk_map()): the
 * end stays the end, and the number and sizes of the batches are what
 * the map's kind promises.  They assert (test API).
 */
#ifndef BPFCHECK_BATCH_CHECKS_H
#define BPFCHECK_BATCH_CHECKS_H

#include <stdbool.h>
#include <linux/types.h>

#include "batch_maps.h"
#include "map_snapshot.h"

/* After the call that returned -ENOENT (out_batch token), the next one finds nothing. */
void check_past_end(const struct bmap *m, bool del, __u32 token);
/*
 * What the number and sizes of batches of size must be for a map of n
 * entries, w the walk and s what it returned.
 */
void check_walk_shape(const struct bmap *m, __u32 size, __u32 n,
		      const struct walk *w, const struct map_snapshot *s);

#endif
