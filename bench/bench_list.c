// SPDX-License-Identifier: GPL-2.0
/* The registered benchmarks: one by name, or all of them listed (-l). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_list.h"

const struct bench_ops *bench_find(const char *name)
{
	const struct bench_ops *b;

	for (int i = 0; (b = bench_nth(i)); i++) {
		if (!strcmp(b->name, name))
			return b;
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	const struct bench_ops *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* By name: the order of registration is the linker's. */
int bench_list(void)
{
	const struct bench_ops **all;
	int n = 0;

	while (bench_nth(n))
		n++;
	all = calloc(n, sizeof(*all));
	if (!all) {
		fprintf(stderr, "bench: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++)
		all[i] = bench_nth(i);
	qsort(all, n, sizeof(*all), by_name);
	for (int i = 0; i < n; i++)
		printf("%-19s %s\n", all[i]->name, all[i]->desc);
	free(all);
	return 0;
}
