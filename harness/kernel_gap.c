// SPDX-License-Identifier: GPL-2.0
/*
 * Tells a kernel gap from the failure records: the errno a failed check
 * saw (ASSERT_OK_PTR after a skeleton load, "(errno 1: ...)"), else the
 * error libbpf reported while that part ran ("libbpf: prog 'x': BPF
 * program load failed: -EPERM", noted by the libbpf print callback).
 * Nothing here reads a test's log: what a test prints cannot fake a gap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "kernel_gap.h"
#include "util.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's, not in userspace errno.h */
#endif

struct gap_mark {
	const char *text;	/* what libbpf's message holds */
	int err;		/* the errno it means */
};

/* libbpf's "-EPERM" form, and older libbpf's strerror() text. */
static const struct gap_mark marks[] = {
	{ "-EPERM", EPERM },
	{ "Operation not permitted", EPERM },
	{ "-ENOTSUPP", ENOTSUPP },
	{ "-524", ENOTSUPP },
	{ "Unknown error 524", ENOTSUPP },
	{ "-EOPNOTSUPP", EOPNOTSUPP },
	{ "Operation not supported", EOPNOTSUPP },
};

static const char *gap_name(int err)
{
	switch (err) {
	case EPERM:
		return "EPERM";
	case ENOTSUPP:
		return "ENOTSUPP";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	}
	return NULL;
}

int kernel_gap_libbpf_errno(const char *msg)
{
	size_t len = strcspn(msg, "\n");	/* its first line only */

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (memmem(msg, len, marks[i].text, strlen(marks[i].text)))
			return marks[i].err;
	return 0;
}

/* The errno of the first failed check, else libbpf's. */
static const char *part_gap(const struct failure *f, int libbpf_err)
{
	const char *gap = failure_recorded(f) ? gap_name(f->err) : NULL;

	return gap ? gap : gap_name(libbpf_err);
}

const char *kernel_gap_errno(const struct test_result *r)
{
	const char *gap;

	if (!outcome_failed(r->outcome))
		return NULL;
	gap = part_gap(&r->failure, r->libbpf_err);
	for (int i = 0; !gap && i < r->n_subtests; i++) {
		const struct subtest_result *s = &r->subtests[i];

		if (outcome_failed(s->outcome))
			gap = part_gap(&s->failure, s->libbpf_err);
	}
	return gap;
}
