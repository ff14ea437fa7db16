// SPDX-License-Identifier: GPL-2.0
/* Whether a run's totals add up (totals.h). */
#include <stdarg.h>
#include <stdio.h>

#include "totals.h"

static void __attribute__((format(printf, 2, 3)))
disagree(struct bench_totals *t, const char *fmt, ...)
{
	va_list ap;

	t->consistent = false;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

/* The BPF side tried per_trigger records for each trigger it ran for. */
static void check_produced(struct bench_totals *t, __u64 per_trigger)
{
	__u64 want = t->triggers * per_trigger, short_by;

	if (t->produced > want) {
		disagree(t, "produced %llu > triggers %llu x %llu per trigger",
			 t->produced, t->triggers, per_trigger);
		return;
	}
	short_by = want - t->produced;
	/* A skipped run produces nothing, any other run all its records. */
	if (short_by % per_trigger) {
		disagree(t, "produced %llu: triggers %llu x %llu per trigger less part of a run",
			 t->produced, t->triggers, per_trigger);
		return;
	}
	t->skipped_triggers = short_by / per_trigger;
	if (t->skipped_triggers > t->missed_runs)
		disagree(t,
			 "produced %llu != triggers %llu x %llu per trigger: %llu runs short, the kernel skipped %llu",
			 t->produced, t->triggers, per_trigger,
			 t->skipped_triggers, t->missed_runs);
}

void bench_totals_check(struct bench_totals *t, __u64 per_trigger)
{
	t->consistent = true;
	t->skipped_triggers = 0;
	t->why[0] = '\0';
	if (!t->bpf_counts)
		return;
	if (t->hits + t->drops != t->produced) {
		disagree(t, "hits %llu + drops %llu != produced %llu",
			 t->hits, t->drops, t->produced);
		return;
	}
	check_produced(t, per_trigger ? per_trigger : 1);
}
