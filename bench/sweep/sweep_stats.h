/* SPDX-License-Identifier: GPL-2.0 */
/* The statistics and the table of a ring buffer vs queue sweep's runs. */
#ifndef BPFCHECK_BENCH_SWEEP_STATS_H
#define BPFCHECK_BENCH_SWEEP_STATS_H

/* A configuration and run, as the run's file names them. */
struct sweep_key {
	char variant[64];
	char mode[16];		/* "-" for a baseline */
	char producers[16];
	char batch[16];		/* "-" for a baseline */
	char run[16];
};

/* What the table reads of one run's bench --json report. */
struct sweep_run {
	struct sweep_key key;
	double hits;		/* summary.hits_per_sec.mean */
	double hits_stddev;	/* its per-second stddev */
	double drops;		/* summary.drops_per_sec.mean */
	double other;		/* other and steal CPUs, mean */
	double wakeups;		/* consumer wake-ups/s, 0 when none */
};

/*
 * Pool the runs of each configuration (in order of first appearance),
 * print the table and its notes on stdout, and the CSV to csv_path when
 * given.  guard (CPUs, as the user wrote them; NULL or 0: none): first a
 * note when other processes used that many or more during a
 * configuration.  0, or BENCH_EXIT_FAIL when the CSV cannot be written.
 */
int sweep_stats_print(const struct sweep_run *runs, int n, const char *csv_path,
		      const char *guard);

#endif
