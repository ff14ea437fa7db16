/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench history's store: one SQLite file in Bencher's model (project,
 * branch with its start point, testbed, benchmark, measure, report,
 * result, per-measure threshold), its schema versioned by PRAGMA
 * user_version and migrated forward, marked as ours by PRAGMA
 * application_id.  A file that is not ours, or corrupt, is refused and
 * left as it is.  WAL and a busy timeout let several writers take turns.
 */
#ifndef BPFCHECK_BENCH_HIST_DB_H
#define BPFCHECK_BENCH_HIST_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist_point.h"

#define HIST_SCHEMA_VERSION	2
/* "bpfh" */
#define HIST_APPLICATION_ID	0x62706668

struct hist_db;

/*
 * Open path; create it (and its schema) only if create and the file does
 * not exist or is empty.  schema: the version to create (tests of the
 * migration), 0 for the current one.  NULL with a one-line reason.
 */
struct hist_db *hdb_open(const char *path, bool create, int schema, char *err,
			 size_t len);
void hdb_close(struct hist_db *db);
const char *hdb_errmsg(struct hist_db *db);
/* For the queries of hist_query.c. */
struct sqlite3 *hdb_handle(struct hist_db *db);

/* The write transaction: taken at once, so that writers queue. */
int hdb_begin(struct hist_db *db);
int hdb_commit(struct hist_db *db);
void hdb_rollback(struct hist_db *db);

/* ---- hist_rows.c: the rows a report adds ---- */

/* Ids of named rows: 0 when missing (and not created), -1 on error. */
int64_t hdb_project(struct hist_db *db, const char *name, bool create);
int64_t hdb_branch(struct hist_db *db, int64_t project, const char *name,
		   bool create, int64_t start_branch, int64_t start_time);
int64_t hdb_testbed(struct hist_db *db, int64_t project,
		    const struct hist_testbed *tb, bool create);
int64_t hdb_benchmark(struct hist_db *db, int64_t project, const char *name,
		      bool create);
int64_t hdb_measure(struct hist_db *db, int64_t project, const char *name,
		    const char *units, bool higher_is_better, bool create);

/*
 * A report: its id, or 0 when this branch and testbed already hold the
 * run of that commit with that digest (adding it again changes nothing).
 */
int64_t hdb_add_report(struct hist_db *db, int64_t branch, int64_t testbed,
		       const char *commit, int64_t time, const char *digest);
int hdb_add_result(struct hist_db *db, int64_t report, int64_t benchmark,
		   int64_t measure, const struct hist_point *p);

/* Where a window's values come from. */
struct hdb_series {
	int64_t branch, start_branch, start_time;
	int64_t testbed, benchmark, measure;
	const char *measure_name;	/* its stored threshold */
	int64_t time_min;	/* oldest time counted */
	long max_n;
};

struct hdb_value {
	double mean, stddev;
	long n;
	int64_t time;
	char commit[48];
};

/* ---- hist_query.c: reading the history back ---- */

/* A branch's start point: the branch and the time up to which it counts. */
int hdb_branch_start(struct hist_db *db, int64_t branch, int64_t *start_branch,
		     int64_t *start_time);

/* The newest max_n values of s, newest first, in *out (malloc'd). */
int hdb_window(struct hist_db *db, const struct hdb_series *s,
	       struct hdb_value **out, size_t *n);

/* A stored threshold of the measures of a name (test "" when none). */
struct hdb_threshold {
	char test[16];
	long min_n, max_n;
	int64_t window_sec;
	double lower, upper;	/* NaN: no such boundary */
};

int hdb_get_threshold(struct hist_db *db, const char *measure, struct hdb_threshold *t);
int hdb_set_threshold(struct hist_db *db, const char *measure,
		      const struct hdb_threshold *t);

/* One row of the series list: every branch x testbed x benchmark x measure. */
struct hdb_series_row {
	int64_t branch, testbed, benchmark, measure;
	const char *branch_name, *testbed_name, *benchmark_name;
	const char *measure_name, *units;
	bool higher_is_better;
	long count;
};

typedef int (*hdb_series_fn)(const struct hdb_series_row *row, void *ctx);
int hdb_each_series(struct hist_db *db, hdb_series_fn fn, void *ctx);

/* Every report of a branch x testbed, oldest first, with its results. */
struct hdb_result_row {
	int64_t report;
	const char *branch, *testbed, *commit, *digest;
	int64_t time;
	const char *benchmark, *measure, *units;
	bool higher_is_better;
	double mean, stddev;
	long n;
};

typedef int (*hdb_result_fn)(const struct hdb_result_row *row, void *ctx);
int hdb_each_result(struct hist_db *db, hdb_result_fn fn, void *ctx);

#endif
