// SPDX-License-Identifier: GPL-2.0
/*
 * Loading each program of an object alone, as the kernel's veristat does:
 * the object is opened once per program with only that program to load,
 * the program's verifier log level set to BPF_LOG_STATS (4), so that the
 * log holds only the verifier's stats lines, which are parsed here.  The
 * sizes come from bpf_prog_info.  A program that fails to load is loaded
 * once more with the full log, for the first line of the error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util.h"
#include "vcost.h"

#define STATS_LOG_SIZE	(64 * 1024)
#define FULL_LOG_SIZE	(16 * 1024 * 1024)
#define BPF_LOG_STATS	4

bool vcost_verbose;
unsigned int vcost_run_repeat;

/* libbpf's last warning: the reason when the verifier gave none. */
static char last_warning[512];

static int keep_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(last_warning)];
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	/* libbpf's frame around the verifier log is no reason. */
	if (n && !strstr(line, "PROG LOAD LOG --") && !strstr(line, "failed to load object"))
		memcpy(last_warning, line, n + 1);
	return 0;
}

/*
 * The stack depth line, "stack depth 8+0+16" (a depth per subprogram; the
 * figure is their sum, as veristat's), and on kernels that print it
 * " max 24", the deepest call chain.
 */
static void parse_stack(const char *line, long *sum, long *max)
{
	const char *p = line + strlen("stack depth ");
	char *end;

	*sum = 0;
	for (;;) {
		*sum += strtol(p, &end, 10);
		if (end == p || *end != '+')
			break;
		p = end + 1;
	}
	sscanf(end, " max %ld", max);
}

/* The stats lines of a BPF_LOG_STATS log into row's figures. */
static void parse_stats(char *log, struct vcost_row *r)
{
	long *f = r->fig;
	char *line, *save = NULL;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "verification time %ld usec", &f[VC_DURATION]) == 1)
			continue;
		if (sscanf(line,
			   "processed %ld insns (limit %*d) max_states_per_insn %ld total_states %ld peak_states %ld mark_read %ld",
			   &f[VC_TOTAL_INSNS], &f[VC_MAX_STATES_PER_INSN],
			   &f[VC_TOTAL_STATES], &f[VC_PEAK_STATES], &f[VC_MARK_READ]) == 5)
			continue;
		if (!strncmp(line, "stack depth ", 12))
			parse_stack(line, &f[VC_STACK_DEPTH], &f[VC_MAX_STACK_DEPTH]);
	}
}

/* A line of the verifier's log that is its own figures, not the error. */
static bool is_stats_line(const char *l)
{
	static const char *const stats[] = {
		"processed ", "verification time ", "stack depth ",
		"insns processed ",	/* 7.2 */
	};

	for (size_t i = 0; i < ARRAY_SIZE(stats); i++)
		if (!strncmp(l, stats[i], strlen(stats[i])))
			return true;
	return !*l;
}

/*
 * The error of a full log: the last line before the stats lines at its
 * end (the verifier says why it stopped just before it counts).
 */
static char *log_error(char *log)
{
	char *end = log + strlen(log), *l;

	while (end > log) {
		while (end > log && end[-1] == '\n')
			*--end = '\0';
		l = memrchr(log, '\n', end - log);
		l = l ? l + 1 : log;
		if (!is_stats_line(l))
			return strdup(l);
		end = l;
	}
	return NULL;
}

/*
 * BPF_MAP_TYPE_CGRP_STORAGE (6.2) by its value: older kernel trees' uapi
 * headers, which a kselftest build in such a tree uses, lack the name.
 */
#define VCOST_MAP_TYPE_CGRP_STORAGE 32

static void fixup_maps(struct bpf_object *obj)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		bpf_map__set_pin_path(m, NULL);
		switch ((int)bpf_map__type(m)) {
		case BPF_MAP_TYPE_SK_STORAGE:
		case BPF_MAP_TYPE_TASK_STORAGE:
		case BPF_MAP_TYPE_INODE_STORAGE:
		case BPF_MAP_TYPE_CGROUP_STORAGE:
		case VCOST_MAP_TYPE_CGRP_STORAGE:
		case BPF_MAP_TYPE_STRUCT_OPS:
			break;
		default:
			if (!bpf_map__max_entries(m))
				bpf_map__set_max_entries(m, 1);
		}
	}
}

/*
 * Load program number idx of path alone with the log level given; the
 * object, for its program's fd, or NULL with *err set.
 */
static struct bpf_object *load_one(const char *path, int idx, char *log, size_t log_size,
				   __u32 level, int *err)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p, *mine = NULL;
	int i = 0;

	if (!obj) {
		*err = -errno;
		return NULL;
	}
	bpf_object__for_each_program(p, obj) {
		bpf_program__set_autoload(p, i == idx);
		if (i++ == idx)
			mine = p;
	}
	fixup_maps(obj);
	log[0] = '\0';
	bpf_program__set_log_buf(mine, log, log_size);
	bpf_program__set_log_level(mine, level);
	*err = bpf_object__load(obj);
	return obj;
}

static void measure(const char *path, int idx, struct vcost_row *r, char *log)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct bpf_object *obj;
	int err;

	last_warning[0] = '\0';
	obj = load_one(path, idx, log, STATS_LOG_SIZE, BPF_LOG_STATS, &err);
	r->ok = obj && !err;
	if (obj)
		parse_stats(log, r);
	if (r->ok) {
		struct bpf_program *p = bpf_object__next_program(obj, NULL);

		while (p && !bpf_program__autoload(p))
			p = bpf_object__next_program(obj, p);
		if (p && !bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len)) {
			r->fig[VC_XLATED_SIZE] = info.xlated_prog_len;
			r->fig[VC_JITED_SIZE] = info.jited_prog_len;
			r->fig[VC_RUN_NS] = vcost_run_ns(bpf_program__fd(p),
							 bpf_program__type(p),
							 vcost_run_repeat);
		}
	}
	bpf_object__close(obj);
	if (r->ok)
		return;
	char *full = malloc(FULL_LOG_SIZE);

	if (full) {
		obj = load_one(path, idx, full, FULL_LOG_SIZE, 1 | BPF_LOG_STATS, &err);
		bpf_object__close(obj);
		if (vcost_verbose)
			fprintf(stderr, "---- %s/%s: the verifier's log\n%s---- end\n",
				r->file, r->prog, full);
		r->error = log_error(full);
		free(full);
	}
	if (!r->error || !*r->error) {
		free(r->error);
		r->error = strdup(last_warning[0] ? last_warning : strerror(-err));
	}
}

int vcost_load_object(const char *path, const char *kernel, struct vcost_table *t)
{
	libbpf_print_fn_t old = libbpf_set_print(keep_warning);
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct bpf_program *p;
	char *log = malloc(STATS_LOG_SIZE);
	int idx = 0, ret = 0;

	if (!obj || !log) {
		ret = obj ? -ENOMEM : -errno;
		goto out;
	}
	bpf_object__for_each_program(p, obj) {
		struct vcost_row *r = vcost_add(t);

		if (!r) {
			ret = -ENOMEM;
			break;
		}
		r->kernel = strdup(kernel);
		r->file = strdup(base);
		r->prog = strdup(bpf_program__name(p));
		r->prog_type = strdup(libbpf_bpf_prog_type_str(bpf_program__type(p)) ?: "unknown");
		r->fig[VC_PROG_SIZE] = bpf_program__insn_cnt(p);
		measure(path, idx++, r, log);
	}
out:
	bpf_object__close(obj);
	free(log);
	libbpf_set_print(old);
	return ret;
}
