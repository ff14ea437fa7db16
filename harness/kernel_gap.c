// SPDX-License-Identifier: GPL-2.0
/*
 * Reads a failed test's log for the error a missing kernel feature gives.
 * Two sources say it: libbpf's own lines ("libbpf: prog 'x': BPF program
 * load failed: -EPERM", or the strerror() text of older libbpf), and the
 * checks, which print "(errno N: text)" after an unexpected error.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>

#include "kernel_gap.h"
#include "util.h"

struct gap_mark {
	const char *text;	/* what the log line holds */
	const char *name;	/* the errno it means */
	bool libbpf_only;	/* only on a "libbpf:" line */
};

static const struct gap_mark marks[] = {
	{ "-EPERM", "EPERM", true },
	{ "Operation not permitted", "EPERM", true },
	{ "-ENOTSUPP", "ENOTSUPP", true },
	{ "-524", "ENOTSUPP", true },
	{ "Unknown error 524", "ENOTSUPP", true },
	{ "-EOPNOTSUPP", "EOPNOTSUPP", true },
	{ "Operation not supported", "EOPNOTSUPP", true },
	{ "(errno 1: ", "EPERM", false },
	{ "(errno 524: ", "ENOTSUPP", false },
	{ "(errno 95: ", "EOPNOTSUPP", false },
};

static const char *line_gap(const char *line, size_t len)
{
	bool libbpf = len >= 7 && !strncmp(line, "libbpf:", 7);

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		const char *hit;

		if (marks[i].libbpf_only && !libbpf)
			continue;
		hit = memmem(line, len, marks[i].text, strlen(marks[i].text));
		if (hit)
			return marks[i].name;
	}
	return NULL;
}

static const char *log_gap(const char *log)
{
	while (log && *log) {
		const char *end = strchrnul(log, '\n');
		const char *gap = line_gap(log, end - log);

		if (gap)
			return gap;
		log = *end ? end + 1 : end;
	}
	return NULL;
}

const char *kernel_gap_errno(const struct test_result *r)
{
	const char *gap;

	if (!outcome_failed(r->outcome))
		return NULL;
	gap = log_gap(r->log);
	for (int i = 0; !gap && i < r->n_subtests; i++)
		if (outcome_failed(r->subtests[i].outcome))
			gap = log_gap(r->subtests[i].log);
	return gap;
}
