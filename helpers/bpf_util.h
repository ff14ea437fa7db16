/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small userspace utilities by the names of the kernel's selftests
 * (bpf_util.h): per-CPU map values, possible CPUs, bounded string copy.
 */
#ifndef BPFCHECK_BPF_UTIL_H
#define BPFCHECK_BPF_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <bpf/libbpf.h>

#include "util.h"	/* ARRAY_SIZE, ENOTSUPP */

/* Possible CPUs: how many values a per-CPU map lookup returns. */
static inline unsigned int bpf_num_possible_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	if (n <= 0) {
		fprintf(stderr, "cannot count the possible CPUs: %s\n", strerror(-n));
		exit(1);
	}
	return n;
}

/*
 * Copy at most count - 1 bytes and terminate: the length copied, or
 * -E2BIG when src did not fit (dest then holds its truncated start).
 */
static inline ssize_t sized_strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

/* strscpy(dst, src) for arrays, strscpy(dst, src, size) otherwise. */
#define __bpfcheck_strscpy2(dst, src)	sized_strscpy(dst, src, sizeof(dst))
#define __bpfcheck_strscpy3(dst, src, sz) sized_strscpy(dst, src, sz)
#define __bpfcheck_pick(_1, _2, _3, name, ...) name
#define strscpy(...)							\
	__bpfcheck_pick(__VA_ARGS__, __bpfcheck_strscpy3,		\
			__bpfcheck_strscpy2, _)(__VA_ARGS__)

/*
 * A per-CPU map value as userspace reads it: one copy per possible CPU,
 * each 8-byte aligned.  bpf_percpu(name, cpu) is CPU cpu's copy.
 */
#define __bpf_percpu_val_align	__attribute__((__aligned__(8)))
#define BPF_DECLARE_PERCPU(type, name)					\
	struct {							\
		type v; /* padding */					\
	} __bpf_percpu_val_align name[bpf_num_possible_cpus()]
#define bpf_percpu(name, cpu)	name[(cpu)].v

#ifndef sizeof_field
#define sizeof_field(type, member)	sizeof(((type *)0)->member)
#endif
#ifndef offsetofend
#define offsetofend(type, member)					\
	(__builtin_offsetof(type, member) + sizeof_field(type, member))
#endif

#define sys_gettid()		syscall(SYS_gettid)


#endif
