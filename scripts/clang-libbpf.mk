# SPDX-License-Identifier: GPL-2.0
#
# The Makefile's toolchain (included by it; Documentation/toolchain.md):
# which clang, libbpf and bpftool the build uses, building libbpf and
# bpftool (LIBBPF=source) or checking the system's (LIBBPF=system), and
# build_info.h, what the reports say of them.  It uses the variables the
# Makefile sets before it (SRCDIR, OUTPUT, GEN, BPF, TESTS_DIR,
# VMTEST_CACHE, PKG_CONFIG) and sets CLANG, LIBBPF_*, BPFTOOL,
# CLANG_HAS_V4 for the rest.

# The newest clang on PATH, unless CLANG names one.
ifndef CLANG
CLANG := $(firstword $(foreach c,clang-22 clang-19 clang, \
	$(if $(wildcard $(addsuffix /$(c),$(subst :, ,$(PATH)))),$(c))) clang)
endif

# LIBBPF=source: libbpf (static) and bpftool built from a kernel tree's
# tools/ (scripts/libbpf-build.sh): the tree bpfcheck sits in as a
# kselftest collection, else Debian's linux-source-$(LIBBPF_SERIES).
# LIBBPF=system: the distribution's libbpf (>= 1.1, shared) and bpftool.
LIBBPF ?= source
LIBBPF_SERIES ?= newest
LIBBPF_TREE ?= $(if $(wildcard $(SRCDIR)/../../../lib/bpf/libbpf.c),$(abspath \
	$(SRCDIR)/../../../..))
# One libbpf per bpfcheck checkout serves the projects it builds too.
LIBBPF_OUT := $(if $(TESTS_DIR),$(SRCDIR)/build,$(OUTPUT))/libbpf

ifeq ($(LIBBPF),source)
LIBBPF_INCLUDE := $(LIBBPF_OUT)/include
LIBBPF_A := $(LIBBPF_OUT)/obj/libbpf.a
LIBBPF_CFLAGS := -I$(LIBBPF_INCLUDE)
LIBBPF_LDLIBS := $(LIBBPF_A) -lelf -lz -lm
# Written last by libbpf-build.sh: the build is complete when it exists.
LIBBPF_DEP := $(LIBBPF_OUT)/origin
LIBBPF_ORIGIN = $(file <$(LIBBPF_DEP))
BPFTOOL ?= $(LIBBPF_OUT)/bpftool/bootstrap/bpftool
else ifeq ($(LIBBPF),system)
# Deferred (=) so that they run after "make deps" has installed pkg-config.
LIBBPF_INCLUDE = $(shell $(PKG_CONFIG) --variable=includedir libbpf)
LIBBPF_CFLAGS = $(shell $(PKG_CONFIG) --cflags libbpf)
LIBBPF_LDLIBS = $(shell $(PKG_CONFIG) --libs libbpf) -lelf -lz -lm
LIBBPF_DEP := $(OUTPUT)/.libbpf-ok
LIBBPF_ORIGIN := system
BPFTOOL ?= $(firstword $(wildcard /usr/sbin/bpftool /usr/bin/bpftool) bpftool)
else
$(error LIBBPF=$(LIBBPF): expected LIBBPF=source or LIBBPF=system)
endif

# What build-info.sh found out about this toolchain is kept in
# $(GEN)/toolchain.mk, so that a make with nothing to do runs no compiler;
# TOOLCHAIN_KEY_BUILT says which toolchain it is about.  For another one,
# ask clang now and write build_info.h again.
TOOLCHAIN_KEY := $(CLANG) $(LIBBPF) $(or $(LIBBPF_TREE),$(LIBBPF_SERIES))
-include $(GEN)/toolchain.mk
ifneq ($(TOOLCHAIN_KEY_BUILT),$(TOOLCHAIN_KEY))
CLANG_HAS_V4 := $(shell $(CLANG) -target bpf -mcpu=v4 -x c -c /dev/null \
	-o /dev/null 2>/dev/null && echo v4)
BUILD_INFO_FORCE := FORCE
endif
# Where CLANG is, so that an upgrade of it writes build_info.h again.
CLANG_PATH := $(firstword $(wildcard $(CLANG) $(addsuffix /$(CLANG),$(subst :, ,$(PATH)))))

# The toolchain this build uses, for the reports.  build_info.h is
# rewritten only when it changes (every object depends on it, so a new
# toolchain rebuilds all); the stamp says when it was last looked at.
# A clang without v4 must not leave the v4 skeletons of another behind.
$(GEN)/build_info.stamp: $(BUILD_INFO_FORCE) $(CLANG_PATH) $(LIBBPF_DEP) | $(GEN)
	$(Q)sh $(SRCDIR)/scripts/build-info.sh $(GEN)/build_info.h "$(CLANG)" \
		"$(LIBBPF_INCLUDE)" "$(LIBBPF_ORIGIN)" $(GEN)/toolchain.mk \
		"$(TOOLCHAIN_KEY)"
	$(if $(CLANG_HAS_V4),,$(Q)rm -f $(BPF)/*_v4.bpf.o $(BPF)/*_v4.skel.h)
	$(Q)touch $@

$(GEN)/build_info.h: $(GEN)/build_info.stamp ;

# LIBBPF=source: built once, again when the sources change (a new tree
# fetched into the cache, or edits in the kernel tree bpfcheck sits in).
ifeq ($(LIBBPF),source)
$(LIBBPF_DEP): $(SRCDIR)/scripts/libbpf-build.sh $(if $(LIBBPF_TREE), \
		$(wildcard $(LIBBPF_TREE)/tools/lib/bpf/*.[ch] \
			$(LIBBPF_TREE)/tools/bpf/bpftool/*.[ch]), \
		$(wildcard $(VMTEST_CACHE)/linux-source/$(if $(filter newest,$(LIBBPF_SERIES)), \
			newest,linux-source-$(LIBBPF_SERIES)_*)/.complete))
	+$(Q)VMTEST_CACHE=$(VMTEST_CACHE) CC="$(CC)" V=$(V) sh $(SRCDIR)/scripts/libbpf-build.sh \
		$(if $(LIBBPF_TREE),-t $(LIBBPF_TREE),-s $(LIBBPF_SERIES)) $(LIBBPF_OUT)

$(LIBBPF_A): $(LIBBPF_DEP) ;
endif

$(OUTPUT)/.libbpf-ok: | $(OUTPUT)
	$(Q)$(PKG_CONFIG) --atleast-version=1.1 libbpf || { \
		echo "libbpf >= 1.1 is required (found:" \
		"$$($(PKG_CONFIG) --modversion libbpf 2>&1)); run 'make deps'" >&2; \
		exit 1; }
	$(Q)touch $@
