// SPDX-License-Identifier: GPL-2.0
/* bench history's command line (hist_cli.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist_cli.h"
#include "options.h"

static const char usage_text[] =
"Usage: bench history add    --db FILE [WHERE] REPORT...\n"
"       bench history check  --db FILE [WHERE] [MODEL] [--confirm RERUN] REPORT...\n"
"       bench history report --db FILE [MODEL]\n"
"       bench history plot   --db FILE --out DIR [MODEL]\n"
"       bench history export --db FILE --out DIR\n"
"       bench history import --db FILE DIR\n"
"       bench history threshold --db FILE --measure NAME [MODEL]\n"
"\n"
"Keeps every result of every benchmark in one SQLite file, per branch and\n"
"testbed, and checks a new report against a window of past results with\n"
"Bencher's threshold tests.  REPORT: bench --json (a run or an array of\n"
"runs), BMF (bench --bmf; needs --testbed) or vmtest --bench --json (a\n"
"testbed per kernel).  Adding the run of a commit again adds nothing.\n"
"check reads the window before the report is added and adds nothing.\n"
"\n"
"WHERE:\n"
"  --project NAME      (default: default)\n"
"  --branch NAME       (default: the git checkout's branch)\n"
"  --start-point NAME  a new branch's base: its history counts up to now\n"
"  --commit SHA        (default: the git checkout's HEAD)\n"
"  --testbed NAME      (default: from the report: machine, CPUs, kernel;\n"
"                      vmtest: vm-ACCEL[-icount]-KERNEL, prefixed by NAME-)\n"
"  --time EPOCH        the report's time (default: now)\n"
"MODEL (check, report, plot, threshold; over a measure's stored threshold):\n"
"  --test T            static, percentage, z_score, t_test or iqr (default t_test)\n"
"  --lower-boundary B  --upper-boundary B   static: the limit; percentage: a\n"
"                      fraction (0.05); z_score, t_test: a percentile (0.5-1);\n"
"                      iqr: a multiple of the IQR.  Default: the side where a\n"
"                      change is worse, 0.999 (percentage 0.05, iqr 1.5)\n"
"  --min-sample-size N fewer results in the window: no check (default 5)\n"
"  --max-sample-size N the newest N results (default 64)\n"
"  --window SEC        only results this recent (default: any age)\n"
"  --candidate-confidence C  a run past a limit alerts only when its own\n"
"                      one-sided bound at C (0.5-1) is past it too, else it\n"
"                      is inconclusive (exit 0); the bound counts the run's\n"
"                      standard error beyond that of the window's runs.\n"
"                      0: the mean alone, Bencher's rule.  Default 0.95\n"
"                      without --test or a stored threshold, else 0;\n"
"                      threshold does not store it\n"
"  --confirm RERUN     check: an alert stands only where RERUN, a report of\n"
"                      the same benchmarks run again, is past the same\n"
"                      window's limit too; else it is \"unconfirmed\" (exit 0).\n"
"                      A CI job reruns on exit 1, then checks with it: a\n"
"                      regression repeats, a machine's passing slowdown does not\n"
"\n"
"Exit codes: 0 fine (an inconclusive run too), 1 an alert (check) or a\n"
"failure (the database, a full disk: nothing is written then), 2 bad usage\n"
"or a bad report.\n";

#define COMMANDS "add, check, report, plot, export, import or threshold"
#define CAND_FORM "0, or a confidence level from 0.5 to below 1"
#define REPORTS "REPORT... (bench --json, BMF or vmtest --bench --json)"

static const char *const commands[] = {
	[HIST_ADD] = "add", [HIST_CHECK] = "check", [HIST_REPORT] = "report",
	[HIST_PLOT] = "plot", [HIST_EXPORT] = "export", [HIST_IMPORT] = "import",
	[HIST_THRESHOLD] = "threshold",
};

/* The first line git prints for args, into buf; -1 when git cannot say. */
static int git_line(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	int rc;

	if (!p)
		return -1;
	if (!fgets(buf, len, p))
		buf[0] = 0;
	rc = pclose(p);
	buf[strcspn(buf, "\n")] = 0;
	return rc == 0 && buf[0] ? 0 : -1;
}

static int parse_num(const char *opt, const char *arg, double min, double max,
		     const char *form, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < min || v > max)
		return hist_usage_error("%s '%s': expected %s", opt, arg, form);
	*out = v;
	return 0;
}

static int parse_long(const char *opt, const char *arg, long min, const char *form,
		      long *out)
{
	double v;

	if (parse_num(opt, arg, min, 1e15, form, &v))
		return BENCH_EXIT_USAGE;
	if (v != floor(v))
		return hist_usage_error("%s '%s': expected %s", opt, arg, form);
	*out = v;
	return 0;
}

