# ftrace2trace build.  `make` builds ./ftrace2trace (and the man pages under
# build/man), `make check` runs every test, `make install PREFIX=... DESTDIR=...`
# installs the tool, man pages, bash completion, marker header and its
# pkg-config file (mk/install.mk), `make uninstall` removes them.

CC       ?= cc
PKG_CONFIG ?= pkg-config

PKGS      := libtracefs libtraceevent libtracecmd libelf libdw zlib libzstd
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
# libtracecmd before 1.5.1 reads compressed trace.dat files in quadratic
# time: big ones are read through an uncompressed copy (tracedat_inflate.c).
ifneq ($(shell $(PKG_CONFIG) --atleast-version=1.5.1 libtracecmd && echo y),y)
ALL_CFLAGS += -DF2T_TRACECMD_CHUNKS_LEAK
endif

B        := build
SRCS     := $(shell find src -name '*.c' | sort)

# Off-CPU recording (record --off-cpu) and the flight recorder's latency
# trigger (record --trigger-latency) need clang (to build bpf/ for the
# BPF target), bpftool (vmlinux.h from this machine's BTF, the skeleton)
# and libbpf; without them the tool is built with a stub that says so.
# BPF=0 forces the stub, BPF=1 insists.  Everything generated is in build/bpf.
BPF_CLANG ?= clang
BPFTOOL  ?= $(or $(shell command -v bpftool 2>/dev/null),$(wildcard /usr/sbin/bpftool))
BTF_VMLINUX ?= /sys/kernel/btf/vmlinux
ifeq ($(origin BPF),undefined)
BPF := $(if $(and $(shell command -v $(BPF_CLANG) 2>/dev/null),$(BPFTOOL),$(wildcard $(BTF_VMLINUX)),$(shell $(PKG_CONFIG) --exists libbpf && echo y)),1,0)
endif
ifeq ($(BPF),1)
SRCS     := $(filter-out src/record/offcpu_none.c src/record/latency_none.c,$(SRCS))
ALL_CFLAGS += -I$(B)/bpf $(shell $(PKG_CONFIG) --cflags libbpf)
LDLIBS   += $(shell $(PKG_CONFIG) --libs libbpf)
else
SRCS     := $(filter-out src/record/offcpu_bpf.c src/record/latency_bpf.c,$(SRCS))
endif
BPF_ARCH := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(shell uname -m)))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(wildcard tests/helpers/*.c))

all: ftrace2trace man

ftrace2trace: $(B)/src/main.o $(B)/libf2t.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libf2t.a: $(LIB_OBJS) $(B)/bpf-config
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

# Which off-CPU implementation the archive holds: a change of BPF relinks.
$(B)/bpf-config: FORCE
	@mkdir -p $(B)
	@echo "BPF=$(BPF)" | cmp -s - $@ || echo "BPF=$(BPF)" >$@

$(B)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(BTF_VMLINUX) format c >$@.tmp && mv $@.tmp $@

# -mcpu=v3: the kernel-stack table hands out ids with an atomic fetch-and-add
# (Linux 5.12 on; tp_btf and ring buffers already need 5.8).
$(B)/bpf/offcpu.bpf.o: bpf/offcpu.bpf.c $(wildcard bpf/*.bpf.h) src/capture/offcpu_rec.h $(B)/bpf/vmlinux.h
	$(BPF_CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(BPF_ARCH) -I$(B)/bpf -Isrc \
		$(shell $(PKG_CONFIG) --cflags libbpf) -Wall -c -o $@ $<

$(B)/bpf/offcpu.skel.h: $(B)/bpf/offcpu.bpf.o
	$(BPFTOOL) gen skeleton $< name offcpu_bpf >$@.tmp && mv $@.tmp $@

$(B)/src/record/offcpu_bpf.o: $(B)/bpf/offcpu.skel.h

# The flight recorder's latency trigger (record --trigger-latency).
$(B)/bpf/latency.bpf.o: bpf/latency.bpf.c src/record/latency_rec.h $(B)/bpf/vmlinux.h
	$(BPF_CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(BPF_ARCH) -I$(B)/bpf -Isrc \
		$(shell $(PKG_CONFIG) --cflags libbpf) -Wall -c -o $@ $<

$(B)/bpf/latency.skel.h: $(B)/bpf/latency.bpf.o
	$(BPFTOOL) gen skeleton $< name latency_bpf >$@.tmp && mv $@.tmp $@

$(B)/src/record/latency_bpf.o: $(B)/bpf/latency.skel.h

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

check: ftrace2trace tests fuzz-build
	@F2T=$(CURDIR)/ftrace2trace B=$(CURDIR)/$(B) tests/run-all.sh $(UNIT_BINS)

# The unit tests alone: no root, no tracefs, no tool outside the build
# (the Debian package build runs these).
check-unit: $(UNIT_BINS)
	@for t in $^; do echo "== unit: $$t"; $$t || exit 1; done

include tests/fuzz/fuzz.mk

clean:
	rm -rf $(B) ftrace2trace tests/out

.PHONY: all tests check check-unit clean FORCE
include mk/install.mk
-include $(shell find $(B) -name '*.d' 2>/dev/null)
