// SPDX-License-Identifier: GPL-2.0
/*
 * bench sweep-table [--csv FILE] [--guard CPUS] RUN.json...: the table of
 * a ring buffer vs queue sweep (bench/run_ringbuf_vs_queue.sh) from its
 * saved runs, named VARIANT-MODE-pP-bB-rR.json (MODE and B "-" for the
 * baselines).  The runs of one configuration are pooled: the mean of
 * their hits/s, their spread, ns/event, the cost over the trig-prog
 * baseline at the same producer count, drops, the busiest other CPUs,
 * records per wake-up, and regimes where the runs disagree beyond their
 * own per-second spread.  The meaning of each column is in the script's
 * header; the statistics live here so that the script only drives runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "json_file.h"
#include "options.h"
#include "stats.h"
#include "sweep_stats.h"

static const char usage_text[] =
"Usage: bench sweep-table [--csv FILE] [--guard CPUS] RUN.json...\n"
"\n"
"The table of a ring buffer vs queue sweep (bench/run_ringbuf_vs_queue.sh)\n"
"from its runs' bench --json reports, named VARIANT-MODE-pP-bB-rR.json:\n"
"the runs of each configuration pooled, their mean, spread and regimes.\n"
"\n"
"  --csv FILE    the table as CSV too\n"
"  --guard CPUS  a note when other processes used CPUS or more (default: none)\n";

static int bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_input(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bench_vusage_error("bench sweep-table", fmt, ap);
	va_end(ap);
	return ret;
}

/* VARIANT-MODE-pP-bB-rR: split off "-<tag>VALUE" from the end of name. */
static int cut_tail(char *name, const char *tag, char *out, size_t len)
{
	char *at = NULL;

	for (char *p = strstr(name, tag); p; p = strstr(p + 1, tag))
		at = p;
	if (!at)
		return -1;
	snprintf(out, len, "%s", at + strlen(tag));
	*at = '\0';
	return 0;
}

static int parse_name(const char *path, struct sweep_key *k)
{
	char *copy = strdup(path), *name, *dash;
	int ret = -1;

	if (!copy)
		return -1;
	name = basename(copy);
	if (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"))
		name[strlen(name) - 5] = '\0';
	if (cut_tail(name, "-r", k->run, sizeof(k->run)) ||
	    cut_tail(name, "-b", k->batch, sizeof(k->batch)) ||
	    cut_tail(name, "-p", k->producers, sizeof(k->producers)))
		goto out;
	/* A baseline has no mode: "trig-prog--". */
	if (strlen(name) > 2 && !strcmp(name + strlen(name) - 2, "--")) {
		name[strlen(name) - 2] = '\0';
		snprintf(k->mode, sizeof(k->mode), "-");
	} else {
		dash = strrchr(name, '-');
		if (!dash)
			goto out;
		snprintf(k->mode, sizeof(k->mode), "%s", dash + 1);
		*dash = '\0';
	}
	snprintf(k->variant, sizeof(k->variant), "%s", name);
	ret = k->variant[0] ? 0 : -1;
out:
	free(copy);
	return ret;
}

/* summary.NAME.mean (or .stddev) of a report; missing is 0 when optional. */
static int summary_value(const struct json_value *root, const char *name,
			 const char *field, bool optional, double *out)
{
	const struct json_value *s = json_get(json_get(root, "summary"), name);

	*out = 0;
	if (!json_get_number(s, field, out))
		return 0;
	return optional ? 0 : -1;
}

static int read_run(const char *path, struct sweep_run *r)
{
	struct json_value *root;
	double other, steal;
	char err[512];
	int ret = 0;

	if (parse_name(path, &r->key))
		return bad_input("%s: not named VARIANT-MODE-pP-bB-rR.json", path);
	root = json_parse_file(path, err, sizeof(err));
	if (!root)
		return bad_input("%s: %s", path, err);
	if (summary_value(root, "hits_per_sec", "mean", false, &r->hits) ||
	    summary_value(root, "hits_per_sec", "stddev", false, &r->hits_stddev) ||
	    summary_value(root, "drops_per_sec", "mean", false, &r->drops) ||
	    summary_value(root, "other_cpus", "mean", false, &other) ||
	    summary_value(root, "steal_cpus", "mean", false, &steal) ||
	    summary_value(root, "wakeups_per_sec", "mean", true, &r->wakeups))
		ret = bad_input(
				"%s: not a bench --json report (no summary of hits, drops and other CPUs)",
				path);
	r->other = other + steal;
	json_free(root);
	return ret;
}

static int parse_args(int argc, char **argv, const char **csv, const char **guard)
{
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, 'c' },
		{ "guard", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	char *end;
	double g;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			*csv = optarg;
			break;
		case 'g':
			errno = 0;
			g = strtod(optarg, &end);
			*guard = optarg;
			if (errno || end == optarg || *end || g < 0)
				return bad_input("--guard '%s': expected a number of CPUs >= 0",
						 optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return bad_input("unknown option '%s' (see bench sweep-table --help)",
					 argv[optind - 1]);
		}
	}
	if (optind == argc)
		return bad_input("no runs given: expected RUN.json files");
	return 0;
}

static int sweep_table_main(int argc, char **argv)
{
	struct sweep_run *runs;
	const char *csv = NULL, *guard = NULL;
	int ret, n;

	ret = parse_args(argc, argv, &csv, &guard);
	if (ret)
		return ret < 0 ? 0 : ret;
	n = argc - optind;
	runs = calloc(n, sizeof(*runs));
	if (!runs)
		return bad_input("out of memory");
	for (int i = 0; i < n && !ret; i++)
		ret = read_run(argv[optind + i], &runs[i]);
	if (!ret)
		ret = sweep_stats_print(runs, n, csv, guard);
	free(runs);
	return ret;
}

BENCH_COMMAND(sweep_table_command, "sweep-table", sweep_table_main);
