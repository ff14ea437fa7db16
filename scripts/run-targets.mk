# SPDX-License-Identifier: GPL-2.0
#
# The Makefile's running targets (included by it): run_tests, check and
# each of its stages, the bench's runs and vmtest.  They use the
# variables the Makefile sets (OUTPUT, TEST_PROGS_BIN, BENCH, FIXTURE...).

ifeq ($(KSFT_LIB_MK),)
run_tests:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
	$(Q)$(TEST_PROGS_BIN) $(TEST_PROGS_ARGS)
endif

check:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all $(FIXTURE) $(FAULTY) $(KTAP_CHECK) \
		$(BENCH) $(BENCH_SAN) $(BENCH_UNIT_TESTS)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/check.sh

# The suite with a test that segfaults, one that hangs, one that leaks.
check-faulty: $(TEST_PROGS_BIN) $(FAULTY) $(KTAP_CHECK)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/harness/faulty_check.sh

# Only the harness's self-tests (fast; no BPF suite run).
check-self: $(FIXTURE) $(KTAP_CHECK) $(TEST_PROGS_BIN)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/harness/run.sh

# The shape of the tree: include and call graph (from the objects), folder arrows.
check-layers: $(TEST_PROGS_BIN) $(BENCH)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/layers_check.sh

# The kernel's test_progs command line and JSON as libbpf/ci uses them
# (PRINT_TEST_SUMMARY=file runs libbpf/ci's print_test_summary.py too).
check-kernel-cli: $(FIXTURE) $(TEST_PROGS_BIN)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/harness/kernel_cli_check.sh

bench-bin: $(BENCH)

# Build the bench and run the ring buffer vs queue vs perf buffer sweep
# (results in $(OUTPUT)/bench-results).
bench:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile $(BENCH)
	$(Q)BENCH=$(BENCH) sh $(SRCDIR)/bench/run_ringbuf_vs_queue.sh \
		-o $(OUTPUT)/bench-results $(BENCH_SWEEP_ARGS)

# Every prog-cost pair by test run and by BPF statistics, one table
# (results in $(OUTPUT)/prog-cost).
bench-prog-cost:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile $(BENCH)
	$(Q)BENCH=$(BENCH) OUTPUT=$(OUTPUT) sh $(SRCDIR)/bench/run_prog_cost.sh \
		-o $(OUTPUT)/prog-cost $(BENCH_PROG_COST_ARGS)

# The regression gate end to end: baseline the lookup classifier, flag the
# loop one (bench compare exits 1, as it must), pass lookup against itself
# (exit 0).  Succeeds only when both verdicts are the expected ones.
bench-regress:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile $(BENCH)
	$(Q)BENCH=$(BENCH) sh $(SRCDIR)/bench/run_gate_demo.sh \
		-o $(OUTPUT)/gate-demo $(BENCH_REGRESS_ARGS)

# The bench's own tests: every benchmark for about a second, bad input;
# prog-cost and the regression gate.
check-trust: $(FIXTURE) $(TEST_PROGS_BIN) $(BENCH)
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/harness/trust_check.sh

check-bench: $(BENCH) $(BENCH_SAN) $(BENCH_UNIT_TESTS)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/bench/bench_check.sh
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/bench/prog_cost_check.sh
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/bench/history_check.sh

# checkpatch.pl (fetched from Debian's linux-source) over every C file,
# shellcheck over every shell script, no file over 450 lines.
lint:
	$(Q)sh $(SRCDIR)/scripts/deps.sh lint
	$(Q)sh $(SRCDIR)/scripts/lint.sh

config-check:
	$(Q)sh $(SRCDIR)/scripts/config-check.sh $(SRCDIR)/config

# The suite in QEMU on a matrix of kernels (vmtest/vmtest.sh --help).
vmtest:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/vmtest/vmtest.sh $(VMTEST_ARGS)

check-vmtest:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/vmtest/vmtest_check.sh

