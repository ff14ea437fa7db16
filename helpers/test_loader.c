// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS(): each program of an object is a subtest.  The object is
 * opened once to read every program's annotations (test_spec.c), then
 * again for each subtest with only that program (and the __auxiliary
 * ones) to load: the verifier's verdict and log are checked against
 * __success/__failure and __msg(), then one BPF_PROG_TEST_RUN against
 * __retval().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "btf_names.h"
#include "cap_helpers.h"
#include "insn_text.h"
#include "int_file.h"
#include "jit_text.h"
#include "test_loader.h"
#include "test_api.h"
#include "test_match.h"
#include "test_spec.h"
#include "test_texts.h"

#define LOG_BUF_SZ	(8u << 20)
/* What a program is denied when it is loaded "unprivileged". */
#define UNPRIV_CAPS	(1ULL << CAP_SYS_ADMIN | 1ULL << CAP_NET_ADMIN | \
			 1ULL << CAP_PERFMON | 1ULL << CAP_BPF)
/* The packet BPF_PROG_TEST_RUN gets: TEST_DATA_LEN zero bytes. */
#define RUN_DATA_LEN	64
/* __retval(POINTER_VALUE): any value will do (bpf_misc.h). */
#define POINTER_VALUE	0xcafe4all

struct subtest_ctx {
	struct test_loader *tester;
	const char *skel_name;
	const void *elf;
	size_t elf_sz;
	struct test_spec *specs;
	int n_specs;
};

/* __linear_size(): an skb whose linear part is that long. */
static bool set_linear_size(struct bpf_test_run_opts *opts, struct __sk_buff *ctx,
			    enum bpf_prog_type type, int size)
{
	if (size <= 0)
		return true;
	if (type != BPF_PROG_TYPE_SCHED_CLS && type != BPF_PROG_TYPE_SCHED_ACT &&
	    type != BPF_PROG_TYPE_CGROUP_SKB) {
		ASSERT_FAIL("__linear_size for a %s program (tc and cgroup_skb only)",
			    libbpf_bpf_prog_type_str(type));
		return false;
	}
	ctx->data_end = size;
	opts->ctx_in = ctx;
	opts->ctx_size_in = sizeof(*ctx);
	return true;
}

/*
 * One test run of prog; compare its return value with __retval()
 * (POINTER_VALUE: any).  True when the program ran.
 */
static bool check_retval(struct test_loader *tester, struct bpf_object *obj,
			 struct bpf_program *prog, const struct test_spec *spec,
			 const struct spec_mode *m)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .repeat = 1);
	unsigned char in[RUN_DATA_LEN] = {}, out[RUN_DATA_LEN * 4];
	enum bpf_prog_type type = bpf_program__type(prog);
	struct __sk_buff ctx = {};
	int err;

	if (tester->pre_execution_cb && tester->pre_execution_cb(obj)) {
		ASSERT_FAIL("pre_execution_cb failed");
		return false;
	}
	/*
	 * As the kernel's loader runs them: a syscall program with no packet
	 * and no repeat count, every other one with a packet in and room for
	 * one out (a netfilter program's run needs it).
	 */
	if (type == BPF_PROG_TYPE_SYSCALL) {
		opts.repeat = 0;
	} else {
		opts.data_in = in;
		opts.data_size_in = sizeof(in);
		opts.data_out = out;
		opts.data_size_out = sizeof(out);
	}
	if (!set_linear_size(&opts, &ctx, type, spec->linear_size))
		return false;
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err == -EOPNOTSUPP || err == -ENOTSUPP) {
		test__skip_reason("BPF_PROG_TEST_RUN not supported for %s programs (%s)",
				  libbpf_bpf_prog_type_str(type), strerror(EOPNOTSUPP));
		return false;
	}
	if (!ASSERT_OK(err, "bpf_prog_test_run"))
		return false;
	if (m->retval != POINTER_VALUE)
		ASSERT_EQ(opts.retval, (__u32)m->retval, "__retval");
	return true;
}

/*
 * __btf_func_path's object also serves as __btf_path's when there is
 * none, for kfuncs (as in the kernel's loader).
 */
