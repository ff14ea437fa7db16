/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench verifier-cost: what the verifier spends on each program of some
 * BPF objects, measured the way the kernel's veristat does (each program
 * loaded alone with BPF_LOG_STATS, the stats lines of its log parsed), and
 * bench verifier-compare, which compares two such reports.
 */
#ifndef BPFCHECK_BENCH_VCOST_H
#define BPFCHECK_BENCH_VCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/bpf.h>

/* The figures, in veristat's CSV order (plus xlated size); -1: unknown. */
enum vcost_fig {
	VC_DURATION,		/* verification time, us (under icount: k-insns) */
	VC_TOTAL_INSNS,
	VC_TOTAL_STATES,
	VC_PEAK_STATES,
	VC_MAX_STATES_PER_INSN,
	VC_MARK_READ,
	VC_STACK_DEPTH,		/* the sum over the subprograms */
	VC_MAX_STACK_DEPTH,
	VC_PROG_SIZE,		/* BPF instructions in the object */
	VC_XLATED_SIZE,		/* bytes, bpf_prog_info.xlated_prog_len */
	VC_JITED_SIZE,		/* bytes, bpf_prog_info.jited_prog_len */
	VC_RUN_NS,		/* test_run's ns per run (--run), else -1 */
	VC_NR_FIGS,
};

struct vcost_fig_def {
	const char *csv;	/* veristat's column name where it has one */
	const char *title;	/* the text table's header */
	const char *unit;	/* for BMF */
};

extern const struct vcost_fig_def vcost_figs[VC_NR_FIGS];

struct vcost_row {
	char *kernel;
	char *file;		/* base name, as veristat prints it */
	char *prog;
	char *prog_type;
	bool ok;		/* verdict: success */
	char *error;		/* failure: the verifier's (or libbpf's) first line */
	long fig[VC_NR_FIGS];
};

struct env_info;

struct vcost_table {
	struct vcost_row *rows;
	size_t n, cap;
	/* Where the rows were measured, for the JSON; NULL: read from reports. */
	const struct env_info *env;
};

/* vcost_load.c: every program of the object at path, appended to t. */
extern bool vcost_verbose;
/* --run N: test-run each loaded program N times (0: not at all). */
extern unsigned int vcost_run_repeat;	/* the full log of each failure on stderr */
int vcost_load_object(const char *path, const char *kernel, struct vcost_table *t);

/* vcost_run.c: ns per run of N test runs on a UDP frame, or -1. */
long vcost_run_ns(int prog_fd, enum bpf_prog_type type, unsigned int repeat);

/* vcost_table.c */
struct vcost_row *vcost_add(struct vcost_table *t);
void vcost_free_row(struct vcost_row *r);
void vcost_free(struct vcost_table *t);
int vcost_fig_by_name(const char *name);
/* t read from a verifier-cost --json file (or an array of them); -1 with err. */
int vcost_read_json(const char *path, struct vcost_table *t, char *err, size_t err_len);
bool vcost_find_kernel(const struct vcost_table *t, const char *kernel);
bool vcost_match(char *const *filters, int n, const char *file, const char *prog);
const struct vcost_row *vcost_find(const struct vcost_table *t, const char *kernel,
				   const char *file, const char *prog);

/* vcost_write.c: the formats of --format and the files. */
enum vcost_format { VCF_TEXT, VCF_MARKDOWN, VCF_JSON, VCF_CSV, VCF_BMF };
int vcost_format_by_name(const char *name);
void vcost_write(FILE *f, enum vcost_format fmt, const struct vcost_table *t);

#endif
