// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

enum { OPT_KTAP = 0x100, OPT_NO_FORK, OPT_LEAK_CHECK, OPT_JUNIT, OPT_SHARD };

static const struct option long_opts[] = {
	{ "ktap", no_argument, NULL, OPT_KTAP },
	{ "json", required_argument, NULL, 'J' },
	{ "list", no_argument, NULL, 'l' },
	{ "count", no_argument, NULL, 'c' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "no-fork", no_argument, NULL, OPT_NO_FORK },
	{ "leak-check", no_argument, NULL, OPT_LEAK_CHECK },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

#define MAX_JOBS 256
#define MAX_WATCHDOG_S 86400

/* A whole positive decimal number up to max. */
static int parse_count(const char *opt, const char *arg, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 1 || v > max) {
		fprintf(stderr,
			"test_progs: %s: bad value '%s' (expected a whole number from 1 to %d)\n",
			opt, arg, max);
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

static void print_usage(const char *prog)
{
	printf("Usage: %s [OPTIONS]\n"
	       "Run BPF tests on the running kernel.\n\n"
	       "Selection (repeatable; comma lists, NAME/SUBTEST, @FILE):\n"
	       "  -t LIST      run tests whose name contains an entry\n"
	       "  -b LIST      do not run tests whose name contains an entry\n"
	       "  -a LIST      run tests matching a glob entry\n"
	       "  -d LIST      do not run tests matching a glob entry\n"
	       "  -n NUMS      run tests by number: 1,3-5 or 2/1-3\n"
	       "  --shard I/N  run the Ith of N interleaved parts of the\n"
	       "               selection (merge: scripts/merge-results.sh)\n"
	       "  -l, --list   list selected tests and subtests\n"
	       "  -c, --count  count selected tests and subtests\n\n"
	       "Running:\n"
	       "  -j N         run N tests at once (serial_test_* alone, last)\n"
	       "  -w SEC       watchdog: kill a test after SEC seconds (TIMEOUT)\n\n"
	       "Output:\n"
	       "  -v           show every test's log (-vv: passing asserts,\n"
	       "               -vvv: libbpf debug output)\n"
	       "  --ktap       KTAP version 1 instead of text\n"
	       "  -J, --json FILE  write a JSON summary to FILE\n"
	       "  --junit FILE write JUnit XML to FILE\n"
	       "  --no-fork    run tests in this process (for debuggers)\n"
	       "  --leak-check fail tests that leave BPF objects, pins,\n"
	       "               namespaces or interfaces behind\n\n"
	       "Exit: 0 passed, 1 failed, 2 nothing ran, 3 bad usage or harness\n"
	       "      error, 4 everything skipped.\n", prog);
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
	while ((opt = getopt_long(argc, argv, ":t:b:a:d:n:j:w:lcvJ:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 't': case 'b': case 'a': case 'd': case 'n':
			if (add_selection(o, opt, optarg))
				return -1;
			break;
		case 'j':
			if (parse_count("-j", optarg, MAX_JOBS, &o->jobs))
				return -1;
			break;
		case 'w':
			if (parse_count("-w", optarg, MAX_WATCHDOG_S,
					&o->timeout_s))
				return -1;
			break;
		case 'l':
			o->list = true;
			break;
		case 'c':
			o->count = true;
			break;
		case 'v':
			o->verbosity++;
			break;
		case 'J':
			o->json_path = optarg;
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
		case OPT_SHARD:
			if (parse_shard(optarg, o))
				return -1;
			break;
		case 'h':
			print_usage(argv[0]);
			return 1;
		default:
			report_bad_option(opt, argv);
			return -1;
		}
	}
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

void options_free(struct options *o)
{
	selection_free(o->sel);
	o->sel = NULL;
}
