/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames for the FizzBuzzFibonacci test (prog_tests/fizzbuzz.c), each
 * with what the classifier must do with it, and the userspace reference
 * that gives a source address its class.
 *
 * The expectations are the table in progs/fizzbuzz_common.h; the classes
 * come from a reference that uses a different method from the BPF side's
 * (Gessel's test instead of a table or a loop).  Each fbf_add_*() set
 * appends to a list; the test decides which sets a subtest runs.
 */
#ifndef BPFCHECK_FIZZBUZZ_FRAMES_H
#define BPFCHECK_FIZZBUZZ_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/if_ether.h>
#include <linux/types.h>

#include "fizzbuzz_class.h"
#include "frames.h"

#define FBF_MAX_FRAMES		1024
#define FBF_PAYLOAD_LEN		4
/* Fibonacci (10.0.0.1): a frame from it that records nothing was not read. */
#define FBF_CLASSIFIABLE_SRC	0x0a000001

struct fbf_frame {
	/* Ethernet, maybe a VLAN tag, IPv4 with options or IPv6, UDP */
	unsigned char data[ETH_HLEN + 4 + FRAME_L3_MAX + FBF_PAYLOAD_LEN];
	size_t len;
	char what[64];		/* for failure messages */
	int run_err;		/* BPF_PROG_TEST_RUN's expected result */
	__u32 verdict;		/* expected XDP verdict */
	__u32 class;		/* expected class; FBF_NONE: nothing recorded */
};

struct fbf_frames {
	struct fbf_frame *f;	/* FBF_MAX_FRAMES of them */
	int n;
};

/* ---- the userspace reference ---- */

bool fbf_ref_is_fibonacci(unsigned int n);
/* Class of a source address given in host order (a<<24 | ... | d). */
__u32 fbf_ref_class(__u32 addr);
const char *fbf_class_name(__u32 class);

/* ---- frame lists (these assert) ---- */

bool fbf_frames_alloc(struct fbf_frames *l);
void fbf_frames_free(struct fbf_frames *l);

/* A well-formed UDP/IPv4 frame from saddr: classified by the reference. */
void fbf_add_udp4(struct fbf_frames *l, __u32 saddr);
/* Every last octet under the prefix a.b.c (given as a<<24|b<<16|c<<8). */
void fbf_add_octet_sweep(struct fbf_frames *l, __u32 prefix);
/* Addresses at the edges of the number range, and octet mix-ups. */
void fbf_add_edge_addresses(struct fbf_frames *l);
/*
 * Frames that are not IPv4 by EtherType (ARP, IPv6, VLAN-tagged, IPv4
 * headers under other EtherTypes): they pass unrecorded.
 */
void fbf_add_non_ipv4(struct fbf_frames *l);
/* IPv4 with options passes unrecorded, whether the options fit or not. */
void fbf_add_ipv4_options(struct fbf_frames *l);
/* Complete 20-byte headers that are not valid IPv4 headers: aborted. */
void fbf_add_malformed(struct fbf_frames *l);
/*
 * The first len bytes of a classifiable UDP/IPv4 frame, for every len
 * from min_len to 34: below 14 BPF_PROG_TEST_RUN refuses the frame with
 * EINVAL (the program never runs), 14 to 33 bytes cannot hold the IPv4
 * header (XDP_ABORTED), and 34 bytes, the header exactly, is classified.
 */
void fbf_add_truncated(struct fbf_frames *l, size_t min_len);

#endif
