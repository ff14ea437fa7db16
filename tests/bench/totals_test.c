// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/totals.c: when a run's totals add up.  Each case is
 * a run's totals as the bench collects them and the verdict they must
 * get.  Runs the kernel skipped (recursion_misses) excuse exactly the
 * triggers that produced nothing, never more, never part of a batch.
 * Prints "ok N - what" / "not ok N - what" and "totals-test: P passed,
 * F failed"; exits non-zero on a failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "totals.h"
#include "util.h"

static int n_checks, n_failed;

struct totals_case {
	const char *what;
	__u64 triggers, produced, hits, drops, missed;
	__u64 per_trigger;
	bool consistent;
	__u64 skipped;		/* the skipped_triggers expected */
	const char *why;	/* a part of the reason expected, or NULL */
};

static const struct totals_case cases[] = {
	{ "nothing skipped, every record consumed",
	  1000, 500000, 500000, 0, 0, 500, true, 0, NULL },
	{ "nothing skipped, consumed and dropped add up",
	  1000, 500000, 300000, 200000, 0, 500, true, 0, NULL },
	{ "hits + drops short of produced",
	  1000, 500000, 300000, 199999, 0, 500, false, 0,
	  "hits 300000 + drops 199999 != produced 500000" },
	{ "hits + drops beyond produced",
	  1000, 500000, 300001, 200000, 0, 500, false, 0, "!= produced 500000" },
	/* The 7.2 two-producer case: short by whole runs, all of them skipped. */
	{ "runs short and as many skipped: consistent",
	  693070, 632451, 632451, 0, 60619, 1, true, 60619, NULL },
	{ "batch 500, 3 runs short, 3 skipped",
	  1000, 498500, 400000, 98500, 3, 500, true, 3, NULL },
	/* raw_tp: every syscall's run can be skipped, not only the bench's. */
	{ "more runs skipped than triggers short (other syscalls)",
	  1000, 498500, 498500, 0, 40, 500, true, 3, NULL },
	{ "runs short and none skipped",
	  693070, 632451, 632451, 0, 0, 1, false, 60619,
	  "60619 runs short, the kernel skipped 0" },
	{ "more runs short than skipped",
	  1000, 498000, 498000, 0, 3, 500, false, 4,
	  "4 runs short, the kernel skipped 3" },
	{ "short by part of a batch, though runs were skipped",
	  1000, 499999, 499999, 0, 10, 500, false, 0, "less part of a run" },
	{ "produced more than the triggers ask for",
	  1000, 500001, 500001, 0, 0, 500, false, 0, "produced 500001 > triggers 1000" },
	{ "--b2b consumer triggers counted with the producers'",
	  7, 3500, 3500, 0, 0, 500, true, 0, NULL },
};

static void check(const char *what, bool ok, const char *detail)
{
	n_checks++;
	if (!ok)
		n_failed++;
	printf("%sok %d - %s", ok ? "" : "not ", n_checks, what);
	if (!ok && detail)
		printf(": %s", detail);
	printf("\n");
}

static void run_case(const struct totals_case *c)
{
	struct bench_totals t = {
		.triggers = c->triggers, .produced = c->produced, .hits = c->hits,
		.drops = c->drops, .missed_runs = c->missed, .bpf_counts = true,
	};
	char what[160], detail[400];

	bench_totals_check(&t, c->per_trigger);
	snprintf(what, sizeof(what), "%s: %s", c->what,
		 c->consistent ? "consistent" : "counters disagree");
	snprintf(detail, sizeof(detail), "consistent %d, why '%s'", t.consistent, t.why);
	check(what, t.consistent == c->consistent, detail);
	snprintf(what, sizeof(what), "%s: %llu triggers skipped", c->what, c->skipped);
	snprintf(detail, sizeof(detail), "got %llu", t.skipped_triggers);
	check(what, t.skipped_triggers == c->skipped, detail);
	if (c->why) {
		snprintf(what, sizeof(what), "%s: the reason says '%s'", c->what, c->why);
		check(what, strstr(t.why, c->why) != NULL, t.why);
	} else {
		snprintf(what, sizeof(what), "%s: no reason", c->what);
		check(what, t.why[0] == '\0', t.why);
	}
}

/* Without BPF counters (trig-syscall) nothing is compared. */
static void check_no_bpf_counts(void)
{
	struct bench_totals t = { .triggers = 10, .hits = 10, .consistent = false };

	bench_totals_check(&t, 1);
	check("no BPF counters: consistent, nothing skipped",
	      t.consistent && !t.skipped_triggers && !t.why[0], t.why);
}

/* A result left from before must not survive a check. */
static void check_reused(void)
{
	struct bench_totals t = {
		.triggers = 10, .produced = 9, .hits = 9, .bpf_counts = true,
	};

	bench_totals_check(&t, 1);
	t.produced = t.hits = 10;
	bench_totals_check(&t, 1);
	check("checked again once they add up: consistent, no reason left",
	      t.consistent && !t.skipped_triggers && !t.why[0], t.why);
}

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	check_no_bpf_counts();
	check_reused();
	printf("totals-test: %d passed, %d failed\n", n_checks - n_failed, n_failed);
	return n_failed ? 1 : 0;
}
