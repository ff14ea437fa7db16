# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest.sh --help: the reference for its options, environment and exit
# codes (sourced by vmtest.sh; man pages are made from this text).

usage() {
	cat <<EOF
Usage: vmtest.sh [-k KERNEL [--modules DIR]]... [-j N] [--timeout SEC]
                 [--markdown] [--json FILE] [--keep] [--accel kvm|tcg]
                 [--vng] [--add HOST_PATH[:GUEST_PATH]]... [--kmod FILE.ko]...
                 [--test-progs PATH]
                 [--icount] [--bench [SPEC] [--bmf FILE]]
                 [--cost [OBJ|DIR]... [--csv FILE] [--bmf FILE]]
                 [-- COMMAND [ARG]...]

Boot each KERNEL in QEMU, run COMMAND inside (default: the suite,
test_progs with JSON results), print a kernel x test matrix.

  -k KERNEL      a Debian kernel alias (6.1, 6.12, 7.2, 6.12.117, 6.12-generic):
                 the newest matching cloud-amd64 (else generic) image of
                 bookworm, bookworm-security or sid, downloaded and cached;
                 or a bzImage/vmlinuz path; or a kernel build tree.
                 Repeatable.  Default: the kernels of vmtest/kernels.conf.
  --modules DIR  modules for the preceding -k image (lib/modules/RELEASE)
  -j N           guests at once (default: min(cores, free memory / VM size);
                 with --bench, every kernel at once if memory allows)
  --timeout SEC  limit for COMMAND in the guest, wall seconds (default:
                 60 s with KVM, 240 s with TCG; boot time is extra)
  --markdown     print the matrix as Markdown
  --json FILE    write the matrix and every guest's test_progs JSON to FILE
  --keep         keep the work directory (initramfs, console logs, results)
  --accel A      kvm or tcg instead of probing (also VMTEST_ACCEL)
  --vng          start the guests with virtme-ng's vng (host root over 9p;
                 aliases take the generic flavour, which has 9p)
  --add H[:G]    bring host file or directory H into the guest at G
                 (default: the same path); an ELF file brings its
                 libraries.  Repeatable.
  --kmod FILE.ko load this kernel module (insmod) in the guest before
                 COMMAND (scripts/kmod-build.sh builds one for a Debian
                 kernel).  Repeatable, loaded in order.
  --test-progs P the suite with the test_progs P (one built with
                 "make TESTS_DIR=DIR") instead of bpfcheck's own
  --icount       TCG with -icount shift=0: the guest's clock counts its
                 instructions, so what it times is in guest instructions
                 (also VMTEST_ICOUNT=1); one vCPU unless VMTEST_SMP is set
  --bench [SPEC] run benchmarks instead of the suite and print, per
                 benchmark and metric, a kernel x variant table and every
                 kernel against the first through bench compare.  SPEC:
                 comma-separated sets or run names of vmtest/bench.conf
                 (default: "default"); --json FILE writes the tables as
                 JSON, --bmf FILE in Bencher Metric Format
  --cost [OBJ]...  the verifier's figures of every program of the BPF
                 objects (or directories of .bpf.o; default: the build's)
                 on each kernel (bench verifier-cost), one table, and each
                 kernel against the first (bench verifier-compare
                 --kernels); --json, --csv (veristat's columns and
                 kernel) and --bmf write the report
  --version      the version, the test_progs build and QEMU it would use

COMMAND is a busybox applet, suite/test_progs/bench, or a host program
(a path, or a name on PATH): it is copied into the guest at the same path
with its ELF interpreter and shared libraries (as ldd names them), or
with its "#!" interpreter.  It runs in the host's working directory (the
same path, created in the guest, holding what --add put there), stdin
/dev/null, PATH /bpfcheck:/bin:/sbin:/usr/bin:/usr/sbin.  The harness is
in /bpfcheck; files written to \$VMTEST_RESULTS (/results) come back to
the host (--keep: WORKDIR/kN/results).  "suite [test_progs args]" is the
default, run in /tmp.
A kernel splat in the guest's kernel log (WARNING, BUG, Oops, KASAN,
UBSAN, lockdep, RCU stall, soft lockup, hung task) makes that kernel FAIL,
naming the splat and the test or step that was running.
Exit: 0 every kernel passed (or skipped), 1 a FAIL, TIMEOUT, PANIC,
BOOT_FAIL or NO_RESULT, 2 bad usage (checked before anything boots).
With one KERNEL and a COMMAND (or --test-progs): COMMAND's exit code when
it finished (1 if it exited 0 but the kernel splatted), else 1.

Environment:
  VMTEST_CACHE        downloaded kernels and apt state (vmtest/cache)
  VMTEST_OUT          work directories (\$OUTPUT/vmtest)
  VMTEST_MEM          guest memory in MiB (1024; unset, 3 x the initramfs + 768 when larger)
  VMTEST_SMP          guest vCPUs (2)
  VMTEST_TCG_THREAD   single (default) or multi: multi-threaded TCG
  VMTEST_TCG_SCALE    TCG's factor on the default timeout and boot allowance (4)
  VMTEST_APPEND       extra kernel command line
  VMTEST_APT_MAX_AGE  minutes before the package lists are refreshed (360)
  VMTEST_PROGRESS_SEC seconds between download progress lines (5)
  VMTEST_BENCH_ARGS   bench options of every --bench run ("-w 1 -d 3")
  VMTEST_BENCH_THRESHOLD  bench compare --threshold for --bench (5; 0.5
                      with --icount)
EOF
}
