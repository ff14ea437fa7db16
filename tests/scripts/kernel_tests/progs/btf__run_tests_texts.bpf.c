// SPDX-License-Identifier: GPL-2.0
/*
 * The C declaration of test_run_tests_texts.bpf.c's __naked function:
 * its BTF names the parameters clang leaves nameless there, for
 * __btf_func_path().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__noinline int naked_sum(int a, int b)
{
	return a + b;
}

SEC("socket")
int use_naked_sum(void *ctx)
{
	return naked_sum(1, 2);
}
