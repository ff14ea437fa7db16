/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Old ways of writing BPF programs that the kernel's selftests still use
 * (its bpf_legacy.h): map key/value types named by a companion struct, and
 * the packet loads of classic BPF (LD_ABS), reached through LLVM builtins.
 */
#ifndef BPFCHECK_BPF_LEGACY_H
#define BPFCHECK_BPF_LEGACY_H

/*
 * Describe a legacy map's key and value types in BTF: libbpf looks for a
 * struct ____btf_map_<name> with members "key" and "value".
 */
#define BPF_ANNOTATE_KV_PAIR(name, type_key, type_val)			\
	struct ____btf_map_##name {					\
		type_key key;						\
		type_val value;						\
	};								\
	struct ____btf_map_##name					\
	__attribute__((section(".maps." #name), used))			\
		____btf_map_##name = { }

/* Load 1, 2 or 4 bytes at off of the packet, in host order (LD_ABS/IND). */
#if defined(__clang__)
unsigned long long load_byte(void *skb, unsigned long long off)
	asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off)
	asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off)
	asm("llvm.bpf.load.word");
#else
#define load_byte(skb, off)	__builtin_bpf_load_byte(off)
#define load_half(skb, off)	__builtin_bpf_load_half(off)
#define load_word(skb, off)	__builtin_bpf_load_word(off)
#endif

#endif
