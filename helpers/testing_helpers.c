// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and system helpers of the kernel's testing_helpers.h.  The ones
 * older kernels' tests define themselves (stack_mprotect in 6.12's
 * test_lsm.c) are weak: the test's own wins.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "int_file.h"
#include "test_api.h"
#include "testing_helpers.h"

#define TEST_RND_HI32		(1U << 2)	/* BPF_F_TEST_RND_HI32 */
#define TEST_REG_INVARIANTS	(1U << 7)	/* BPF_F_TEST_REG_INVARIANTS */

static bool mark_range(bool **set, int *len, int from, int to)
{
	bool *s;

	if (to >= *len) {
		s = realloc(*set, to + 1);
		if (!s)
			return false;
		memset(s + *len, 0, to + 1 - *len);
		*set = s;
		*len = to + 1;
	}
	for (int i = from; i <= to; i++)
		(*set)[i] = true;
	return true;
}

int parse_num_list(const char *s, bool **out, int *out_len)
{
	bool *set = NULL;
	int len = 0;

	while (*s) {
		char *end;
		long from = strtol(s, &end, 10), to = from;

		if (end == s || from < 0)
			goto bad;
		if (*end == '-') {
			s = end + 1;
			to = strtol(s, &end, 10);
			if (end == s || to < from)
				goto bad;
		}
		if (to > 1000000 || !mark_range(&set, &len, from, to)) {
			free(set);
			return to > 1000000 ? -EINVAL : -ENOMEM;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		s = end;
	}
	*out = set;
	*out_len = len;
	return 0;
bad:
	free(set);
	return -EINVAL;
}

static bool flag_accepted(__u32 flag)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = flag);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			       2, &opts);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int testing_prog_flags(void)
{
	static int flags = -1;

	if (flags < 0) {
		flags = 0;
		if (flag_accepted(TEST_RND_HI32))
			flags |= TEST_RND_HI32;
		if (flag_accepted(TEST_REG_INVARIANTS))
			flags |= TEST_REG_INVARIANTS;
	}
	return flags;
}

int bpf_prog_test_load(const char *file, enum bpf_prog_type type,
		       struct bpf_object **pobj, int *prog_fd)
{
	struct bpf_object *obj = bpf_object__open(file);
	struct bpf_program *prog;
	int err;

	if (!obj)
		return -errno;
	prog = bpf_object__next_program(obj, NULL);
	if (!prog) {
		bpf_object__close(obj);
		return -ENOENT;
	}
	if (type != BPF_PROG_TYPE_UNSPEC && bpf_program__type(prog) != type)
		bpf_program__set_type(prog, type);
	bpf_program__set_flags(prog, bpf_program__flags(prog) | testing_prog_flags());
	err = bpf_object__load(obj);
	if (err) {
		bpf_object__close(obj);
		return err;
	}
	*pobj = obj;
	*prog_fd = bpf_program__fd(prog);
	return 0;
}

int bpf_test_load_program(enum bpf_prog_type type, const struct bpf_insn *insns,
			  size_t insns_cnt, const char *license,
			  __u32 kern_version, char *log_buf, size_t log_buf_sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .kern_version = kern_version,
		    .prog_flags = testing_prog_flags(),
		    .log_level = log_buf ? 1 : 0,
		    .log_buf = log_buf,
		    .log_size = log_buf_sz);

	return bpf_prog_load(type, NULL, license, insns, insns_cnt, &opts);
}

int kern_sync_rcu(void)
{
	return syscall(SYS_membarrier, MEMBARRIER_CMD_SHARED, 0, 0) ? -errno : 0;
}

bool is_jit_enabled(void)
{
	return read_int_file("/proc/sys/net/core/bpf_jit_enable") > 0;
}

int get_xlated_program(int fd_prog, struct bpf_insn **buf, __u32 *cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err = bpf_obj_get_info_by_fd(fd_prog, &info, &len);

	if (err)
		return err;
	*cnt = info.xlated_prog_len / sizeof(struct bpf_insn);
	*buf = calloc(*cnt ? *cnt : 1, sizeof(struct bpf_insn));
	if (!*buf)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = *cnt * sizeof(struct bpf_insn);
	info.xlated_prog_insns = (__u64)(uintptr_t)*buf;
	len = sizeof(info);
	err = bpf_obj_get_info_by_fd(fd_prog, &info, &len);
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	return err;
}

__attribute__((weak))
__u32 link_info_prog_id(const struct bpf_link *link, struct bpf_link_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (bpf_obj_get_info_by_fd(bpf_link__fd(link), info, &len))
		return 0;
	return info->prog_id;
}

__attribute__((weak))
int stack_mprotect(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char buf[2 * 65536];
	uintptr_t start = ((uintptr_t)buf + page - 1) & ~(uintptr_t)(page - 1);

	buf[sizeof(buf) - 1] = 0;
	return mprotect((void *)start, page, PROT_READ | PROT_WRITE | PROT_EXEC);
}

int write_sysctl(const char *sysctl, const char *value)
{
	int fd = open(sysctl, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t n;

	if (!ASSERT_OK_FD(fd, "open sysctl"))
		return -1;
	n = write(fd, value, len);
	close(fd);
	if (!ASSERT_EQ(n, (ssize_t)len, "write sysctl"))
		return -1;
	return 0;
}

int load_bpf_testmod(bool verbose)
{
	if (!access("/sys/module/bpf_testmod", F_OK))
		return 0;
	if (verbose)
		fprintf(stderr,
			"bpf_testmod.ko is not loaded: load it before test_progs (vmtest --kmod, scripts/testmod-build.sh)\n");
	return -ENOENT;
}

/* The module stays: it was loaded for the whole run, not by a test. */
int unload_bpf_testmod(bool verbose)
{
	(void)verbose;
	return 0;
}