enum { O_DB = 256, O_PROJECT, O_BRANCH, O_START, O_COMMIT, O_TESTBED, O_TIME,
	O_TEST, O_LOWER, O_UPPER, O_MIN, O_MAX, O_WINDOW, O_MEASURE, O_OUT, O_SCHEMA,
	O_CAND, O_CONFIRM };

static const struct option longs[] = {
	{ "db", required_argument, NULL, O_DB },
	{ "project", required_argument, NULL, O_PROJECT },
	{ "branch", required_argument, NULL, O_BRANCH },
	{ "start-point", required_argument, NULL, O_START },
	{ "commit", required_argument, NULL, O_COMMIT },
	{ "testbed", required_argument, NULL, O_TESTBED },
	{ "time", required_argument, NULL, O_TIME },
	{ "test", required_argument, NULL, O_TEST },
	{ "lower-boundary", required_argument, NULL, O_LOWER },
	{ "upper-boundary", required_argument, NULL, O_UPPER },
	{ "min-sample-size", required_argument, NULL, O_MIN },
	{ "max-sample-size", required_argument, NULL, O_MAX },
	{ "window", required_argument, NULL, O_WINDOW },
	{ "candidate-confidence", required_argument, NULL, O_CAND },
	{ "measure", required_argument, NULL, O_MEASURE },
	{ "out", required_argument, NULL, O_OUT },
	{ "confirm", required_argument, NULL, O_CONFIRM },
	{ "schema", required_argument, NULL, O_SCHEMA },
	{ "help", no_argument, NULL, 'h' },
	{},
};

static int parse_opt(int c, struct hist_opts *o)
{
	struct hist_model *m = &o->model;
	long v;

	switch (c) {
	case O_DB:
		o->db = optarg;
		return 0;
	case O_PROJECT:
		o->project = optarg;
		return 0;
	case O_BRANCH:
		o->branch = optarg;
		return 0;
	case O_START:
		o->start_point = optarg;
		return 0;
	case O_COMMIT:
		o->commit = optarg;
		return 0;
	case O_TESTBED:
		o->testbed = optarg;
		return 0;
	case O_MEASURE:
		o->measure = optarg;
		return 0;
	case O_OUT:
		o->out = optarg;
		return 0;
	case O_CONFIRM:
		o->confirm = optarg;
		return 0;
	case O_TIME:
		if (parse_long("--time", optarg, 0, "seconds since the epoch", &v))
			return BENCH_EXIT_USAGE;
		o->time = v;
		return 0;
	case O_SCHEMA:
		if (parse_long("--schema", optarg, 1, "a schema version", &v))
			return BENCH_EXIT_USAGE;
		o->schema = v;
		return 0;
	case O_TEST:
		o->test_given = true;
		if (hist_test_parse(optarg, &m->test))
			return hist_usage_error("--test '%s': expected %s", optarg,
						HIST_TEST_NAMES);
		return 0;
	case O_LOWER:
		o->lower_given = true;
		return parse_num("--lower-boundary", optarg, -INFINITY, INFINITY,
				 "a number", &m->lower);
	case O_UPPER:
		o->upper_given = true;
		return parse_num("--upper-boundary", optarg, -INFINITY, INFINITY,
				 "a number", &m->upper);
	case O_MIN:
		o->min_given = true;
		return parse_long("--min-sample-size", optarg, 1, "a count >= 1", &m->min_n);
	case O_MAX:
		o->max_given = true;
		return parse_long("--max-sample-size", optarg, 1, "a count >= 1", &m->max_n);
	case O_WINDOW:
		o->window_given = true;
		if (parse_long("--window", optarg, 1, "seconds >= 1", &v))
			return BENCH_EXIT_USAGE;
		m->window_sec = v;
		return 0;
	case O_CAND:
		o->candidate_given = true;
		if (parse_num("--candidate-confidence", optarg, 0, 1, CAND_FORM, &m->candidate))
			return BENCH_EXIT_USAGE;
		if (m->candidate && (m->candidate < 0.5 || m->candidate >= 1))
			return hist_usage_error("--candidate-confidence '%s': expected %s",
						optarg, CAND_FORM);
		return 0;
	}
	return -2;
}

int hist_check_boundary(const char *opt, bool given, const struct hist_model *m, double b)
{
	const char *form;

	if (!given)
		return 0;
	form = hist_boundary_form(m->test, b);
	return form ? hist_usage_error("%s %g for %s: expected %s", opt, b,
				       hist_test_name(m->test), form) : 0;
}

