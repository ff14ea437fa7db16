/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a program's annotations (progs/bpf_misc.h) ask of its load and run,
 * read from the BTF declaration tags on its function.
 */
#ifndef BPFCHECK_TEST_SPEC_H
#define BPFCHECK_TEST_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/btf.h>

/* A __msg(): text that must appear (or, negative, must not). */
struct spec_msg {
	const char *text;	/* points into the BTF strings */
	bool negative;		/* __not_msg() */
};

/* Expectations of one mode: privileged, or without CAP_BPF and friends. */
struct spec_mode {
	bool on;		/* the mode is tested */
	bool expect_failure;
	struct spec_msg *msgs;
	int n_msgs;
	bool has_retval;
	long long retval;
	/* Checks bpfcheck does not do (yet): the subtest skips, saying so. */
	const char *unsupported;
};

struct test_spec {
	const char *prog_name;
	const char *description;
	struct spec_mode priv, unpriv;
	int log_level;		/* -1: decided by the expectations */
	uint32_t prog_flags;
	bool auxiliary, auxiliary_unpriv;
	const char *btf_path;
	/* Why the program is not for this machine (arch, JIT), or NULL. */
	const char *not_here;
	/* __arch_*() tags seen, and whether one named this machine's. */
	int arch_tags;
	bool arch_match;
	/* A tag that could not be parsed: the subtest fails with this. */
	char bad_tag[256];
};

/*
 * Fill spec from the tags on the function func_name in btf.  0 (even
 * when spec->bad_tag reports a malformed tag), or -errno.
 */
int test_spec_parse(struct test_spec *spec, const struct btf *btf,
		    const char *func_name);
void test_spec_free(struct test_spec *spec);

#endif