# Benchmarks in QEMU on the same kernels: per benchmark a kernel x variant
# table, every kernel against the first (vmtest.sh --bench).
# The exact kernel comparison first (the verifier's figures and test_run
# under icount: vmtest --cost), then the benchmarks.
vmtest-bench:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all bench-bin
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/vmtest/vmtest.sh --icount --cost $(VMTEST_ARGS)
	$(Q)[ -z "$(VMTEST_BENCH)" ] || \
		OUTPUT=$(OUTPUT) sh $(SRCDIR)/vmtest/vmtest.sh --bench $(VMTEST_BENCH) $(VMTEST_ARGS)

# The verifier's figures of the build's objects on the same kernels,
# exact under --icount, and every kernel against the first.
vmtest-cost:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all bench-bin
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/vmtest/vmtest.sh --icount --cost $(VMTEST_ARGS)

# The kernel's selftests of a series on the kernels of the matrix
# (kernel-tests/kernel-tests.sh): SERIES=7.2 KERNELS="6.1 6.12 7.2"
# TESTS="a b c" HOST=1 KERNEL_TESTS_ARGS="-j 2 --markdown ...".
# REFERENCE=kernel: the same tests under the kernel's own test_progs too,
# the verdicts compared (kernel-tests/compare.sh).
SERIES ?= 7.2
REFERENCE ?=
KERNELS ?=
TESTS ?=
HOST ?=
KERNEL_TESTS_ARGS ?=
kernel-tests:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
ifeq ($(REFERENCE),kernel)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/kernel-tests/compare.sh \
		$(foreach k,$(KERNELS),-k $(k)) $(if $(TESTS),-t "$(TESTS)") $(SERIES)
else ifneq ($(REFERENCE),)
	$(error REFERENCE=$(REFERENCE): the one reference is REFERENCE=kernel, the kernel's test_progs)
else
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/kernel-tests/kernel-tests.sh \
		$(foreach k,$(KERNELS),-k $(k)) $(if $(TESTS),-t "$(TESTS)") \
		$(if $(HOST),--host) $(KERNEL_TESTS_ARGS) $(SERIES)
endif

check-verifier-cost:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all bench-bin
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/bench/verifier_cost_check.sh

check-vmtest-bench:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all bench-bin
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/vmtest/vmtest_bench_check.sh

# bpfcheck as a kselftest collection, against Debian's linux-source
# (scripts/linux-source.sh fetches and caches its kselftest files).
check-kselftest: $(TEST_PROGS_BIN) $(FIXTURE) $(KTAP_CHECK)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/kselftest_check.sh

# The kernel's own selftests of linux-source 6.12 and 7.2, unmodified, in
# a scratch copy of the tree (Documentation/kernel-tests.md).
check-kernel-tests: $(TEST_PROGS_BIN)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/kernel_tests_check.sh

# A kernel series' selftests in one test_progs, each test on its own
# terms (kernel-tests/build.sh): one that does not build blocks none.
check-kernel-tests-build: $(TEST_PROGS_BIN)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/kernel_tests_build_check.sh

# The toolchains: the default build's, and LIBBPF=system CLANG=clang-14
# built into $(OUTPUT)/system (tests/scripts/toolchain_check.sh).
check-toolchain: $(TEST_PROGS_BIN)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/toolchain_check.sh

# The example workflow .github/workflows/vmtest.yml: YAML, schema, jobs.
check-workflow: $(FIXTURE)
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/scripts/workflow_check.sh

# vmtest --vng: installs virtme-ng (from sid, see vmtest/vng-install.sh).
# vmtest -- CMD, --add, runner.sh, make TESTS_DIR and examples/pktclass.
check-byo:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/vmtest/vmtest_byo_check.sh

check-vng:
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile deps
	$(Q)$(MAKE) -f $(SRCDIR)/Makefile all
	$(Q)sh $(SRCDIR)/vmtest/vng-install.sh
	$(Q)OUTPUT=$(OUTPUT) sh $(SRCDIR)/tests/vmtest/vng_check.sh
