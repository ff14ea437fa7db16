// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines, so the cost of moving events can be found by subtraction:
 * trig-syscall makes the trigger syscall with no program attached;
 * trig-prog attaches a program that only filters and counts, the part
 * every producer program shares.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_trigger.skel.h"

static struct {
	struct bench_trigger *skel;
	struct bpf_link *link;
} trig;

static int trig_load(enum bench_attach mode, char *err, size_t len)
{
	struct bench_trigger *skel = bench_trigger__open();

	if (!skel)
		return bench_err(err, len, "opening the BPF object: %s",
				 errname(errno));
	bench_config_fill(&skel->rodata->cfg);
	if (bench_load_attach(skel->skeleton, "bench_trig", mode, &trig.link, err,
			      len)) {
		bench_trigger__destroy(skel);
		return -1;
	}
	trig.skel = skel;
	return 0;
}

static int trig_prog_setup(char *err, size_t len)
{
	return bench_load_producer(trig_load, err, len);
}

static const struct bench_cpu_counters *trig_counters(void)
{
	return trig.skel->bss->counters;
}

static void trig_teardown(void)
{
	bpf_link__destroy(trig.link);
	trig.link = NULL;
	bench_trigger__destroy(trig.skel);
	trig.skel = NULL;
}

static const struct bench_ops bench_trig_syscall = {
	.name = "trig-syscall",
	.desc = "baseline: the getpgid trigger alone, no BPF program",
	.accepts = BENCH_OPTS_PRODUCERS,
	.hits = BENCH_HITS_TRIGGERS,
};
BENCH_REGISTER(bench_trig_syscall);

static const struct bench_ops bench_trig_prog = {
	.name = "trig-prog",
	.desc = "baseline: the trigger with a program that only filters and counts",
	.accepts = BENCH_OPTS_PRODUCERS | BENCH_OPT_ATTACH,
	.hits = BENCH_HITS_PRODUCED,
	.setup = trig_prog_setup,
	.counters = trig_counters,
	.teardown = trig_teardown,
};
BENCH_REGISTER(bench_trig_prog);
