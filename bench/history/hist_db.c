// SPDX-License-Identifier: GPL-2.0
/*
 * bench history's SQLite store (hist_db.h).  Every write happens in one
 * transaction taken with BEGIN IMMEDIATE, so a second writer waits on the
 * busy timeout instead of failing half-way, and a failure (a full disk)
 * rolls back to the history as it was.  Here: opening, the schema and its
 * migrations, the transaction; the rows a report adds are hist_rows.c's,
 * reading them back hist_query.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "hist_db.h"

/* Long enough for a CI job's whole add behind another's. */
#define BUSY_TIMEOUT_MS	60000

struct hist_db {
	sqlite3 *db;
};

/* Schema steps: migrations[v] takes version v to v + 1. */
static const char *const migrations[HIST_SCHEMA_VERSION] = {
	"CREATE TABLE project (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE branch (id INTEGER PRIMARY KEY,\n"
	" project_id INTEGER NOT NULL REFERENCES project(id), name TEXT NOT NULL,\n"
	" start_branch_id INTEGER REFERENCES branch(id), start_time INTEGER,\n"
	" UNIQUE (project_id, name));"
	"CREATE TABLE testbed (id INTEGER PRIMARY KEY,\n"
	" project_id INTEGER NOT NULL REFERENCES project(id), name TEXT NOT NULL,\n"
	" machine TEXT, kernel TEXT, accel TEXT, icount INTEGER NOT NULL,\n"
	" UNIQUE (project_id, name));"
	"CREATE TABLE benchmark (id INTEGER PRIMARY KEY,\n"
	" project_id INTEGER NOT NULL REFERENCES project(id), name TEXT NOT NULL,\n"
	" UNIQUE (project_id, name));"
	"CREATE TABLE measure (id INTEGER PRIMARY KEY,\n"
	" project_id INTEGER NOT NULL REFERENCES project(id), name TEXT NOT NULL,\n"
	" units TEXT NOT NULL, higher_is_better INTEGER NOT NULL,\n"
	" UNIQUE (project_id, name, units));"
	"CREATE TABLE report (id INTEGER PRIMARY KEY,\n"
	" branch_id INTEGER NOT NULL REFERENCES branch(id),\n"
	" testbed_id INTEGER NOT NULL REFERENCES testbed(id),\n"
	" commit_sha TEXT NOT NULL, time INTEGER NOT NULL, digest TEXT NOT NULL,\n"
	" UNIQUE (branch_id, testbed_id, commit_sha, digest));"
	"CREATE TABLE result (id INTEGER PRIMARY KEY,\n"
	" report_id INTEGER NOT NULL REFERENCES report(id),\n"
	" benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),\n"
	" measure_id INTEGER NOT NULL REFERENCES measure(id),\n"
	" mean REAL NOT NULL, stddev REAL NOT NULL, n INTEGER NOT NULL,\n"
	" UNIQUE (report_id, benchmark_id, measure_id));"
	"CREATE INDEX result_series ON result (benchmark_id, measure_id);",
	/* 2: a measure's own threshold (Bencher's threshold model). */
	"CREATE TABLE threshold (id INTEGER PRIMARY KEY, measure TEXT NOT NULL UNIQUE,\n"
	" test TEXT NOT NULL, min_sample_size INTEGER NOT NULL,\n"
	" max_sample_size INTEGER NOT NULL, window_sec INTEGER NOT NULL,\n"
	" lower_boundary REAL, upper_boundary REAL);",
};

const char *hdb_errmsg(struct hist_db *db)
{
	return sqlite3_errmsg(db->db);
}

struct sqlite3 *hdb_handle(struct hist_db *db)
{
	return db->db;
}

