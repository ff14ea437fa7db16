/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench verifier-compare's options and pairs of rows, and what is done
 * with them (vcost_gate.c): the changes, the table and the gate.  The
 * command (vcost_compare.c) reads the reports and calls these.
 */
#ifndef BPFCHECK_BENCH_VCOST_GATE_H
#define BPFCHECK_BENCH_VCOST_GATE_H

#include <stdio.h>

#include "vcost.h"

#define NO_GATE	(-1.0)

struct cmp_opts {
	char **filters;
	int n_filters;
	int figs[VC_NR_FIGS], n_figs;	/* the figures shown */
	double min_change;
	double threshold[VC_NR_FIGS];	/* percent; NO_GATE: not gated */
	const char *base_kernel;
	bool kernels;
	int gate;			/* -1: the mode's default */
	int format;
};

struct pair {
	const struct vcost_row *a, *b;
	double key;			/* the largest change shown, for sorting */
};

/* The change of figure f from a to b in percent of a (from 0: +-100). */
double vc_change_pct(const struct pair *p, int f);
void vc_print_pairs(FILE *f, const struct pair *p, size_t n, const struct cmp_opts *o);
/* The gate's findings on f; its exit code (0, or 1 when gated and regressed). */
int vc_gate(FILE *f, const struct pair *p, size_t n, const struct cmp_opts *o,
	    size_t only_b);

#endif
