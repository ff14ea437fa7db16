// SPDX-License-Identifier: GPL-2.0
/*
 * Disassemble a program's JIT image with LLVM's C API, in the layout the
 * kernel's selftests match __jited() against: two passes over each
 * function, the first collecting the targets of jumps that stay inside
 * it (so they can be named L0, L1, ... in address order), the second
 * printing.  The only file of bpfcheck that needs LLVM: its headers at
 * build time, its library (over 100 MB) opened when a __jited() check
 * runs, so that test_progs and vmtest's initramfs do not carry it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <llvm-c/Core.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "jit_text.h"

/*
 * Test programs are small: the kernel's selftests name at most 32 jump
 * targets, and so does this file, so that the texts are the same.
 */
#define MAX_LABELS	32
#define BYTES_COLUMN	12

/* LLVM's functions, by the prototypes of its headers. */
static __typeof__(LLVMGetDefaultTargetTriple) *p_LLVMGetDefaultTargetTriple;
static __typeof__(LLVMGetHostCPUName) *p_LLVMGetHostCPUName;
static __typeof__(LLVMGetHostCPUFeatures) *p_LLVMGetHostCPUFeatures;
static __typeof__(LLVMDisposeMessage) *p_LLVMDisposeMessage;
static __typeof__(LLVMCreateDisasmCPUFeatures) *p_LLVMCreateDisasmCPUFeatures;
static __typeof__(LLVMSetDisasmOptions) *p_LLVMSetDisasmOptions;
static __typeof__(LLVMDisasmInstruction) *p_LLVMDisasmInstruction;
static __typeof__(LLVMDisasmDispose) *p_LLVMDisasmDispose;

#if defined(__x86_64__)
#define LLVM_ARCH	"X86"
#elif defined(__aarch64__)
#define LLVM_ARCH	"AArch64"
#elif defined(__riscv)
#define LLVM_ARCH	"RISCV"
#elif defined(__s390x__)
#define LLVM_ARCH	"SystemZ"
#else
#define LLVM_ARCH	"LoongArch"
#endif

struct labels {
	bool naming;		/* second pass: answer with names */
	__u32 len;		/* of the function */
	__u32 cnt;
	__u32 pc[MAX_LABELS];
	char name[MAX_LABELS][8];
};

static int label_index(const struct labels *l, __u64 pc)
{
	for (__u32 i = 0; i < l->cnt; i++)
		if (l->pc[i] == pc)
			return i;
	return -1;
}

/* LLVM's symbol callback: collect, then name, branch targets. */
static const char *on_symbol(void *data, uint64_t value, uint64_t *type,
			     uint64_t pc, const char **name)
{
	struct labels *l = data;
	bool branch = *type == LLVMDisassembler_ReferenceType_In_Branch;
	int i;

	(void)pc;
	*type = LLVMDisassembler_ReferenceType_InOut_None;
	*name = NULL;
	if (!branch)
		return NULL;
	/*
	 * Like the kernel's selftests: every branch adds its target, even
	 * one seen before, and a branch names the first of equal targets.
	 */
	if (l->naming) {
		i = label_index(l, value);
		return i >= 0 ? l->name[i] : NULL;
	}
	if (l->cnt < MAX_LABELS && value < l->len)
		l->pc[l->cnt++] = value;
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return (x > y) - (x < y);
}

/*
 * The label a line starts with: whichever of equal targets bsearch()
 * finds, as the kernel's selftests print it (it may differ from the
 * name branches use when a target was seen twice).
 */
static int line_label(const struct labels *l, __u32 pc)
{
	const __u32 *at = bsearch(&pc, l->pc, l->cnt, sizeof(pc), cmp_u32);

	return at ? at - l->pc : -1;
}

static LLVMDisasmContextRef make_disasm(struct labels *l)
{
	char *triple = p_LLVMGetDefaultTargetTriple();
	char *cpu = p_LLVMGetHostCPUName();
	char *features = p_LLVMGetHostCPUFeatures();
	LLVMDisasmContextRef ctx;

	ctx = p_LLVMCreateDisasmCPUFeatures(triple, cpu, features, l, 0, NULL,
					    on_symbol);
	p_LLVMDisposeMessage(triple);
	p_LLVMDisposeMessage(cpu);
	p_LLVMDisposeMessage(features);
	if (ctx && !p_LLVMSetDisasmOptions(ctx, LLVMDisassembler_Option_PrintImmHex)) {
		p_LLVMDisasmDispose(ctx);
		return NULL;
	}
	return ctx;
}

/* One pass over the function; out NULL: only collect the labels. */
static int disasm_pass(LLVMDisasmContextRef ctx, struct labels *l,
		       __u8 *image, FILE *out)
{
	char insn[128];
	__u32 pc = 0;

	while (pc < l->len) {
		size_t n = p_LLVMDisasmInstruction(ctx, image + pc, l->len - pc,
						   pc, insn, sizeof(insn));
		int at;

		if (!n) {
			if (out)
				fprintf(out, "%x:\t<cannot disassemble %02x>\n",
					pc, image[pc]);
			return -EINVAL;
		}
		if (out) {
			at = line_label(l, pc);
			fprintf(out, "%x:\t", pc);
			for (size_t i = 0; i < n; i++)
				fprintf(out, "%02x ", image[pc + i]);
			for (size_t i = n; i < BYTES_COLUMN; i++)
				fprintf(out, "   ");
			fprintf(out, "%s%s%s\n", at >= 0 ? l->name[at] : "",
				at >= 0 ? ":" : "", insn);
		}
		pc += n;
	}
	return 0;
}

