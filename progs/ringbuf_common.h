/* SPDX-License-Identifier: GPL-2.0 */
/* The record the ringbuf test programs emit, shared with userspace. */
#ifndef BPFCHECK_RINGBUF_COMMON_H
#define BPFCHECK_RINGBUF_COMMON_H

#define RB_PAYLOAD_LEN 48

enum rb_kind {
	RB_KIND_SUBMIT = 1,
	RB_KIND_DISCARD_KEPT = 2,
	RB_KIND_OUTPUT = 3,
	RB_KIND_SMALL = 4,
};

struct rb_record {
	__u64 seq;
	__u32 pid;
	__u32 kind;
	__u8 payload[RB_PAYLOAD_LEN];
};

/* Payload byte i of record seq: both sides compute it independently. */
static inline __u8 rb_payload_byte(__u64 seq, int i)
{
	return (__u8)(seq * 31 + i * 7 + 1);
}

#endif
