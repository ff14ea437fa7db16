// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost inputs: the data a test run hands the program and the frames
 * the veth method sends: built frames, pseudo-random words, or the
 * user's --data-in files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/if_ether.h>

#include "cost_inputs.h"
#include "frames.h"

/* A test-run input can be at most a page (XDP: less its headroom). */
#define MAX_INPUT_LEN	4096
#define DST_ADDR	0x0a000002	/* 10.0.0.2 */
#define DEFAULT_SRC	0x0a000001	/* 10.0.0.1 */

static const unsigned char dst_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xc0, 2 };
static const unsigned char src_mac[ETH_ALEN] = { 2, 0, 0, 0, 0xc0, 1 };

static struct cost_input *next_input(struct cost_inputs *in, size_t len)
{
	struct cost_input *i;

	if (in->n == COST_MAX_INPUTS)
		return NULL;
	i = &in->in[in->n];
	i->data = calloc(1, len);
	if (!i->data)
		return NULL;
	i->len = len;
	in->n++;
	return i;
}

/* xorshift32: the same frames on every run and every machine. */
static __u32 next_random(__u32 *state)
{
	__u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

int cost_inputs_random(struct cost_inputs *in, int n, size_t len, __u32 seed)
{
	__u32 state = seed ? seed : 1;

	for (int k = 0; k < n; k++) {
		struct cost_input *i = next_input(in, len);

		if (!i)
			return -ENOMEM;
		for (size_t b = 0; b < len; b++)
			((unsigned char *)i->data)[b] = next_random(&state);
	}
	return 0;
}

int cost_inputs_add_udp4(struct cost_inputs *in, __u32 saddr)
{
	static const char payload[4] = "cost";
	struct cost_input *i = next_input(in, ETH_HLEN + FRAME_L3_MAX + sizeof(payload));
	size_t n;

	if (!i)
		return -ENOMEM;
	n = frame_put_eth(i->data, dst_mac, src_mac, ETH_P_IP);
	n += frame_put_ipv4_udp((char *)i->data + n, saddr, DST_ADDR, 4, 5, payload,
				sizeof(payload));
	/* The shortest Ethernet frame: what a real wire would carry. */
	i->len = n < ETH_ZLEN ? ETH_ZLEN : n;
	return 0;
}

static int read_input(struct cost_inputs *in, const char *path, char *err,
		      size_t len)
{
	struct cost_input *i;
	struct stat st;
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return bench_err(err, len, "--data-in '%s': %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    st.st_size > MAX_INPUT_LEN) {
		bench_err(err, len,
			  "--data-in '%s': expected a regular file of 1 to %d bytes",
			  path, MAX_INPUT_LEN);
		goto out;
	}
	i = next_input(in, st.st_size);
	if (!i) {
		bench_err(err, len, "out of memory");
		goto out;
	}
	if (fread(i->data, 1, i->len, f) != i->len) {
		bench_err(err, len, "--data-in '%s': read error", path);
		goto out;
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

int cost_inputs_from_files(struct cost_inputs *in, const struct cost_args *args,
			   char *err, size_t len)
{
	if (!args->n_data_in) {
		snprintf(in->what, sizeof(in->what),
			 "one 64-byte UDP/IPv4 frame, 10.0.0.1 to 10.0.0.2");
		return cost_inputs_add_udp4(in, DEFAULT_SRC) ?
		       bench_err(err, len, "out of memory") : 0;
	}
	for (int k = 0; k < args->n_data_in; k++)
		if (read_input(in, args->data_in[k], err, len))
			return -1;
	snprintf(in->what, sizeof(in->what), "%d --data-in file%s", args->n_data_in,
		 args->n_data_in == 1 ? "" : "s");
	return 0;
}

void cost_inputs_free(struct cost_inputs *in)
{
	for (int k = 0; k < in->n; k++)
		free(in->in[k].data);
	in->n = 0;
}
