// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-bloom: COST_BLOOM_PROBES hash map lookups per run, bare
 * (plain) or behind a bloom filter holding the same keys (bloom), with
 * --keys N keys in the maps and --hit-pct P percent of the probed keys
 * present (progs/bench_cost_bloom.bpf.c).  A filter pays off when most
 * probes miss: it answers "absent" without touching the hash map.
 *
 * Keys are a fixed bijection of 0, 1, 2, ...: those of the first N
 * numbers are in the maps, those of the numbers after are certainly not,
 * so a probe set with an exact share of hits needs no searching.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cost_inputs.h"
#include "cost_methods.h"
#include "cost_veth.h"
#include "prog_cost.h"
#include "bench_cost.h"
#include "bench_cost_bloom.skel.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;

static const char *const variants[] = { "plain", "bloom", NULL };

static struct {
	struct bench_cost_bloom *skel;
	struct cost_veth *veth;
} loaded;

static void bloom_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/keys%u/hit%u", r->env->name, r->args->keys, r->args->hit_pct);
}

/* A bijection of 32-bit numbers (odd multiplier, xor): distinct keys. */
static __u32 key_of(__u32 i)
{
	return (i * 2654435761u) ^ 0x5bd1e995u;
}

static int fill_maps(char *err, size_t len)
{
	int table = bpf_map__fd(loaded.skel->maps.table);
	int bloom = bpf_map__fd(loaded.skel->maps.bloom);
	__u32 *keys = calloc(args->keys, sizeof(*keys)), count = args->keys;
	int ret = 0;

	if (!keys)
		return cost_setup_failed(err, len, "out of memory");
	for (__u32 i = 0; i < args->keys; i++)
		keys[i] = key_of(i);
	/* The values are the keys themselves; only presence matters. */
	ret = bpf_map_update_batch(table, keys, keys, &count, NULL);
	for (__u32 i = 0; !ret && i < args->keys; i++)
		ret = bpf_map_update_elem(bloom, NULL, &keys[i], BPF_ANY);
	free(keys);
	if (ret)
		return cost_setup_failed(err, len, "filling the maps with %u keys: %s",
					 args->keys, errname(ret));
	return 0;
}

/* hits present keys spread over the maps, the rest absent, shuffled. */
static __u32 pick_probes(void)
{
	__u32 hits = (COST_BLOOM_PROBES * args->hit_pct + 50) / 100, state = 7;
	__u32 *probe = loaded.skel->bss->probe_keys;

	for (__u32 j = 0; j < COST_BLOOM_PROBES; j++)
		probe[j] = j < hits ? key_of((__u64)j * args->keys / COST_BLOOM_PROBES) :
			   key_of(args->keys + j);
	for (__u32 j = COST_BLOOM_PROBES - 1; j > 0; j--) {
		__u32 k, tmp;

		state ^= state << 13;
		state ^= state >> 17;
		state ^= state << 5;
		k = state % (j + 1);
		tmp = probe[j];
		probe[j] = probe[k];
		probe[k] = tmp;
	}
	return hits;
}

static int load(char *err, size_t len)
{
	struct bench_cost_bloom *s = bench_cost_bloom__open();
	bool bloom = !strcmp(args->variant, "bloom");
	int ret;

	if (!s)
		return cost_setup_failed(err, len, "opening bench_cost_bloom: %s",
					 errname(errno));
	loaded.skel = s;
	bpf_program__set_autoload(s->progs.lookup_plain, !bloom);
	bpf_program__set_autoload(s->progs.lookup_bloom, bloom);
	ret = bpf_map__set_max_entries(s->maps.table, args->keys);
	if (!ret)
		ret = bpf_map__set_max_entries(s->maps.bloom, args->keys);
	if (!ret)
		ret = bench_cost_bloom__load(s);
	if (ret)
		return cost_setup_failed(err, len, "loading bench_cost_bloom: %s",
					 errname(ret));
	return 0;
}

static int bloom_setup(struct cost_run *r, char *err, size_t len)
{
	struct bpf_program *prog;
	__u32 hits;
	int ret;

	args = r->args;
	ret = load(err, len);
	if (!ret)
		ret = fill_maps(err, len);
	if (ret)
		return ret;
	prog = !strcmp(args->variant, "bloom") ? loaded.skel->progs.lookup_bloom :
	       loaded.skel->progs.lookup_plain;
	hits = pick_probes();
	if (cost_inputs_random(r->inputs, 1, 64, 1))
		return cost_setup_failed(err, len, "out of memory");
	snprintf(r->inputs->what, sizeof(r->inputs->what),
		 "%d lookups per run, %u of them of keys present, %u keys in the maps",
		 COST_BLOOM_PROBES,
		 hits, args->keys);
	cost_use_test_run(&r->m[COST_TEST_RUN], bpf_program__fd(prog),
			  bpf_program__name(prog), r->inputs);
	/* cost_use_test_run ran the program once: a filter loses no key. */
	if (r->m[COST_TEST_RUN].available && loaded.skel->bss->found != hits)
		return cost_setup_failed(err, len, "%s found %llu of the %u keys present",
					 bpf_program__name(prog),
					 (unsigned long long)loaded.skel->bss->found, hits);
	loaded.veth = cost_use_veth(&r->m[COST_BPF_STATS], bpf_program__fd(prog),
				bpf_program__name(prog), r->inputs);
	return 0;
}

static void bloom_teardown(void)
{
	cost_veth_close(loaded.veth);
	bench_cost_bloom__destroy(loaded.skel);
	memset(&loaded, 0, sizeof(loaded));
}

static const struct cost_ops bloom_cost = {
	.variants = variants,
	.default_keys = 10000,
	.config_name = bloom_config,
	.setup = bloom_setup,
	.teardown = bloom_teardown,
};

static const struct bench_ops bench_cost_bloom = {
	.name = "prog-cost-bloom",
	.desc =
		"32 hash lookups per run, --variant plain or bloom (a bloom filter first), --keys N, --hit-pct P",
	.opts = (const char *const[]){ "variant", "keys", "hit-pct", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &bloom_cost,
};
BENCH_REGISTER(bench_cost_bloom);
