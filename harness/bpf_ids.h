/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Leak checks for BPF objects: snapshot the kernel's program, map and link
 * ID lists, and later list the objects that appeared since and are still
 * alive.  For tests that must leave nothing behind.
 */
#ifndef BPFCHECK_BPF_IDS_H
#define BPFCHECK_BPF_IDS_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

enum bpf_id_kind {
	BPF_ID_PROG,
	BPF_ID_MAP,
	BPF_ID_LINK,
	BPF_ID__NR_KINDS,
};

struct bpf_id_list {
	__u32 *ids;		/* ascending */
	size_t cnt;
	size_t cap;
};

/* Zero-initialise ("= {}") before first use. */
struct bpf_ids {
	struct bpf_id_list kind[BPF_ID__NR_KINDS];
};

/* "prog", "map" or "link". */
const char *bpf_id_kind_name(enum bpf_id_kind kind);

/* Fill ids with every ID the kernel has now.  0 or -errno. */
int bpf_ids_snapshot(struct bpf_ids *ids);
void bpf_ids_free(struct bpf_ids *ids);
size_t bpf_ids_count(const struct bpf_ids *ids);

/*
 * Objects alive now that were not in before, leaving out those another
 * process holds open (through an fd, a link it holds, or a program it
 * holds for the maps that program uses): other test runs may share the
 * machine.  Objects are freed partly in deferred work (RCU, workqueues), so
 * this looks again for up to timeout_ms before it reports anything.
 * Fills *leaked (free it with bpf_ids_free()); returns how many objects it
 * holds, or -errno.
 */
int bpf_ids_leaked(const struct bpf_ids *before, int timeout_ms,
		   struct bpf_ids *leaked);

/* One line per object in ids: kind, ID, type and name where still known. */
void bpf_ids_print(const struct bpf_ids *ids, FILE *out);

#endif
