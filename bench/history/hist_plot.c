// SPDX-License-Identifier: GPL-2.0
/*
 * bench history plot: per benchmark and measure, the results over
 * commits, a line per testbed (and branch), each result's boundary
 * limits (what check would have said before it was added) as a band, and
 * the results that breached them marked.  The data and a gnuplot script
 * go to DIR; gnuplot draws an SVG and a PNG, as the sweep's plot does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "hist_db.h"
#include "hist_plot.h"
#include "util.h"

struct row {
	char *branch, *testbed, *commit, *benchmark, *measure, *units;
	bool higher_is_better;
	int64_t time;
	double mean, stddev;
	long n;			/* samples behind the mean */
	bool done;		/* plotted already */
};

struct rows {
	struct row *r;
	size_t n;
};

static const char *const colors[] = {
	"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
};

static int collect(const struct hdb_result_row *in, void *ctx)
{
	struct rows *rs = ctx;
	struct row *more = reallocarray(rs->r, rs->n + 1, sizeof(*more)), *r;

	if (!more)
		return -1;
	rs->r = more;
	r = &rs->r[rs->n++];
	*r = (struct row){ .higher_is_better = in->higher_is_better, .time = in->time,
			   .mean = in->mean, .stddev = in->stddev, .n = in->n };
	r->branch = strdup(in->branch);
	r->testbed = strdup(in->testbed);
	r->commit = strndup(in->commit, 7);
	r->benchmark = strdup(in->benchmark);
	r->measure = strdup(in->measure);
	r->units = strdup(in->units);
	return r->branch && r->testbed && r->commit && r->benchmark && r->measure &&
	       r->units ? 0 : -1;
}

static void free_rows(struct rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];

		free(r->branch);
		free(r->testbed);
		free(r->commit);
		free(r->benchmark);
		free(r->measure);
		free(r->units);
	}
	free(rs->r);
}

static bool same_graph(const struct row *a, const struct row *b)
{
	return !strcmp(a->benchmark, b->benchmark) && !strcmp(a->measure, b->measure) &&
	       !strcmp(a->units, b->units);
}

static bool same_line(const struct row *a, const struct row *b)
{
	return same_graph(a, b) && !strcmp(a->branch, b->branch) &&
	       !strcmp(a->testbed, b->testbed);
}

/* x of a commit: its place among the graph's commits, oldest first. */
static int commit_x(const struct rows *rs, size_t first, const struct row *r)
{
	int x = 0;

	for (size_t i = first; i < rs->n; i++) {
		const struct row *q = &rs->r[i];
		bool seen = false;

		if (!same_graph(q, r))
			continue;
		for (size_t j = first; j < i && !seen; j++)
			seen = same_graph(&rs->r[j], r) && !strcmp(rs->r[j].commit, q->commit);
		if (!strcmp(q->commit, r->commit))
			return x;
		x += !seen;
	}
	return x;
}

/*
 * The model and limits of line's k-th result from the results before it,
 * and the mean squared standard error of their means.
 */
static void limits_before(const struct hist_opts *o, const struct hist_model *stored,
			  const struct row *const *line, size_t k, double *v,
			  struct hist_model *m, struct hist_limits *lim, double *se2)
{
	size_t n = 0;

	*se2 = 0;
	hist_model_for(o, stored, line[k]->higher_is_better, m);
	for (size_t i = k; i-- > 0 && n < (size_t)m->max_n;) {
		if (m->window_sec && line[i]->time < line[k]->time - m->window_sec)
			break;
		v[n++] = line[i]->mean;
		*se2 += hist_run_se2(line[i]->stddev, line[i]->n);
	}
	if (n)
		*se2 /= n;
	lim->lower = lim->upper = NAN;
	if (n < (size_t)m->min_n || hist_limits(m, v, n, lim))
		lim->lower = lim->upper = lim->center = NAN;
}

