# ftrace2trace build.  `make` builds ./ftrace2trace, `make check` runs every
# test, `make install PREFIX=... DESTDIR=...` installs binary, header and man pages.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
INCDIR   ?= $(PREFIX)/include
CC       ?= cc
PKG_CONFIG ?= pkg-config

PKGS      := libtracefs libtraceevent libelf libdw
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS))
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka)

WARN     := -Wall -Wextra -Wshadow -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
CFLAGS   ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Isrc -Iinclude $(PKG_CFLAGS) $(CFLAGS)
LDLIBS   := $(PKG_LIBS) -lstdc++ -lpthread -lm

B        := build
SRCS     := $(shell find src -name '*.c' | sort)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(wildcard tests/helpers/*.c))

all: ftrace2trace

ftrace2trace: $(B)/src/main.o $(B)/libf2t.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libf2t.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libf2t.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS)

# Small workload programs the integration tests and benchmarks drive.
$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Iinclude $(WARN) -o $@ $< -lpthread -lm

# *_nofp.c: the same workloads without frame pointers (CFI unwinding tests).
$(B)/tests/helpers/%_nofp: tests/helpers/%_nofp.c tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -fomit-frame-pointer -Iinclude $(WARN) -o $@ $< -lpthread -lm

tests: $(UNIT_BINS) $(TEST_HELPERS)

check: ftrace2trace tests fuzz-build
	@F2T=$(CURDIR)/ftrace2trace B=$(CURDIR)/$(B) tests/run-all.sh $(UNIT_BINS)

include tests/fuzz/fuzz.mk

install: ftrace2trace
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(INCDIR)/ftrace2trace
	install -m 755 ftrace2trace $(DESTDIR)$(BINDIR)/
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(if $(wildcard include/ftrace2trace/*.h),install -m 644 include/ftrace2trace/*.h $(DESTDIR)$(INCDIR)/ftrace2trace/)

clean:
	rm -rf $(B) ftrace2trace tests/out

.PHONY: all tests check install clean
-include $(shell find $(B) -name '*.d' 2>/dev/null)
