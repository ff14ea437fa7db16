// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of a verifier-cost report: the figures' names (veristat's
 * CSV columns), and a report read back from its --json file, for
 * verifier-compare.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"
#include "json_reader.h"
#include "vcost.h"

const struct vcost_fig_def vcost_figs[VC_NR_FIGS] = {
	[VC_DURATION]		 = { "duration", "Time (us)", "us" },
	[VC_TOTAL_INSNS]	 = { "total_insns", "Insns", "insns" },
	[VC_TOTAL_STATES]	 = { "total_states", "States", "states" },
	[VC_PEAK_STATES]	 = { "peak_states", "Peak", "states" },
	[VC_MAX_STATES_PER_INSN] = { "max_states_per_insn", "States/insn", "states" },
	[VC_MARK_READ]		 = { "mark_read", "Mark read", "insns" },
	[VC_STACK_DEPTH]	 = { "stack_depth", "Stack", "bytes" },
	[VC_MAX_STACK_DEPTH]	 = { "max_stack_depth", "Max stack", "bytes" },
	[VC_PROG_SIZE]		 = { "prog_size", "Prog size", "insns" },
	[VC_XLATED_SIZE]	 = { "xlated_size", "Xlated", "bytes" },
	[VC_JITED_SIZE]		 = { "prog_size_jited", "Jited", "bytes" },
	[VC_RUN_NS]		 = { "run_ns", "Run (ns)", "ns" },
};

struct vcost_row *vcost_add(struct vcost_table *t)
{
	struct vcost_row *r;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		void *p = realloc(t->rows, cap * sizeof(*t->rows));

		if (!p)
			return NULL;
		t->rows = p;
		t->cap = cap;
	}
	r = &t->rows[t->n++];
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < VC_NR_FIGS; i++)
		r->fig[i] = -1;
	return r;
}

void vcost_free_row(struct vcost_row *r)
{
	free(r->kernel);
	free(r->file);
	free(r->prog);
	free(r->prog_type);
	free(r->error);
}

void vcost_free(struct vcost_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		vcost_free_row(&t->rows[i]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

int vcost_fig_by_name(const char *name)
{
	for (int i = 0; i < VC_NR_FIGS; i++)
		if (!strcmp(name, vcost_figs[i].csv))
			return i;
	if (!strcmp(name, "insns"))
		return VC_TOTAL_INSNS;
	if (!strcmp(name, "states"))
		return VC_TOTAL_STATES;
	return -1;
}

const struct vcost_row *vcost_find(const struct vcost_table *t, const char *kernel,
				   const char *file, const char *prog)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct vcost_row *r = &t->rows[i];

		if (!strcmp(r->kernel, kernel) && !strcmp(r->file, file) &&
		    !strcmp(r->prog, prog))
			return r;
	}
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int read_row(const struct json_value *o, struct vcost_table *t)
{
	const char *verdict = json_get_string(o, "verdict");
	struct vcost_row *r;
	double v;

	if (!json_get_string(o, "kernel") || !json_get_string(o, "file_name") ||
	    !json_get_string(o, "prog_name") || !verdict)
		return -1;
	r = vcost_add(t);
	if (!r)
		return -1;
	r->kernel = strdup(json_get_string(o, "kernel"));
	r->file = strdup(json_get_string(o, "file_name"));
	r->prog = strdup(json_get_string(o, "prog_name"));
	r->prog_type = dup_or_null(json_get_string(o, "prog_type"));
	r->error = dup_or_null(json_get_string(o, "error"));
	r->ok = !strcmp(verdict, "success");
	for (int i = 0; i < VC_NR_FIGS; i++)
		if (!json_get_number(o, vcost_figs[i].csv, &v))
			r->fig[i] = (long)v;
	return 0;
}

static int read_report(const struct json_value *root, struct vcost_table *t)
{
	const struct json_value *progs = json_get(root, "programs");

	if (!progs || progs->type != JSON_ARRAY)
		return -1;
	for (size_t i = 0; i < progs->array.n; i++)
		if (read_row(&progs->array.items[i], t))
			return -1;
	return 0;
}

int vcost_read_json(const char *path, struct vcost_table *t, char *err, size_t err_len)
{
	struct json_value *root = json_parse_file(path, err, err_len);
	int ret = 0;

	if (!root)
		return -1;
	if (root->type == JSON_ARRAY) {
		for (size_t i = 0; i < root->array.n && !ret; i++)
			ret = read_report(&root->array.items[i], t);
	} else {
		ret = read_report(root, t);
	}
	if (ret)
		snprintf(err, err_len, "not a bench verifier-cost --json report");
	json_free(root);
	return ret;
}

/*
 * veristat's -f: "FILE/PROG" globs both, a bare glob either; a leading
 * '!' excludes.  No filters: everything.
 */
bool vcost_match(char *const *filters, int n, const char *file, const char *prog)
{
	bool any_allow = false, allowed = false;

	for (int i = 0; i < n; i++) {
		const char *f = filters[i];
		bool deny = f[0] == '!';
		const char *slash;
		bool hit;

		f += deny;
		slash = strchr(f, '/');
		if (slash) {
			char *ff = strndup(f, slash - f);

			hit = ff && !fnmatch(ff, file, 0) && !fnmatch(slash + 1, prog, 0);
			free(ff);
		} else {
			hit = !fnmatch(f, file, 0) || !fnmatch(f, prog, 0);
		}
		if (deny && hit)
			return false;
		if (!deny) {
			any_allow = true;
			allowed |= hit;
		}
	}
	return !any_allow || allowed;
}

bool vcost_find_kernel(const struct vcost_table *t, const char *kernel)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].kernel, kernel))
			return true;
	return false;
}
