/* SPDX-License-Identifier: GPL-2.0 */
/* test_progs command line. */
#ifndef BPFCHECK_OPTIONS_H
#define BPFCHECK_OPTIONS_H

#include <stdbool.h>

#include "select.h"

struct options {
	struct selection *sel;
	int verbosity;
	bool list;		/* -l: names, as the kernel's test_progs */
	bool list_detail;	/* --list=detail: every test and subtest */
	bool count;		/* -c: a bare count of tests */
	bool count_detail;	/* --count=detail: "N tests, M subtests" */
	bool debug;		/* --debug: scheduling events on stderr */
	bool verifier_stats;	/* -s: tests may print verifier statistics */
	bool ktap;
	bool no_fork;
	bool leak_check;
	int jobs;		/* -j: tests at once */
	int timeout_s;		/* -w: watchdog seconds, 0 = none */
	const char *json_path;
	const char *junit_path;
	int shard_index;	/* --shard I/N: 1..N; 0 when not sharded */
	int shard_count;
};

/*
 * Returns 0, 1 when --help, --usage or --version was printed, or -1 after
 * a one-line error (a usage error: exit 2).
 */
int options_parse(struct options *o, int argc, char **argv);
void options_free(struct options *o);

#endif
