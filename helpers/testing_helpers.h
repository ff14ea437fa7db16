/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and system helpers by the names of the kernel's selftests
 * (testing_helpers.h).  Functions return 0 (or an fd) on success and a
 * negative errno on failure unless said otherwise.
 */
#ifndef BPFCHECK_TESTING_HELPERS_H
#define BPFCHECK_TESTING_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define __TO_STR(x)	#x
#define TO_STR(x)	__TO_STR(x)

/* "1,3-5" as set[1] = set[3] = set[4] = set[5] = true (*set is malloc'ed). */
int parse_num_list(const char *s, bool **set, int *set_len);

/*
 * Open file, give its first program type (unless BPF_PROG_TYPE_UNSPEC)
 * and the test flags the kernel knows, load: *pobj and *prog_fd.
 */
int bpf_prog_test_load(const char *file, enum bpf_prog_type type,
		       struct bpf_object **pobj, int *prog_fd);
/* Load raw instructions with the test flags; the verifier log in log_buf. */
int bpf_test_load_program(enum bpf_prog_type type, const struct bpf_insn *insns,
			  size_t insns_cnt, const char *license,
			  __u32 kern_version, char *log_buf, size_t log_buf_sz);
/* The BPF_F_TEST_* load flags this kernel accepts (probed once). */
int testing_prog_flags(void);
/* Wait for an RCU grace period (membarrier does one). */
int kern_sync_rcu(void);
bool is_jit_enabled(void);
/* The verifier's rewritten instructions of a loaded program (free *buf). */
int get_xlated_program(int fd_prog, struct bpf_insn **buf, __u32 *cnt);
/* mprotect() a page of the stack executable: what LSM tests trigger. */
int stack_mprotect(void);
/* The id of the program a link holds (*info filled); 0 on error. */
__u32 link_info_prog_id(const struct bpf_link *link, struct bpf_link_info *info);
/* Write value to a sysctl file (a full /proc/sys/... path); 0 or -1. */
int write_sysctl(const char *sysctl, const char *value);

/* bpf_testmod.ko is loaded before test_progs starts: these say whether it is. */
int load_bpf_testmod(bool verbose);
int unload_bpf_testmod(bool verbose);

static inline __u64 get_time_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ull + t.tv_nsec;
}

/* perf_event_max_sample_rate, 5000 when it cannot be read (kernel_api.c). */
__u64 read_perf_max_sample_freq(void);
/* Kernel modules (kernel_api.c): 0, else -1 (load) or -errno (unload). */
int finit_module(int fd, const char *param_values, int flags);
int delete_module(const char *name, int flags);
int load_module(const char *path, bool verbose);
int load_module_params(const char *path, const char *param_values, bool verbose);
int try_unload_module(const char *name, int retries, bool verbose);
int unload_module(const char *name, bool verbose);

#endif
