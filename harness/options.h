/* SPDX-License-Identifier: GPL-2.0 */
/* test_progs command line. */
#ifndef BPFCHECK_OPTIONS_H
#define BPFCHECK_OPTIONS_H

#include <stdbool.h>

#include "select.h"

struct options {
	struct selection *sel;
	int verbosity;
	bool list;
	bool count;
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

/* Returns 0, 1 when --help was printed, or -1 after a one-line error. */
int options_parse(struct options *o, int argc, char **argv);
void options_free(struct options *o);

#endif
