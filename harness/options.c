// SPDX-License-Identifier: GPL-2.0
/*
 * The test_progs command line: every option of the kernel's test_progs
 * under the same short and long names (so that libbpf/ci's and kernel
 * developers' command lines work unchanged), plus bpfcheck's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ctype.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "env_info.h"
#include "options.h"

enum {
	OPT_KTAP = 0x100, OPT_NO_FORK, OPT_LEAK_CHECK, OPT_JUNIT, OPT_SHARD,
	OPT_DEBUG, OPT_USAGE, OPT_VERBOSE_LONG, OPT_LIST_LONG,
	OPT_COUNT_LONG,
};

static const struct option long_opts[] = {
	/* The kernel's test_progs options. */
	{ "name", required_argument, NULL, 't' },
	{ "name-blacklist", required_argument, NULL, 'b' },
	{ "allow", required_argument, NULL, 'a' },
	{ "deny", required_argument, NULL, 'd' },
	{ "num", required_argument, NULL, 'n' },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE_LONG },
	{ "json-summary", required_argument, NULL, 'J' },
	{ "workers", optional_argument, NULL, 'j' },
	{ "watchdog-timeout", required_argument, NULL, 'w' },
	{ "list", optional_argument, NULL, OPT_LIST_LONG },
	{ "count", optional_argument, NULL, OPT_COUNT_LONG },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "verifier-stats", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "version", no_argument, NULL, 'V' },
	/* bpfcheck's. */
	{ "json", required_argument, NULL, 'J' },
	{ "ktap", no_argument, NULL, OPT_KTAP },
	{ "no-fork", no_argument, NULL, OPT_NO_FORK },
	{ "leak-check", no_argument, NULL, OPT_LEAK_CHECK },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ 0 },
};

/*
 * '+': stop at the first word that is not an option (it is an error
 * anyway), so that -j can look at the next word without getopt having
 * moved it.
 */
static const char short_opts[] = "+:t:b:a:d:n:j::w:lcvJ:shV";

#define MAX_JOBS 256
#define MAX_WATCHDOG_S 86400
#define MAX_VERBOSITY 3

