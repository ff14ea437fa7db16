// SPDX-License-Identifier: GPL-2.0
/*
 * bench verifier-cost [OBJ|DIR]...: the verifier's figures for every
 * program of the objects (default: the BPF objects built beside this
 * bench, the .bpf.o files of bpf/), on the running kernel, as a table and into files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bench.h"
#include "env_info.h"
#include "options.h"
#include "vcost.h"

#define WHO "bench verifier-cost"

static const char usage_text[] =
"Usage: bench verifier-cost [OPTIONS] [OBJ|DIR]...\n"
"\n"
"Loads every program of each BPF object alone, as the kernel's veristat\n"
"does (verifier log level 4, BPF_LOG_STATS), and reports per program the\n"
"verdict (with the first line of the error), instructions processed, total\n"
"and peak states, stack depth, xlated and jited size and verification\n"
"time.  A DIR stands for its *.bpf.o; no OBJ: the objects built beside\n"
"this bench (bpf/*.bpf.o).\n"
"\n"
"  -f, --filter GLOB  only FILE/PROG (or FILE or PROG) matching GLOB;\n"
"                     !GLOB leaves out; repeatable\n"
"  -k, --kernel NAME  the kernel column (default: the release, uname -r)\n"
"  -r, --report FILE  read FILE, a --json report (repeatable), instead of\n"
"                     measuring: its rows in every format\n"
"  -o, --format F     stdout: text (default), markdown, json, csv, bmf\n"
"  --json FILE        the report as JSON (what verifier-compare reads)\n"
"  --csv FILE         as CSV: veristat's columns, plus kernel, prog_type, error\n"
"  --run N            also test-run each XDP, tc, socket filter and cgroup\n"
"                     skb program N times on a 64-byte UDP/IPv4 frame:\n"
"                     run_ns, the kernel's ns per run (prog-cost's test_run)\n"
"  --settle SEC       sleep SEC seconds first (a guest just booted still\n"
"                     runs deferred work; vmtest --cost --icount uses 5)\n"
"  -v, --verbose      the verifier's whole log of each failure, on stderr\n"
"  --bmf FILE         Bencher Metric Format, a benchmark per program\n"
"\n"
"Exit codes: 0 measured (a program the verifier rejects is a finding, see\n"
"its verdict), 1 a file could not be written, 2 bad input.\n";

struct vc_opts {
	char **filters;
	int n_filters;
	const char *kernel;
	char **reports;
	int n_reports;
	unsigned int settle;		/* seconds to sleep first */
	int format;
	const char *files[VCF_BMF + 1];		/* by format */
};

#define bad_input(...) bench_cmd_usage_error(WHO, __VA_ARGS__)

static int parse_settle(const char *arg, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > 600)
		return bad_input("--settle '%s': expected whole seconds, 0 to 600", arg);
	*out = v;
	return 0;
}

