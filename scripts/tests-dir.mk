# SPDX-License-Identifier: GPL-2.0
#
# make TESTS_DIR=DIR (included by the Makefile): a project's own tests,
# built with bpfcheck's runner, test API and helpers into DIR/build (or
# OUTPUT), nothing of it copied here:
#
#   DIR/progs/NAME.bpf.c, DIR/progs/NAME.c   BPF programs: NAME.bpf.o and
#                                            the skeleton NAME.skel.h
#   DIR/progs/*.h                            headers of the programs
#   DIR/prog_tests/*.c                       tests: void test_X(void)
#
# bpfcheck's own programs and tests are left out, and so are the helpers
# built on them; libbpf and bpftool are bpfcheck's (its build/libbpf).

ifeq ($(wildcard $(TESTS_DIR)/prog_tests/*.c),)
$(error TESTS_DIR=$(TESTS_DIR): no prog_tests/*.c in it (expected DIR/prog_tests/*.c and DIR/progs/*.bpf.c))
endif

PROGS_DIR := $(TESTS_DIR)/progs
PROG_TESTS_DIR := $(TESTS_DIR)/prog_tests
TEST_SRCS := $(sort $(wildcard $(PROG_TESTS_DIR)/*.c))
BPF_SRCS := $(sort $(wildcard $(PROGS_DIR)/*.c))
BPF_HDRS := $(wildcard $(PROGS_DIR)/*.h progs/*.h)
HELPER_SRCS := $(filter-out helpers/fizzbuzz_progs.c,$(HELPER_SRCS))
# The project's headers first; bpfcheck's progs/ (bpf_misc.h) after.
TESTS_INCLUDES := -I$(PROGS_DIR) -I$(PROG_TESTS_DIR)

# progs/NAME.c, the kernel's naming, gives NAME.bpf.o too.
$(BPF)/%.bpf.o: $(PROGS_DIR)/%.c $(GEN)/vmlinux.h $(BPF_HDRS) $(GEN)/build_info.h | $(BPF)
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
