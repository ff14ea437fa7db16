# SPDX-License-Identifier: GPL-2.0
#
# The Makefile's man pages and make install PREFIX=dir (included by it;
# the kselftest tree, make install INSTALL_PATH=dir, is kselftest.mk's).
# They use the variables the Makefile sets (OUTPUT, TEST_PROGS_BIN, BENCH...).

# Generated from each tool's --help and --version (Debian's help2man).
MAN := $(OUTPUT)/man
MAN_PAGES := $(MAN)/test_progs.1 $(MAN)/bench.1 $(MAN)/vmtest.sh.1
HELP2MAN := help2man --no-info --no-discard-stderr

man: $(MAN_PAGES)

$(MAN)/test_progs.1: $(TEST_PROGS_BIN) | $(MAN)
	$(call msg,MAN,$@)
	$(Q)$(HELP2MAN) --name="run BPF tests on the running kernel" --output=$@ $<

$(MAN)/bench.1: $(BENCH) | $(MAN)
	$(call msg,MAN,$@)
	$(Q)$(HELP2MAN) --name="benchmark BPF ring buffers, queues and program cost" \
		--output=$@ $<

$(MAN)/vmtest.sh.1: $(SRCDIR)/vmtest/vmtest.sh $(TEST_PROGS_BIN) | $(MAN)
	$(call msg,MAN,$@)
	$(Q)OUTPUT=$(OUTPUT) $(HELP2MAN) --name="run the suite in QEMU on several kernels" \
		--output=$@ $<

$(MAN):
	$(Q)mkdir -p $@

# make install PREFIX=dir: the tools, their man pages and completion (the
# kselftest tree is make install INSTALL_PATH=dir, scripts/kselftest.mk).
# vmtest.sh runs from the source tree: its man page stays in build/man.
install-prefix: $(TEST_PROGS_BIN) $(BENCH) $(MAN)/test_progs.1 $(MAN)/bench.1
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	$(Q)install -m 755 $(TEST_PROGS_BIN) $(BENCH) $(DESTDIR)$(PREFIX)/bin/
	$(Q)install -m 644 $(MAN)/test_progs.1 $(MAN)/bench.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/
	$(Q)for c in test_progs bench; do \
		install -m 644 $(SRCDIR)/completion/$$c.bash \
			$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$c || exit; \
	done
