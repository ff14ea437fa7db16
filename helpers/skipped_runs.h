/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runs of a tracing program that the kernel skipped, and counts checked
 * against them.
 *
 * A tracing program does not run while it is already running on the same
 * CPU: the kernel skips the run and, for most attach types, adds one to
 * the program's recursion_misses (bpf_prog_info).  Most skips are true
 * recursion, but where the program runs preemptible, a task preempted
 * inside it makes every other task's run of it on that CPU a skip.
 * Linux sources (Debian 6.1.192, 6.12.117, 7.2.13) say, per attach type:
 *
 * - fentry/fexit: the trampoline's per-program guard, counted since 5.12;
 *   it holds RCU and disables migration only, so it is preemptible.
 * - raw_tp, tp_btf: __bpf_trace_run()'s per-program guard, counted in all
 *   three.  Up to 6.12 the tracepoint disables preemption around its
 *   probes; in 7.2 it holds SRCU-fast (RCU tasks trace for the faultable
 *   syscall tracepoints) and the run only disables migration.
 * - tracepoint (perf event): up to 6.12, trace_call_bpf()'s per-CPU guard
 *   shared by all kprobe and tracepoint programs, preemption disabled,
 *   counted since 6.7 (not in 6.1).  In 7.2 syscall tracepoints go through
 *   trace_call_bpf_faultable(): a per-program guard, preemptible, counted.
 * - kprobe (perf event): trace_call_bpf(), counted since 6.7.  The kprobe
 *   handler runs with preemption disabled, so its own skips (another kprobe
 *   active on the CPU, counted in the kprobe's nmissed, not in the
 *   program's) only hit probes nested in a handler, never a syscall.
 *
 * So a count can fall short by the runs skipped, and on a kernel that
 * does not count a path's skips, that path runs with preemption disabled
 * and cannot skip another task's run.
 */
#ifndef BPFCHECK_SKIPPED_RUNS_H
#define BPFCHECK_SKIPPED_RUNS_H

#include <stdbool.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

/* prog's recursion_misses now into *misses; asserts that it could read it. */
bool prog_recursion_misses(const struct bpf_program *prog, __u64 *misses);

/*
 * Assert that a program which counted `counted` of `made` events, while the
 * kernel skipped `skipped` of its runs, lost no more than were skipped and
 * invented none: counted <= made, made - counted <= skipped.  With nothing
 * skipped that is counted == made.  what names the count in the messages.
 */
bool check_count_with_skips(const char *what, __u64 counted, __u64 made,
			    __u64 skipped);

#endif
