// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "errname.h"
#include "int_file.h"
#include "isa.h"
#include "probe.h"
#include "mounts.h"
#include "test_api.h"

#define REASON_LEN 200

struct feature_state {
	const char *name;
	bool probed;
	bool present;
	char reason[REASON_LEN];
};

static struct feature_state feats[FEAT__COUNT] = {
	[FEAT_BTF] = { .name = "btf" },
	[FEAT_TRACEPOINT] = { .name = "tracepoint" },
	[FEAT_RAW_TP] = { .name = "raw_tp" },
	[FEAT_TP_BTF] = { .name = "tp_btf" },
	[FEAT_FENTRY] = { .name = "fentry" },
	[FEAT_KPROBE] = { .name = "kprobe" },
	[FEAT_PERF_EVENT_SW] = { .name = "perf_event_sw" },
	[FEAT_RINGBUF] = { .name = "ringbuf" },
	[FEAT_QUEUE_STACK] = { .name = "queue_stack" },
	[FEAT_BLOOM_FILTER] = { .name = "bloom_filter" },
	[FEAT_TASK_STORAGE] = { .name = "task_storage" },
	[FEAT_BPF_STATS] = { .name = "bpf_stats" },
	[FEAT_XDP] = { .name = "xdp" },
	[FEAT_ISA_V4] = { .name = "isa_v4" },
};

const char *getpgid_syscall_func(void)
{
#if defined(__x86_64__)
	return "__x64_sys_getpgid";
#elif defined(__aarch64__)
	return "__arm64_sys_getpgid";
#elif defined(__s390x__)
	return "__s390x_sys_getpgid";
#else
	return "sys_getpgid";
#endif
}

/* r0 = 0; exit: the smallest program every type accepts. */
static int load_tiny(enum bpf_prog_type type, enum bpf_attach_type eat,
		     __u32 btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = eat,
		.attach_btf_id = btf_id,
	);

	return bpf_prog_load(type, "bpfcheck_probe", "GPL", insns,
			     ARRAY_SIZE(insns), &opts);
}

static bool fail(char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, REASON_LEN, fmt, ap);
	va_end(ap);
	return false;
}

static int vmlinux_btf_id(const char *name, __u32 kind, char *reason)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf) {
		fail(reason, "no vmlinux BTF (%s)", errname(errno));
		return -1;
	}
	id = btf__find_by_name_kind(btf, name, kind);
	btf__free(btf);
	if (id < 0)
		fail(reason, "%s not found in vmlinux BTF", name);
	return id;
}

static bool probe_btf(char *reason)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return fail(reason,
			    "kernel has no BTF: /sys/kernel/btf/vmlinux missing (CONFIG_DEBUG_INFO_BTF)");
	return true;
}

static bool probe_trampoline(char *reason, enum bpf_attach_type eat,
			     const char *what, const char *target,
			     __u32 kind)
{
	int id = vmlinux_btf_id(target, kind, reason);
	int fd, link;

	if (id < 0)
		return false;
	fd = load_tiny(BPF_PROG_TYPE_TRACING, eat, id);
	if (fd < 0)
		return fail(reason,
			    "%s not supported by this kernel (%s on load)",
			    what, errname(errno));
	link = bpf_raw_tracepoint_open(NULL, fd);
	if (link < 0) {
		int err = errno;

		close(fd);
		return fail(reason,
			    "%s not supported by this kernel (%s on attach)",
			    what, errname(err));
	}
	close(link);
	close(fd);
	return true;
}

static bool probe_fentry(char *reason)
{
	return probe_trampoline(reason, BPF_TRACE_FENTRY, "fentry",
				getpgid_syscall_func(), BTF_KIND_FUNC);
}

static bool probe_tp_btf(char *reason)
{
	return probe_trampoline(reason, BPF_TRACE_RAW_TP, "tp_btf",
				"btf_trace_sys_enter", BTF_KIND_TYPEDEF);
}

static bool probe_raw_tp(char *reason)
{
	int fd = load_tiny(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0), link;

	if (fd < 0)
		return fail(reason,
			    "raw_tp not supported by this kernel (%s on load)",
			    errname(errno));
	link = bpf_raw_tracepoint_open("sys_enter", fd);
	if (link < 0) {
		int err = errno;

		close(fd);
		return fail(reason, "raw_tp sys_enter attach failed (%s)",
			    errname(err));
	}
	close(link);
	close(fd);
	return true;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid)
{
	return syscall(__NR_perf_event_open, attr, pid, pid == -1 ? 0 : -1,
		       -1, PERF_FLAG_FD_CLOEXEC);
}

/* Attach a tiny program of the given type to a perf event fd. */
static bool attach_to_perf_event(char *reason, const char *what,
				 enum bpf_prog_type type, int pfd)
{
	int fd = load_tiny(type, 0, 0);
	int err;

	if (fd < 0) {
		err = errno;
		close(pfd);
		return fail(reason,
			    "%s programs not supported by this kernel (%s on load)",
			    what, errname(err));
	}
	err = ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd) ? errno : 0;
	close(fd);
	close(pfd);
	if (err)
		return fail(reason, "%s attach failed (%s)", what,
			    errname(err));
	return true;
}

