// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-fizzbuzz: the XDP FizzBuzzFibonacci classifier
 * (progs/fizzbuzz_*.bpf.c), the table lookup that fixed it (lookup) or
 * the per-packet Fibonacci loop that caused the production regression
 * (loop), or the lookup with one more bounds check (lookup-bounds: a few
 * instructions more, the candidate of the instruction-count gate under
 * vmtest --icount).  The inputs are UDP/IPv4 frames from every last octet under
 * three prefixes: every class appears, and so do the loop's worst cases,
 * last octets 233 (the 14th Fibonacci term) and 255 (no term, 14 steps).
 *
 * Both variants push the class of a classified frame to a queue map that
 * nothing drains here.  The queue is filled before measuring, so every
 * push takes the same path (the queue is full, the push fails and is
 * counted), as it does when userspace falls behind: the two variants
 * then differ only in the Fibonacci check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cost_inputs.h"
#include "cost_methods.h"
#include "cost_veth.h"
#include "prog_cost.h"
#include "fizzbuzz_loop.skel.h"
#include "fizzbuzz_lookup.skel.h"
#include "fizzbuzz_bounds.skel.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;

static const char *const variants[] = { "lookup", "loop", "lookup-bounds", NULL };
/* 10.0.0.0/24, 192.168.1.0/24, 203.0.113.0/24 */
static const __u32 prefixes[] = { 0x0a000000, 0xc0a80100, 0xcb007100 };

static struct {
	struct fizzbuzz_loop *loop;
	struct fizzbuzz_lookup *lookup;
	struct fizzbuzz_bounds *bounds;
	struct cost_veth *veth;
} fizzbuzz_bench;

static void fizzbuzz_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/octets", r->env->name);
}

static int build_frames(struct cost_inputs *in)
{
	for (size_t p = 0; p < ARRAY_SIZE(prefixes); p++)
		for (__u32 d = 0; d < 256; d++)
			if (cost_inputs_add_udp4(in, prefixes[p] | d))
				return -ENOMEM;
	snprintf(in->what, sizeof(in->what),
		 "%d UDP/IPv4 frames from every last octet of 10.0.0.0/24, 192.168.1.0/24, 203.0.113.0/24",
		 in->n);
	return 0;
}

/* Push until the queue refuses: from then on every push fails alike. */
static int fill_queue(int queue_fd)
{
	__u32 class = 0;
	int err;

	while (!(err = bpf_map_update_elem(queue_fd, NULL, &class, 0)))
		;
	return err == -E2BIG ? 0 : err;
}

static int load(struct bpf_program **prog, struct bpf_map **queue)
{
	if (!strcmp(args->variant, "loop")) {
		fizzbuzz_bench.loop = fizzbuzz_loop__open_and_load();
		if (!fizzbuzz_bench.loop)
			return -errno;
		*prog = fizzbuzz_bench.loop->progs.fizzbuzz_loop;
		*queue = fizzbuzz_bench.loop->maps.classes;
		return 0;
	}
	if (!strcmp(args->variant, "lookup-bounds")) {
		fizzbuzz_bench.bounds = fizzbuzz_bounds__open_and_load();
		if (!fizzbuzz_bench.bounds)
			return -errno;
		*prog = fizzbuzz_bench.bounds->progs.fizzbuzz_bounds;
		*queue = fizzbuzz_bench.bounds->maps.classes;
		return 0;
	}
	fizzbuzz_bench.lookup = fizzbuzz_lookup__open_and_load();
	if (!fizzbuzz_bench.lookup)
		return -errno;
	*prog = fizzbuzz_bench.lookup->progs.fizzbuzz_lookup;
	*queue = fizzbuzz_bench.lookup->maps.classes;
	return 0;
}

static int fizzbuzz_setup(struct cost_run *r, char *err, size_t len)
{
	struct bpf_program *prog;
	struct bpf_map *queue;
	int ret;

	args = r->args;
	ret = load(&prog, &queue);
	if (ret)
		return cost_setup_failed(err, len, "loading fizzbuzz_%s: %s",
					 args->variant, errname(ret));
	ret = fill_queue(bpf_map__fd(queue));
	if (ret)
		return cost_setup_failed(err, len, "filling the classes queue: %s",
					 errname(ret));
	if (build_frames(r->inputs))
		return cost_setup_failed(err, len, "out of memory");
	cost_use_test_run(&r->m[COST_TEST_RUN], bpf_program__fd(prog),
			  bpf_program__name(prog), r->inputs);
	fizzbuzz_bench.veth = cost_use_veth(&r->m[COST_BPF_STATS], bpf_program__fd(prog),
				bpf_program__name(prog), r->inputs);
	return 0;
}

static void fizzbuzz_teardown(void)
{
	cost_veth_close(fizzbuzz_bench.veth);
	fizzbuzz_loop__destroy(fizzbuzz_bench.loop);
	fizzbuzz_lookup__destroy(fizzbuzz_bench.lookup);
	fizzbuzz_bounds__destroy(fizzbuzz_bench.bounds);
	memset(&fizzbuzz_bench, 0, sizeof(fizzbuzz_bench));
}

static const struct cost_ops fizzbuzz_cost = {
	.variants = variants,
	.config_name = fizzbuzz_config,
	.setup = fizzbuzz_setup,
	.teardown = fizzbuzz_teardown,
};

static const struct bench_ops bench_cost_fizzbuzz = {
	.name = "prog-cost-fizzbuzz",
	.desc =
		"XDP FizzBuzzFibonacci classifier, --variant lookup, loop (slower) or lookup-bounds",
	.opts = (const char *const[]){ "variant", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &fizzbuzz_cost,
};
BENCH_REGISTER(bench_cost_fizzbuzz);
