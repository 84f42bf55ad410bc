# ftrace2trace build.  `make` builds ./ftrace2trace (and the man pages under
# build/man), `make check` runs every test, `make install PREFIX=... DESTDIR=...`
# installs the tool, man pages, bash completion, marker header and its
# pkg-config file (mk/install.mk), `make uninstall` removes them.

CC       ?= cc
PKG_CONFIG ?= pkg-config

PKGS      := libtracefs libtraceevent libelf libdw zlib
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS))
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka)

WARN     := -Wall -Wextra -Wshadow -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
# The release number lives in VERSION alone; the code gets it as F2T_VERSION.
VERSION  := $(strip $(file < VERSION))
# CFLAGS, CPPFLAGS and LDFLAGS from the environment or the command line are
# honoured (dpkg-buildflags' hardening flags arrive that way).
CFLAGS   ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -DF2T_VERSION='"$(VERSION)"' $(WARN) -Isrc -Iinclude \
	$(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
LDLIBS   := $(PKG_LIBS) -lstdc++ -lpthread -lm

B        := build
SRCS     := $(shell find src -name '*.c' | sort)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(wildcard tests/helpers/*.c))

all: ftrace2trace man

ftrace2trace: $(B)/src/main.o $(B)/libf2t.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libf2t.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# Every object is rebuilt when VERSION changes: F2T_VERSION is a -D.
$(B)/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libf2t.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS)

# Small workload programs the integration tests and benchmarks drive.
$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Iinclude $(WARN) -o $@ $< -lpthread -lm

# *_nofp.c: the same workloads without frame pointers (CFI unwinding tests).
$(B)/tests/helpers/%_nofp: tests/helpers/%_nofp.c tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -fomit-frame-pointer -Iinclude $(WARN) -o $@ $< -lpthread -lm

tests: $(UNIT_BINS) $(TEST_HELPERS)

check: ftrace2trace tests
	@F2T=$(CURDIR)/ftrace2trace B=$(CURDIR)/$(B) tests/run-all.sh $(UNIT_BINS)

# The unit tests alone: no root, no tracefs, no tool outside the build
# (the Debian package build runs these).
check-unit: $(UNIT_BINS)
	@for t in $^; do echo "== unit: $$t"; $$t || exit 1; done

clean:
	rm -rf $(B) ftrace2trace tests/out

.PHONY: all tests check check-unit clean
include mk/install.mk
-include $(shell find $(B) -name '*.d' 2>/dev/null)
