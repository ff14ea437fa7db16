/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols, the trace pipe and uprobe offsets, by the names of the
 * kernel's selftests (trace_helpers.h).
 */
#ifndef BPFCHECK_TRACE_HELPERS_H
#define BPFCHECK_TRACE_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SYS_PREFIX
#if defined(__x86_64__)
#define SYS_PREFIX "__x64_"
#elif defined(__s390x__)
#define SYS_PREFIX "__s390x_"
#elif defined(__aarch64__)
#define SYS_PREFIX "__arm64_"
#elif defined(__riscv)
#define SYS_PREFIX "__riscv_"
#else
#define SYS_PREFIX ""
#endif
#endif

#define __ALIGN_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_MASK(x, (typeof(x))(a) - 1)

struct ksym {
	long addr;
	char *name;
};

/* /proc/kallsyms, sorted by address. */
struct ksyms {
	struct ksym *syms;
	size_t sym_cap;
	size_t sym_cnt;
};

/* One table for the process (load_kallsyms), or tables of one's own. */
int load_kallsyms(void);
struct ksym *ksym_search(long key);
long ksym_get_addr(const char *name);
struct ksyms *load_kallsyms_local(void);
struct ksym *ksym_search_local(struct ksyms *ksyms, long key);
long ksym_get_addr_local(struct ksyms *ksyms, const char *name);
void free_kallsyms_local(struct ksyms *ksyms);
/* The address of sym in /proc/kallsyms: 0, or -ENOENT/-errno. */
int kallsyms_find(const char *sym, unsigned long long *addr);

/* Print the trace pipe's lines until interrupted (for debugging). */
void read_trace_pipe(void);
/* Call cb on each trace pipe line, iter lines at most (0: no limit). */
int read_trace_pipe_iter(void (*cb)(const char *str, void *data),
			 void *data, int iter);

/* File offset of addr in its mapped executable, for a uprobe there. */
ssize_t get_uprobe_offset(const void *addr);
ssize_t get_rel_offset(uintptr_t addr);

/* The GNU build ID of an ELF file: its length (<= size), or -errno. */
int read_build_id(const char *path, char *build_id, size_t size);

#endif
