# SPDX-License-Identifier: MIT
# Installing, included by the Makefile: the tool with its man pages and bash
# completion, and the marker header with the pkg-config file that finds it.
# `make install PREFIX=... DESTDIR=...`; `make uninstall` with the same
# variables removes exactly the files install put there.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
INCDIR   ?= $(PREFIX)/include
# The header is the same on every architecture, and so is its .pc file.
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions

MAN_PAGES := $(notdir $(wildcard man/*.1))
HEADERS   := $(notdir $(wildcard include/ftrace2trace/*.h))
PC_NAME   := ftrace2trace-marker.pc

# The man pages' header says the release: @VERSION@ in man/*.1.
man: $(MAN_PAGES:%=$(B)/man/%)

$(B)/man/%.1: man/%.1 VERSION
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(VERSION)/g' $< >$@

# The .pc file is made here, not at build time, so that it always names
# this install's PREFIX even when the build was made for another.
install: ftrace2trace man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(INCDIR)/ftrace2trace \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 ftrace2trace $(DESTDIR)$(BINDIR)/
	install -m 644 $(MAN_PAGES:%=$(B)/man/%) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(HEADERS:%=include/ftrace2trace/%) $(DESTDIR)$(INCDIR)/ftrace2trace/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@INCDIR@|$(INCDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		pkgconfig/$(PC_NAME).in >$(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME)
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME)
	install -m 644 completion/ftrace2trace.bash $(DESTDIR)$(BASHCOMPDIR)/ftrace2trace

# Directories are left alone (they may have been there before), except the
# header directory, which is ftrace2trace's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ftrace2trace
	rm -f $(MAN_PAGES:%=$(DESTDIR)$(MANDIR)/man1/%)
	rm -f $(HEADERS:%=$(DESTDIR)$(INCDIR)/ftrace2trace/%)
	[ ! -d $(DESTDIR)$(INCDIR)/ftrace2trace ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$(INCDIR)/ftrace2trace
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME) $(DESTDIR)$(BASHCOMPDIR)/ftrace2trace

.PHONY: man install uninstall
