/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the kernel's test_progs.h declares itself (outside its helper
 * libraries): finding and comparing maps, throwaway network namespaces,
 * hex dumps, the trampoline link limit.
 */
#ifndef BPFCHECK_TEST_PROGS_HELPERS_H
#define BPFCHECK_TEST_PROGS_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#if defined(__x86_64__)
#define SYS_NANOSLEEP_KPROBE_NAME "__x64_sys_nanosleep"
#elif defined(__s390x__)
#define SYS_NANOSLEEP_KPROBE_NAME "__s390x_sys_nanosleep"
#elif defined(__aarch64__)
#define SYS_NANOSLEEP_KPROBE_NAME "__arm64_sys_nanosleep"
#elif defined(__riscv)
#define SYS_NANOSLEEP_KPROBE_NAME "__riscv_sys_nanosleep"
#else
#define SYS_NANOSLEEP_KPROBE_NAME "sys_nanosleep"
#endif

#define BPF_TESTMOD_TEST_FILE "/sys/kernel/bpf_testmod"

static inline __u64 ptr_to_u64(const void *ptr)
{
	return (__u64)(uintptr_t)ptr;
}

#define u64_to_ptr(ptr)	((void *)(uintptr_t)(ptr))

/* The fd of map name in obj; -1 (and a FAIL line naming test) if none. */
int bpf_find_map(const char *test, struct bpf_object *obj, const char *name);
/* Every key of map1 is a key of map2: 0, else -1. */
int compare_map_keys(int map1_fd, int map2_fd);
/*
 * For every stack id in the stack map smap, the array map amap holds the
 * same stack_trace_len instruction pointers: 0, else -1.
 */
int compare_stack_ips(int smap_fd, int amap_fd, int stack_trace_len);
/* BPF_MAX_TRAMP_LINKS of the kernel's BTF: links per trampoline. */
int get_bpf_max_tramp_links_from(struct btf *btf);
int get_bpf_max_tramp_links(void);
void hexdump(const char *prefix, const void *buf, size_t len);

/*
 * A named network namespace ("ip netns add", loopback up) for a test,
 * entered when open is true; netns_free leaves and deletes it.
 */
struct netns_obj;
struct netns_obj *netns_new(const char *name, bool open);
void netns_free(struct netns_obj *netns);

#endif
