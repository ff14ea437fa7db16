// SPDX-License-Identifier: GPL-2.0
/*
 * Reading bench history's store back (hist_db.h): a series' window, a
 * measure's threshold, and every series and result for the report, the
 * plot and the export.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "hist_db.h"

static sqlite3_stmt *prepare(struct hist_db *db, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(hdb_handle(db), sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	return st;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "";
}

int hdb_branch_start(struct hist_db *db, int64_t branch, int64_t *start_branch,
		     int64_t *start_time)
{
	sqlite3_stmt *st = prepare(db, "SELECT ifnull(start_branch_id, 0),\n"
				   " ifnull(start_time, 0) FROM branch WHERE id = ?1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, branch);
	rc = sqlite3_step(st);
	*start_branch = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	*start_time = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * The branch's own results, and its start point branch's up to the start
 * time (a feature branch is checked against its base's history).
 */
int hdb_window(struct hist_db *db, const struct hdb_series *s,
	       struct hdb_value **out, size_t *n)
{
	sqlite3_stmt *st = prepare(db,
		"SELECT r.mean, r.stddev, r.n, p.time, p.commit_sha FROM result r\n"
		" JOIN report p ON p.id = r.report_id\n"
		" WHERE r.benchmark_id = ?1 AND r.measure_id = ?2 AND p.testbed_id = ?3\n"
		" AND (p.branch_id = ?4 OR (p.branch_id = ?5 AND p.time <= ?6))\n"
		" AND p.time >= ?7 ORDER BY p.time DESC, p.id DESC LIMIT ?8");
	struct hdb_value *v = NULL, *more;
	size_t cnt = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->benchmark);
	sqlite3_bind_int64(st, 2, s->measure);
	sqlite3_bind_int64(st, 3, s->testbed);
	sqlite3_bind_int64(st, 4, s->branch);
	sqlite3_bind_int64(st, 5, s->start_branch);
	sqlite3_bind_int64(st, 6, s->start_time);
	sqlite3_bind_int64(st, 7, s->time_min);
	sqlite3_bind_int64(st, 8, s->max_n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		more = reallocarray(v, cnt + 1, sizeof(*v));
		if (!more)
			break;
		v = more;
		v[cnt].mean = sqlite3_column_double(st, 0);
		v[cnt].stddev = sqlite3_column_double(st, 1);
		v[cnt].n = sqlite3_column_int64(st, 2);
		v[cnt].time = sqlite3_column_int64(st, 3);
		snprintf(v[cnt].commit, sizeof(v[cnt].commit), "%s", col_text(st, 4));
		cnt++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static double col_boundary(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int hdb_get_threshold(struct hist_db *db, const char *measure, struct hdb_threshold *t)
{
	sqlite3_stmt *st = prepare(db, "SELECT test, min_sample_size, max_sample_size,\n"
				   " window_sec, lower_boundary, upper_boundary\n"
				   " FROM threshold WHERE measure = ?1");
	int rc;

	memset(t, 0, sizeof(*t));
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, measure, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(t->test, sizeof(t->test), "%s", col_text(st, 0));
		t->min_n = sqlite3_column_int64(st, 1);
		t->max_n = sqlite3_column_int64(st, 2);
		t->window_sec = sqlite3_column_int64(st, 3);
		t->lower = col_boundary(st, 4);
		t->upper = col_boundary(st, 5);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static void bind_boundary(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

int hdb_set_threshold(struct hist_db *db, const char *measure,
		      const struct hdb_threshold *t)
{
	sqlite3_stmt *st = prepare(db, "INSERT OR REPLACE INTO threshold (measure, test,\n"
				   " min_sample_size, max_sample_size, window_sec,\n"
				   " lower_boundary, upper_boundary)\n"
				   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, measure, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->test, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, t->min_n);
	sqlite3_bind_int64(st, 4, t->max_n);
	sqlite3_bind_int64(st, 5, t->window_sec);
	bind_boundary(st, 6, t->lower);
	bind_boundary(st, 7, t->upper);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int hdb_each_series(struct hist_db *db, hdb_series_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare(db,
		"SELECT p.branch_id, p.testbed_id, r.benchmark_id, r.measure_id,\n"
		" br.name, tb.name, bm.name, m.name, m.units, m.higher_is_better, count(*)\n"
		" FROM result r JOIN report p ON p.id = r.report_id\n"
		" JOIN branch br ON br.id = p.branch_id JOIN testbed tb ON tb.id = p.testbed_id\n"
		" JOIN benchmark bm ON bm.id = r.benchmark_id JOIN measure m ON m.id = r.measure_id\n"
		" GROUP BY 1, 2, 3, 4 ORDER BY bm.name, m.name, br.name, tb.name");
	struct hdb_series_row row;
	int rc, ret = 0;

	if (!st)
		return -1;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		row.branch = sqlite3_column_int64(st, 0);
		row.testbed = sqlite3_column_int64(st, 1);
		row.benchmark = sqlite3_column_int64(st, 2);
		row.measure = sqlite3_column_int64(st, 3);
		row.branch_name = col_text(st, 4);
		row.testbed_name = col_text(st, 5);
		row.benchmark_name = col_text(st, 6);
		row.measure_name = col_text(st, 7);
		row.units = col_text(st, 8);
		row.higher_is_better = sqlite3_column_int(st, 9);
		row.count = sqlite3_column_int64(st, 10);
		ret = fn(&row, ctx);
	}
	sqlite3_finalize(st);
	return ret ? ret : rc == SQLITE_DONE ? 0 : -1;
}

int hdb_each_result(struct hist_db *db, hdb_result_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare(db,
		"SELECT p.id, br.name, tb.name, p.commit_sha, p.digest, p.time, bm.name,\n"
		" m.name, m.units, m.higher_is_better, r.mean, r.stddev, r.n\n"
		" FROM result r JOIN report p ON p.id = r.report_id\n"
		" JOIN branch br ON br.id = p.branch_id JOIN testbed tb ON tb.id = p.testbed_id\n"
		" JOIN benchmark bm ON bm.id = r.benchmark_id JOIN measure m ON m.id = r.measure_id\n"
		" ORDER BY p.time, p.id, bm.name, m.name");
	struct hdb_result_row row;
	int rc, ret = 0;

	if (!st)
		return -1;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		row.report = sqlite3_column_int64(st, 0);
		row.branch = col_text(st, 1);
		row.testbed = col_text(st, 2);
		row.commit = col_text(st, 3);
		row.digest = col_text(st, 4);
		row.time = sqlite3_column_int64(st, 5);
		row.benchmark = col_text(st, 6);
		row.measure = col_text(st, 7);
		row.units = col_text(st, 8);
		row.higher_is_better = sqlite3_column_int(st, 9);
		row.mean = sqlite3_column_double(st, 10);
		row.stddev = sqlite3_column_double(st, 11);
		row.n = sqlite3_column_int64(st, 12);
		ret = fn(&row, ctx);
	}
	sqlite3_finalize(st);
	return ret ? ret : rc == SQLITE_DONE ? 0 : -1;
}
