/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RUN_TESTS(skel): every program of a skeleton's object becomes a
 * subtest, loaded alone (with the object's __auxiliary programs) and
 * checked against the annotations of progs/bpf_misc.h: __success or
 * __failure, the verifier log lines of __msg() in order, the translated
 * program's __xlated() and the JIT image's __jited() lines, __retval()
 * of one BPF_PROG_TEST_RUN and the BPF streams' __stderr()/__stdout()
 * after it.  The kernel's test_loader.c API, written anew.
 */
#ifndef BPFCHECK_TEST_LOADER_H
#define BPFCHECK_TEST_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

typedef const void *(*skel_elf_bytes_fn)(size_t *sz);

/* Called after open, before load; non-zero fails the subtest. */
typedef int (*pre_execution_cb)(struct bpf_object *obj);

struct test_loader {
	char *log_buf;
	size_t log_buf_sz;
	pre_execution_cb pre_execution_cb;
	/* Where the next __msg() search starts (kernel API compatibility). */
	size_t next_match_pos;
};

/* Run each program of the object as a subtest named after it. */
void test_loader__run_subtests(struct test_loader *tester,
			       const char *skel_name,
			       skel_elf_bytes_fn elf_bytes_factory);
void test_loader_fini(struct test_loader *tester);

static inline void test_loader__set_pre_execution_cb(struct test_loader *tester,
						     pre_execution_cb cb)
{
	tester->pre_execution_cb = cb;
}

#define RUN_TESTS(skel) ({						\
	struct test_loader ___tester = {};				\
	test_loader__run_subtests(&___tester, #skel, skel##__elf_bytes);\
	test_loader_fini(&___tester);					\
})

#endif
