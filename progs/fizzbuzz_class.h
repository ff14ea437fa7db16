/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classes the fizzbuzz_* XDP programs record, shared by the BPF side
 * and userspace.  A class travels as a __u32 (a queue map value or a ring
 * buffer record); FBF_NONE is never recorded.
 */
#ifndef BPFCHECK_FIZZBUZZ_CLASS_H
#define BPFCHECK_FIZZBUZZ_CLASS_H

enum fbf_class {
	FBF_NONE = 0,
	FBF_FIBONACCI = 1,
	FBF_FIZZBUZZ = 2,
	FBF_FIZZ = 3,
	FBF_BUZZ = 4,
};

#endif
