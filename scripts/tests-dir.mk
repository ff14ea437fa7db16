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
#   DIR/helpers/*.c                          code the tests share
#
# bpfcheck's own programs and tests are left out, and so are the helpers
# built on them; libbpf and bpftool are bpfcheck's (its build/libbpf).
# Programs named the kernel's way (progs/NAME.c) are built on the kernel's
# terms, as bpfcheck's own progs/NAME.c are (KSRC_BPF_CFLAGS, NAME.o,
# light skeletons: the Makefile).
#
# TESTS_EXCLUDE=FILE: the files of DIR (progs/X.c, prog_tests/T.c,
# helpers/H.c, one a line) left out of the build, so that one that does
# not build blocks no other (kernel-tests/build.sh).
# TESTS_KERNEL_SERIES=N: the series, major * 100 + minor (helpers/
# kernel_api.h).
# TESTS_KERNEL_TREE=KDIR: DIR holds a kernel series' selftests and KDIR
# the kernel tree they come from (tools/include, tools/lib, tools/arch and
# an empty tools/testing/selftests/bpf, for "../../../include/..."): the
# tests and helpers build with the kernel's include path and the kernel
# selftests' warning set (-Wall -Wno-unused-but-set-variable at -O0, the
# kernel's default), warnings shown but not fatal, as the kernel pins its
# -Werror to the compilers of its own CI and gcc 12 warns where they do
# not (-Wmaybe-uninitialized, -Wstringop-overflow).

