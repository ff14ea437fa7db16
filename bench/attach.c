// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the producer programs.  Each progs/bench_*.bpf.c defines every
 * producer three times (fentry, tp, raw_tp; see progs/bench_producer.h);
 * only the one this kernel can run is loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bench.h"

enum bench_attach bench_attach_used = BENCH_ATTACH_AUTO;
char bench_attach_note[256];

static const char *const attach_names[] = {
	[BENCH_ATTACH_AUTO] = "auto",
	[BENCH_ATTACH_FENTRY] = "fentry",
	[BENCH_ATTACH_TP] = "tp",
	[BENCH_ATTACH_RAW_TP] = "raw_tp",
};

const char *bench_attach_name(enum bench_attach a)
{
	return attach_names[a];
}

int bench_attach_parse(const char *s, enum bench_attach *a)
{
	for (size_t i = 0; i < ARRAY_SIZE(attach_names); i++) {
		if (!strcmp(s, attach_names[i])) {
			*a = i;
			return 0;
		}
	}
	return -1;
}

void bench_config_fill(struct bench_config *cfg)
{
	cfg->target_tgid = getpid();
	cfg->batch_cnt = env.batch_cnt;
	cfg->getpgid_nr = SYS_getpgid;
	cfg->sampled = env.sampled;
}

static bool is_wanted(const struct bpf_program *prog, const char *prefix,
		      enum bench_attach mode)
{
	const char *name = bpf_program__name(prog);
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && name[n] == '_' &&
	       !strcmp(name + n + 1, bench_attach_name(mode));
}

int bench_load_attach(struct bpf_object_skeleton *s, const char *prefix,
		      enum bench_attach mode, struct bpf_link **link,
		      char *err, size_t len)
{
	struct bpf_program *prog, *target = NULL;
	struct bpf_object *obj = *s->obj;
	int ret;

	*link = NULL;
	bpf_object__for_each_program(prog, obj) {
		bool want = is_wanted(prog, prefix, mode);

		bpf_program__set_autoload(prog, want);
		if (want)
			target = prog;
	}
	if (!target)
		return bench_err(err, len, "no program %s_%s in %s", prefix,
				 bench_attach_name(mode), bpf_object__name(obj));
	/* Through the skeleton, which maps .bss where skel->bss points. */
	ret = bpf_object__load_skeleton(s);
	if (ret)
		return bench_err(err, len, "%s: %s on load", bench_attach_name(mode),
				 errname(-ret));
	*link = bpf_program__attach(target);
	if (!*link) {
		ret = errno;
		return bench_err(err, len, "%s: %s on attach", bench_attach_name(mode),
				 errname(ret));
	}
	return 0;
}

static int try_mode(bench_load_fn load, enum bench_attach mode,
		    char *err, size_t len)
{
	int ret = load(mode, err, len);

	if (!ret)
		bench_attach_used = mode;
	return ret;
}

int bench_load_producer(bench_load_fn load, char *err, size_t len)
{
	static const enum bench_attach order[] = {
		BENCH_ATTACH_FENTRY, BENCH_ATTACH_TP, BENCH_ATTACH_RAW_TP,
	};
	char why[256];
	size_t off = 0;

	bench_attach_note[0] = '\0';
	if (env.attach != BENCH_ATTACH_AUTO)
		return try_mode(load, env.attach, err, len);
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		if (!try_mode(load, order[i], why, sizeof(why)))
			return 0;
		/* Say why each better attach type was passed over. */
		if (off < sizeof(bench_attach_note))
			off += snprintf(bench_attach_note + off,
					sizeof(bench_attach_note) - off, "%s%s",
					off ? "; " : "", why);
	}
	return bench_err(err, len, "no attach type works: %s", bench_attach_note);
}
