// SPDX-License-Identifier: GPL-2.0
/*
 * A verifier-cost report in each format: a text table, Markdown, JSON
 * (what verifier-compare reads), CSV with the kernel veristat's column
 * names and a kernel column, and Bencher Metric Format.
 */
#define _GNU_SOURCE
#include <string.h>

#include "env_info.h"
#include "json_writer.h"
#include "util.h"
#include "vcost.h"

/* The figures the tables show, in order. */
static const enum vcost_fig table_figs[] = {
	VC_TOTAL_INSNS, VC_TOTAL_STATES, VC_PEAK_STATES, VC_STACK_DEPTH,
	VC_XLATED_SIZE, VC_JITED_SIZE, VC_DURATION, VC_RUN_NS,
};
#define N_TABLE_FIGS ARRAY_SIZE(table_figs)

/* CSV: veristat's default columns first, then ours. */
static const enum vcost_fig csv_figs[] = {
	VC_DURATION, VC_TOTAL_INSNS, VC_TOTAL_STATES, VC_PEAK_STATES,
	VC_MAX_STATES_PER_INSN, VC_MARK_READ, VC_STACK_DEPTH, VC_MAX_STACK_DEPTH,
	VC_PROG_SIZE, VC_XLATED_SIZE, VC_JITED_SIZE, VC_RUN_NS,
};
#define N_CSV_FIGS ARRAY_SIZE(csv_figs)

static const char *const format_names[] = {
	[VCF_TEXT] = "text", [VCF_MARKDOWN] = "markdown", [VCF_JSON] = "json",
	[VCF_CSV] = "csv", [VCF_BMF] = "bmf",
};

int vcost_format_by_name(const char *name)
{
	for (int i = 0; i <= VCF_BMF; i++)
		if (!strcmp(name, format_names[i]))
			return i;
	return -1;
}

static const char *verdict(const struct vcost_row *r)
{
	return r->ok ? "success" : "failure";
}

static void fig_cell(char *buf, size_t len, long v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%ld", v);
}