static int exec(struct hist_db *db, const char *sql)
{
	return sqlite3_exec(db->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/*
 * exec, again while SQLite says busy, up to the busy timeout.  The busy
 * handler does not cover every case two writers meet: switching a new
 * file to WAL, or a WAL file another connection is still setting up,
 * answer SQLITE_BUSY at once.  Only for statements that start from no
 * transaction, so that running them again is safe.
 */
static int exec_busy(struct hist_db *db, const char *sql)
{
	for (int waited_ms = 0;; waited_ms += 20) {
		if (!exec(db, sql))
			return 0;
		if ((sqlite3_errcode(db->db) & 0xff) != SQLITE_BUSY ||
		    waited_ms >= BUSY_TIMEOUT_MS)
			return -1;
		hdb_rollback(db);
		usleep(20 * 1000);
	}
}

static int pragma_int(struct hist_db *db, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int hdb_begin(struct hist_db *db)
{
	return exec_busy(db, "BEGIN IMMEDIATE");
}

int hdb_commit(struct hist_db *db)
{
	return exec(db, "COMMIT");
}

void hdb_rollback(struct hist_db *db)
{
	if (!sqlite3_get_autocommit(db->db))
		sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

/* "SQLite format 3\0": anything else is not a database of ours to touch. */
static int check_header(const char *path, bool *empty, char *err, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	got = read(fd, head, sizeof(head));
	close(fd);
	*empty = got == 0;
	if (got == 0 || (got == sizeof(head) && !memcmp(head, magic, sizeof(magic))))
		return 0;
	snprintf(err, len,
		 "%s: not an SQLite database (no 'SQLite format 3' header); refusing to touch it",
		 path);
	return -1;
}

/* Bring the schema from version have to want, in the open transaction. */
static int migrate(struct hist_db *db, int64_t have, int want, char *err, size_t len)
{
	char sql[64];

	for (int64_t v = have; v < want; v++)
		if (exec(db, migrations[v])) {
			snprintf(err, len, "migrating the schema to version %lld: %s",
				 (long long)v + 1, hdb_errmsg(db));
			return -1;
		}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", want);
	if (have < want && exec(db, sql)) {
		snprintf(err, len, "setting the schema version: %s", hdb_errmsg(db));
		return -1;
	}
	return 0;
}

/* Ours, current or migrated; a new or blank file gets the schema. */
static int adopt(struct hist_db *db, const char *path, int schema,
		 bool write, char *err, size_t len)
{
	int64_t app, ver, tables;
	char sql[64];

	if (pragma_int(db, "PRAGMA application_id", &app) ||
	    pragma_int(db, "PRAGMA user_version", &ver) ||
	    pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables)) {
		snprintf(err, len, "%s: %s; refusing to touch it", path, hdb_errmsg(db));
		return -1;
	}
	/*
	 * A blank SQLite file (no application_id, no tables) holds nothing to
	 * lose: it is what a second writer sees while the first one, which
	 * created the file, has not committed the schema yet.
	 */
	if (app != HIST_APPLICATION_ID && (tables || app)) {
		snprintf(err, len,
			 "%s: an SQLite database of something else (application_id %#llx, %lld tables), not a bench history; refusing to touch it",
			 path, (unsigned long long)app, (long long)tables);
		return -1;
	}
	if (ver > HIST_SCHEMA_VERSION) {
		snprintf(err, len,
			 "%s: history schema version %lld, this bench knows up to %d; use a newer bench",
			 path, (long long)ver, HIST_SCHEMA_VERSION);
		return -1;
	}
	if (!write)
		return 0;
	if (app != HIST_APPLICATION_ID) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", HIST_APPLICATION_ID);
		if (exec(db, sql)) {
			snprintf(err, len, "%s: %s", path, hdb_errmsg(db));
			return -1;
		}
	}
	return migrate(db, ver, app != HIST_APPLICATION_ID && schema ? schema :
		       HIST_SCHEMA_VERSION, err, len);
}

/* PRAGMA quick_check says "ok", or the first problem it found. */
static bool intact(struct hist_db *db, char *why, size_t len)
{
	const unsigned char *said = NULL;
	sqlite3_stmt *st;
	bool ok;

	snprintf(why, len, "%s", hdb_errmsg(db));
	if (sqlite3_prepare_v2(db->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK) {
		snprintf(why, len, "%s", hdb_errmsg(db));
		return false;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		said = sqlite3_column_text(st, 0);
	snprintf(why, len, "%s", said ? (const char *)said : hdb_errmsg(db));
	ok = said && !strcmp((const char *)said, "ok");
	for (char *c = why; *c; c++)	/* one line */
		if (*c == '\n')
			*c = ' ';
	sqlite3_finalize(st);
	return ok;
}

/* Whatever fails once the file is known to be ours leaves it as it was. */
static int cannot(struct hist_db *db, const char *path, char *err, size_t len)
{
	snprintf(err, len, "%s: %s; the history is as it was", path, hdb_errmsg(db));
	hdb_rollback(db);
	return -1;
}

/* Refuse what is corrupt or not ours before writing anything to it. */
static int setup(struct hist_db *db, const char *path, bool fresh, int schema,
		 char *err, size_t len)
{
	char why[128];
	int ret;

	sqlite3_busy_timeout(db->db, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(db->db, 1);
	if (!fresh && !intact(db, why, sizeof(why))) {
		snprintf(err, len, "%s: corrupt (%s); refusing to touch it", path, why);
		return -1;
	}
	/*
	 * One read transaction: application_id, user_version and the tables
	 * from one moment.  Read one by one, a writer creating the file could
	 * commit in between, and its tables without the id look like another
	 * program's database.
	 */
	if (exec(db, "BEGIN"))
		return cannot(db, path, err, len);
	ret = adopt(db, path, schema, false, err, len);
	hdb_rollback(db);
	if (ret)
		return -1;
	if (exec_busy(db, "PRAGMA journal_mode = WAL") || exec(db, "PRAGMA foreign_keys = ON") ||
	    hdb_begin(db))
		return cannot(db, path, err, len);
	if (adopt(db, path, schema, true, err, len)) {
		hdb_rollback(db);
		return -1;
	}
	if (hdb_commit(db))
		return cannot(db, path, err, len);
	return 0;
}

struct hist_db *hdb_open(const char *path, bool create, int schema, char *err,
			 size_t len)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	bool exists = !access(path, F_OK), empty = false;
	struct hist_db *db;

	if (exists && check_header(path, &empty, err, len))
		return NULL;
	if (!exists && !create) {
		snprintf(err, len, "%s: no such history (bench history add creates it)", path);
		return NULL;
	}
	if (!exists)
		flags |= SQLITE_OPEN_CREATE;
	db = calloc(1, sizeof(*db));
	if (!db) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &db->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", path, db->db ? hdb_errmsg(db) : "cannot open");
		hdb_close(db);
		return NULL;
	}
	if (setup(db, path, !exists || empty, schema, err, len)) {
		hdb_close(db);
		return NULL;
	}
	return db;
}

void hdb_close(struct hist_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->db);
	free(db);
}
