// SPDX-License-Identifier: GPL-2.0
/*
 * bench verifier-compare: two verifier-cost reports side by side, like
 * the kernel's "veristat -C": per program the two values of each figure
 * and the change, sorted by the largest change.  BASE vs CANDIDATE (a
 * program matched by kernel, file and program name), or with --kernels
 * the kernels of the reports, each against the first.  Then the gate:
 * exit 1 when a program that verified no longer does, or a figure grew
 * by more than its threshold.  The figures are exact counts, so the
 * default threshold of instructions processed and states is 0%.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "options.h"
#include "vcost.h"
#include "vcost_gate.h"

#define WHO "bench verifier-compare"

static const char usage_text[] =
"Usage: bench verifier-compare [OPTIONS] BASE.json CANDIDATE.json\n"
"       bench verifier-compare --kernels [OPTIONS] REPORT.json...\n"
"\n"
"Compares bench verifier-cost --json reports like veristat -C: per program\n"
"(matched by kernel, file and program) each figure's two values and the\n"
"change, largest change first.  --kernels compares the kernels of the\n"
"reports instead, each against the first (or --base-kernel).\n"
"\n"
"  -f, --filter GLOB     only FILE/PROG (or FILE or PROG) matching GLOB;\n"
"                        !GLOB leaves out; repeatable\n"
"  -e, --figures LIST    figures shown, comma-separated CSV names (default\n"
"                        total_insns,total_states,peak_states)\n"
"  --min-change PCT      only programs whose verdict changed or a shown\n"
"                        figure moved by at least PCT percent\n"
"  --threshold FIG=PCT   gate: FIG may grow by at most PCT percent; \"off\"\n"
"                        for none; repeatable (default: total_insns,\n"
"                        total_states and peak_states 0, the rest off)\n"
"  --base-kernel NAME    with --kernels: the kernel the others compare with\n"
"  --gate / --no-gate    gate the comparison (default: on for BASE vs\n"
"                        CANDIDATE, off for --kernels)\n"
"  -o, --format F        text (default), markdown or csv\n"
"\n"
"Exit codes: 0 nothing regressed (or not gated), 1 a program stopped\n"
"verifying or a gated figure grew beyond its threshold, 2 bad input.\n";

#define bad_input(...) bench_cmd_usage_error(WHO, __VA_ARGS__)

static int parse_figs(const char *arg, struct cmp_opts *o)
{
	char *s = strdup(arg), *tok, *save = NULL;
	int ret = 0;

	o->n_figs = 0;
	for (tok = strtok_r(s, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int f = vcost_fig_by_name(tok);

		if (f < 0 || o->n_figs == VC_NR_FIGS)
			ret = bad_input("--figures: unknown figure '%s' (expected CSV names %s)",
					tok, "such as total_insns,total_states,xlated_size");
		else
			o->figs[o->n_figs++] = f;
	}
	free(s);
	if (!ret && !o->n_figs)
		ret = bad_input("--figures '%s': expected comma-separated figure names", arg);
	return ret;
}

static int parse_threshold(const char *arg, struct cmp_opts *o)
{
	const char *eq = strchr(arg, '=');
	char name[64], *end;
	double v;
	int f;

	if (!eq || eq - arg >= (int)sizeof(name))
		return bad_input("--threshold '%s': %s", arg,
				 "expected FIG=PCT or FIG=off, e.g. total_insns=0");
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	f = vcost_fig_by_name(name);
	if (f < 0)
		return bad_input("--threshold '%s': unknown figure '%s' (%s)", arg, name,
				 "expected a CSV name such as total_insns");
	if (!strcmp(eq + 1, "off")) {
		o->threshold[f] = NO_GATE;
		return 0;
	}
	errno = 0;
	v = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !(v >= 0 && v <= 1e6))
		return bad_input("--threshold '%s': %s", arg,
				 "expected a percentage from 0 to 1000000, or off");
	o->threshold[f] = v;
	return 0;
}

static int parse_pct(const char *opt, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= 0 && *out <= 1e6))
		return bad_input("%s '%s': expected a percentage, e.g. 1 or 0.5", opt, arg);
	return 0;
}

static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	static const struct option longs[] = {
		{ "filter", required_argument, NULL, 'f' },
		{ "figures", required_argument, NULL, 'e' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "threshold", required_argument, NULL, 't' },
		{ "base-kernel", required_argument, NULL, 'K' },
		{ "kernels", no_argument, NULL, 'k' },
		{ "gate", no_argument, NULL, 'g' },
		{ "no-gate", no_argument, NULL, 'G' },
		{ "format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c, ret = 0;

	optind = 1;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, ":f:e:o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->filters[o->n_filters++] = optarg;
			break;
		case 'e':
			ret = parse_figs(optarg, o);
			break;
		case 'm':
			ret = parse_pct("--min-change", optarg, &o->min_change);
			break;
		case 't':
			ret = parse_threshold(optarg, o);
			break;
		case 'K':
			o->base_kernel = optarg;
			break;
		case 'k':
			o->kernels = true;
			break;
		case 'g':
			o->gate = 1;
			break;
		case 'G':
			o->gate = 0;
			break;
		case 'o':
			o->format = vcost_format_by_name(optarg);
			if (o->format != VCF_TEXT && o->format != VCF_MARKDOWN &&
			    o->format != VCF_CSV)
				ret = bad_input("--format '%s': expected text, markdown or csv",
						optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		case ':':
			return bad_input("option '%s' needs a value (see " WHO " --help)",
					 argv[optind - 1]);
		default:
			return bad_input("unknown option '%s' (see " WHO " --help)",
					 argv[optind - 1]);
		}
	}
	return ret;
}

static int by_change(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;
	int c;

	if (p->key != q->key)
		return p->key < q->key ? 1 : -1;
	c = strcmp(p->a->file, q->a->file);
	if (c)
		return c;
	c = strcmp(p->a->prog, q->a->prog);
	return c ? c : strcmp(p->b->kernel, q->b->kernel);
}

/* verdict changes sort first, then the largest |change| of a figure shown */
static void set_key(struct pair *p, const struct cmp_opts *o)
{
	p->key = p->a->ok != p->b->ok ? INFINITY : 0;
	for (int i = 0; i < o->n_figs; i++)
		p->key = fmax(p->key, fabs(vc_change_pct(p, o->figs[i])));
}

