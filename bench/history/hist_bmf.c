// SPDX-License-Identifier: GPL-2.0
/*
 * bench history export and import (hist_bmf.h).  A BMF file holds one
 * report's results, value and value -/+ stddev; the manifest carries
 * what BMF has no room for, so that an import gives back the history.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "hist_add.h"
#include "hist_bmf.h"
#include "hist_db.h"
#include "hist_ingest.h"
#include "json_file.h"
#include "json_reader.h"
#include "json_writer.h"

#define MANIFEST	"manifest.json"
#define FORMAT		"bench-history-export"

struct export_ctx {
	const struct hist_opts *o;
	int64_t report;		/* of the open BMF file */
	int files;
	char bench[512];	/* the open benchmark object */
	FILE *bmf;
	struct json_writer bw, mw;	/* the BMF file, the manifest */
	int failed;
};

static void close_report(struct export_ctx *c)
{
	if (!c->bmf)
		return;
	json_end_object(&c->bw);	/* the benchmark */
	json_end_object(&c->bw);
	fputc('\n', c->bmf);
	if (fclose(c->bmf) || c->bw.error)
		c->failed = 1;
	c->bmf = NULL;
	json_end_object(&c->mw);	/* measures */
	json_end_object(&c->mw);	/* the report */
}

static int open_report(struct export_ctx *c, const struct hdb_result_row *r)
{
	char name[32], path[600], digest[24];

	close_report(c);
	snprintf(name, sizeof(name), "%04d.json", ++c->files);
	snprintf(path, sizeof(path), "%s/%s", c->o->out, name);
	c->bmf = fopen(path, "w");
	if (!c->bmf) {
		fprintf(stderr, "%s: %s: %s\n", HIST_WHO, path, strerror(errno));
		return -1;
	}
	c->report = r->report;
	c->bench[0] = 0;
	json_init(&c->bw, c->bmf);
	json_begin_object(&c->bw);
	snprintf(digest, sizeof(digest), "%s", r->digest);
	json_begin_object(&c->mw);
	json_kv_string(&c->mw, "file", name);
	json_kv_string(&c->mw, "branch", r->branch);
	json_kv_string(&c->mw, "testbed", r->testbed);
	json_kv_string(&c->mw, "commit", r->commit);
	json_kv_int(&c->mw, "time", r->time);
	json_kv_string(&c->mw, "digest", digest);
	json_key(&c->mw, "measures");
	json_begin_object(&c->mw);
	return 0;
}

static int export_row(const struct hdb_result_row *r, void *vctx)
{
	struct export_ctx *c = vctx;

	if ((!c->bmf || r->report != c->report) && open_report(c, r))
		return -1;
	if (strcmp(c->bench, r->benchmark)) {
		if (c->bench[0])
			json_end_object(&c->bw);
		snprintf(c->bench, sizeof(c->bench), "%s", r->benchmark);
		json_key(&c->bw, r->benchmark);
		json_begin_object(&c->bw);
	}
	json_key(&c->bw, r->measure);
	json_begin_object(&c->bw);
	json_key(&c->bw, "value");
	json_double(&c->bw, r->mean);
	json_key(&c->bw, "lower_value");
	json_double(&c->bw, r->mean - r->stddev);
	json_key(&c->bw, "upper_value");
	json_double(&c->bw, r->mean + r->stddev);
	json_end_object(&c->bw);
	json_key(&c->mw, r->measure);
	json_begin_object(&c->mw);
	json_kv_string(&c->mw, "units", r->units);
	json_kv_string(&c->mw, "better", r->higher_is_better ? "higher" : "lower");
	json_end_object(&c->mw);
	return 0;
}

int hist_export(const struct hist_opts *o)
{
	struct export_ctx c = { .o = o };
	char err[512], path[600];
	struct hist_db *db = hdb_open(o->db, false, 0, err, sizeof(err));
	FILE *m;
	int ret;

	if (!db) {
		fprintf(stderr, "%s: %s\n", HIST_WHO, err);
		return BENCH_EXIT_FAIL;
	}
	snprintf(path, sizeof(path), "%s/" MANIFEST, o->out);
	m = mkdir(o->out, 0755) && errno != EEXIST ? NULL : fopen(path, "w");
	if (!m) {
		fprintf(stderr, "%s: %s: %s\n", HIST_WHO, path, strerror(errno));
		hdb_close(db);
		return BENCH_EXIT_FAIL;
	}
	json_init(&c.mw, m);
	json_begin_object(&c.mw);
	json_kv_string(&c.mw, "format", FORMAT);
	json_kv_int(&c.mw, "version", 1);
	json_key(&c.mw, "reports");
	json_begin_array(&c.mw);
	ret = hdb_each_result(db, export_row, &c);
	close_report(&c);
	json_end_array(&c.mw);
	json_end_object(&c.mw);
	fputc('\n', m);
	if (fclose(m) || ret || c.failed || c.mw.error) {
		fprintf(stderr, "%s: exporting to %s failed\n", HIST_WHO, o->out);
		hdb_close(db);
		return BENCH_EXIT_FAIL;
	}
	printf("%s: exported %d report%s to %s (BMF, and %s)\n", HIST_WHO, c.files,
	       c.files == 1 ? "" : "s", o->out, MANIFEST);
	hdb_close(db);
	return 0;
}