static struct bpf_object *open_subtest(const struct subtest_ctx *c,
				       const struct test_spec *spec)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts,
		    .object_name = c->skel_name,
		    .btf_custom_path = spec->btf_path ? spec->btf_path :
				       spec->btf_func_path);
	struct bpf_object *obj = bpf_object__open_mem(c->elf, c->elf_sz, &opts);
	int err;

	if (!ASSERT_OK_PTR(obj, "bpf_object__open_mem"))
		return NULL;
	if (spec->btf_func_path) {
		err = btf_name_params_from(obj, spec->btf_func_path);
		if (err) {
			ASSERT_FAIL("__btf_func_path(\"%s\"): %s", spec->btf_func_path,
				    strerror(-err));
			bpf_object__close(obj);
			return NULL;
		}
	}
	return obj;
}

/* Only the tested program and the auxiliary ones are loaded. */
static struct bpf_program *pick_programs(const struct subtest_ctx *c,
					 struct bpf_object *obj,
					 const struct test_spec *spec,
					 bool unpriv)
{
	struct bpf_program *p, *tested = NULL;
	int i = 0;

	bpf_object__for_each_program(p, obj) {
		const struct test_spec *s = &c->specs[i++];
		bool aux = unpriv ? s->auxiliary_unpriv : s->auxiliary;

		bpf_program__set_autoload(p, s == spec || aux);
		if (s == spec)
			tested = p;
	}
	return tested;
}

static void setup_log(struct test_loader *tester, struct bpf_program *prog,
		      const struct test_spec *spec, const struct spec_mode *m)
{
	int level = spec->log_level;

	if (level < 0)
		level = m->n_msgs || m->expect_failure ? 1 : 0;
	tester->log_buf[0] = '\0';
	bpf_program__set_log_buf(prog, tester->log_buf, tester->log_buf_sz);
	bpf_program__set_log_level(prog, level);
	bpf_program__set_flags(prog, (bpf_program__flags(prog) | spec->prog_flags) &
			       ~spec->prog_flags_clear);
}

static void print_log(const char *log)
{
	fprintf(stderr, "VERIFIER LOG:\n=============\n%s=============\n", log);
}

/*
 * Without CAP_SYS_ADMIN and friends, but with those __caps_unpriv()
 * keeps.  Only the load is unprivileged: reading the program back (and
 * running it, as the kernel's test_verifier does) has them all again.
 */
static bool drop_caps(const struct spec_mode *m, __u64 *old_caps)
{
	int err = cap_disable_effective(UNPRIV_CAPS, old_caps);

	if (!ASSERT_OK(err, "cap_disable_effective"))
		return false;
	if (m->caps) {
		err = cap_enable_effective(m->caps, NULL);
		if (!ASSERT_OK(err, "__caps_unpriv: cap_enable_effective")) {
			cap_enable_effective(*old_caps & UNPRIV_CAPS, NULL);
			return false;
		}
	}
	return true;
}

static int load_as(struct bpf_object *obj, const struct spec_mode *m,
		   bool unpriv)
{
	__u64 old_caps = 0;
	int err;

	if (unpriv && !drop_caps(m, &old_caps))
		return -EPERM;
	err = bpf_object__load(obj);
	if (unpriv)
		cap_enable_effective(old_caps & UNPRIV_CAPS, NULL);
	return err;
}

/* Load (and run) the program; the subtest is already started. */
static void run_mode(const struct subtest_ctx *c, const struct test_spec *spec,
		     const struct spec_mode *m, bool unpriv)
{
	struct bpf_object *obj = open_subtest(c, spec);
	struct bpf_program *prog;
	int err;

	if (!obj)
		return;
	prog = pick_programs(c, obj, spec, unpriv);
	if (!ASSERT_OK_PTR(prog, "the program in its object"))
		goto out;
	setup_log(c->tester, prog, spec, m);
	err = load_as(obj, m, unpriv);
	if (m->expect_failure && !err) {
		ASSERT_FAIL("unexpected successful load (expected __failure)");
		print_log(c->tester->log_buf);
		goto out;
	}
	if (!m->expect_failure && err) {
		ASSERT_FAIL("unexpected load failure: %d (%s)", err, strerror(-err));
		print_log(c->tester->log_buf);
		goto out;
	}
	if (!match_msgs("MSG", m->msgs, m->n_msgs, c->tester->log_buf)) {
		test__fail();
		print_log(c->tester->log_buf);
		goto out;
	}
	if (m->expect_failure)
		goto out;
	check_prog_texts(bpf_program__fd(prog), m);
	if (m->has_retval && check_retval(c->tester, obj, prog, spec, m))
		check_streams(bpf_program__fd(prog), m);
out:
	bpf_object__close(obj);
}

