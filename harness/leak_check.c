// SPDX-License-Identifier: GPL-2.0
/*
 * What a leak checker found, as the text the reporters print: the
 * runner asks after each test, main after the whole run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check.h"

/* What the test left behind, as text; NULL when nothing. */
char *leak_report(const struct leak_checker *lc, const void *snap)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n;

	if (!f)
		return strdup("leak check failed: out of memory");
	n = lc->report(snap, f);
	if (n < 0)
		fprintf(f, "leak check failed: %s\n", strerror(-n));
	fclose(f);
	if (n == 0) {
		free(text);
		return NULL;
	}
	/* Drop the final newline: reporters add their own. */
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}
