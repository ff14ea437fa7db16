// SPDX-License-Identifier: GPL-2.0
/*
 * ktap_check: validate KTAP version 1 output (the kernel's
 * Documentation/dev-tools/ktap.rst) read from a file or stdin.
 *
 * The format and what is checked: ktap_checker.c.  --lax ignores the
 * lines the checker does not recognise; --kselftest accepts the kselftest
 * runner's wrapping.
 *
 * Exit: 0 valid, 1 invalid (the first error is printed), 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ktap_checker.h"

static void print_usage(FILE *out)
{
	fprintf(out, "Usage: ktap_check [--lax] [--kselftest] [FILE|-]\n"
		"Check KTAP version 1 output (default: strict; --lax ignores unrecognised lines;\n"
		"--kselftest accepts the kselftest runner's 'TAP version 13' and '# exit=N').\n"
		"Exit: 0 valid, 1 invalid, 2 usage error.\n");
}

/* Returns 0 and sets *path, 1 after --help, or -1 on a usage error. */
static int parse_args(int argc, char **argv, struct checker *c,
		      const char **path)
{
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--lax")) {
			c->lax = true;
			continue;
		}
		if (!strcmp(a, "--kselftest")) {
			c->kselftest = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout);
			return 1;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ktap_check: unknown option '%s'\n", a);
			return -1;
		}
		if (*path) {
			fprintf(stderr, "ktap_check: more than one input file\n");
			return -1;
		}
		*path = a;
	}
	return 0;
}

static FILE *open_input(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdin;
	f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "ktap_check: cannot open '%s': %s\n", path,
			strerror(errno));
	return f;
}

static int report(const struct checker *c, int ret)
{
	if (ret == -2) {
		fprintf(stderr, "ktap_check: read error\n");
		return 2;
	}
	if (ret) {
		fprintf(stderr, "ktap_check: line %ld: %s\n", c->lineno,
			c->err);
		return 1;
	}
	printf("ktap ok: %ld tests (pass %ld, fail %ld, skip %ld), %ld subtests",
	       c->tests, c->passed, c->failed, c->skipped,
	       c->subtests);
	if (c->ignored)
		printf(", %ld unrecognised lines ignored", c->ignored);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct checker c = { .depth = -1 };
	const char *path;
	FILE *f;
	int ret;

	ret = parse_args(argc, argv, &c, &path);
	if (ret) {
		if (ret < 0)
			print_usage(stderr);
		return ret > 0 ? 0 : 2;
	}
	f = open_input(path);
	if (!f)
		return 2;
	ret = check_stream(&c, f);
	if (f != stdin)
		fclose(f);
	return report(&c, ret);
}
