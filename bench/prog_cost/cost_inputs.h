/* SPDX-License-Identifier: GPL-2.0 */
/* The inputs of a test run: generated frames or --data-in files. */
#ifndef BPFCHECK_BENCH_COST_INPUTS_H
#define BPFCHECK_BENCH_COST_INPUTS_H

#include <linux/types.h>
#include <stddef.h>

#include "cost.h"

/* n frames of len bytes of pseudo-random content (same seed, same frames). */
int cost_inputs_random(struct cost_inputs *in, int n, size_t len, __u32 seed);
/* One UDP/IPv4 frame from saddr (host order) to 10.0.0.2 with 4 bytes of payload. */
int cost_inputs_add_udp4(struct cost_inputs *in, __u32 saddr);
/* The --data-in files, or one UDP/IPv4 frame when none is given. */
int cost_inputs_from_files(struct cost_inputs *in, const struct cost_args *args,
			   char *err, size_t len);
void cost_inputs_free(struct cost_inputs *in);

#endif
