# SPDX-License-Identifier: GPL-2.0
#
# bpfcheck as a kselftest collection (included by the Makefile).
#
# What the kselftest runner runs is one entry, run_test_progs.sh (from
# scripts/, copied next to test_progs): test_progs with KTAP output.  The
# programs and BPF objects beside it are installed but not run by the
# runner (the skeletons embed the objects; they are there for bpftool and
# the like).
#
# Two ways to build it:
# - standalone (this repository): "make install INSTALL_PATH=DIR
#   [KSFT_DIR=<linux>/tools/testing/selftests]" and "make emit_tests" are
#   defined here;
# - in a kernel tree, as tools/testing/selftests/bpfcheck: the kernel's
#   lib.mk (found as ../lib.mk, or KSFT_LIB_MK=) defines all, run_tests,
#   install, emit_tests and clean from the TEST_* variables set here, and
#   "make -C tools/testing/selftests TARGETS=bpfcheck run_tests" works.
#   KSFT_LIB_MK= (empty) forces the standalone targets.

COLLECTION ?= bpfcheck
KSFT_ENTRY := run_test_progs.sh
KSFT_PROGS := test_progs bench
# Relative to OUTPUT, as lib.mk wants them.
KSFT_BPF_OBJS := $(patsubst $(OUTPUT)/%,%,$(BPF_OBJS))

$(OUTPUT)/$(KSFT_ENTRY): scripts/$(KSFT_ENTRY) | $(OUTPUT)
	$(Q)install -m 755 $< $@

ifneq ($(KSFT_LIB_MK),)

TEST_GEN_PROGS := $(KSFT_ENTRY)
TEST_GEN_PROGS_EXTENDED := $(KSFT_PROGS)
TEST_GEN_FILES := $(KSFT_BPF_OBJS)
# lib.mk's clean removes the TEST_GEN_* files and these.
EXTRA_CLEAN := $(OBJ) $(SAN) $(BPF) $(GEN) $(OUTPUT)/.libbpf-ok $(OUTPUT)/llvm-lib $(LIBBPF_OUT) \
	$(FIXTURE) $(KTAP_CHECK) $(BENCH_UNIT_TESTS) $(BENCH_SAN) $(FAULTY)
# Our own rules build everything; lib.mk's %.c rule must not apply.
OVERRIDE_TARGETS := 1
include $(KSFT_LIB_MK)

else

KSFT_DIR ?=

# Before anything is built.
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(INSTALL_PATH)$(PREFIX),)
$(error set INSTALL_PATH to use install (make install INSTALL_PATH=DIR), \
	or PREFIX for the tools, man pages and completion \
	(make install PREFIX=DIR [DESTDIR=DIR]))
endif
endif

ifeq ($(INSTALL_PATH),)
# make install PREFIX=DIR (the Makefile's install-prefix).
install: install-prefix
else
# Lay out INSTALL_PATH as the kernel's kselftest install does.
install: $(TEST_PROGS_BIN) $(BENCH) $(OUTPUT)/$(KSFT_ENTRY) $(BPF_OBJS)
	$(Q)sh $(SRCDIR)/scripts/kselftest-install.sh -C "$(COLLECTION)" \
		$(if $(KSFT_DIR),-k "$(KSFT_DIR)") -e $(OUTPUT)/$(KSFT_ENTRY) \
		$(addprefix -x $(OUTPUT)/,$(KSFT_PROGS)) \
		$(addprefix -f ,$(BPF_OBJS) $(SRCDIR)/config $(SRCDIR)/settings) \
		"$(INSTALL_PATH)"
endif

# The kselftest-list.txt lines of this collection, as lib.mk prints them.
emit_tests:
	@echo "$(COLLECTION):$(KSFT_ENTRY)"

endif