/* What each command needs, and the defaults git gives. */
static int check_needs(struct hist_opts *o)
{
	bool where = o->cmd == HIST_ADD || o->cmd == HIST_CHECK;

	if (!o->db)
		return hist_usage_error("%s: --db FILE is required", commands[o->cmd]);
	if ((o->cmd == HIST_PLOT || o->cmd == HIST_EXPORT) && !o->out)
		return hist_usage_error("%s: --out DIR is required", commands[o->cmd]);
	if (o->confirm && o->cmd != HIST_CHECK)
		return hist_usage_error("%s: --confirm is for check", commands[o->cmd]);
	if (o->cmd == HIST_THRESHOLD && !o->measure)
		return hist_usage_error("threshold: --measure NAME is required");
	if (o->cmd == HIST_THRESHOLD && o->candidate_given)
		return hist_usage_error(
			"threshold: --candidate-confidence is not stored; give it to check");
	if ((where || o->cmd == HIST_IMPORT) != (o->n_files > 0))
		return hist_usage_error(o->n_files ? "%s takes no file arguments, got '%s'" :
					"%s: expected %s", commands[o->cmd],
					o->n_files ? o->files[0] : o->cmd == HIST_IMPORT ?
					"the export's DIR" : REPORTS);
	if (o->cmd == HIST_IMPORT && o->n_files != 1)
		return hist_usage_error("import: expected one DIR, got %d", o->n_files);
	if (o->model.test == HIST_STATIC && o->test_given && !o->lower_given && !o->upper_given)
		return hist_usage_error(
			"--test static: needs --lower-boundary or --upper-boundary");
	/* Without --test, the boundaries meet the measure's test when it is known. */
	if (o->test_given &&
	    (hist_check_boundary("--lower-boundary", o->lower_given, &o->model, o->model.lower) ||
	     hist_check_boundary("--upper-boundary", o->upper_given, &o->model, o->model.upper)))
		return BENCH_EXIT_USAGE;
	if (!where)
		return 0;
	if (!o->branch && !git_line("git rev-parse --abbrev-ref HEAD 2>/dev/null",
				    o->branch_buf, sizeof(o->branch_buf)))
		o->branch = o->branch_buf;
	if (!o->commit && !git_line("git rev-parse HEAD 2>/dev/null", o->commit_buf,
				    sizeof(o->commit_buf)))
		o->commit = o->commit_buf;
	if (!o->branch || !o->commit)
		return hist_usage_error("no --%s given, and no git checkout here to take it from",
					o->branch ? "commit" : "branch");
	return 0;
}

int hist_parse(int argc, char **argv, struct hist_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->project = "default";
	o->time = time(NULL);
	o->model = (struct hist_model){ .test = HIST_T_TEST, .lower = NAN, .upper = NAN,
					.min_n = HIST_DEFAULT_MIN_N,
					.max_n = HIST_DEFAULT_MAX_N };
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc < 2)
			return hist_usage_error("expected a command: %s (see bench history --help)",
						COMMANDS);
		fputs(usage_text, stdout);
		return -1;
	}
	for (c = 0; c <= HIST_THRESHOLD && strcmp(argv[1], commands[c]); c++)
		;
	if (c > HIST_THRESHOLD)
		return hist_usage_error("unknown command '%s': expected %s", argv[1], COMMANDS);
	o->cmd = c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc - 1, argv + 1, ":h", longs, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return -1;
		}
		if (c == ':')
			return hist_usage_error(
				"option '%s' needs a value (see bench history --help)",
				argv[optind]);
		ret = parse_opt(c, o);
		if (ret == -2)
			return hist_usage_error("unknown option '%s' (see bench history --help)",
						argv[optind]);
		if (ret)
			return ret;
	}
	o->files = argv + 1 + optind;
	o->n_files = argc - 1 - optind;
	return check_needs(o);
}

static void default_sides(enum hist_test t, bool higher_is_better, struct hist_model *m)
{
	double b = t == HIST_PERCENTAGE ? 0.05 : t == HIST_IQR ? 1.5 : HIST_DEFAULT_PERCENTILE;

	m->lower = higher_is_better ? b : NAN;
	m->upper = higher_is_better ? NAN : b;
}

void hist_model_for(const struct hist_opts *o, const struct hist_model *stored,
		    bool higher_is_better, struct hist_model *m)
{
	*m = (struct hist_model){ .test = HIST_T_TEST, .min_n = HIST_DEFAULT_MIN_N,
				  .max_n = HIST_DEFAULT_MAX_N,
				  .candidate = HIST_DEFAULT_CANDIDATE };
	default_sides(m->test, higher_is_better, m);
	/* A test someone chose is Bencher's: the mean alone, unless asked. */
	if (stored) {
		*m = *stored;
		m->candidate = 0;
	}
	if (o->test_given) {
		m->test = o->model.test;
		m->candidate = 0;
		default_sides(m->test, higher_is_better, m);
	}
	if (o->candidate_given)
		m->candidate = o->model.candidate;
	if (o->lower_given || o->upper_given) {
		m->lower = o->lower_given ? o->model.lower : NAN;
		m->upper = o->upper_given ? o->model.upper : NAN;
	}
	if (o->min_given)
		m->min_n = o->model.min_n;
	if (o->max_given)
		m->max_n = o->model.max_n;
	if (o->window_given)
		m->window_sec = o->model.window_sec;
}
