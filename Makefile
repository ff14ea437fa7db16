# SPDX-License-Identifier: GPL-2.0
#
# bpfcheck: a kselftest-style test and benchmark harness for BPF programs.
#
#   make all          build test_progs (vmlinux.h, BPF objects, skeletons); the default
#   make run_tests    install missing packages, build, run the suite
#   make check        the project's own tests plus the suite
#   make help         this list
#   make lint         checkpatch and shellcheck over the sources (scripts/lint.sh)
#   make deps         install missing Debian packages (idempotent)
#   make config-check compare ./config with the running kernel's config
#   make bench        build build/bench, run the ring buffer vs queue sweep
#   make bench-bin    build build/bench
#   make check-bench  the bench's own tests (every benchmark briefly)
#   make check-self   the harness's self-tests only (tests/harness/run.sh)
#   make check-layers no include cycle, the folder arrows, make help's targets
#   make check-faulty the suite with tests that crash, hang and leak
#   make check-trust  outputs never destroy, no false FAIL/PASS, JUnit, KTAP
#   make bench-prog-cost  every prog-cost pair by both methods, one table
#   make bench-regress    the regression gate flags the slow XDP classifier
#   make vmtest       the suite in QEMU on the kernels of vmtest/kernels.conf
#   make check-vmtest vmtest's own checks (boots 6.1 and 6.12)
#   make check-byo    vmtest -- CMD, runner.sh, TESTS_DIR, examples/pktclass
#   make check-vng    vmtest --vng checks (installs virtme-ng from sid)
#   make vmtest-bench the kernels compared exactly (--icount --cost); with
#                     VMTEST_BENCH=SPEC the wall-clock benchmarks too (bench.conf)
#   make check-vmtest-bench  vmtest --bench --icount checks (6.1 and 6.12)
#   make vmtest-cost  the verifier's figures of every program on the same
#                     kernels (vmtest --icount --cost), kernels compared
#   make check-verifier-cost  bench verifier-cost/-compare checks, veristat
#   make install INSTALL_PATH=dir [KSFT_DIR=<linux>/tools/testing/selftests]
#                     a kselftest install tree (scripts/kselftest.mk)
#   make install PREFIX=dir [DESTDIR=dir]
#                     test_progs and bench in bin/, their man pages and
#                     bash completion under share/
#   make man          man pages from the --help texts (help2man)
#   make emit_tests   the collection:test lines of kselftest-list.txt
#   make check-kselftest  install, run_kselftest.sh, in-tree lib.mk builds
#   make check-workflow   the example .github/workflows/vmtest.yml
#   make check-kernel-cli libbpf/ci's test_progs line and JSON summary
#   make check-toolchain  the default and LIBBPF=system builds, left-out tests
#   make check-kernel-tests  the kernel's own selftests, unmodified, build
#                     and pass (Documentation/kernel-tests.md)
#   make check-kernel-tests-build  kernel-tests/build.sh: a series' tests in
#                     one test_progs, a broken one left out with its error
#   make kernel-tests SERIES=7.2 KERNELS="6.1 6.12 7.2" [TESTS="a b"] [HOST=1]
#                     a series' selftests on the kernels, one table
#   make clean        remove what the build made
#
# In a kernel tree, as tools/testing/selftests/bpfcheck, the kernel's lib.mk
# provides all, run_tests, install, emit_tests and clean.
#
# Variables: OUTPUT=dir (out-of-tree build), V=1 (full commands),
# LIBBPF=source|system (default source: libbpf and bpftool built from
# Debian's linux-source-$(LIBBPF_SERIES), default newest, or from the
# kernel tree bpfcheck sits in), CLANG (default: the newest of clang-22,
# clang-19, clang), VMTEST_CACHE (where sources are cached),
# VMLINUX_BTF=file, BPF_CPU=v1|v2|v3, BPFTOOL, TEST_PROGS_ARGS,
# BENCH_SWEEP_ARGS (options of bench/run_ringbuf_vs_queue.sh),
# BENCH_PROG_COST_ARGS (bench/run_prog_cost.sh), BENCH_REGRESS_ARGS
# (bench/run_gate_demo.sh),
# VMTEST_ARGS (e.g. VMTEST_ARGS="-k 6.12 --markdown"), BPF_EXTRA_CFLAGS
# (more clang flags for the BPF programs, e.g. -DSLOW),
# TESTS_DIR=DIR (a project's own progs/ and prog_tests/, built into
# DIR/build: Documentation/out-of-tree.md).
# VMTEST_BENCH (vmtest-bench's wall-clock benchmark SPEC; default none).

SRCDIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# make TESTS_DIR=DIR: DIR's own tests, built in DIR/build (scripts/tests-dir.mk).
ifdef TESTS_DIR
override TESTS_DIR := $(abspath $(TESTS_DIR))
OUTPUT ?= $(TESTS_DIR)/build
endif
OUTPUT ?= $(SRCDIR)/build
override OUTPUT := $(abspath $(OUTPUT))
# Build products never mix with the sources: an OUTPUT that is the source
# tree (the kselftest Makefile's default without O=) means its build/.
ifeq ($(OUTPUT),$(SRCDIR))
override OUTPUT := $(SRCDIR)/build
endif

CC ?= gcc
PKG_CONFIG ?= pkg-config
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_CPU ?= v3
TEST_PROGS_ARGS ?= --leak-check
VMTEST_ARGS ?=
VMTEST_BENCH ?=
VMTEST_CACHE ?= $(SRCDIR)/vmtest/cache

SRCARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	-e 's/s390x/s390/' -e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/')

OBJ := $(OUTPUT)/obj
SAN := $(OUTPUT)/san
BPF := $(OUTPUT)/bpf
GEN := $(OUTPUT)/gen

# ---- toolchain: clang, libbpf, bpftool (Documentation/toolchain.md) ----

# Which clang, libbpf and bpftool, building libbpf, build_info.h.
include $(SRCDIR)/scripts/clang-libbpf.mk

CFLAGS ?= -g -O2
WARN_CFLAGS := -Wall -Wextra -Werror
# Each folder sees lib/ and the folders it may use, nothing else, so that
# an include against the arrows fails to build (tests/scripts/layers_check.sh
# checks the same from the sources).  TESTS_INCLUDES: a TESTS_DIR
# project's headers, before bpfcheck's.
COMMON_CFLAGS = -std=gnu11 $(WARN_CFLAGS) -MMD -MP $(TESTS_INCLUDES) $(LAYER_CFLAGS) \
	-I$(SRCDIR)/lib -I$(SRCDIR)/progs -I$(GEN) -I$(BPF) $(LIBBPF_CFLAGS)
TEST_SIDE_CFLAGS := -I$(SRCDIR)/harness -I$(SRCDIR)/helpers
BENCH_SIDE_CFLAGS := -I$(SRCDIR)/bench
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer

# clang -target bpf does not search the multiarch include directory.
# Asked once per make, when a BPF object is built (not once per object).
BPF_SYS_INCLUDES = $(eval BPF_SYS_INCLUDES := $$(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }'))$(BPF_SYS_INCLUDES)
BPF_CFLAGS = -g -O2 -target bpf -mcpu=$(BPF_CPU) -D__TARGET_ARCH_$(SRCARCH) \
	-Wall -Werror -I$(GEN) $(TESTS_INCLUDES) -I$(SRCDIR)/progs $(LIBBPF_CFLAGS) \
	$(BPF_SYS_INCLUDES) $(BPF_EXTRA_CFLAGS)

# The runner core; harness/test_progs.c adds the machine's preparation and
# the leak checker (prepare.c, privilege.c, bpf_leaks.c and what they use).
TEST_PROGS_ONLY_SRCS := harness/test_progs.c harness/registry.c harness/prepare.c \
	harness/privilege.c harness/bpf_leaks.c harness/probe.c harness/bpf_ids.c \
	harness/usleep.c
CORE_SRCS := $(filter-out $(TEST_PROGS_ONLY_SRCS),$(sort $(wildcard harness/*.c)))
HELPER_SRCS := $(sort $(wildcard helpers/*.c))
# Code both test_progs and the bench link.
LIB_SRCS := $(sort $(wildcard lib/*.c))
TEST_SRCS := $(sort $(wildcard prog_tests/*.c))
BPF_SRCS := $(sort $(wildcard progs/*.bpf.c))
BPF_HDRS := $(wildcard progs/*.h)
FIXTURE_SRCS := $(sort $(wildcard tests/harness/fixtures/*.c))
# The bench: its framework (bench/), the benchmarks (bench/benchs/,
# bench/prog_cost/), the gate (bench/gate/) and lib/; nothing of test_progs.
BENCH_SRCS := $(sort $(wildcard bench/*.c bench/*/*.c)) $(LIB_SRCS)
# bench history keeps its results in SQLite (Debian's libsqlite3-dev).
BENCH_LDLIBS := -lsqlite3
# Where the BPF programs and the tests are: here, or in TESTS_DIR.
PROGS_DIR := progs
PROG_TESTS_DIR := prog_tests
ifdef TESTS_DIR
include $(SRCDIR)/scripts/tests-dir.mk
endif

# Programs built once per BPF ISA version (skeleton <name>_<cpu>), so tests
# and benchmarks can compare the variants.  v4 needs clang >= 18.
MULTI_ISA_PROGS := $(if $(TESTS_DIR),,test_isa)
ISA_CPUS := v1 v2 v3 $(CLANG_HAS_V4)
SINGLE_ISA_SRCS := $(filter-out $(patsubst %,$(PROGS_DIR)/%.bpf.c,$(MULTI_ISA_PROGS)), \
	$(BPF_SRCS))
# A program's name: progs/NAME.bpf.c, or progs/NAME.c as the kernel names them.
BPF_NAMES := $(patsubst %.bpf,%,$(basename $(notdir $(SINGLE_ISA_SRCS))))
ISA_SKELS := $(foreach p,$(MULTI_ISA_PROGS),$(foreach c,$(ISA_CPUS), \
	$(BPF)/$(p)_$(c).skel.h))

BPF_OBJS := $(BPF_NAMES:%=$(BPF)/%.bpf.o) \
	$(ISA_SKELS:.skel.h=.bpf.o)
SKELS := $(BPF_NAMES:%=$(BPF)/%.skel.h) $(ISA_SKELS)

# ---- the kernel's selftest conventions (Documentation/kernel-tests.md) --
# A kernel selftest dropped in unmodified: its programs are progs/X.c,
# built like progs/X.bpf.c into X.bpf.o and X.skel.h (X.o names the same
# object, for tests that open ./X.o), with the kernel's headers of
# compat/, and clang's warnings shown but not fatal (the kernel's progs
# are written for older compilers).  X.lskel.h, a light skeleton, is made
# for each test that includes one.  A test that includes <test_progs.h>
# the kernel's way builds with the kernel's warning flags (no -Wextra).
KSRC_BPF_SRCS := $(filter-out %.bpf.c $(TESTS_EXCLUDED),$(sort $(wildcard $(PROGS_DIR)/*.c)))
KSRC_BPF_OBJS := $(patsubst $(PROGS_DIR)/%.c,$(BPF)/%.bpf.o,$(KSRC_BPF_SRCS))
LSKELS := $(patsubst %,$(BPF)/%.lskel.h,$(sort $(shell sed -n \
	's/^[ \t]*\#[ \t]*include[ \t]*[<"]\(.*\)\.lskel\.h[>"].*/\1/p' $(TEST_SRCS) /dev/null)))
SKELS += $(KSRC_BPF_OBJS:.bpf.o=.skel.h) $(KSRC_BPF_OBJS:.bpf.o=.o) $(LSKELS)
# A TESTS_DIR's linked skeletons replace their parts' (tests-dir.mk).
# A program no test takes a skeleton of may have none (TESTS_EXCLUDE's
# progs/X.skel.h: the kernel's test_pinning_invalid and test_sk_assign).
SKELS := $(filter-out $(TESTS_LINKED_PARTS:%=$(BPF)/%.skel.h) \
		$(patsubst $(PROGS_DIR)/%,$(BPF)/%,$(filter %.skel.h,$(TESTS_EXCLUDED))),$(SKELS)) \
	$(TESTS_LINKED_NAMES:%=$(BPF)/%.skel.h)
BPF_HDRS += $(wildcard compat/bpf/*.h compat/include/linux/*.h)
# ENABLE_ATOMICS_TESTS: as the kernel's test_progs builds them (its
# atomics, load-acquire and store-release tests; bpfcheck's clang has them).
KSRC_BPF_CFLAGS = $(filter-out -Werror,$(BPF_CFLAGS)) -std=gnu11 -fno-strict-aliasing \
	-DENABLE_ATOMICS_TESTS -I$(SRCDIR)/compat/bpf -I$(SRCDIR)/compat/include \
	$(if $(TESTS_KERNEL_TREE),,-DBPF_NO_KFUNC_PROTOTYPES) \
	-fms-extensions -Wno-microsoft-anon-tag -Wno-compare-distinct-pointer-types \
	-Wno-initializer-overrides
COMMON_CFLAGS += -I$(SRCDIR)/compat/include
KSRC_TEST_OBJS := $(patsubst $(PROG_TESTS_DIR)/%.c,$(OBJ)/prog_tests/%.o,$(shell grep -l \
	'^[ \t]*\#[ \t]*include[ \t]*<test_progs\.h>' $(TEST_SRCS) /dev/null))
ifndef TESTS_KERNEL_TREE
$(KSRC_TEST_OBJS): private WARN_CFLAGS := -Wall -Werror -Wno-unused-but-set-variable
endif

TEST_PROGS_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CORE_SRCS) $(LIB_SRCS) $(HELPER_SRCS) \
	$(filter-out harness/registry.c,$(TEST_PROGS_ONLY_SRCS))) $(OBJ)/registry.o \
	$(patsubst $(PROG_TESTS_DIR)/%.c,$(OBJ)/prog_tests/%.o,$(TEST_SRCS)) $(TESTS_HELPER_OBJS)
BENCH_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(BENCH_SRCS))
BENCH_SAN_OBJS := $(patsubst %.c,$(SAN)/%.o,$(BENCH_SRCS))
FIXTURE_OBJS := $(patsubst %.c,$(SAN)/%.o,$(CORE_SRCS) $(LIB_SRCS) $(FIXTURE_SRCS) \
	tests/harness/fixture_main.c) $(SAN)/registry.o
# The real suite plus tests that crash, hang and leak on purpose.
FAULTY_SRCS := $(sort $(wildcard tests/harness/faulty/*.c))
FAULTY_OBJS := $(filter-out $(OBJ)/registry.o,$(TEST_PROGS_OBJS)) \
	$(patsubst %.c,$(OBJ)/%.o,$(FAULTY_SRCS)) $(OBJ)/faulty_registry.o

TEST_PROGS_BIN := $(OUTPUT)/test_progs
# The steps of kernel-tests/build.sh: every BPF object and skeleton, then
# every test object, each step with make -k.
ifdef TESTS_DIR
# The kernel's tests run "./bpftool" where they run (core_reloc's
# min_core_btf); a test here runs in bpf/ beside test_progs.
TESTS_DIR_BPFTOOL := $(BPF)/bpftool
$(TESTS_DIR_BPFTOOL): $(LIBBPF_DEP)
	$(Q)mkdir -p $(BPF) && cp $(BPFTOOL) $@.tmp && mv $@.tmp $@
tests-dir-bpf: $(SKELS) $(TESTS_DIR_BPFTOOL)
tests-dir-objs: $(filter $(OBJ)/prog_tests/% $(OBJ)/tests_helpers/%,$(TEST_PROGS_OBJS))
.PHONY: tests-dir-bpf tests-dir-objs
endif
FIXTURE := $(OUTPUT)/test_progs_fixture
FAULTY := $(OUTPUT)/test_progs_faulty
KTAP_CHECK := $(OUTPUT)/ktap_check
STATS_TEST := $(OUTPUT)/stats_test
GATE_TEST := $(OUTPUT)/gate_test
JSON_READER_TEST := $(OUTPUT)/json_reader_test
TOTALS_TEST := $(OUTPUT)/totals_test
BENCH_UNIT_TESTS := $(STATS_TEST) $(GATE_TEST) $(JSON_READER_TEST) $(TOTALS_TEST) \
	$(OUTPUT)/hist_threshold_test
BENCH := $(OUTPUT)/bench
BENCH_SAN := $(OUTPUT)/bench-san
BENCH_SWEEP_ARGS ?=
BENCH_PROG_COST_ARGS ?=
BENCH_REGRESS_ARGS ?=

# kselftest: install and emit_tests, or, inside a kernel tree, the kernel's
# lib.mk (found as ../lib.mk next to ../kselftest/runner.sh).
KSFT_LIB_MK ?= $(if $(wildcard $(SRCDIR)/../kselftest/runner.sh),$(wildcard $(SRCDIR)/../lib.mk))
include $(SRCDIR)/scripts/kselftest.mk

# After lib.mk, which has its own.
ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-9s %s\n' "$(1)" "$(patsubst $(OUTPUT)/%,%,$(2))";
endif
MAKEFLAGS += --no-print-directory

.DEFAULT_GOAL := all
.PHONY: all help deps run_tests check check-self config-check clean FORCE \
	bench bench-bin check-bench bench-prog-cost bench-regress vmtest \
	check-vmtest check-vng check-byo check-faulty check-layers install emit_tests check-kselftest \
	check-workflow check-toolchain check-kernel-cli check-trust \
	man install-prefix lint \
	vmtest-bench check-vmtest-bench check-kernel-tests vmtest-cost check-verifier-cost \
	kernel-tests check-kernel-tests-build
.DELETE_ON_ERROR:
# BPF objects and skeletons are kept although pattern rules make them.
.SECONDARY:

all: $(TEST_PROGS_BIN)

deps:
	$(Q)sh $(SRCDIR)/scripts/deps.sh

# The targets of the list at the top of this file, one line each.
help:
	@sed -n 's/^#   make /make /p' $(SRCDIR)/Makefile

# ---- generated headers -------------------------------------------------

# vmlinux.h is regenerated only when the BTF it comes from or the bpftool
# changes: the BTF's checksum and bpftool's path are remembered, and an
# identical dump does not touch it.
# bpftool's notes on stderr are shown only when the dump fails.
$(GEN)/vmlinux.h: FORCE | $(GEN) $(LIBBPF_DEP)
	$(Q)sum="$$(sha256sum < $(VMLINUX_BTF)) $(BPFTOOL)" || exit 1; \
	if [ ! -f $@ ] || [ "$$sum" != "$$(cat $@.sum 2>/dev/null)" ]; then \
		printf '  %-9s %s\n' GEN gen/vmlinux.h; \
		{ $(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp 2>$@.err || \
			{ cat $@.err >&2; rm -f $@.err; exit 1; }; } && rm -f $@.err && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; } && \
		echo "$$sum" > $@.sum; \
	fi


# The project's version (VERSION, and the git commit), for --version;
# rewritten only when it changes, so only env_info.o is rebuilt.
$(GEN)/version.h: FORCE | $(GEN)
	$(Q)sh $(SRCDIR)/scripts/version.sh -h $@
$(OBJ)/lib/env_info.o $(SAN)/lib/env_info.o: $(GEN)/version.h

# Tests that declare a newer libbpf than the build's are listed as left out.
# A test registry: the list of $(3)'s tests in $(GEN)/$(2), compiled
# into the object $(1) with harness/registry.c ($(4): extra flags).
define registry_rule
$(GEN)/$(2): FORCE | $(GEN)/build_info.h
	$(Q)sh $(SRCDIR)/scripts/gen-tests.sh -b $(GEN)/build_info.h $$@ $(3)

$(1): harness/registry.c $(GEN)/$(2)
	$$(call msg,$(if $(4),CC-SAN,CC),$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) $(4) $$(COMMON_CFLAGS) $$(TEST_SIDE_CFLAGS) \
		-DTESTS_LIST='"$(2)"' -c $$< -o $$@
endef

# ---- BPF objects and skeletons -----------------------------------------

$(BPF)/%.bpf.o: $(PROGS_DIR)/%.bpf.c $(GEN)/vmlinux.h $(BPF_HDRS) $(GEN)/build_info.h | $(BPF)
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

define isa_variant_rule
$(BPF)/$(1)_$(2).bpf.o: progs/$(1).bpf.c $(GEN)/vmlinux.h $(BPF_HDRS) \
		$(GEN)/build_info.h | $(BPF)
	$$(call msg,CLNG-BPF,$$@)
	$(Q)$(CLANG) $$(BPF_CFLAGS) -mcpu=$(2) -c $$< -o $$@
endef
$(foreach p,$(MULTI_ISA_PROGS),$(foreach c,$(ISA_CPUS), \
	$(eval $(call isa_variant_rule,$(p),$(c)))))

$(BPF)/%.skel.h: $(BPF)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@.tmp && mv $@.tmp $@

# The kernel's selftest conventions (see above): progs/X.c, X.o, X.lskel.h.
$(BPF)/%.bpf.o: progs/%.c $(GEN)/vmlinux.h $(BPF_HDRS) $(GEN)/build_info.h | $(BPF)
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(KSRC_BPF_CFLAGS) -c $< -o $@

$(BPF)/%.o: | $(BPF)/%.bpf.o
	$(Q)ln -sf $*.bpf.o $@

$(BPF)/%.lskel.h: $(BPF)/%.bpf.o
	$(call msg,GEN-LSKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name $*_lskel > $@.tmp && mv $@.tmp $@

# ---- userspace ---------------------------------------------------------

# The include path of each side (the shortest matching stem wins).
$(OBJ)/%.o $(SAN)/%.o: LAYER_CFLAGS := $(TEST_SIDE_CFLAGS)
$(OBJ)/lib/%.o $(SAN)/lib/%.o: LAYER_CFLAGS :=
$(OBJ)/bench/%.o $(SAN)/bench/%.o: LAYER_CFLAGS := $(BENCH_SIDE_CFLAGS)

$(OBJ)/%.o: %.c $(GEN)/build_info.h | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(COMMON_CFLAGS) -c $< -o $@

# A test that needs a newer libbpf than the build's becomes an empty
# object (gen-tests.sh registers it as left out, with the reason).
$(OBJ)/prog_tests/%.o: $(PROG_TESTS_DIR)/%.c $(GEN)/build_info.h | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(Q)why=$$(awk -f $(SRCDIR)/scripts/requires.awk $(GEN)/build_info.h $<) || \
		exit 1; \
	if [ -n "$$why" ]; then \
		printf '  %-9s %s: %s\n' LEFT-OUT "$${why%%	*}" "$${why#*	}"; \
		$(CC) -c -x c /dev/null -o $@; \
	else \
		$(if $(Q),printf '  %-9s %s\n' CC "$(patsubst $(OUTPUT)/%,%,$@)";) \
		$(CC) $(CFLAGS) $(COMMON_CFLAGS) -c $< -o $@; \
	fi

include $(SRCDIR)/scripts/llvm-jit.mk

$(eval $(call registry_rule,$(OBJ)/registry.o,tests.h,$(TEST_SRCS)))
$(eval $(call registry_rule,$(OBJ)/faulty_registry.o,faulty_tests.h,$(TEST_SRCS) \
	$(FAULTY_SRCS)))
$(eval $(call registry_rule,$(SAN)/registry.o,fixture_tests.h,$(FIXTURE_SRCS),$(SAN_FLAGS)))

$(TEST_PROGS_BIN): $(TEST_PROGS_OBJS) $(LIBBPF_DEP) $(LIBBPF_A)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic -o $@ $(TEST_PROGS_OBJS) $(LIBBPF_LDLIBS)

# For tests/harness/faulty_check.sh only: never installed, never run by run_tests.
$(FAULTY): $(FAULTY_OBJS) $(LIBBPF_DEP) $(LIBBPF_A)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic -o $@ $(FAULTY_OBJS) $(LIBBPF_LDLIBS)

# The harness's own fixture runner, built with ASan and UBSan.
$(SAN)/%.o: %.c $(GEN)/build_info.h
	$(call msg,CC-SAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(COMMON_CFLAGS) -c $< -o $@

$(FIXTURE): $(FIXTURE_OBJS) $(LIBBPF_DEP) $(LIBBPF_A)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) -rdynamic -o $@ $(FIXTURE_OBJS) $(LIBBPF_LDLIBS)

$(KTAP_CHECK): tests/harness/ktap_check.c tests/harness/ktap_checker.c \
		tests/harness/ktap_checker.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -std=gnu11 $(WARN_CFLAGS) -o $@ $(filter %.c,$^)

$(BENCH): $(BENCH_OBJS) $(LIBBPF_DEP) $(LIBBPF_A)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -pthread -o $@ $(BENCH_OBJS) $(LIBBPF_LDLIBS) $(BENCH_LDLIBS)

# The bench again under ASan and UBSan, for its tests (leaks, error paths).
$(BENCH_SAN_OBJS): | $(SKELS)
$(BENCH_SAN): $(BENCH_SAN_OBJS) $(LIBBPF_DEP) $(LIBBPF_A)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) -pthread -o $@ $(BENCH_SAN_OBJS) \
		$(LIBBPF_LDLIBS) $(BENCH_LDLIBS)

# A unit test under ASan and UBSan: tests/bench/$(1).c with the sources $(2),
# seeing the folders $(3) and lib/.
define unit_test
$(OUTPUT)/$(1): tests/bench/$(1).c $(2) $(wildcard $(addsuffix /*.h,$(3) lib)) | $(OUTPUT)
	$$(call msg,BINARY,$$@)
	$(Q)$$(CC) $$(CFLAGS) $$(SAN_FLAGS) -std=gnu11 $$(WARN_CFLAGS) \
		$(addprefix -I$(SRCDIR)/,$(3) lib) -o $$@ tests/bench/$(1).c $(2) -lm
endef
# The bench's statistics, the gate's t-test, the JSON reader, the totals.
$(eval $(call unit_test,stats_test,bench/stats.c,bench))
$(eval $(call unit_test,gate_test,bench/gate/gate.c bench/tdist.c bench/stats.c,\
	bench/gate bench))
$(eval $(call unit_test,json_reader_test,lib/json_reader.c lib/json_tree.c lib/json_file.c \
	lib/utf8.c,))
$(eval $(call unit_test,totals_test,bench/totals.c,bench))
$(eval $(call unit_test,hist_threshold_test,bench/history/hist_threshold.c bench/tdist.c \
	bench/stats.c,bench/history bench))

$(OUTPUT) $(GEN) $(BPF):
	$(Q)mkdir -p $@

# ---- man pages and installing ------------------------------------------

# man, install-prefix (scripts/install.mk).
include $(SRCDIR)/scripts/install.mk

# ---- running -----------------------------------------------------------

# run_tests, check and its stages, bench, vmtest (scripts/run-targets.mk).
include $(SRCDIR)/scripts/run-targets.mk

ifeq ($(KSFT_LIB_MK),)
clean:
	$(call msg,CLEAN,$(OUTPUT))
	$(Q)rm -rf $(OBJ) $(SAN) $(BPF) $(GEN) $(TEST_PROGS_BIN) $(FIXTURE) $(FAULTY) \
		$(KTAP_CHECK) $(BENCH_UNIT_TESTS) $(BENCH) $(BENCH_SAN) \
		$(OUTPUT)/.libbpf-ok $(OUTPUT)/llvm-lib $(LIBBPF_OUT) $(OUTPUT)/$(KSFT_ENTRY) $(MAN)
endif

-include $(shell find $(OBJ) $(SAN) -name '*.d' 2>/dev/null)