static void write_text(FILE *f, const struct vcost_table *t, bool md)
{
	char cell[32];
	int wk = 6, wf = 4, wp = 7;
	size_t nf = N_TABLE_FIGS - 1;	/* the run cost only when measured */

	for (size_t i = 0; i < t->n; i++) {
		if (t->rows[i].fig[VC_RUN_NS] >= 0)
			nf = N_TABLE_FIGS;
		wk = (int)strlen(t->rows[i].kernel) > wk ? (int)strlen(t->rows[i].kernel) : wk;
		wf = (int)strlen(t->rows[i].file) > wf ? (int)strlen(t->rows[i].file) : wf;
		wp = (int)strlen(t->rows[i].prog) > wp ? (int)strlen(t->rows[i].prog) : wp;
	}
	if (md) {
		fprintf(f, "| Kernel | File | Program | Verdict |");
		for (size_t j = 0; j < nf; j++)
			fprintf(f, " %s |", vcost_figs[table_figs[j]].title);
		fprintf(f, "\n|---|---|---|---|");
		for (size_t j = 0; j < nf; j++)
			fprintf(f, "--:|");
		fputc('\n', f);
	} else {
		fprintf(f, "%-*s  %-*s  %-*s  %-7s", wk, "Kernel", wf, "File", wp, "Program",
			"Verdict");
		for (size_t j = 0; j < nf; j++)
			fprintf(f, "  %11s", vcost_figs[table_figs[j]].title);
		fputc('\n', f);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct vcost_row *r = &t->rows[i];

		if (md)
			fprintf(f, "| %s | %s | %s | %s |", r->kernel, r->file, r->prog,
				verdict(r));
		else
			fprintf(f, "%-*s  %-*s  %-*s  %-7s", wk, r->kernel, wf, r->file, wp,
				r->prog, verdict(r));
		for (size_t j = 0; j < nf; j++) {
			fig_cell(cell, sizeof(cell), r->fig[table_figs[j]]);
			fprintf(f, md ? " %s |" : "  %11s", cell);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < t->n; i++)
		if (!t->rows[i].ok)
			fprintf(f, "%s%s %s/%s: %s\n", md ? "\n- " : "failure: ",
				t->rows[i].kernel, t->rows[i].file, t->rows[i].prog,
				t->rows[i].error ? t->rows[i].error : "");
}

static void csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static void write_csv(FILE *f, const struct vcost_table *t)
{
	fprintf(f, "file_name,prog_name,verdict");
	for (size_t j = 0; j < N_CSV_FIGS; j++)
		fprintf(f, ",%s", vcost_figs[csv_figs[j]].csv);
	fprintf(f, ",kernel,prog_type,error\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct vcost_row *r = &t->rows[i];

		csv_field(f, r->file);
		fputc(',', f);
		csv_field(f, r->prog);
		fprintf(f, ",%s", verdict(r));
		for (size_t j = 0; j < N_CSV_FIGS; j++)
			if (r->fig[csv_figs[j]] < 0)
				fputc(',', f);
			else
				fprintf(f, ",%ld", r->fig[csv_figs[j]]);
		fputc(',', f);
		csv_field(f, r->kernel);
		fputc(',', f);
		csv_field(f, r->prog_type);
		fputc(',', f);
		csv_field(f, r->error);
		fputc('\n', f);
	}
}

static void write_json(FILE *f, const struct vcost_table *t)
{
	struct json_writer w;

	json_init(&w, f);
	json_begin_object(&w);
	json_kv_string(&w, "report", "verifier-cost");
	if (t->env) {
		json_key(&w, "environment");
		json_begin_object(&w);
		json_kv_string(&w, "kernel_release", t->env->kernel_release);
		json_kv_string(&w, "machine", t->env->machine);
		json_kv_string(&w, "libbpf_version", t->env->libbpf_version);
		json_kv_string(&w, "libbpf_source", t->env->libbpf_source ?: "");
		json_kv_string(&w, "clang_version", t->env->clang_version ?: "");
		json_end_object(&w);
	}
	json_key(&w, "programs");
	json_begin_array(&w);
	for (size_t i = 0; i < t->n; i++) {
		const struct vcost_row *r = &t->rows[i];

		json_begin_object(&w);
		json_kv_string(&w, "kernel", r->kernel);
		json_kv_string(&w, "file_name", r->file);
		json_kv_string(&w, "prog_name", r->prog);
		json_kv_string(&w, "prog_type", r->prog_type ? r->prog_type : "unknown");
		json_kv_string(&w, "verdict", verdict(r));
		if (!r->ok)
			json_kv_string(&w, "error", r->error ? r->error : "");
		for (int j = 0; j < VC_NR_FIGS; j++) {
			json_key(&w, vcost_figs[j].csv);
			if (r->fig[j] < 0)
				json_null(&w);
			else
				json_int(&w, r->fig[j]);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	fputc('\n', f);
}

/* One Bencher benchmark per kernel/file/program, a measure per figure. */
static void write_bmf(FILE *f, const struct vcost_table *t)
{
	struct json_writer w;
	char name[512];

	json_init(&w, f);
	json_begin_object(&w);
	for (size_t i = 0; i < t->n; i++) {
		const struct vcost_row *r = &t->rows[i];

		if (!r->ok)
			continue;
		snprintf(name, sizeof(name), "%s/%s/%s", r->kernel, r->file, r->prog);
		json_key(&w, name);
		json_begin_object(&w);
		for (size_t j = 0; j < N_TABLE_FIGS; j++) {
			long v = r->fig[table_figs[j]];

			if (v < 0)
				continue;
			json_key(&w, vcost_figs[table_figs[j]].csv);
			json_begin_object(&w);
			json_kv_int(&w, "value", v);
			json_end_object(&w);
		}
		json_end_object(&w);
	}
	json_end_object(&w);
	fputc('\n', f);
}

void vcost_write(FILE *f, enum vcost_format fmt, const struct vcost_table *t)
{
	switch (fmt) {
	case VCF_TEXT:
	case VCF_MARKDOWN:
		write_text(f, t, fmt == VCF_MARKDOWN);
		break;
	case VCF_JSON:
		write_json(f, t);
		break;
	case VCF_CSV:
		write_csv(f, t);
		break;
	case VCF_BMF:
		write_bmf(f, t);
		break;
	}
}
