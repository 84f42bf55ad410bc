# SPDX-License-Identifier: MIT
# Installing, included by the Makefile: the tool with its man pages and bash
# completion, and the marker header with the pkg-config file that finds it.
# `make install PREFIX=... DESTDIR=...`; `make uninstall` with the same
# variables removes exactly the files install put there, and the
# directories it created once they are empty.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
INCDIR   ?= $(PREFIX)/include
# The header is the same on every architecture, and so is its .pc file.
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
# The directories install created (not there before it), one a line, for
# uninstall to remove when empty; empty: none kept (a package's directories
# are its package manager's: debian/rules).
DIRLIST  ?= $(PREFIX)/share/ftrace2trace/installed-dirs
INSTALL_DIRS := $(BINDIR) $(MANDIR)/man1 $(INCDIR)/ftrace2trace $(PKGCONFIGDIR) $(BASHCOMPDIR) \
	$(if $(DIRLIST),$(dir $(DIRLIST)))

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
# Before creating them, each directory (and parent) not there yet is noted;
# a second install keeps what the first noted.
install: ftrace2trace man
	@new=$$(for d in $(INSTALL_DIRS:%/=%); do \
		while [ ! -e "$(DESTDIR)$$d" ] && [ "$$d" != / ] && [ "$$d" != . ]; do \
			echo "$$d"; d=$$(dirname "$$d"); done; done); \
	install -d $(INSTALL_DIRS:%=$(DESTDIR)%) && \
	if [ -n "$(DIRLIST)" ]; then \
		{ [ ! -f "$(DESTDIR)$(DIRLIST)" ] || cat "$(DESTDIR)$(DIRLIST)"; \
		  [ -z "$$new" ] || echo "$$new"; } | sort -u >"$(DESTDIR)$(DIRLIST).tmp" && \
		mv "$(DESTDIR)$(DIRLIST).tmp" "$(DESTDIR)$(DIRLIST)" && chmod 644 "$(DESTDIR)$(DIRLIST)"; \
	fi
	install -m 755 ftrace2trace $(DESTDIR)$(BINDIR)/
	install -m 644 $(MAN_PAGES:%=$(B)/man/%) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(HEADERS:%=include/ftrace2trace/%) $(DESTDIR)$(INCDIR)/ftrace2trace/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@INCDIR@|$(INCDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		pkgconfig/$(PC_NAME).in >$(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME)
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME)
	install -m 644 completion/ftrace2trace.bash $(DESTDIR)$(BASHCOMPDIR)/ftrace2trace

# Directories go when install created them (DIRLIST says which: those
# there before stay, even empty) and nothing else is in them now, deepest
# first; only names under PREFIX are taken from the list.  The header
# directory is ftrace2trace's own: it goes when empty in any case.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ftrace2trace
	rm -f $(MAN_PAGES:%=$(DESTDIR)$(MANDIR)/man1/%)
	rm -f $(HEADERS:%=$(DESTDIR)$(INCDIR)/ftrace2trace/%)
	[ ! -d $(DESTDIR)$(INCDIR)/ftrace2trace ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$(INCDIR)/ftrace2trace
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/$(PC_NAME) $(DESTDIR)$(BASHCOMPDIR)/ftrace2trace
	@if [ -n "$(DIRLIST)" ] && [ -f "$(DESTDIR)$(DIRLIST)" ]; then \
		dirs=$$(grep -E '^$(PREFIX)(/|$$)' "$(DESTDIR)$(DIRLIST)" | grep -v '/\.\.\?\(/\|$$\)' | sort -r); \
		rm -f "$(DESTDIR)$(DIRLIST)"; \
		for d in $$dirs; do \
			[ ! -d "$(DESTDIR)$$d" ] || [ -L "$(DESTDIR)$$d" ] || \
				rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d"; \
		done; \
	fi

.PHONY: man install uninstall
