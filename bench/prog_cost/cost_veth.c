// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf_stats method for XDP programs: the program attached to a veth
 * pair in a private network namespace (lib/xdp_veth.h), and each trigger
 * a batch of the inputs sent into the pair, round-robin.  The program
 * runs once per frame sent, which the report checks as runs == triggers.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "cost_methods.h"
#include "cost_veth.h"
#include "xdp_veth.h"

#define XDP_DEV		"cost-xdp"
#define PEER_DEV	"cost-peer"
/* Frames per sendmmsg(): well below the veth's 256-entry ring. */
#define SEND_BATCH	32

struct cost_veth {
	struct xdp_veth veth;
	const struct cost_inputs *frames;
	int next;			/* frame to send next */
	struct iovec iov[SEND_BATCH];
};

/* "creating a veth pair: EOPNOTSUPP: <the kernel's message>" */
static int veth_err(const struct xdp_veth *v, char *err, size_t len)
{
	const struct xdp_veth_error *e = &v->error;

	return bench_err(err, len, "%s: %s%s%s", e->step, errname(e->err),
			 *e->detail ? ": " : "", e->detail);
}

struct cost_veth *cost_veth_open(int prog_fd, const struct cost_inputs *frames,
				 char *err, size_t len)
{
	struct cost_veth *cv = calloc(1, sizeof(*cv));

	if (!cv) {
		bench_err(err, len, "out of memory");
		return NULL;
	}
	cv->frames = frames;
	if (xdp_veth_open(&cv->veth, XDP_DEV, PEER_DEV)) {
		veth_err(&cv->veth, err, len);
		free(cv);
		return NULL;
	}
	if (xdp_veth_attach(&cv->veth, prog_fd)) {
		veth_err(&cv->veth, err, len);
		cost_veth_close(cv);
		return NULL;
	}
	return cv;
}

long cost_veth_send(void *ctx)
{
	struct cost_veth *cv = ctx;
	const struct cost_inputs *f = cv->frames;
	int sent;

	for (int i = 0; i < SEND_BATCH; i++) {
		const struct cost_input *in = &f->in[(cv->next + i) % f->n];

		cv->iov[i].iov_base = in->data;
		cv->iov[i].iov_len = in->len;
	}
	sent = xdp_veth_send_batch(&cv->veth, cv->iov, SEND_BATCH);
	if (sent < 0)
		return sent;
	cv->next = (cv->next + sent) % f->n;
	return sent;
}

void cost_veth_close(struct cost_veth *cv)
{
	if (!cv)
		return;
	xdp_veth_close(&cv->veth);
	free(cv);
}

struct cost_veth *cost_use_veth(struct cost_method *m, int prog_fd,
				const char *prog_name, const struct cost_inputs *frames)
{
	struct cost_veth *cv = cost_veth_open(prog_fd, frames, m->reason,
					      sizeof(m->reason));

	if (!cv) {
		m->available = false;
		return NULL;
	}
	cost_use_bpf_stats(m, prog_fd, prog_name, cost_veth_send, cv);
	snprintf(m->how, sizeof(m->how), "xdp program %s attached to a veth (%s mode) %s",
		 prog_name, xdp_veth_mode_name(cv->veth.mode),
		 "in a private network namespace, the inputs sent through its peer");
	return cv;
}