ifeq ($(wildcard $(TESTS_DIR)/prog_tests/*.c),)
$(error TESTS_DIR=$(TESTS_DIR): no prog_tests/*.c in it (expected DIR/prog_tests/*.c and DIR/progs/*.bpf.c))
endif

TESTS_EXCLUDED := $(addprefix $(TESTS_DIR)/,$(if $(TESTS_EXCLUDE),$(file <$(TESTS_EXCLUDE))))
PROGS_DIR := $(TESTS_DIR)/progs
PROG_TESTS_DIR := $(TESTS_DIR)/prog_tests
TEST_SRCS := $(filter-out $(TESTS_EXCLUDED),$(sort $(wildcard $(PROG_TESTS_DIR)/*.c)))
BPF_SRCS := $(filter-out $(TESTS_EXCLUDED),$(sort $(wildcard $(PROGS_DIR)/*.c)))
BPF_HDRS := $(wildcard $(PROGS_DIR)/*.h progs/*.h)
HELPER_SRCS := $(filter-out helpers/fizzbuzz_progs.c,$(HELPER_SRCS))
TESTS_HELPER_SRCS := $(filter-out $(TESTS_EXCLUDED),$(sort $(wildcard $(TESTS_DIR)/helpers/*.c)))
TESTS_HELPER_OBJS := $(patsubst $(TESTS_DIR)/helpers/%.c,$(OBJ)/tests_helpers/%.o, \
	$(TESTS_HELPER_SRCS))
# The project's headers first; bpfcheck's progs/ (bpf_misc.h) after.
TESTS_INCLUDES := -I$(PROGS_DIR) -I$(PROG_TESTS_DIR)

# progs/NAME.bpf.c: bpfcheck's terms; progs/NAME.c, the kernel's naming,
# gives NAME.bpf.o too, on the kernel's terms.
$(BPF)/%.bpf.o: $(PROGS_DIR)/%.bpf.c $(GEN)/vmlinux.h $(BPF_HDRS) $(GEN)/build_info.h | $(BPF)
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# Their headers are the ones clang names (-MMD): a series has a thousand
# programs, and a header changed rebuilds only the programs that use it.
$(BPF)/%.bpf.o: $(PROGS_DIR)/%.c $(GEN)/vmlinux.h $(GEN)/build_info.h | $(BPF)
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(KSRC_BPF_CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@
-include $(wildcard $(BPF)/*.bpf.d)

# A linked skeleton, X.skel.h of several programs (DIR/progs/X.linked
# names them, "A B"): their objects linked by bpftool (gen object), its
# skeleton and subskeleton.  The parts have no skeleton of their own.
# Linked again, twice, as the kernel's build does: the first link leaves
# relocations against extern maps (linked_maps) that the next resolves.
TESTS_LINKED := $(filter-out $(TESTS_EXCLUDED),$(wildcard $(PROGS_DIR)/*.linked))
TESTS_LINKED_NAMES := $(basename $(notdir $(TESTS_LINKED)))
# (Of every linked skeleton, an excluded one's too: parts never get one.)
TESTS_LINKED_PARTS := $(sort $(foreach l,$(wildcard $(PROGS_DIR)/*.linked),$(file <$(l))))
define linked_skel_rule
$(BPF)/$(1).linked.o: $(patsubst %,$(BPF)/%.bpf.o,$(file <$(PROGS_DIR)/$(1).linked)) \
		$(PROGS_DIR)/$(1).linked
	$$(call msg,GEN-OBJ,$$@)
	$$(Q)$$(BPFTOOL) gen object $$@.1 $$(filter %.o,$$^) && \
		$$(BPFTOOL) gen object $$@.2 $$@.1 && $$(BPFTOOL) gen object $$@ $$@.2 && \
		rm -f $$@.1 $$@.2

$(BPF)/$(1).skel.h: $(BPF)/$(1).linked.o
	$$(call msg,GEN-SKEL,$$@)
	$$(Q)$$(BPFTOOL) gen skeleton $$< name $(1) > $$@.tmp && \
		$$(BPFTOOL) gen subskeleton $$< name $(1) > $(BPF)/$(1).subskel.h && mv $$@.tmp $$@
endef
$(foreach l,$(TESTS_LINKED_NAMES),$(eval $(call linked_skel_rule,$(l))))

$(OBJ)/tests_helpers/%.o: $(TESTS_DIR)/helpers/%.c $(GEN)/build_info.h | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(COMMON_CFLAGS) -c $< -o $@

ifdef TESTS_KERNEL_TREE
override TESTS_KERNEL_TREE := $(abspath $(TESTS_KERNEL_TREE))
# The kernel selftests' include path, before bpfcheck's compat/include
# (and lib.mk's -D_GNU_SOURCE=, which they rely on)
# (the kernel's own headers are there): selftests/bpf, tools/include,
# tools/arch, tools/include/uapi; tools/lib (libbpf's internal headers)
# after libbpf's installed ones, whose linux/bpf.h wins (libbpf's
# skel_internal.h needs its own: 7.2's on 6.12's tests).  The kernel's
# programs see the series'
# kfunc prototypes in its vmlinux.h.
TESTS_KERNEL_INCLUDES := -I$(TESTS_DIR) $(LIBBPF_CFLAGS) -I$(TESTS_KERNEL_TREE)/tools/include \
	-I$(TESTS_KERNEL_TREE)/tools/arch/$(SRCARCH)/include \
	-I$(TESTS_KERNEL_TREE)/tools/include/uapi \
	-idirafter $(TESTS_KERNEL_TREE)/tools/lib \
	-idirafter $(TESTS_KERNEL_TREE)/tools/testing/selftests/bpf \
	$(if $(TESTS_KERNEL_SERIES),-DBPFCHECK_KERNEL_SERIES=$(TESTS_KERNEL_SERIES)) \
	-D_GNU_SOURCE=
TESTS_KERNEL_OBJS := $(patsubst $(PROG_TESTS_DIR)/%.c,$(OBJ)/prog_tests/%.o,$(TEST_SRCS)) \
	$(TESTS_HELPER_OBJS)
$(TESTS_KERNEL_OBJS): private WARN_CFLAGS := -Wall -Wno-unused-but-set-variable
$(TESTS_KERNEL_OBJS): private CFLAGS := -g -O0
$(TESTS_KERNEL_OBJS): LAYER_CFLAGS := $(TEST_SIDE_CFLAGS) $(TESTS_KERNEL_INCLUDES)
BPF_EXTRA_CFLAGS += -I$(TESTS_DIR) -I$(TESTS_KERNEL_TREE)/tools/include/uapi \
	-I$(TESTS_KERNEL_TREE)/tools/include \
	-idirafter $(TESTS_KERNEL_TREE)/tools/testing/selftests/bpf
endif