/* The pairs to compare: b's rows matched in a (same kernel, or base). */
static size_t make_pairs(const struct vcost_table *a, const struct vcost_table *b,
			 const struct cmp_opts *o, const char *base, struct pair *out,
			 size_t *only_b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct vcost_row *r = &b->rows[i], *m;

		if (!vcost_match(o->filters, o->n_filters, r->file, r->prog))
			continue;
		if (base && !strcmp(r->kernel, base))
			continue;
		m = vcost_find(a, base ? base : r->kernel, r->file, r->prog);
		if (!m) {
			(*only_b)++;
			continue;
		}
		out[n].a = m;
		out[n].b = r;
		set_key(&out[n], o);
		n++;
	}
	return n;
}

static int compare(const struct vcost_table *a, const struct vcost_table *b,
		   const struct cmp_opts *o)
{
	const char *base = NULL;
	struct pair *pairs = calloc(b->n + 1, sizeof(*pairs));
	size_t n, only_b = 0;
	int ret;

	if (!pairs)
		return BENCH_EXIT_FAIL;
	if (o->kernels) {
		base = o->base_kernel ? o->base_kernel : (a->n ? a->rows[0].kernel : "");
		if (!vcost_find_kernel(a, base)) {
			free(pairs);
			return bad_input("--base-kernel '%s': %s", base,
					 "no such kernel in the reports (expected one they name)");
		}
	}
	n = make_pairs(a, b, o, base, pairs, &only_b);
	qsort(pairs, n, sizeof(*pairs), by_change);
	vc_print_pairs(stdout, pairs, n, o);
	ret = vc_gate(stdout, pairs, n, o, only_b);
	free(pairs);
	return ret;
}

static int read_report(const char *path, struct vcost_table *t)
{
	char err[256];

	if (vcost_read_json(path, t, err, sizeof(err)))
		return bad_input("'%s': %s (expected a bench verifier-cost --json report)",
				 path, err);
	return 0;
}

static int compare_main(int argc, char **argv)
{
	struct cmp_opts o = {
		.filters = calloc(argc + 1, sizeof(char *)),
		.figs = { VC_TOTAL_INSNS, VC_TOTAL_STATES, VC_PEAK_STATES }, .n_figs = 3,
		.gate = -1,
	};
	struct vcost_table a = {}, b = {};
	int ret, n_files;

	if (!o.filters)
		return BENCH_EXIT_FAIL;
	for (int f = 0; f < VC_NR_FIGS; f++)
		o.threshold[f] = NO_GATE;
	o.threshold[VC_TOTAL_INSNS] = 0;
	o.threshold[VC_TOTAL_STATES] = 0;
	o.threshold[VC_PEAK_STATES] = 0;
	ret = parse_args(argc, argv, &o);
	if (ret)
		goto out;
	n_files = argc - optind;
	if (o.gate < 0)
		o.gate = !o.kernels;
	if (!o.kernels && n_files != 2) {
		ret = bad_input("expected two files, BASE.json CANDIDATE.json, got %d%s",
				n_files, " (see " WHO " --help)");
		goto out;
	}
	if (o.kernels && n_files < 1) {
		ret = bad_input("--kernels: expected one or more REPORT.json files, got none");
		goto out;
	}
	for (int i = optind; i < argc && !ret; i++)
		ret = read_report(argv[i], o.kernels || i == optind ? &a : &b);
	if (!ret)
		ret = compare(&a, o.kernels ? &a : &b, &o);
out:
	vcost_free(&a);
	vcost_free(&b);
	free(o.filters);
	return ret < 0 ? 0 : ret;
}

BENCH_COMMAND(vcost_compare_command, "verifier-compare", compare_main);
