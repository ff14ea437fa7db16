// SPDX-License-Identifier: GPL-2.0
/*
 * The rows a report adds to bench history's store (hist_db.h): the ids of
 * its project, branch, testbed, benchmarks and measures, made when asked
 * to; the report; its results.  The caller holds the write transaction
 * (hdb_begin()); opening and the schema are hist_db.c's.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "hist_db.h"

static sqlite3_stmt *prepare(struct hist_db *db, const char *sql)
{
	sqlite3_stmt *st;

	return sqlite3_prepare_v2(hdb_handle(db), sql, -1, &st, NULL) == SQLITE_OK ? st : NULL;
}

/* The first column of the query's first row; 0 when no row, -1 on error. */
static int64_t step_id(sqlite3_stmt *st)
{
	int rc;
	int64_t id;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return id;
}

/* Run an INSERT: its rowid, or -1. */
static int64_t step_insert(struct hist_db *db, sqlite3_stmt *st)
{
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(hdb_handle(db)) : -1;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (st)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

static void bind_int(sqlite3_stmt *st, int i, int64_t v)
{
	if (st)
		sqlite3_bind_int64(st, i, v);
}

/*
 * The id of the row named name in project, in one of the tables keyed by
 * (project_id, name) (branch, testbed, benchmark); 0 when none, -1 on error.
 */
static int64_t find_named(struct hist_db *db, const char *table, int64_t project,
			  const char *name)
{
	char sql[96];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT id FROM %s WHERE project_id = ?1 AND name = ?2",
		 table);
	st = prepare(db, sql);
	bind_int(st, 1, project);
	bind_text(st, 2, name);
	return step_id(st);
}

int64_t hdb_project(struct hist_db *db, const char *name, bool create)
{
	sqlite3_stmt *st = prepare(db, "SELECT id FROM project WHERE name = ?1");
	int64_t id;

	bind_text(st, 1, name);
	id = step_id(st);
	if (id || !create)
		return id;
	st = prepare(db, "INSERT INTO project (name) VALUES (?1)");
	bind_text(st, 1, name);
	return step_insert(db, st);
}

int64_t hdb_branch(struct hist_db *db, int64_t project, const char *name,
		   bool create, int64_t start_branch, int64_t start_time)
{
	int64_t id = find_named(db, "branch", project, name);
	sqlite3_stmt *st;

	if (id || !create)
		return id;
	st = prepare(db, "INSERT INTO branch (project_id, name, start_branch_id, start_time)\n"
		     " VALUES (?1, ?2, nullif(?3, 0), ?4)");
	bind_int(st, 1, project);
	bind_text(st, 2, name);
	bind_int(st, 3, start_branch);
	bind_int(st, 4, start_time);
	return step_insert(db, st);
}

int64_t hdb_testbed(struct hist_db *db, int64_t project,
		    const struct hist_testbed *tb, bool create)
{
	int64_t id = find_named(db, "testbed", project, tb->name);
	sqlite3_stmt *st;

	if (id || !create)
		return id;
	st = prepare(db, "INSERT INTO testbed (project_id, name, machine, kernel, accel, icount)\n"
		     " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	bind_int(st, 1, project);
	bind_text(st, 2, tb->name);
	bind_text(st, 3, tb->machine);
	bind_text(st, 4, tb->kernel);
	bind_text(st, 5, tb->accel);
	bind_int(st, 6, tb->icount);
	return step_insert(db, st);
}

int64_t hdb_benchmark(struct hist_db *db, int64_t project, const char *name,
		      bool create)
{
	int64_t id = find_named(db, "benchmark", project, name);
	sqlite3_stmt *st;

	if (id || !create)
		return id;
	st = prepare(db, "INSERT INTO benchmark (project_id, name) VALUES (?1, ?2)");
	bind_int(st, 1, project);
	bind_text(st, 2, name);
	return step_insert(db, st);
}

int64_t hdb_measure(struct hist_db *db, int64_t project, const char *name,
		    const char *units, bool higher_is_better, bool create)
{
	sqlite3_stmt *st = prepare(db, "SELECT id FROM measure WHERE project_id = ?1\n"
				   " AND name = ?2 AND units = ?3");
	int64_t id;

	bind_int(st, 1, project);
	bind_text(st, 2, name);
	bind_text(st, 3, units);
	id = step_id(st);
	if (id || !create)
		return id;
	st = prepare(db, "INSERT INTO measure (project_id, name, units, higher_is_better)\n"
		     " VALUES (?1, ?2, ?3, ?4)");
	bind_int(st, 1, project);
	bind_text(st, 2, name);
	bind_text(st, 3, units);
	bind_int(st, 4, higher_is_better);
	return step_insert(db, st);
}

int64_t hdb_add_report(struct hist_db *db, int64_t branch, int64_t testbed,
		       const char *commit, int64_t time, const char *digest)
{
	sqlite3_stmt *st = prepare(db, "SELECT id FROM report WHERE branch_id = ?1\n"
				   " AND testbed_id = ?2 AND commit_sha = ?3 AND digest = ?4");
	int64_t id;

	bind_int(st, 1, branch);
	bind_int(st, 2, testbed);
	bind_text(st, 3, commit);
	bind_text(st, 4, digest);
	id = step_id(st);
	if (id)
		return id < 0 ? -1 : 0;
	st = prepare(db, "INSERT INTO report (branch_id, testbed_id, commit_sha, time, digest)\n"
		     " VALUES (?1, ?2, ?3, ?4, ?5)");
	bind_int(st, 1, branch);
	bind_int(st, 2, testbed);
	bind_text(st, 3, commit);
	bind_int(st, 4, time);
	bind_text(st, 5, digest);
	return step_insert(db, st);
}

int hdb_add_result(struct hist_db *db, int64_t report, int64_t benchmark,
		   int64_t measure, const struct hist_point *p)
{
	sqlite3_stmt *st = prepare(db, "INSERT INTO result (report_id, benchmark_id,\n"
				   " measure_id, mean, stddev, n) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");

	bind_int(st, 1, report);
	bind_int(st, 2, benchmark);
	bind_int(st, 3, measure);
	if (st) {
		sqlite3_bind_double(st, 4, p->mean);
		sqlite3_bind_double(st, 5, p->stddev);
	}
	bind_int(st, 6, p->n);
	return step_insert(db, st) < 0 ? -1 : 0;
}