static bool probe_tracepoint(char *reason)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	const char *why = mounts_missing(TRACEFS_PATH);
	int id, pfd;

	if (why)
		return fail(reason, "%s", why);
	id = read_int_file(TRACEFS_PATH
			   "/events/syscalls/sys_enter_getpgid/id");
	if (id < 0)
		return fail(reason,
			    "no syscalls:sys_enter_getpgid tracepoint (CONFIG_FTRACE_SYSCALLS)");
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	pfd = perf_event_open(&attr, -1);
	if (pfd < 0)
		return fail(reason, "perf_event_open on a tracepoint failed (%s)", errname(errno));
	return attach_to_perf_event(reason, "tracepoint",
				    BPF_PROG_TYPE_TRACEPOINT, pfd);
}

static bool probe_kprobe(char *reason)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	int type = read_int_file("/sys/bus/event_source/devices/kprobe/type");
	int pfd;

	if (type < 0)
		return fail(reason,
			    "kprobes not supported by this kernel (no kprobe PMU: CONFIG_KPROBES/KPROBE_EVENTS off)");
	attr.type = type;
	attr.config1 = (__u64)(unsigned long)getpgid_syscall_func();
	attr.sample_period = 1;
	pfd = perf_event_open(&attr, -1);
	if (pfd < 0)
		return fail(reason, "kprobe on %s could not be created (%s)",
			    getpgid_syscall_func(), errname(errno));
	return attach_to_perf_event(reason, "kprobe", BPF_PROG_TYPE_KPROBE,
				    pfd);
}

static bool probe_perf_event_sw(char *reason)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = 100,
		.freq = 1,
	};
	int pfd = perf_event_open(&attr, 0);

	if (pfd < 0)
		return fail(reason,
			    "software cpu-clock perf event not available (%s)",
			    errname(errno));
	return attach_to_perf_event(reason, "perf_event",
				    BPF_PROG_TYPE_PERF_EVENT, pfd);
}

static bool probe_map(char *reason, enum bpf_map_type type, const char *what)
{
	int ret = libbpf_probe_bpf_map_type(type, NULL);

	if (ret == 1)
		return true;
	if (ret == 0)
		return fail(reason, "%s maps not supported by this kernel",
			    what);
	return fail(reason, "probing %s maps failed (%s)", what,
		    errname(-ret));
}

static bool probe_queue_stack(char *reason)
{
	return probe_map(reason, BPF_MAP_TYPE_QUEUE, "queue") &&
	       probe_map(reason, BPF_MAP_TYPE_STACK, "stack");
}

static bool probe_bpf_stats(char *reason)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return fail(reason, "BPF_ENABLE_STATS not supported (%s)",
			    errname(errno));
	close(fd);
	return true;
}

static bool probe_xdp(char *reason)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int fd = load_tiny(BPF_PROG_TYPE_XDP, 0, 0), err;
	unsigned char pkt[64] = { 0 };

	topts.data_in = pkt;
	topts.data_size_in = sizeof(pkt);
	if (fd < 0)
		return fail(reason,
			    "XDP programs not supported by this kernel (%s on load)",
			    errname(errno));
	err = bpf_prog_test_run_opts(fd, &topts) ? errno : 0;
	close(fd);
	if (err)
		return fail(reason, "BPF_PROG_TEST_RUN on XDP failed (%s)",
			    errname(err));
	return true;
}

static bool probe(enum bpf_feature f, char *reason)
{
	switch (f) {
	case FEAT_BTF:
		return probe_btf(reason);
	case FEAT_TRACEPOINT:
		return probe_tracepoint(reason);
	case FEAT_RAW_TP:
		return probe_raw_tp(reason);
	case FEAT_TP_BTF:
		return probe_tp_btf(reason);
	case FEAT_FENTRY:
		return probe_fentry(reason);
	case FEAT_KPROBE:
		return probe_kprobe(reason);
	case FEAT_PERF_EVENT_SW:
		return probe_perf_event_sw(reason);
	case FEAT_RINGBUF:
		return probe_map(reason, BPF_MAP_TYPE_RINGBUF, "ring buffer");
	case FEAT_QUEUE_STACK:
		return probe_queue_stack(reason);
	case FEAT_BLOOM_FILTER:
		return probe_map(reason, BPF_MAP_TYPE_BLOOM_FILTER, "bloom filter");
	case FEAT_TASK_STORAGE:
		return probe_map(reason, BPF_MAP_TYPE_TASK_STORAGE, "task local storage");
	case FEAT_BPF_STATS:
		return probe_bpf_stats(reason);
	case FEAT_XDP:
		return probe_xdp(reason);
	case FEAT_ISA_V4:
		return isa_v4_supported(reason, REASON_LEN);
	case FEAT__COUNT:
		break;
	}
	return fail(reason, "unknown feature %d", f);
}

static libbpf_print_fn_t quiet_libbpf(void)
{
	return libbpf_set_print(NULL);
}

const char *feature_name(enum bpf_feature f)
{
	return f < FEAT__COUNT ? feats[f].name : "unknown";
}

const char *feature_missing(enum bpf_feature f)
{
	struct feature_state *s;

	if (f >= FEAT__COUNT)
		return "unknown feature";
	s = &feats[f];
	if (!s->probed) {
		/* Probe failures are expected; keep libbpf from warning. */
		libbpf_print_fn_t old = quiet_libbpf();

		s->present = probe(f, s->reason);
		libbpf_set_print(old);
		s->probed = true;
	}
	return s->present ? NULL : s->reason;
}

void features_probe_all(void)
{
	for (int f = 0; f < FEAT__COUNT; f++)
		feature_missing(f);
}

bool test__need(enum bpf_feature f)
{
	const char *why = feature_missing(f);

	if (!why)
		return true;
	test__skip_reason("%s", why);
	printf("SKIP: needs %s: %s\n", feature_name(f), why);
	return false;
}
