/* SPDX-License-Identifier: GPL-2.0 */
/*
 * READ_ONCE() and WRITE_ONCE() (the kernel's <linux/rwonce.h>): one access
 * of exactly the object's size, never merged, split or repeated by the
 * compiler, for memory another thread or a BPF program writes.
 * test_progs.h includes this (not all of <linux/compiler.h>, whose bare
 * "noinline" would break __attribute__((noinline)) in bpfcheck's code).
 */
#ifndef BPFCHECK_LINUX_RWONCE_H
#define BPFCHECK_LINUX_RWONCE_H

#ifndef barrier
#define barrier()		__asm__ __volatile__("" : : : "memory")
#endif
#ifndef READ_ONCE
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val)	(*(volatile typeof(x) *)&(x) = (val))
#endif
#ifndef ACCESS_ONCE
#define ACCESS_ONCE(x)		(*(volatile typeof(x) *)&(x))
#endif

#endif
