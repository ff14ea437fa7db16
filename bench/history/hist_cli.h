/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench history's command line: the subcommand, the database, where a
 * result belongs (project, branch, commit, testbed, time), the threshold
 * model, and its defaults from the git checkout.
 */
#ifndef BPFCHECK_BENCH_HIST_CLI_H
#define BPFCHECK_BENCH_HIST_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "hist_threshold.h"
#include "opt_values.h"

#define HIST_WHO		"bench history"
/*
 * Student's t over up to 64 results, as Bencher's usual model, but at
 * 99.9% rather than 99% and not before 5 results: on a busy machine the
 * run-to-run spread has heavier tails than the t distribution, and 0.99
 * with 2 measures raised a false alarm in each of two sets of 20
 * unchanged runs here (Documentation/history.md).
 */
#define HIST_DEFAULT_MIN_N	5
#define HIST_DEFAULT_MAX_N	64
#define HIST_DEFAULT_PERCENTILE	0.999
/*
 * And the run's own samples: a run alerts only when its one-sided 95%
 * bound (its standard error beyond the window runs') is past the limit
 * too, else it is inconclusive.  A wall-clock run that a busy second
 * pushed past the limit spreads too wide to say (Documentation/history.md).
 * Not Bencher's: --test or a stored threshold gives Bencher's rule.
 */
#define HIST_DEFAULT_CANDIDATE	0.95

enum hist_cmd {
	HIST_ADD,
	HIST_CHECK,
	HIST_REPORT,
	HIST_PLOT,
	HIST_EXPORT,
	HIST_IMPORT,
	HIST_THRESHOLD,
};

struct hist_opts {
	enum hist_cmd cmd;
	const char *db;
	const char *project;
	const char *branch;
	const char *start_point;
	const char *commit;
	const char *testbed;
	const char *measure;	/* threshold: the measure it is for */
	const char *out;	/* plot, export: the directory */
	const char *confirm;	/* check: a rerun's report, to confirm an alert */
	int64_t time;
	int schema;		/* creates an older schema: the migration's tests */
	struct hist_model model;
	bool test_given, lower_given, upper_given;
	bool min_given, max_given, window_given, candidate_given;
	char **files;
	int n_files;
	char branch_buf[256];
	char commit_buf[64];
};

/* 0, -1 when --help was printed, or BENCH_EXIT_USAGE (said on stderr). */
int hist_parse(int argc, char **argv, struct hist_opts *o);
/* A usage error: one line, BENCH_EXIT_USAGE. */
#define hist_usage_error(...) bench_cmd_usage_error(HIST_WHO, __VA_ARGS__)

/* A boundary given for m's test, checked: 0 or BENCH_EXIT_USAGE (said). */
int hist_check_boundary(const char *opt, bool given, const struct hist_model *m, double b);

/*
 * The model for a measure: the command line's choices over the stored
 * threshold (stored may be NULL) over the default (t_test, 0.999 on the
 * side where a change is worse, the run's own bound at 0.95).
 */
void hist_model_for(const struct hist_opts *o, const struct hist_model *stored,
		    bool higher_is_better, struct hist_model *m);

#endif
