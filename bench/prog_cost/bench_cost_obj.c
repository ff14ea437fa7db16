// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost --obj FILE.bpf.o --prog NAME [--data-in FILE]...: the cost of
 * any program, loaded from its object alone (the object's other programs
 * are not loaded).  Every program type the kernel can test-run with
 * repeat is measured by test_run over the --data-in inputs; an XDP
 * program is also run attached to a veth pair and sent the same inputs.
 * The run is filed under prog-cost/NAME, so that builds of one program
 * from different commits compare; --variant labels them (default: the
 * object's file name).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "cost_inputs.h"
#include "cost_methods.h"
#include "cost_veth.h"
#include "prog_cost.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;

static struct {
	struct bpf_object *obj;
	struct cost_veth *veth;
} obj_bench;

static void obj_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", r->env->name, r->args->prog_name);
}

static int no_such_program(char *err, size_t len)
{
	struct bpf_program *p;
	size_t off;

	off = snprintf(err, len, "--prog '%s': %s has no such program (it has:",
		       args->prog_name, args->obj_path);
	bpf_object__for_each_program(p, obj_bench.obj)
		if (off < len)
			off += snprintf(err + off, len - off, " %s", bpf_program__name(p));
	if (off < len)
		snprintf(err + off, len - off, ")");
	return BENCH_EXIT_USAGE;
}

static int open_program(struct bpf_program **prog, char *err, size_t len)
{
	struct bpf_program *p;
	char why[128];
	int ret;

	obj_bench.obj = bpf_object__open_file(args->obj_path, NULL);
	if (!obj_bench.obj) {
		ret = -errno;
		libbpf_strerror(ret, why, sizeof(why));
		bench_err(err, len, "--obj '%s': not a BPF object libbpf can open (%s)",
			  args->obj_path, why);
		return BENCH_EXIT_USAGE;
	}
	*prog = bpf_object__find_program_by_name(obj_bench.obj, args->prog_name);
	if (!*prog)
		return no_such_program(err, len);
	bpf_object__for_each_program(p, obj_bench.obj)
		bpf_program__set_autoload(p, p == *prog);
	ret = bpf_object__load(obj_bench.obj);
	if (ret)
		return cost_setup_failed(err, len,
					 "loading %s from %s: %s (bench -v shows libbpf's and the verifier's messages)",
					 args->prog_name, args->obj_path, errname(ret));
	return 0;
}

static int obj_setup(struct cost_run *r, char *err, size_t len)
{
	struct bpf_program *prog;
	int ret, fd;

	args = r->args;
	ret = open_program(&prog, err, len);
	if (ret)
		return ret;
	if (cost_inputs_from_files(r->inputs, args, err, len))
		return BENCH_EXIT_USAGE;
	fd = bpf_program__fd(prog);
	cost_use_test_run(&r->m[COST_TEST_RUN], fd, args->prog_name, r->inputs);
	if (bpf_program__type(prog) != BPF_PROG_TYPE_XDP) {
		cost_unavailable(&r->m[COST_BPF_STATS],
				 "only XDP programs are run attached here (on a veth pair), and %s is a %s program",
				 args->prog_name, cost_prog_type(fd));
		return 0;
	}
	obj_bench.veth = cost_use_veth(&r->m[COST_BPF_STATS], fd, args->prog_name, r->inputs);
	return 0;
}

static void obj_teardown(void)
{
	cost_veth_close(obj_bench.veth);
	bpf_object__close(obj_bench.obj);
	memset(&obj_bench, 0, sizeof(obj_bench));
}

static const struct cost_ops obj_cost = {
	.config_name = obj_config,
	.setup = obj_setup,
	.teardown = obj_teardown,
};

static const struct bench_ops bench_cost_obj = {
	.name = "prog-cost",
	.desc = "any program: --obj FILE.bpf.o --prog NAME [--data-in FILE]... [--variant LABEL]",
	.opts = (const char *const[]){ "obj", "prog", "data-in", "variant", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &obj_cost,
};
BENCH_REGISTER(bench_cost_obj);
