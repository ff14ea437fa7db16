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
#include "producer.h"
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
	producer_config_fill(&skel->rodata->cfg);
	if (producer_load_attach(skel->skeleton, "bench_trig", mode, &trig.link, err,
			      len)) {
		bench_trigger__destroy(skel);
		return -1;
	}
	trig.skel = skel;
	return 0;
}

static int trig_prog_setup(const struct bench_env *env __maybe_unused, char *err,
			   size_t len)
{
	return producer_load(trig_load, err, len);
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

static const struct bench_family trig_prog_family = {
	.header = producer_header,
	.config_name = producer_config_name,
	.json_options = producer_json_options,
	.json_environment = producer_json_environment,
};

static const char *const trig_prog_opts[] = { "attach", NULL };

static const struct bench_ops bench_trig_syscall = {
	.name = "trig-syscall",
	.desc = "baseline: the getpgid trigger alone, no BPF program",
	.hits = BENCH_HITS_TRIGGERS,
};
BENCH_REGISTER(bench_trig_syscall);

static const struct bench_ops bench_trig_prog = {
	.name = "trig-prog",
	.desc = "baseline: the trigger with a program that only filters and counts",
	.opts = trig_prog_opts,
	.family = &trig_prog_family,
	.hits = BENCH_HITS_PRODUCED,
	.setup = trig_prog_setup,
	.counters = trig_counters,
	.missed_runs = producer_missed_runs,
	.teardown = trig_teardown,
};
BENCH_REGISTER(bench_trig_prog);
