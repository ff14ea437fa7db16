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
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "cap_helpers.h"
#include "int_file.h"
#include "test_loader.h"
#include "test_api.h"
#include "test_spec.h"

#define LOG_BUF_SZ	(8u << 20)
/* What a program is denied when it is loaded "unprivileged". */
#define UNPRIV_CAPS	(1ULL << CAP_SYS_ADMIN | 1ULL << CAP_NET_ADMIN | \
			 1ULL << CAP_PERFMON | 1ULL << CAP_BPF)
/* The packet BPF_PROG_TEST_RUN gets: TEST_DATA_LEN zero bytes. */
#define RUN_DATA_LEN	64

struct subtest_ctx {
	struct test_loader *tester;
	const char *skel_name;
	const void *elf;
	size_t elf_sz;
	struct test_spec *specs;
	int n_specs;
};

/*
 * A __msg() as a regular expression: its text literally, except for
 * {{...}} parts, which are (extended) regular expressions.
 */
static int msg_regex(const char *text, regex_t *re)
{
	size_t len = strlen(text);
	char *pat = malloc(len * 2 + 1), *p = pat;
	int err;

	if (!pat)
		return -ENOMEM;
	while (*text) {
		const char *close;

		close = strncmp(text, "{{", 2) ? NULL : strstr(text + 2, "}}");
		if (close) {
			memcpy(p, text + 2, close - text - 2);
			p += close - text - 2;
			text = close + 2;
			continue;
		}
		if (strchr("^$.[]()|*+?{}\\", *text))
			*p++ = '\\';
		*p++ = *text++;
	}
	*p = '\0';
	err = regcomp(re, pat, REG_EXTENDED | REG_NEWLINE);
	free(pat);
	return err ? -EINVAL : 0;
}

/* Find msg in log from *pos: its start (-1 when absent), *pos past it. */
static long find_msg(const char *log, size_t *pos, const char *msg)
{
	regmatch_t m;
	regex_t re;
	long at = -1;

	if (msg_regex(msg, &re)) {
		fprintf(stderr, "bad regular expression in __msg(\"%s\")\n", msg);
		return -1;
	}
	if (!regexec(&re, log + *pos, 1, &m, *pos ? REG_NOTBOL : 0)) {
		at = *pos + m.rm_so;
		*pos += m.rm_eo;
	}
	regfree(&re);
	return at;
}

/* A __not_msg() must not appear in log[from, to). */
static bool absent_between(const char *log, size_t from, size_t to,
			   const char *msg)
{
	char *part = strndup(log + from, to - from);
	size_t pos = 0;
	bool ok;

	if (!part)
		return false;
	ok = find_msg(part, &pos, msg) < 0;
	free(part);
	return ok;
}

/* Every __msg() in order, each after the previous; __not_msg() between. */
static bool check_msgs(const struct spec_mode *m, const char *log)
{
	size_t pos = 0, len = strlen(log);

	for (int i = 0; i < m->n_msgs; i++) {
		const struct spec_msg *msg = &m->msgs[i];
		size_t from = pos, end;
		int j = i;

		if (!msg->negative) {
			if (find_msg(log, &pos, msg->text) >= 0)
				continue;
			fprintf(stderr, "EXPECTED MSG NOT FOUND: '%s'\n", msg->text);
			return false;
		}
		/* Up to where the next positive message matches. */
		while (j < m->n_msgs && m->msgs[j].negative)
			j++;
		end = len;
		if (j < m->n_msgs) {
			size_t p = pos;
			long at = find_msg(log, &p, m->msgs[j].text);

			end = at >= 0 ? (size_t)at : len;
		}
		if (!absent_between(log, from, end, msg->text)) {
			fprintf(stderr, "UNEXPECTED MSG FOUND: '%s'\n", msg->text);
			return false;
		}
	}
	return true;
}

static bool wants_packet(enum bpf_prog_type type)
{
	switch (type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

/* One test run of prog; compare its return value with __retval(). */
static void check_retval(struct test_loader *tester, struct bpf_object *obj,
			 struct bpf_program *prog, const struct spec_mode *m)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .repeat = 1);
	unsigned char in[RUN_DATA_LEN] = {}, out[RUN_DATA_LEN * 4];
	int err;

	if (tester->pre_execution_cb && tester->pre_execution_cb(obj)) {
		ASSERT_FAIL("pre_execution_cb failed");
		return;
	}
	if (wants_packet(bpf_program__type(prog))) {
		opts.data_in = in;
		opts.data_size_in = sizeof(in);
		opts.data_out = out;
		opts.data_size_out = sizeof(out);
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err == -EOPNOTSUPP || err == -ENOTSUPP) {
		test__skip_reason("BPF_PROG_TEST_RUN not supported for %s programs (%s)",
				  libbpf_bpf_prog_type_str(bpf_program__type(prog)),
				  strerror(EOPNOTSUPP));
		return;
	}
	if (!ASSERT_OK(err, "bpf_prog_test_run"))
		return;
	ASSERT_EQ(opts.retval, (__u32)m->retval, "__retval");
}

static struct bpf_object *open_subtest(const struct subtest_ctx *c,
				       const struct test_spec *spec)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts,
		    .object_name = c->skel_name,
		    .btf_custom_path = spec->btf_path);
	struct bpf_object *obj = bpf_object__open_mem(c->elf, c->elf_sz, &opts);

	if (!ASSERT_OK_PTR(obj, "bpf_object__open_mem"))
		return NULL;
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
	bpf_program__set_flags(prog, bpf_program__flags(prog) | spec->prog_flags);
}

static void print_log(const char *log)
{
	fprintf(stderr, "VERIFIER LOG:\n=============\n%s=============\n", log);
}

/* Load (and run) the program; the subtest is already started. */
static void run_mode(const struct subtest_ctx *c, const struct test_spec *spec,
		     const struct spec_mode *m, bool unpriv)
{
	struct bpf_object *obj = open_subtest(c, spec);
	struct bpf_program *prog;
	__u64 old_caps = 0;
	bool dropped = false;
	int err;

	if (!obj)
		return;
	prog = pick_programs(c, obj, spec, unpriv);
	if (!ASSERT_OK_PTR(prog, "the program in its object"))
		goto out;
	setup_log(c->tester, prog, spec, m);
	if (unpriv) {
		err = cap_disable_effective(UNPRIV_CAPS, &old_caps);
		if (!ASSERT_OK(err, "cap_disable_effective"))
			goto out;
		dropped = true;
	}
	err = bpf_object__load(obj);
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
	if (!check_msgs(m, c->tester->log_buf)) {
		test__fail();
		print_log(c->tester->log_buf);
		goto out;
	}
	if (!m->expect_failure && m->has_retval)
		check_retval(c->tester, obj, prog, m);
out:
	if (dropped)
		cap_enable_effective(old_caps & UNPRIV_CAPS, NULL);
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
	char name[256];
	const char *why;

	snprintf(name, sizeof(name), "%s%s", spec->prog_name,
		 unpriv ? " @unpriv" : "");
	if (!test__start_subtest_with_desc(name, spec->description))
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
