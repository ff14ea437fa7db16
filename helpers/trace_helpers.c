// SPDX-License-Identifier: GPL-2.0
/* Kernel symbols, the trace pipe and uprobe offsets (trace_helpers.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>

#include "mounts.h"
#include "trace_helpers.h"

static struct ksyms *global_ksyms;

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int add_sym(struct ksyms *k, long addr, const char *name)
{
	if (k->sym_cnt == k->sym_cap) {
		size_t cap = k->sym_cap ? k->sym_cap * 2 : 4096;
		struct ksym *s = realloc(k->syms, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		k->syms = s;
		k->sym_cap = cap;
	}
	k->syms[k->sym_cnt].name = strdup(name);
	if (!k->syms[k->sym_cnt].name)
		return -ENOMEM;
	k->syms[k->sym_cnt++].addr = addr;
	return 0;
}

void free_kallsyms_local(struct ksyms *ksyms)
{
	if (!ksyms)
		return;
	for (size_t i = 0; i < ksyms->sym_cnt; i++)
		free(ksyms->syms[i].name);
	free(ksyms->syms);
	free(ksyms);
}

struct ksyms *load_kallsyms_local(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct ksyms *k = calloc(1, sizeof(*k));
	char line[512], name[256], type;
	unsigned long addr;

	if (!f || !k)
		goto fail;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3)
			continue;
		if (add_sym(k, (long)addr, name))
			goto fail;
	}
	fclose(f);
	qsort(k->syms, k->sym_cnt, sizeof(*k->syms), cmp_addr);
	return k;
fail:
	if (f)
		fclose(f);
	free_kallsyms_local(k);
	return NULL;
}

int load_kallsyms(void)
{
	if (global_ksyms)
		return 0;
	global_ksyms = load_kallsyms_local();
	return global_ksyms ? 0 : -EINVAL;
}

/* The symbol with the highest address <= key. */
struct ksym *ksym_search_local(struct ksyms *ksyms, long key)
{
	size_t lo = 0, hi;

	if (!ksyms || !ksyms->sym_cnt || key < ksyms->syms[0].addr)
		return NULL;
	hi = ksyms->sym_cnt;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms->syms[mid].addr <= key)
			lo = mid;
		else
			hi = mid;
	}
	return &ksyms->syms[lo];
}

long ksym_get_addr_local(struct ksyms *ksyms, const char *name)
{
	if (!ksyms)
		return 0;
	for (size_t i = 0; i < ksyms->sym_cnt; i++)
		if (!strcmp(ksyms->syms[i].name, name))
			return ksyms->syms[i].addr;
	return 0;
}

struct ksym *ksym_search(long key)
{
	return ksym_search_local(global_ksyms, key);
}

long ksym_get_addr(const char *name)
{
	return ksym_get_addr_local(global_ksyms, name);
}

int kallsyms_find(const char *sym, unsigned long long *addr)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long a;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, sym)) {
			*addr = a;
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

static FILE *open_trace_pipe(void)
{
	FILE *f = fopen(TRACEFS_PATH "/trace_pipe", "r");

	if (!f)
		f = fopen(DEBUGFS_PATH "/tracing/trace_pipe", "r");
	return f;
}

int read_trace_pipe_iter(void (*cb)(const char *str, void *data),
			 void *data, int iter)
{
	FILE *f = open_trace_pipe();
	char *line = NULL;
	size_t cap = 0;
	int n = 0;

	if (!f)
		return -errno;
	while ((!iter || n < iter) && getline(&line, &cap, f) > 0) {
		cb(line, data);
		n++;
	}
	free(line);
	fclose(f);
	return 0;
}

static void print_line(const char *str, void *data)
{
	(void)data;
	fputs(str, stdout);
	fflush(stdout);
}

void read_trace_pipe(void)
{
	read_trace_pipe_iter(print_line, NULL, 0);
}

/* The executable mapping of /proc/self/maps that holds addr. */
static ssize_t offset_in_maps(uintptr_t addr, bool relative)
{
	FILE *f = fopen("/proc/self/maps", "r");
	uintptr_t start, end, off;
	char perms[8], line[512];
	ssize_t res = -ESRCH;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %" SCNxPTR,
			   &start, &end, perms, &off) != 4)
			continue;
		if (addr < start || addr >= end || (!relative && perms[2] != 'x'))
			continue;
		res = (ssize_t)(addr - start + off);
		break;
	}
	fclose(f);
	return res;
}

ssize_t get_uprobe_offset(const void *addr)
{
	return offset_in_maps((uintptr_t)addr, false);
}

ssize_t get_rel_offset(uintptr_t addr)
{
	return offset_in_maps(addr, true);
}

/* The NT_GNU_BUILD_ID note in one SHT_NOTE section's data, if there. */
static int build_id_in(Elf_Data *data, char *build_id, size_t size)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
		    memcmp((char *)data->d_buf + name_off, "GNU", 4))
			continue;
		if (nhdr.n_descsz > size)
			return -E2BIG;
		memcpy(build_id, (char *)data->d_buf + desc_off, nhdr.n_descsz);
		memset(build_id + nhdr.n_descsz, 0, size - nhdr.n_descsz);
		return nhdr.n_descsz;
	}
	return -ENOENT;
}

int read_build_id(const char *path, char *build_id, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -ENOENT;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf = elf_version(EV_CURRENT) == EV_NONE ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	while (err == -ENOENT && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data)
			err = build_id_in(data, build_id, size);
	}
	elf_end(elf);
	close(fd);
	return err;
}