/* One line's block of the data file; its alerts counted. */
static int write_line(FILE *dat, const struct hist_opts *o, const struct hist_model *stored,
		      const struct rows *rs, size_t first, const struct row *const *line,
		      size_t n, int *alerts)
{
	double *v = malloc((n + 1) * sizeof(*v));

	if (!v)
		return -1;
	for (size_t k = 0; k < n; k++) {
		struct hist_candidate c = { line[k]->mean, line[k]->stddev, line[k]->n };
		struct hist_model m;
		struct hist_limits l;
		enum hist_verdict verdict;
		double lo, hi, se2;

		limits_before(o, stored, line, k, v, &m, &l, &se2);
		verdict = hist_judge(&m, &l, &c, se2).verdict;
		*alerts += verdict == HIST_ALERT;
		lo = isnan(l.lower) ? l.center : l.lower;
		hi = isnan(l.upper) ? l.center : l.upper;
		/* The last column: 0 ok, 1 an alert, 2 inconclusive (hist_verdict). */
		fprintf(dat, "%d %.10g %.10g %.10g %d\n", commit_x(rs, first, line[k]),
			line[k]->mean, lo, hi, verdict);
	}
	fprintf(dat, "\n\n");
	free(v);
	return 0;
}

static void slug(char *buf, size_t len, const struct row *r)
{
	snprintf(buf, len, "%s__%s", r->benchmark, r->measure);
	for (char *c = buf; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '.'))
			*c = '_';
}

static void gp_commit_tics(FILE *gp, const struct rows *rs, size_t first)
{
	int last = -1, x, n = commit_x(rs, first, &(struct row){
		.benchmark = rs->r[first].benchmark, .measure = rs->r[first].measure,
		.units = rs->r[first].units, .commit = "" });
	int step = n > 40 ? (n + 39) / 40 : 1;

	fprintf(gp, "set xtics rotate by -45 (");
	for (size_t i = first; i < rs->n; i++) {
		if (!same_graph(&rs->r[i], &rs->r[first]))
			continue;
		x = commit_x(rs, first, &rs->r[i]);
		if (x > last && x % step == 0)
			fprintf(gp, "%s\"%s\" %d", last < 0 ? "" : ", ", rs->r[i].commit, x);
		last = x > last ? x : last;
	}
	fprintf(gp, ")\n");
}

static void gp_body(FILE *gp, const struct rows *rs, size_t first, const char *dat,
		    const char *const *titles, size_t lines, const struct hist_model *m)
{
	const struct row *r = &rs->r[first];

	fprintf(gp, "reset\nset datafile missing 'NaN'\nset grid lc rgb '#d0d0d0'\n");
	fprintf(gp, "set key below Left reverse vertical maxrows 3\n");
	fprintf(gp, "set bmargin 9\nset rmargin 8\n");
	fprintf(gp,
		"set title \"%s: %s (%s, %s is worse), limits by %s over the results before each\" noenhanced\n",
		r->benchmark, r->measure, r->units, r->higher_is_better ? "lower" : "higher",
		hist_test_name(m->test));
	fprintf(gp, "set ylabel '%s' noenhanced\nset xlabel 'commit'\n", r->units);
	gp_commit_tics(gp, rs, first);
	fprintf(gp, "plot \\\n");
	for (size_t i = 0; i < lines; i++) {
		const char *c = colors[i % ARRAY_SIZE(colors)];

		fprintf(gp,
			"  '%s' index %zu using 1:3:4 with filledcurves fc rgb '%s' fs transparent solid 0.18 noborder title \"%s: boundary limits\" noenhanced, \\\n",
			dat, i, c, titles[i]);
		fprintf(gp,
			"  '%s' index %zu using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' title \"%s\" noenhanced, \\\n",
			dat, i, c, titles[i]);
		fprintf(gp,
			"  '%s' index %zu using 1:($5 == 1 ? $2 : NaN) with points pt 6 ps 2.5 lw 2 lc rgb '#d62728' title \"%s: alert\" noenhanced, \\\n",
			dat, i, titles[i]);
		fprintf(gp,
			"  '%s' index %zu using 1:($5 == 2 ? $2 : NaN) with points pt 4 ps 2 lw 1 lc rgb '#ff7f0e' title \"%s: inconclusive\" noenhanced%s\n",
			dat, i, titles[i], i + 1 < lines ? ", \\" : "");
	}
}