static int disasm_func(FILE *out, __u8 *image, __u32 len)
{
	struct labels *l = calloc(1, sizeof(*l));
	LLVMDisasmContextRef ctx;
	int err;

	if (!l)
		return -ENOMEM;
	l->len = len;
	ctx = make_disasm(l);
	if (!ctx) {
		free(l);
		return -EINVAL;
	}
	err = disasm_pass(ctx, l, image, NULL);
	if (!err) {
		qsort(l->pc, l->cnt, sizeof(l->pc[0]), cmp_u32);
		for (__u32 i = 0; i < l->cnt && i < MAX_LABELS; i++)
			snprintf(l->name[i], sizeof(l->name[i]), "L%u", i % 1000);
		l->naming = true;
		err = disasm_pass(ctx, l, image, out);
	}
	p_LLVMDisasmDispose(ctx);
	free(l);
	return err;
}

struct jit_image {
	__u8 *bytes;
	__u32 len;
	__u32 *func_lens;
	__u32 n_funcs;
};

static int read_image(int prog_fd, struct jit_image *img)
{
	struct bpf_prog_info info = {};
	__u32 info_len = sizeof(info);

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &info_len))
		return -errno;
	if (!info.jited_prog_len)
		return -ENOENT;
	img->len = info.jited_prog_len;
	img->n_funcs = info.nr_jited_func_lens;
	img->bytes = malloc(img->len);
	img->func_lens = calloc(img->n_funcs ? img->n_funcs : 1, sizeof(__u32));
	if (!img->bytes || !img->func_lens)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	info.jited_prog_insns = (__u64)(unsigned long)img->bytes;
	info.jited_prog_len = img->len;
	info.jited_func_lens = (__u64)(unsigned long)img->func_lens;
	info.nr_jited_func_lens = img->n_funcs;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &info_len))
		return -errno;
	if (!img->n_funcs) {	/* one function, the whole image */
		img->n_funcs = 1;
		img->func_lens[0] = img->len;
	}
	return 0;
}

static int llvm_sym(void *lib, const char *name, void **fn)
{
	*fn = dlsym(lib, name);
	return *fn ? 0 : -ELIBACC;
}

/* Open LLVM_LIB (the Makefile names it) once; -ELIBACC when it is not here. */
static int init_llvm(void)
{
	static int state = 1;	/* 1: not tried yet */
	void (*init[3])(void);
	void *lib;

	if (state <= 0)
		return state;
	state = -ELIBACC;
	lib = dlopen(LLVM_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return state;
	if (llvm_sym(lib, "LLVMGetDefaultTargetTriple", (void **)&p_LLVMGetDefaultTargetTriple) ||
	    llvm_sym(lib, "LLVMGetHostCPUName", (void **)&p_LLVMGetHostCPUName) ||
	    llvm_sym(lib, "LLVMGetHostCPUFeatures", (void **)&p_LLVMGetHostCPUFeatures) ||
	    llvm_sym(lib, "LLVMDisposeMessage", (void **)&p_LLVMDisposeMessage) ||
	    llvm_sym(lib, "LLVMCreateDisasmCPUFeatures", (void **)&p_LLVMCreateDisasmCPUFeatures) ||
	    llvm_sym(lib, "LLVMSetDisasmOptions", (void **)&p_LLVMSetDisasmOptions) ||
	    llvm_sym(lib, "LLVMDisasmInstruction", (void **)&p_LLVMDisasmInstruction) ||
	    llvm_sym(lib, "LLVMDisasmDispose", (void **)&p_LLVMDisasmDispose) ||
	    llvm_sym(lib, "LLVMInitialize" LLVM_ARCH "TargetInfo", (void **)&init[0]) ||
	    llvm_sym(lib, "LLVMInitialize" LLVM_ARCH "TargetMC", (void **)&init[1]) ||
	    llvm_sym(lib, "LLVMInitialize" LLVM_ARCH "Disassembler", (void **)&init[2])) {
		dlclose(lib);
		return state;
	}
	for (int i = 0; i < 3; i++)
		init[i]();
	state = 0;	/* kept open for the process's life */
	return state;
}

char *jited_prog_text(int prog_fd)
{
	struct jit_image img = {};
	char *text = NULL;
	size_t text_sz = 0;
	__u32 pc = 0;
	FILE *out;
	int err;

	err = init_llvm();
	if (!err)
		err = read_image(prog_fd, &img);
	out = err ? NULL : open_memstream(&text, &text_sz);
	if (!err && !out)
		err = -errno;
	for (__u32 i = 0; !err && i < img.n_funcs; i++) {
		if (img.func_lens[i] > img.len - pc) {
			err = -EINVAL;
			break;
		}
		fprintf(out, "func #%u:\n", i);
		err = disasm_func(out, img.bytes + pc, img.func_lens[i]);
		fprintf(out, "\n");
		pc += img.func_lens[i];
	}
	if (out && fclose(out) && !err)
		err = -EIO;
	free(img.bytes);
	free(img.func_lens);
	if (err) {
		free(text);
		errno = -err;
		return NULL;
	}
	return text;
}