static int bad(const char *path, const char *what)
{
	return hist_usage_error("%s: %s", path, what);
}

/* One measure of a BMF file into b, its units from the manifest. */
static int import_measure(const char *path, const char *bench, const struct json_member *mm,
			  const struct json_value *units, struct hist_batch *b)
{
	const struct json_value *u = json_get(units, mm->key);
	const char *un = json_get_string(u, "units"), *better = json_get_string(u, "better");
	struct hist_point *more, *p;
	double lo, hi;

	more = reallocarray(b->points, b->n_points + 1, sizeof(*more));
	if (!more)
		return bad(path, "out of memory");
	b->points = more;
	p = &b->points[b->n_points];
	memset(p, 0, sizeof(*p));
	if (!un || !better || json_get_number(&mm->value, "value", &p->mean))
		return bad(path, "a measure without its value, or without units in the manifest");
	if (!isfinite(p->mean) || p->mean < 0)
		return bad(path, "a value that is not a finite number >= 0");
	if (!json_get_number(&mm->value, "lower_value", &lo) &&
	    !json_get_number(&mm->value, "upper_value", &hi))
		p->stddev = (hi - lo) / 2;
	p->higher_is_better = !strcmp(better, "higher");
	p->n = 1;
	p->benchmark = strdup(bench);
	p->measure = strdup(mm->key);
	p->units = strdup(un);
	b->n_points++;
	return p->benchmark && p->measure && p->units ? 0 : bad(path, "out of memory");
}

static int import_report(const struct hist_opts *o, const struct json_value *r,
			 struct hist_batch *b, struct hist_opts *ro)
{
	const char *file = json_get_string(r, "file"), *digest = json_get_string(r, "digest");
	const struct json_value *units = json_get(r, "measures");
	struct json_value *bmf;
	char path[600], err[512];
	double t;
	int ret = 0;

	*ro = *o;
	ro->branch = json_get_string(r, "branch");
	ro->commit = json_get_string(r, "commit");
	ro->start_point = NULL;
	if (!file || !digest || !ro->branch || !ro->commit || json_get_number(r, "time", &t))
		return bad(o->files[0], "a report without file, digest, branch, commit or time");
	ro->time = t;
	b->digest = strtoull(digest, NULL, 16);
	b->testbeds = calloc(1, sizeof(*b->testbeds));
	if (!b->testbeds)
		return bad(file, "out of memory");
	b->n_testbeds = 1;
	b->testbeds[0] = (struct hist_testbed){ .name = strdup(json_get_string(r, "testbed") ?
								: "unknown"),
						.machine = strdup(""), .kernel = strdup(""),
						.accel = strdup("") };
	snprintf(path, sizeof(path), "%s/%s", o->files[0], file);
	bmf = json_parse_file(path, err, sizeof(err));
	if (!bmf || bmf->type != JSON_OBJECT) {
		json_free(bmf);
		return bad(path, bmf ? "not a BMF object" : err);
	}
	for (size_t i = 0; !ret && i < bmf->object.n; i++) {
		const struct json_member *bm = &bmf->object.members[i];

		for (size_t j = 0; !ret && bm->value.type == JSON_OBJECT &&
		     j < bm->value.object.n; j++)
			ret = import_measure(path, bm->key, &bm->value.object.members[j], units, b);
	}
	json_free(bmf);
	return ret;
}

int hist_import(const struct hist_opts *o)
{
	char err[512], path[600];
	struct json_value *man;
	const struct json_value *reports;
	const char *format;
	struct hist_db *db;
	int ret = 0, added = 0;

	snprintf(path, sizeof(path), "%s/" MANIFEST, o->files[0]);
	man = json_parse_file(path, err, sizeof(err));
	if (!man)
		return hist_usage_error("%s: %s (import takes what export wrote)", path, err);
	format = json_get_string(man, "format");
	reports = json_get(man, "reports");
	if (!format || strcmp(format, FORMAT) || !reports || reports->type != JSON_ARRAY) {
		json_free(man);
		return hist_usage_error("%s: not a manifest of bench history export", path);
	}
	db = hdb_open(o->db, true, o->schema, err, sizeof(err));
	if (!db || hdb_begin(db)) {
		fprintf(stderr, "%s: %s\n", HIST_WHO, db ? hdb_errmsg(db) : err);
		hdb_close(db);
		json_free(man);
		return BENCH_EXIT_FAIL;
	}
	for (size_t i = 0; !ret && i < reports->array.n; i++) {
		struct hist_batch b = {};
		struct hist_opts ro;

		ret = import_report(o, &reports->array.items[i], &b, &ro);
		if (!ret && hist_add_batch(db, &ro, &b, &added))
			ret = -1;
		hist_batch_free(&b);
	}
	if (ret || hdb_commit(db)) {
		fprintf(stderr, "%s: %s: importing failed%s%s; the history is as it was\n",
			HIST_WHO, o->db, ret > 0 ? "" : ": ", ret > 0 ? "" : hdb_errmsg(db));
		hdb_rollback(db);
		ret = ret > 0 ? ret : BENCH_EXIT_FAIL;
	} else {
		printf("%s: imported %d result%s of %zu report%s into %s\n", HIST_WHO, added,
		       added == 1 ? "" : "s", reports->array.n, reports->array.n == 1 ? "" : "s",
		       o->db);
	}
	hdb_close(db);
	json_free(man);
	return ret;
}
