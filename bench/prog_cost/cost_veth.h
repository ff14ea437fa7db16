/* SPDX-License-Identifier: GPL-2.0 */
/* XDP programs run for real: attached to a veth pair, sent frames. */
#ifndef BPFCHECK_BENCH_COST_VETH_H
#define BPFCHECK_BENCH_COST_VETH_H

#include <stddef.h>

#include "cost.h"

struct cost_veth;
/*
 * Attach the XDP program prog_fd to one end of a new veth pair in a
 * private network namespace; cost_veth_send() then sends the frames,
 * round-robin, into the other end.  NULL with a reason on failure.
 */
struct cost_veth *cost_veth_open(int prog_fd, const struct cost_inputs *frames,
				 char *err, size_t len);
/* A batch of frames (a cost_trigger_fn): the number sent, or -errno. */
long cost_veth_send(void *veth);
void cost_veth_close(struct cost_veth *v);
/*
 * bpf_stats of the XDP program prog_fd on a veth pair sent the frames;
 * the method is unavailable, with the reason, when the pair cannot be
 * made.  The pair to close at teardown, or NULL.
 */
struct cost_veth *cost_use_veth(struct cost_method *m, int prog_fd,
				const char *prog_name, const struct cost_inputs *frames);

#endif
