// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-map-batch: what userspace pays per element to read, write or
 * delete --keys N elements (default 10000) of a hash map, one element per
 * syscall (elem) or with the batch operations (batch).  No BPF program
 * runs: the cost is timed in userspace around the whole pass, in ns per
 * element.  Each pass is checked to have touched every element; delete
 * passes refill the map (not timed) for the next one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "clock.h"
#include "cost_methods.h"
#include "prog_cost.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;

static const char *const variants[] = { "elem", "batch", NULL };
static const char *const ops[] = { "lookup", "update", "delete", NULL };

static struct {
	int map_fd;
	__u32 *keys;
	__u64 *vals;
	__u32 *out_keys;	/* what a lookup batch returns */
	__u64 *out_vals;
} maps = { .map_fd = -1 };

static void map_batch_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/keys%u", r->env->name, r->args->op, r->args->keys);
}

static int fill(void)
{
	__u32 count = args->keys;
	int ret = bpf_map_update_batch(maps.map_fd, maps.keys, maps.vals, &count, NULL);

	return ret ? ret : count == args->keys ? 0 : -EIO;
}

/* Every element through the batch lookup; 0 when all came back. */
static int lookup_batch(void)
{
	__u32 batch, count, total = 0;
	void *in = NULL;
	int ret;

	do {
		count = args->keys - total;
		ret = bpf_map_lookup_batch(maps.map_fd, in, &batch, maps.out_keys + total,
					   maps.out_vals + total, &count, NULL);
		total += count;
		in = &batch;
	} while (!ret && total < args->keys);
	/* The end of the map is ENOENT, with the last elements in count. */
	if (ret && ret != -ENOENT)
		return ret;
	return total == args->keys ? 0 : -EIO;
}

static int batch_op(void)
{
	__u32 count = args->keys;
	int ret;

	if (!strcmp(args->op, "lookup"))
		return lookup_batch();
	if (!strcmp(args->op, "update"))
		ret = bpf_map_update_batch(maps.map_fd, maps.keys, maps.vals, &count, NULL);
	else
		ret = bpf_map_delete_batch(maps.map_fd, maps.keys, &count, NULL);
	return ret ? ret : count == args->keys ? 0 : -EIO;
}

static int elem_op(void)
{
	__u64 v;
	int ret = 0;

	for (__u32 i = 0; i < args->keys && !ret; i++) {
		if (!strcmp(args->op, "lookup"))
			ret = bpf_map_lookup_elem(maps.map_fd, &maps.keys[i], &v);
		else if (!strcmp(args->op, "update"))
			ret = bpf_map_update_elem(maps.map_fd, &maps.keys[i], &maps.vals[i],
						  BPF_ANY);
		else
			ret = bpf_map_delete_elem(maps.map_fd, &maps.keys[i]);
	}
	return ret;
}

static int userspace_sample(struct cost_method *m __maybe_unused, __u64 budget_ns,
			    struct cost_sample *s, char *err, size_t len)
{
	bool batch = !strcmp(args->variant, "batch");
	__u64 start = now_ns(), t0;
	int ret;

	do {
		t0 = now_ns();
		ret = batch ? batch_op() : elem_op();
		s->ns += now_ns() - t0;
		s->runs += args->keys;
		if (!ret && !strcmp(args->op, "delete"))
			ret = fill();
		if (ret)
			return bench_err(err, len, "%s %s over %u elements: %s", args->variant,
					 args->op, args->keys, errname(ret));
	} while (now_ns() - start < budget_ns && !bench_signal());
	return 0;
}

static int map_batch_setup(struct cost_run *r, char *err, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_ZERO_SEED);
	struct cost_method *m = &r->m[COST_USERSPACE];
	int ret;

	args = r->args;
	maps.keys = calloc(args->keys, sizeof(*maps.keys));
	maps.vals = calloc(args->keys, sizeof(*maps.vals));
	maps.out_keys = calloc(args->keys, sizeof(*maps.out_keys));
	maps.out_vals = calloc(args->keys, sizeof(*maps.out_vals));
	if (!maps.keys || !maps.vals || !maps.out_keys || !maps.out_vals)
		return cost_setup_failed(err, len, "out of memory");
	for (__u32 i = 0; i < args->keys; i++) {
		maps.keys[i] = i;
		maps.vals[i] = (__u64)i << 32 | i;
	}
	/* Seed 0: the same buckets on every boot (see bench_cost_bloom.bpf.c). */
	maps.map_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "cost_batch", sizeof(__u32),
				   sizeof(__u64), args->keys, &opts);
	if (maps.map_fd < 0)
		return cost_setup_failed(err, len, "creating a hash map of %u elements: %s",
					 args->keys, errname(maps.map_fd));
	ret = fill();
	if (ret)
		return cost_setup_failed(err, len, "filling the map: %s",
					 errname(ret));
	snprintf(r->inputs->what, sizeof(r->inputs->what), "%u elements", args->keys);
	m->available = true;
	m->sample = userspace_sample;
	snprintf(m->how, sizeof(m->how),
		 "%s of %u hash map elements (u32 keys, u64 values) %s, timed in userspace",
		 args->op, args->keys,
		 !strcmp(args->variant, "batch") ? "by BPF_MAP_*_BATCH" :
		 "one element per syscall");
	return 0;
}

static void map_batch_teardown(void)
{
	if (maps.map_fd >= 0)
		close(maps.map_fd);
	free(maps.keys);
	free(maps.vals);
	free(maps.out_keys);
	free(maps.out_vals);
	memset(&maps, 0, sizeof(maps));
	maps.map_fd = -1;
}

static const struct cost_ops map_batch_cost = {
	.variants = variants,
	.ops = ops,
	.default_keys = 10000,
	.config_name = map_batch_config,
	.setup = map_batch_setup,
	.teardown = map_batch_teardown,
};

static const struct bench_ops bench_cost_map_batch = {
	.name = "prog-cost-map-batch",
	.desc =
		"userspace map access, --variant elem (one per syscall) or batch, --op lookup|update|delete, --keys N",
	.opts = (const char *const[]){ "variant", "keys", "op", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &map_batch_cost,
};
BENCH_REGISTER(bench_cost_map_batch);
