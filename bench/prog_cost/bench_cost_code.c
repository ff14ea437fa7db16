// SPDX-License-Identifier: GPL-2.0
/*
 * The same source built two ways, on the same packets:
 *
 *   prog-cost-subprog  progs/test_subprog.bpf.c: the per-word step as a
 *                      real BPF-to-BPF call (noinline) or inlined (inline)
 *   prog-cost-isa      progs/test_isa.bpf.c built for -mcpu=v1, v2, v3 and,
 *                      with clang 18 or newer, v4
 *
 * Both programs read the first words of the packet; the inputs are 16
 * frames of 64 pseudo-random bytes, the same on every run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "build_info.h"
#include "cost_inputs.h"
#include "cost_methods.h"
#include "cost_veth.h"
#include "isa.h"
#include "prog_cost.h"
#include "test_subprog.skel.h"
#include "test_isa_v1.skel.h"
#include "test_isa_v2.skel.h"
#include "test_isa_v3.skel.h"
#if __has_include("test_isa_v4.skel.h")
#include "test_isa_v4.skel.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;
#define HAVE_ISA_V4 1
#endif

#define N_FRAMES	16
#define FRAME_LEN	64
#define FRAME_SEED	0x15a

static struct {
	struct bpf_object *obj;
	struct cost_veth *veth;
} code;

static void plain_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->env->name);
}

/* Open and load an embedded object with only prog_name, then measure it. */
static int measure_object(struct cost_run *r, const void *elf, size_t elf_len,
			  const char *obj_name, const char *prog_name, char *err,
			  size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = obj_name);
	struct bpf_program *prog, *p;
	int ret;

	code.obj = bpf_object__open_mem(elf, elf_len, &opts);
	if (!code.obj)
		return cost_setup_failed(err, len, "opening %s: %s", obj_name,
					 errname(errno));
	prog = bpf_object__find_program_by_name(code.obj, prog_name);
	if (!prog)
		return cost_setup_failed(err, len, "%s has no program %s", obj_name,
					 prog_name);
	bpf_object__for_each_program(p, code.obj)
		bpf_program__set_autoload(p, p == prog);
	ret = bpf_object__load(code.obj);
	if (ret)
		return cost_setup_failed(err, len, "loading %s: %s", obj_name,
					 errname(ret));
	if (cost_inputs_random(r->inputs, N_FRAMES, FRAME_LEN, FRAME_SEED))
		return cost_setup_failed(err, len, "out of memory");
	snprintf(r->inputs->what, sizeof(r->inputs->what),
		 "%d frames of %d pseudo-random bytes",
		 N_FRAMES, FRAME_LEN);
	cost_use_test_run(&r->m[COST_TEST_RUN], bpf_program__fd(prog), prog_name,
			  r->inputs);
	code.veth = cost_use_veth(&r->m[COST_BPF_STATS], bpf_program__fd(prog),
				  prog_name, r->inputs);
	return 0;
}

static void code_teardown(void)
{
	cost_veth_close(code.veth);
	bpf_object__close(code.obj);
	memset(&code, 0, sizeof(code));
}

/* ---- prog-cost-subprog ---------------------------------------------------- */

static const char *const subprog_variants[] = { "noinline", "inline", NULL };

static int subprog_setup(struct cost_run *r, char *err, size_t len)
{
	const void *elf;
	size_t n;

	args = r->args;
	elf = test_subprog__elf_bytes(&n);
	return measure_object(r, elf, n, "test_subprog",
			      !strcmp(args->variant, "inline") ? "subprog_inlined" :
			      "subprog_called", err, len);
}

static const struct cost_ops subprog_cost = {
	.variants = subprog_variants,
	.config_name = plain_config,
	.setup = subprog_setup,
	.teardown = code_teardown,
};

static const struct bench_ops bench_cost_subprog = {
	.name = "prog-cost-subprog",
	.desc = "XDP program, --variant noinline (a BPF-to-BPF call) or inline",
	.opts = (const char *const[]){ "variant", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &subprog_cost,
};
BENCH_REGISTER(bench_cost_subprog);

/* ---- prog-cost-isa ---------------------------------------------------------- */

static const char *const isa_variants[] = { "v3", "v1", "v2", "v4", NULL };

static const struct {
	const char *cpu;
	const void *(*elf_bytes)(size_t *sz);
} isa_objects[] = {
	{ "v1", test_isa_v1__elf_bytes },
	{ "v2", test_isa_v2__elf_bytes },
	{ "v3", test_isa_v3__elf_bytes },
#ifdef HAVE_ISA_V4
	{ "v4", test_isa_v4__elf_bytes },
#endif
};

/* Both methods unavailable, for the same reason. */
static int isa_unavailable(struct cost_run *r, const char *reason)
{
	cost_unavailable(&r->m[COST_TEST_RUN], "%s", reason);
	cost_unavailable(&r->m[COST_BPF_STATS], "%s", reason);
	return 0;
}

static int isa_setup(struct cost_run *r, char *err, size_t len)
{
	char obj_name[32], reason[200];
	const void *elf;
	size_t n;

	args = r->args;
	for (size_t i = 0; i < ARRAY_SIZE(isa_objects); i++) {
		if (strcmp(isa_objects[i].cpu, args->variant))
			continue;
		if (!strcmp(args->variant, "v4") &&
		    !isa_v4_supported(reason, sizeof(reason)))
			return isa_unavailable(r, reason);
		elf = isa_objects[i].elf_bytes(&n);
		snprintf(obj_name, sizeof(obj_name), "test_isa_%s", args->variant);
		return measure_object(r, elf, n, obj_name, "isa_mix", err, len);
	}
	snprintf(reason, sizeof(reason),
		 "not built: the build's clang (%s %s) cannot compile -mcpu=%s (needs clang 18 or newer)",
		 BUILD_CLANG,
		 BUILD_CLANG_VERSION, args->variant);
	return isa_unavailable(r, reason);
}

static const struct cost_ops isa_cost = {
	.variants = isa_variants,
	.config_name = plain_config,
	.setup = isa_setup,
	.teardown = code_teardown,
};

static const struct bench_ops bench_cost_isa = {
	.name = "prog-cost-isa",
	.desc =
		"XDP program built for --variant v3 (default), v1, v2 or v4 (-mcpu=, v4 with clang 18+)",
	.opts = (const char *const[]){ "variant", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &isa_cost,
};
BENCH_REGISTER(bench_cost_isa);
