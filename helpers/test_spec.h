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

#include "test_match.h"

/* Texts besides the verifier log that a mode's expectations name. */
enum spec_text {
	TEXT_XLATED,		/* __xlated(): the program after rewrites */
	TEXT_JITED,		/* __jited(): its JIT image, disassembled */
	TEXT_STDERR,		/* __stderr(): the program's BPF stderr stream */
	TEXT_STDOUT,		/* __stdout(): its stdout stream */
	NR_TEXTS
};

/* The lines expected in one text, in order; "..." allows a gap. */
struct spec_lines {
	struct spec_msg *v;
	int n;
	bool next_line;		/* the next one must follow on the next line */
};

/* Expectations of one mode: privileged, or without CAP_BPF and friends. */
struct spec_mode {
	bool on;		/* the mode is tested */
	bool expect_failure;
	struct spec_msg *msgs;
	int n_msgs;
	bool has_retval;
	long long retval;
	struct spec_lines texts[NR_TEXTS];
	/* __caps_unpriv(): capabilities kept for the unprivileged load. */
	uint64_t caps;
	/* Checks bpfcheck does not do (yet): the subtest skips, saying so. */
	const char *unsupported;
};

struct test_spec {
	const char *prog_name;
	const char *description;
	struct spec_mode priv, unpriv;
	int log_level;		/* -1: decided by the expectations */
	/* __flag(X) adds X to the program's flags, __flag(!X) takes it off. */
	uint32_t prog_flags, prog_flags_clear;
	bool auxiliary, auxiliary_unpriv;
	const char *btf_path;
	/* __btf_func_path(): names of __naked functions' parameters. */
	const char *btf_func_path;
	/* __linear_size(): the skb's linear part in the test run, or -1. */
	int linear_size;
	/* Why the program is not for this machine (arch, JIT), or NULL. */
	const char *not_here;
	/* __arch_*() tags seen, and whether one named this machine's. */
	int arch_tags;
	bool arch_match;
	/* While parsing: __jited() lines are for this machine's arch. */
	bool jit_collect;
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