/* gnuplot's warnings (a line with no limits yet) go to LOG, not the terminal. */
static int run_gnuplot(const char *script, const char *log)
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		fprintf(stderr, "%s: gnuplot: %s (make deps installs it)\n", "bench history",
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* The graph of rs->r[first]'s benchmark and measure: DIR/SLUG.{dat,gp,svg,png}. */
static int plot_graph(const struct hist_opts *o, struct hist_db *db, struct rows *rs,
		      size_t first)
{
	const struct row **line = calloc(rs->n, sizeof(*line));
	char base[512], name[256], path[600], datpath[600], *titles[64];
	struct hdb_threshold t;
	struct hist_model stored, *sp = NULL;
	size_t lines = 0;
	int alerts = 0, ret = 0;
	FILE *dat, *gp;

	slug(name, sizeof(name), &rs->r[first]);
	snprintf(base, sizeof(base), "%s/%s", o->out, name);
	snprintf(datpath, sizeof(datpath), "%s.dat", base);
	snprintf(path, sizeof(path), "%s", datpath);
	dat = fopen(path, "w");
	if (!dat || !line) {
		free(line);
		if (dat)
			fclose(dat);
		fprintf(stderr, "%s: %s: %s\n", HIST_WHO, path, strerror(errno));
		return BENCH_EXIT_FAIL;
	}
	if (!hdb_get_threshold(db, rs->r[first].measure, &t) && t.test[0] &&
	    !hist_test_parse(t.test, &stored.test)) {
		stored = (struct hist_model){ .test = stored.test, .min_n = t.min_n,
					      .max_n = t.max_n, .window_sec = t.window_sec,
					      .lower = t.lower, .upper = t.upper };
		sp = &stored;
	}
	/* More lines than this in one graph would not be read anyway. */
	for (size_t i = first; i < rs->n && lines < 64; i++) {
		size_t n = 0;

		if (rs->r[i].done || !same_graph(&rs->r[i], &rs->r[first]))
			continue;
		for (size_t j = i; j < rs->n; j++)
			if (same_line(&rs->r[j], &rs->r[i])) {
				line[n++] = &rs->r[j];
				rs->r[j].done = true;
			}
		if (asprintf(&titles[lines], "%s (%s)", rs->r[i].testbed, rs->r[i].branch) < 0) {
			titles[lines] = NULL;
			ret = -1;
			break;
		}
		lines++;
		if (write_line(dat, o, sp, rs, first, line, n, &alerts))
			ret = -1;
	}
	if (fclose(dat))
		ret = -1;
	snprintf(path, sizeof(path), "%s.gp", base);
	gp = fopen(path, "w");
	if (gp) {
		struct hist_model m;

		hist_model_for(o, sp, rs->r[first].higher_is_better, &m);
		fprintf(gp, "set terminal svg size 1200,700 dynamic enhanced font 'sans,11'\n");
		fprintf(gp, "set output '%s.svg'\n", base);
		gp_body(gp, rs, first, datpath, (const char *const *)titles, lines, &m);
		fprintf(gp, "set terminal pngcairo size 1200,700 enhanced font 'sans,10'\n");
		fprintf(gp, "set output '%s.png'\n", base);
		gp_body(gp, rs, first, datpath, (const char *const *)titles, lines, &m);
		if (fclose(gp))
			ret = -1;
	}
	for (size_t i = 0; i < lines; i++)
		free(titles[i]);
	free(line);
	snprintf(datpath, sizeof(datpath), "%s.log", base);
	if (ret || !gp || run_gnuplot(path, datpath)) {
		fprintf(stderr, "%s: plotting %s failed (see %s; the script is %s)\n",
			HIST_WHO, name, datpath, path);
		return BENCH_EXIT_FAIL;
	}
	printf("%s: wrote %s.svg and %s.png (%zu line%s, %d alert%s)\n", HIST_WHO, base, base,
	       lines, lines == 1 ? "" : "s", alerts, alerts == 1 ? "" : "s");
	return 0;
}

int hist_plot(const struct hist_opts *o)
{
	char err[512];
	struct hist_db *db = hdb_open(o->db, false, 0, err, sizeof(err));
	struct rows rs = {};
	int ret = 0;

	if (!db) {
		fprintf(stderr, "%s: %s\n", HIST_WHO, err);
		return BENCH_EXIT_FAIL;
	}
	if (mkdir(o->out, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: --out '%s': %s\n", HIST_WHO, o->out, strerror(errno));
		hdb_close(db);
		return BENCH_EXIT_FAIL;
	}
	if (hdb_each_result(db, collect, &rs)) {
		fprintf(stderr, "%s: %s: reading: %s\n", HIST_WHO, o->db, hdb_errmsg(db));
		ret = BENCH_EXIT_FAIL;
	}
	for (size_t i = 0; !ret && i < rs.n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = same_graph(&rs.r[j], &rs.r[i]);
		if (!seen)
			ret = plot_graph(o, db, &rs, i);
	}
	if (!ret && !rs.n)
		printf("%s: %s holds no results: nothing to plot\n", HIST_WHO, o->db);
	free_rows(&rs);
	hdb_close(db);
	return ret;
}
