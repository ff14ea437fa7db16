#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpfcheck's kselftest entry (the one line of kselftest-list.txt).  The
# kernel's runner, run_kselftest.sh or "make run_tests" through lib.mk,
# runs it from its own directory and prefixes its output with "# ".  It
# runs test_progs from the same directory with KTAP output, the leak check
# on, and a watchdog per test well below the runner's timeout (settings),
# so that a hanging test is reported by name and the others still run.
#
# Arguments follow those defaults and go to test_progs ("-t ringbuf",
# "-j 2", "-w 300"); the runner passes KSELFTEST_RUN_TEST_PROGS_SH_ARGS.
# Exit: test_progs' own, which is kselftest's: 0 pass, 1 a failure,
# 4 everything skipped (KSFT_SKIP, reported "ok N ... # SKIP"); 2 nothing
# selected and 3 bad usage count as failures.

exec "$(dirname "$0")/test_progs" --ktap --leak-check -w 120 "$@"