/* A whole decimal number from min to max. */
static int parse_number(const char *opt, const char *arg, int min, int max,
			int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || errno || v < min ||
	    v > max) {
		fprintf(stderr,
			"test_progs: %s: bad value '%s' (expected a whole number from %d to %d)\n",
			opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* "I/N" with 1 <= I <= N. */
static int parse_shard(const char *arg, struct options *o)
{
	int i, n, len = -1;

	if (sscanf(arg, "%d/%d%n", &i, &n, &len) != 2 || len != (int)strlen(arg) ||
	    n < 1 || i < 1 || i > n || !isdigit((unsigned char)arg[0])) {
		fprintf(stderr,
			"test_progs: --shard: bad value '%s' (expected I/N with 1 <= I <= N, e.g. 2/4)\n",
			arg);
		return -1;
	}
	o->shard_index = i;
	o->shard_count = n;
	return 0;
}

/* One worker per CPU this process may run on, as nproc(1) counts them. */
static int cpu_count(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > MAX_JOBS ? MAX_JOBS : n;
}

/*
 * -j/--workers: the number may be attached (-j4, --workers=4) or be the
 * next word when that starts with a digit (-j 4); otherwise -j stands
 * alone and means one worker per CPU, so "-j -w120" reads -w120 as the
 * next option, as the kernel's test_progs does.
 */
static int parse_workers(struct options *o, int argc, char **argv)
{
	const char *arg = optarg;

	if (!arg && optind < argc && isdigit((unsigned char)argv[optind][0]))
		arg = argv[optind++];
	if (!arg) {
		o->jobs = cpu_count();
		return 0;
	}
	return parse_number("-j", arg, 1, MAX_JOBS, &o->jobs);
}

/* --verbose[=LEVEL]: 1-3, or the kernel's spellings "v" (-vv), "vv" (-vvv). */
static int parse_verbose(struct options *o, const char *arg)
{
	if (!arg)
		o->verbosity = 1;
	else if (!strcmp(arg, "v"))
		o->verbosity = 2;
	else if (!strcmp(arg, "vv"))
		o->verbosity = 3;
	else
		return parse_number("--verbose", arg, 1, MAX_VERBOSITY,
				    &o->verbosity);
	return 0;
}

/* -l/-c take no argument; --list and --count may say =detail. */
static int parse_detail(const char *opt, const char *arg, bool *detail)
{
	if (arg && strcmp(arg, "detail")) {
		fprintf(stderr, "test_progs: %s: bad value '%s' (expected %s or %s=detail)\n",
			opt, arg, opt, opt);
		return -1;
	}
	*detail = arg != NULL;
	return 0;
}

static void print_usage(const char *prog)
{
	printf("Usage: %s [OPTIONS]\n"
	       "Run BPF tests on the running kernel.\n\n"
	       "Selection (repeatable; comma lists, NAME/SUBTEST, @FILE with one\n"
	       "entry per line and # comments):\n"
	       "  -t, --name=NAMES        run tests whose name contains an entry\n"
	       "  -b, --name-blacklist=NAMES  do not run tests whose name\n"
	       "                          contains an entry\n"
	       "  -a, --allow=NAMES       run tests matching a glob entry\n"
	       "  -d, --deny=NAMES        do not run tests matching a glob entry\n"
	       "  -n, --num=NUMS          run tests by number: 1,3-5 or 2/1-3\n"
	       "      --shard=I/N         run the Ith of N interleaved parts of\n"
	       "                          the selection (scripts/merge-results.sh)\n"
	       "  -l, --list[=detail]     print the selected tests' names (and\n"
	       "                          test/subtest when NAMES or NUMS select\n"
	       "                          subtests); =detail: every subtest\n"
	       "  -c, --count[=detail]    print how many tests are selected;\n"
	       "                          =detail: \"N tests, M subtests\"\n\n"
	       "Running:\n"
	       "  -j, --workers[=N]       run N tests at once (default: one per\n"
	       "                          CPU); serial_test_* run alone, last\n"
	       "  -w, --watchdog-timeout=SECONDS  kill a test after SECONDS\n"
	       "                          (TIMEOUT); 0: no watchdog (default)\n"
	       "  -s, --verifier-stats    tests that can print verifier\n"
	       "                          statistics do (test__verifier_stats())\n"
	       "      --no-fork           run tests in this process (debuggers)\n"
	       "      --leak-check        fail tests that leave BPF objects,\n"
	       "                          pins, namespaces or interfaces behind\n"
	       "      --debug             say on stderr when each test starts\n"
	       "                          and ends, and on which worker\n\n"
	       "Output:\n"
	       "  -v, --verbose[=LEVEL]   show every test's log; -vv or LEVEL 2:\n"
	       "                          passing asserts; -vvv or 3: libbpf\n"
	       "                          debug output\n"
	       "  -J, --json-summary=FILE write a JSON summary to FILE (--json)\n"
	       "      --ktap              KTAP version 1 instead of text\n"
	       "      --junit=FILE        write JUnit XML to FILE\n\n"
	       "  -h, --help; --usage; -V, --version\n\n"
	       "Exit: 0 passed, 1 failed, 2 nothing ran or bad usage, 3 harness\n"
	       "      error, 4 everything skipped.\n", prog);
}

/* The one-line synopsis, as argp's --usage prints it. */
static void short_usage(const char *prog)
{
	printf("Usage: %s [-chlsvV] [-a NAMES] [-b NAMES] [-d NAMES] [-j[N]]\n"
	       "            [-J FILE] [-n NUMS] [-t NAMES] [-w SECONDS]\n"
	       "            [--allow=NAMES] [--count[=detail]] [--debug]\n"
	       "            [--deny=NAMES] [--help] [--json-summary=FILE]\n"
	       "            [--junit=FILE] [--ktap] [--leak-check]\n"
	       "            [--list[=detail]] [--name=NAMES]\n"
	       "            [--name-blacklist=NAMES] [--no-fork] [--num=NUMS]\n"
	       "            [--shard=I/N] [--usage] [--verbose[=LEVEL]]\n"
	       "            [--verifier-stats] [--version]\n"
	       "            [--watchdog-timeout=SECONDS] [--workers[=N]]\n",
	       prog);
}

static int add_selection(struct options *o, int opt, const char *arg)
{
	char err[512];
	int ret;

	switch (opt) {
	case 't':
		ret = selection_add(o->sel, SEL_ALLOW_SUBSTR, arg, err, sizeof(err));
		break;
	case 'b':
		ret = selection_add(o->sel, SEL_DENY_SUBSTR, arg, err, sizeof(err));
		break;
	case 'a':
		ret = selection_add(o->sel, SEL_ALLOW_GLOB, arg, err, sizeof(err));
		break;
	case 'd':
		ret = selection_add(o->sel, SEL_DENY_GLOB, arg, err, sizeof(err));
		break;
	default:
		ret = selection_add_numbers(o->sel, arg, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "test_progs: -%c: %s\n", opt, err);
	return ret;
}

static bool is_long_option(const char *name, size_t len)
{
	for (const struct option *o = long_opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return true;
	return false;
}

/* getopt's own messages are off (opterr = 0): say what was wrong. */
static void report_bad_option(int opt, char **argv)
{
	const char *arg = argv[optind - 1];

	if (!strncmp(arg, "--", 2)) {
		size_t len = strcspn(arg + 2, "=");

		if (opt == ':')
			fprintf(stderr,
				"test_progs: option '--%.*s' needs an argument (see --help)\n",
				(int)len, arg + 2);
		else if (arg[2 + len] == '=' && is_long_option(arg + 2, len))
			fprintf(stderr,
				"test_progs: option '--%.*s' does not take an argument (see --help)\n",
				(int)len,
				arg + 2);
		else
			fprintf(stderr, "test_progs: unknown option '--%.*s' (see --help)\n",
				(int)len, arg + 2);
	} else if (opt == ':') {
		fprintf(stderr, "test_progs: option '-%c' needs an argument (see --help)\n",
			optopt);
	} else {
		fprintf(stderr, "test_progs: unknown option '-%c' (see --help)\n", optopt);
	}
}

/* Options that print something and end the run. 1 when opt was one. */
static int info_option(int opt, const char *prog)
{
	switch (opt) {
	case 'h':
		print_usage(prog);
		return 1;
	case OPT_USAGE:
		short_usage(prog);
		return 1;
	case 'V':
		env_info_print_version(stdout, "test_progs");
		return 1;
	}
	return 0;
}

/* Options with a value to check. 0, or -1 after a one-line error. */
static int value_option(struct options *o, int opt, int argc, char **argv)
{
	switch (opt) {
	case 't': case 'b': case 'a': case 'd': case 'n':
		return add_selection(o, opt, optarg);
	case 'j':
		return parse_workers(o, argc, argv);
	case 'w':
		return parse_number("-w", optarg, 0, MAX_WATCHDOG_S,
				    &o->timeout_s);
	case OPT_LIST_LONG:
		o->list = true;
		return parse_detail("--list", optarg, &o->list_detail);
	case OPT_COUNT_LONG:
		o->count = true;
		return parse_detail("--count", optarg, &o->count_detail);
	case OPT_VERBOSE_LONG:
		return parse_verbose(o, optarg);
	case OPT_SHARD:
		return parse_shard(optarg, o);
	}
	report_bad_option(opt, argv);
	return -1;
}

static void flag_option(struct options *o, int opt)
{
	switch (opt) {
	case 'v':
		if (o->verbosity < MAX_VERBOSITY)
			o->verbosity++;
		break;
	case 'l':
		o->list = true;
		break;
	case 'c':
		o->count = true;
		break;
	case 's':
		o->verifier_stats = true;
		break;
	case 'J':
		o->json_path = optarg;
		break;
	case OPT_DEBUG:
		o->debug = true;
		break;
	case OPT_KTAP:
		o->ktap = true;
		break;
	case OPT_NO_FORK:
		o->no_fork = true;
		break;
	case OPT_LEAK_CHECK:
		o->leak_check = true;
		break;
	case OPT_JUNIT:
		o->junit_path = optarg;
		break;
	}
}

static bool is_flag_option(int opt)
{
	switch (opt) {
	case 'v': case 'l': case 'c': case 's': case 'J': case OPT_DEBUG:
	case OPT_KTAP: case OPT_NO_FORK: case OPT_LEAK_CHECK: case OPT_JUNIT:
		return true;
	}
	return false;
}

/* What no single option can check: combinations and empty names. */
static int check_combinations(const struct options *o, int argc, char **argv)
{
	if (optind < argc) {
		fprintf(stderr, "test_progs: unexpected argument '%s' (see --help)\n",
			argv[optind]);
		return -1;
	}
	if (o->no_fork && (o->jobs > 1 || o->timeout_s)) {
		fprintf(stderr,
			"test_progs: --no-fork runs tests in this process: it cannot be combined with -j or -w\n");
		return -1;
	}
	if ((o->json_path && !*o->json_path) ||
	    (o->junit_path && !*o->junit_path)) {
		fprintf(stderr, "test_progs: -J/--junit need a file name\n");
		return -1;
	}
	return 0;
}

int options_parse(struct options *o, int argc, char **argv)
{
	int opt;

	memset(o, 0, sizeof(*o));
	o->jobs = 1;
	o->sel = selection_new();
	if (!o->sel) {
		fprintf(stderr, "test_progs: out of memory\n");
		return -1;
	}
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_opts, long_opts,
				  NULL)) != -1) {
		if (info_option(opt, argv[0]))
			return 1;
		if (is_flag_option(opt))
			flag_option(o, opt);
		else if (value_option(o, opt, argc, argv))
			return -1;
	}
	return check_combinations(o, argc, argv);
}

void options_free(struct options *o)
{
	selection_free(o->sel);
	o->sel = NULL;
}
