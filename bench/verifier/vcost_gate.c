// SPDX-License-Identifier: GPL-2.0
/*
 * verifier-compare's table (text, Markdown, CSV: veristat -C's _a, _b and
 * _diff columns) and its gate: a program that stopped verifying, or a
 * gated figure that grew beyond its threshold, each named with its
 * kernel, file, program and figure.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "vcost_gate.h"

double vc_change_pct(const struct pair *p, int f)
{
	long a = p->a->fig[f], b = p->b->fig[f];

	if (a < 0 || b < 0 || a == b)
		return 0;
	if (!a)
		return b > 0 ? 100 : -100;
	return 100.0 * (b - a) / a;
}

static const char *verdict(const struct vcost_row *r)
{
	return r->ok ? "success" : "failure";
}

static bool shown(const struct pair *p, const struct cmp_opts *o)
{
	return o->min_change <= 0 || p->key >= o->min_change;
}

static void kernel_cell(char *buf, size_t len, const struct pair *p, const struct cmp_opts *o)
{
	if (o->kernels)
		snprintf(buf, len, "%s -> %s", p->a->kernel, p->b->kernel);
	else
		snprintf(buf, len, "%s", p->b->kernel);
}

static void value_cell(char *buf, size_t len, long v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%ld", v);
}

static void diff_cell(char *buf, size_t len, const struct pair *p, int f)
{
	long a = p->a->fig[f], b = p->b->fig[f];

	if (a < 0 || b < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+ld (%+.2f%%)", b - a, vc_change_pct(p, f));
}

static void print_csv(FILE *f, const struct pair *p, size_t n, const struct cmp_opts *o)
{
	fprintf(f, "file_name,prog_name,kernel_a,kernel_b,verdict_a,verdict_b");
	for (int i = 0; i < o->n_figs; i++) {
		const char *c = vcost_figs[o->figs[i]].csv;

		fprintf(f, ",%s_a,%s_b,%s_diff,%s_pct", c, c, c, c);
	}
	fputc('\n', f);
	for (size_t k = 0; k < n; k++) {
		if (!shown(&p[k], o))
			continue;
		fprintf(f, "%s,%s,%s,%s,%s,%s", p[k].a->file, p[k].a->prog, p[k].a->kernel,
			p[k].b->kernel, verdict(p[k].a), verdict(p[k].b));
		for (int i = 0; i < o->n_figs; i++) {
			long a = p[k].a->fig[o->figs[i]], b = p[k].b->fig[o->figs[i]];

			if (a < 0 || b < 0)
				fprintf(f, ",%s,%s,,", a < 0 ? "" : "x", b < 0 ? "" : "x");
			else
				fprintf(f, ",%ld,%ld,%ld,%.2f", a, b, b - a,
					vc_change_pct(&p[k], o->figs[i]));
		}
		fputc('\n', f);
	}
}

void vc_print_pairs(FILE *f, const struct pair *p, size_t n, const struct cmp_opts *o)
{
	bool md = o->format == VCF_MARKDOWN;
	char kc[160], va[24], vb[24], d[64];

	if (o->format == VCF_CSV) {
		print_csv(f, p, n, o);
		return;
	}
	fprintf(f, md ? "| Kernel | File | Program | Verdict |" : "%-14s  %-24s  %-24s  %-20s",
		"Kernel", "File", "Program", "Verdict");
	for (int i = 0; i < o->n_figs; i++) {
		const char *t = vcost_figs[o->figs[i]].title;

		if (md)
			fprintf(f, " %s (A) | %s (B) | %s (DIFF) |", t, t, t);
		else
			fprintf(f, i + 1 < o->n_figs ? "  %9.9s A  %9.9s B  %-18s" :
				"  %9.9s A  %9.9s B  %s", t, t, "DIFF");
	}
	fputc('\n', f);
	if (md) {
		fprintf(f, "|---|---|---|---|");
		for (int i = 0; i < o->n_figs; i++)
			fprintf(f, "--:|--:|--:|");
		fputc('\n', f);
	}
	for (size_t k = 0; k < n; k++) {
		char vd[40];

		if (!shown(&p[k], o))
			continue;
		kernel_cell(kc, sizeof(kc), &p[k], o);
		snprintf(vd, sizeof(vd), "%s", verdict(p[k].a));
		if (p[k].a->ok != p[k].b->ok)
			snprintf(vd, sizeof(vd), "%s -> %s", verdict(p[k].a), verdict(p[k].b));
		fprintf(f, md ? "| %s | %s | %s | %s |" : "%-14s  %-24s  %-24s  %-20s",
			kc, p[k].a->file, p[k].a->prog, vd);
		for (int i = 0; i < o->n_figs; i++) {
			value_cell(va, sizeof(va), p[k].a->fig[o->figs[i]]);
			value_cell(vb, sizeof(vb), p[k].b->fig[o->figs[i]]);
			diff_cell(d, sizeof(d), &p[k], o->figs[i]);
			if (md)
				fprintf(f, " %s | %s | %s |", va, vb, d);
			else
				fprintf(f, i + 1 < o->n_figs ? "  %11s  %11s  %-18s" :
					"  %11s  %11s  %s", va, vb, d);
		}
		fputc('\n', f);
	}
}

/*
 * Whether a gated figure of p grew beyond its threshold.  A base that
 * failed has partial figures: its verdict is the finding, not them.
 */
static bool grew(const struct pair *p, int fig, const struct cmp_opts *o)
{
	long a = p->a->fig[fig], b = p->b->fig[fig];

	if (o->threshold[fig] == NO_GATE || !p->a->ok || a < 0 || b < 0 || b <= a)
		return false;
	return vc_change_pct(p, fig) > o->threshold[fig];
}

int vc_gate(FILE *f, const struct pair *p, size_t n, const struct cmp_opts *o, size_t only_b)
{
	size_t regressed = 0, stopped = 0, changed = 0;
	char kc[160];

	for (size_t k = 0; k < n; k++) {
		bool bad = false;

		kernel_cell(kc, sizeof(kc), &p[k], o);
		changed += p[k].key > 0;
		if (p[k].a->ok && !p[k].b->ok) {
			fprintf(f, "%s: %s %s/%s: stopped verifying: %s\n",
				o->gate ? "REGRESSED" : "changed", kc, p[k].b->file, p[k].b->prog,
				p[k].b->error ? p[k].b->error : "");
			stopped++;
			bad = true;
		}
		for (int fig = 0; fig < VC_NR_FIGS && p[k].b->ok; fig++) {
			if (!grew(&p[k], fig, o))
				continue;
			fprintf(f, "%s: %s %s/%s: %s %ld -> %ld (%+.2f%%, allowed +%g%%)\n",
				o->gate ? "REGRESSED" : "grew", kc, p[k].b->file, p[k].b->prog,
				vcost_figs[fig].csv, p[k].a->fig[fig], p[k].b->fig[fig],
				vc_change_pct(&p[k], fig), o->threshold[fig]);
			bad = true;
		}
		regressed += bad;
	}
	fprintf(f, "verifier-compare: %zu programs compared, %zu changed, %zu %s ",
		n, changed, regressed, o->gate ? "regressed" : "worse");
	fprintf(f, "(%zu stopped verifying), %zu without a base%s\n",
		stopped, only_b, o->gate ? "" : "; not gated");
	return o->gate && regressed ? 1 : 0;
}
