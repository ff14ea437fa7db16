# SPDX-License-Identifier: GPL-2.0
#
# Included by the Makefile: __jited() disassembles JIT images with LLVM's
# C API (Debian's llvm-dev, scripts/deps.sh).  helpers/jit_text.c
# includes its headers and opens its library when a check needs it, so
# nothing links the 100 MB library.

LLVM_CONFIG ?= llvm-config
LLVM_INCLUDEDIR = $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIB = $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)/libLLVM.so

$(OBJ)/helpers/jit_text.o $(OBJ)/helpers/test_texts.o: private COMMON_CFLAGS += \
	-isystem $(LLVM_INCLUDEDIR) -DLLVM_LIB='"$(LLVM_LIB)"'
# $(OUTPUT)/llvm-lib names the library: vmtest brings it into a guest
# with a test_progs of that build (--test-progs), as ldd cannot see it.
$(OBJ)/helpers/jit_text.o: $(OUTPUT)/llvm-lib
$(OUTPUT)/llvm-lib: | $(OUTPUT)
	$(Q)if [ ! -f "$(LLVM_INCLUDEDIR)/llvm-c/Disassembler.h" ]; then \
		echo "LLVM's C API headers (llvm-c/Disassembler.h, for __jited) are missing:" \
			"run make deps (Debian's llvm-dev)" >&2; exit 1; fi
	$(Q)echo "$(LLVM_LIB)" >$@