static int parse_runs(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < 1 || v > 100000000)
		return bad_input("--run '%s': expected a number of runs, 1 to 100000000", arg);
	vcost_run_repeat = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct vc_opts *o)
{
	static const struct option longs[] = {
		{ "filter", required_argument, NULL, 'f' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "report", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'o' },
		{ "json", required_argument, NULL, 'J' },
		{ "csv", required_argument, NULL, 'C' },
		{ "bmf", required_argument, NULL, 'B' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "run", required_argument, NULL, 'R' },
		{ "settle", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:k:r:o:vh", longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->filters[o->n_filters++] = optarg;
			break;
		case 'k':
			if (!*optarg || strpbrk(optarg, "/,\"\n"))
				return bad_input("--kernel '%s': %s", optarg,
						 "expected a name without '/', ',' or '\"'");
			o->kernel = optarg;
			break;
		case 'r':
			o->reports[o->n_reports++] = optarg;
			break;
		case 'o':
			o->format = vcost_format_by_name(optarg);
			if (o->format < 0)
				return bad_input("--format '%s': %s", optarg,
						 "expected text, markdown, json, csv or bmf");
			break;
		case 'J':
			o->files[VCF_JSON] = optarg;
			break;
		case 'C':
			o->files[VCF_CSV] = optarg;
			break;
		case 'B':
			o->files[VCF_BMF] = optarg;
			break;
		case 'v':
			vcost_verbose = true;
			break;
		case 'S':
			if (parse_settle(optarg, &o->settle))
				return BENCH_EXIT_USAGE;
			break;
		case 'R':
			if (parse_runs(optarg))
				return BENCH_EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		case ':':
			return bad_input("option '%s' needs a value (see " WHO " --help)",
					 argv[optind - 1]);
		default:
			return bad_input("unknown option '%s' (see " WHO " --help)",
					 argv[optind - 1]);
		}
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a filter may take a program of file (FILE/PROG filters name it). */
static bool file_wanted(const struct vc_opts *o, const char *file)
{
	bool any_allow = false;

	for (int i = 0; i < o->n_filters; i++) {
		const char *f = o->filters[i], *slash = strchr(f, '/');
		char *ff;
		bool hit;

		if (f[0] == '!')
			continue;
		any_allow = true;
		if (!slash)
			return true;
		ff = strndup(f, slash - f);
		hit = ff && !fnmatch(ff, file, 0);
		free(ff);
		if (hit)
			return true;
	}
	return !any_allow;
}

/* The *.bpf.o of dir, sorted, each measured; 0 or the exit code. */
static int measure_dir(const char *dir, const struct vc_opts *o, struct vcost_table *t)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (!d)
		return bad_input("'%s': %s (expected a BPF object or a directory of them)",
				 dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **p;

		if (len < 7 || strcmp(e->d_name + len - 6, ".bpf.o"))
			continue;
		p = realloc(names, (n + 1) * sizeof(*names));
		if (!p)
			break;
		names = p;
		if (asprintf(&names[n], "%s/%s", dir, e->d_name) >= 0)
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(names[i], '/') + 1;

		if (file_wanted(o, base) && vcost_load_object(names[i], o->kernel, t))
			fprintf(stderr, WHO ": skipped %s: not a BPF object libbpf opens\n",
				names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}

static int measure_path(const char *path, const struct vc_opts *o, struct vcost_table *t)
{
	struct stat st;
	int err;

	if (stat(path, &st))
		return bad_input("'%s': %s (expected a BPF object or a directory of them)",
				 path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return measure_dir(path, o, t);
	err = vcost_load_object(path, o->kernel, t);
	if (err)
		return bad_input("'%s': not a BPF object libbpf can open (%s)", path,
				 strerror(-err));
	return 0;
}

/* Drop the rows the filters leave out. */
static void apply_filters(const struct vc_opts *o, struct vcost_table *t)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (vcost_match(o->filters, o->n_filters, t->rows[i].file, t->rows[i].prog)) {
			t->rows[k++] = t->rows[i];
			continue;
		}
		vcost_free_row(&t->rows[i]);
	}
	t->n = k;
}

static int read_report(const char *path, struct vcost_table *t)
{
	char err[256];

	if (vcost_read_json(path, t, err, sizeof(err)))
		return bad_input("--report '%s': %s (expected a " WHO " --json report)",
				 path, err);
	return 0;
}

static int write_file(const char *path, enum vcost_format fmt, const struct vcost_table *t)
{
	struct atomic_file af;
	int err = atomic_file_open(&af, path);

	if (!err) {
		vcost_write(af.f, fmt, t);
		err = atomic_file_finish(&af, ferror(af.f) ? EIO : 0);
	}
	if (err)
		fprintf(stderr, WHO ": cannot write %s: %s\n", path, strerror(-err));
	return err ? BENCH_EXIT_FAIL : 0;
}

static const char *default_kernel(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		return "unknown";
	snprintf(buf, len, "%s", u.release);
	return buf;
}

static int measure_default(const struct vc_opts *o, struct vcost_table *t)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 8);

	if (n <= 0)
		return bad_input("no OBJ given and cannot find this bench's directory");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	snprintf(slash + 1, sizeof(exe) - (slash + 1 - exe), "bpf");
	return measure_dir(exe, o, t);
}

static int vcost_main(int argc, char **argv)
{
	struct vc_opts o = {
		.filters = calloc(argc + 1, sizeof(char *)),
		.reports = calloc(argc + 1, sizeof(char *)),
	};
	struct vcost_table t = {};
	struct env_info env;
	char release[256];
	int ret;

	if (!o.filters || !o.reports) {
		ret = BENCH_EXIT_FAIL;
		goto out;
	}
	o.kernel = default_kernel(release, sizeof(release));
	ret = parse_args(argc, argv, &o);
	if (ret)
		goto out;
	if (o.n_reports && optind < argc) {
		ret = bad_input("'%s': --report reads reports, it measures no OBJ", argv[optind]);
		goto out;
	}
	if (!o.n_reports && o.settle)
		sleep(o.settle);
	for (int i = 0; i < o.n_reports && !ret; i++)
		ret = read_report(o.reports[i], &t);
	for (int i = optind; i < argc && !ret; i++)
		ret = measure_path(argv[i], &o, &t);
	if (optind == argc && !o.n_reports)
		ret = measure_default(&o, &t);
	if (!o.n_reports) {
		env_info_collect(&env);
		t.env = &env;
	}
	if (ret)
		goto out;
	apply_filters(&o, &t);
	vcost_write(stdout, o.format, &t);
	for (int f = 0; f <= VCF_BMF; f++)
		if (o.files[f] && write_file(o.files[f], f, &t))
			ret = BENCH_EXIT_FAIL;
out:
	vcost_free(&t);
	free(o.filters);
	free(o.reports);
	return ret < 0 ? 0 : ret;
}

BENCH_COMMAND(vcost_command, "verifier-cost", vcost_main);