/* Why this subtest cannot run here, or NULL. */
static const char *cannot_run(const struct test_spec *spec,
			      const struct spec_mode *m, bool unpriv)
{
	if (spec->not_here)
		return spec->not_here;
	if (m->unsupported)
		return m->unsupported;
	if (unpriv && read_int_file("/proc/sys/kernel/unprivileged_bpf_disabled"))
		return "unprivileged BPF is disabled (kernel.unprivileged_bpf_disabled)";
	return NULL;
}

static void run_subtest(const struct subtest_ctx *c,
			const struct test_spec *spec, bool unpriv)
{
	const struct spec_mode *m = unpriv ? &spec->unpriv : &spec->priv;
	char name[256], desc[256];
	const char *why;

	/* "NAME @unpriv", shown as "DESCRIPTION @unpriv" (as the kernel's). */
	snprintf(name, sizeof(name), "%s%s", spec->prog_name,
		 unpriv ? " @unpriv" : "");
	snprintf(desc, sizeof(desc), "%s%s", spec->description ? spec->description : "",
		 spec->description && unpriv ? " @unpriv" : "");
	if (!test__start_subtest_with_desc(name, desc))
		return;
	if (spec->bad_tag[0]) {
		ASSERT_FAIL("%s: %s", spec->prog_name, spec->bad_tag);
		return;
	}
	why = cannot_run(spec, m, unpriv);
	if (why) {
		test__skip_reason("%s", why);
		return;
	}
	run_mode(c, spec, m, unpriv);
}

static int parse_specs(struct subtest_ctx *c, struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bpf_program *p;
	int n = 0, err;

	if (!btf)
		return -ENODATA;
	bpf_object__for_each_program(p, obj)
		n++;
	c->specs = calloc(n ? n : 1, sizeof(*c->specs));
	if (!c->specs)
		return -ENOMEM;
	bpf_object__for_each_program(p, obj) {
		err = test_spec_parse(&c->specs[c->n_specs], btf, bpf_program__name(p));
		if (err)
			return err;
		c->n_specs++;
	}
	return 0;
}

void test_loader__run_subtests(struct test_loader *tester,
			       const char *skel_name,
			       skel_elf_bytes_fn elf_bytes_factory)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = skel_name);
	struct subtest_ctx c = { .tester = tester, .skel_name = skel_name };
	struct bpf_object *obj;
	int err;

	if (!tester->log_buf) {
		tester->log_buf = calloc(1, LOG_BUF_SZ);
		tester->log_buf_sz = LOG_BUF_SZ;
		if (!ASSERT_OK_PTR(tester->log_buf, "log_buf"))
			return;
	}
	c.elf = elf_bytes_factory(&c.elf_sz);
	obj = bpf_object__open_mem(c.elf, c.elf_sz, &opts);
	if (!ASSERT_OK_PTR(obj, "bpf_object__open_mem"))
		return;
	err = parse_specs(&c, obj);
	if (ASSERT_OK(err, "reading the programs' test annotations")) {
		for (int i = 0; i < c.n_specs; i++) {
			const struct test_spec *s = &c.specs[i];

			if (s->priv.on && !s->auxiliary)
				run_subtest(&c, s, false);
			if (s->unpriv.on && !s->auxiliary_unpriv)
				run_subtest(&c, s, true);
		}
	}
	for (int i = 0; i < c.n_specs; i++)
		test_spec_free(&c.specs[i]);
	free(c.specs);
	bpf_object__close(obj);
}

void test_loader_fini(struct test_loader *tester)
{
	free(tester->log_buf);
	tester->log_buf = NULL;
	tester->log_buf_sz = 0;
}
