# libFuzzer harnesses (tests/fuzz/README.md), included by the Makefile.
#   make fuzz-build                  build every harness (needs clang's fuzzer runtime)
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_RUNS=N] [FUZZ_TARGETS="marker fxt"]   fuzz each target in turn
# `make check` replays every seed and past crash (tests/integration/fuzz_replay.sh).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
# Stop a target after this many executions too (empty: time alone).
FUZZ_RUNS    ?=
# Faster runs (30-40 %): no allocation stacks in reports, a small quarantine.
# A finding is replayed with the defaults (fuzz_replay.sh) for its full report.
FUZZ_ASAN_OPTIONS ?= malloc_context_size=0:quarantine_size_mb=8
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -DF2T_VERSION='"$(VERSION)"' $(WARN) -Isrc -Iinclude -Itests/fuzz $(PKG_CFLAGS) \
		-g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -DF2T_FUZZ_TESTS='"$(CURDIR)/tests"' \
		-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# The capture's mapping becomes an exact-size heap copy; strtoul(l) get checked (fuzz_common.c).
FUZZ_WRAP    := -Wl,--wrap=mmap,--wrap=munmap,--wrap=madvise,--wrap=strtoul,--wrap=strtoull
FB           := $(B)/fuzz
FUZZ_ALL     := $(sort $(patsubst tests/fuzz/%.c,%,$(filter-out tests/fuzz/fuzz_common.c,$(wildcard tests/fuzz/*.c))))
FUZZ_TARGETS ?= $(FUZZ_ALL)
# Longest input per target, where 4096 bytes is not enough (whole captures).
FUZZ_MAX_LEN_capfile := 65536
FUZZ_MAX_LEN_capture := 65536
FUZZ_MAX_LEN_ringbuf := 16384
FUZZ_MAX_LEN_perf    := 32768
FUZZ_MAX_LEN_tracedat := 160000
# Flags of one target.  Most tracedat inputs end with more allocations than
# frees (what libtracecmd keeps), so libFuzzer ran its whole leak scan after
# them: 3/4 of the time, for no leak found (leaks are still checked when
# `make check` replays the corpus).  And libtracecmd 1.3 leaves a page of
# each file mapped: one process reaches the kernel's map limit after about
# 280 000 files, so inputs run in child processes that come and go (-fork).
FUZZ_FLAGS_tracedat  := -detect_leaks=0 -fork=1
# The off-CPU recorder and the latency trigger go in as their stubs: the
# fuzzers never record, and the BPF skeletons are no business of theirs.
FUZZ_LIB_SRCS := $(sort $(filter-out src/record/offcpu_bpf.c src/record/latency_bpf.c,$(LIB_SRCS)) \
		   src/record/offcpu_none.c src/record/latency_none.c)
FUZZ_OBJS    := $(FUZZ_LIB_SRCS:%.c=$(FB)/obj/%.o) $(FB)/obj/tests/fuzz/fuzz_common.o

# Empty when $(FUZZ_CC) can build a fuzzer with both sanitizers; else why not.
fuzz_missing = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -x c - -o /dev/null >/dev/null 2>&1 || \
	echo "$(FUZZ_CC) cannot build a libFuzzer harness with ASan and UBSan (install clang and libclang-rt-dev: scripts/install-deps)")

FUZZ_COV_IGNORE := tests/fuzz/coverage-ignore.txt

$(FB)/obj/%.o: %.c $(FUZZ_COV_IGNORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=$(FUZZ_COV_IGNORE) \
		-MMD -MP -c -o $@ $<

$(FB)/libf2t.a: $(filter $(FB)/obj/src/%,$(FUZZ_OBJS))
	@rm -f $@
	$(AR) rcs $@ $^

$(FB)/%: tests/fuzz/%.c $(FB)/obj/tests/fuzz/fuzz_common.o $(FB)/libf2t.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_WRAP) -o $@ $^ $(LDLIBS)

.SECONDARY: $(FUZZ_OBJS)

fuzz-bins: $(FUZZ_ALL:%=$(FB)/%)

fuzz-build:
	@mkdir -p $(FB)
	@why='$(fuzz_missing)'; if [ -n "$$why" ]; then \
		echo "fuzz: $$why"; echo "$$why" > $(FB)/unavailable; \
	else \
		rm -f $(FB)/unavailable; \
		$(MAKE) --no-print-directory fuzz-bins; \
	fi

# Each target in turn (one core): new inputs go to $(FB)/corpus/TARGET, the
# seeds are read from tests/fuzz/corpus/TARGET, crashes land in $(FB)/crashes.
fuzz: fuzz-build
	@test ! -e $(FB)/unavailable
	@mkdir -p $(FB)/crashes
	@set -e; export LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp \
		ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS); $(foreach t,$(FUZZ_TARGETS),mkdir -p $(FB)/corpus/$(t); \
		echo "== fuzz $(t) for $(FUZZ_SECONDS) s"; \
		$(FB)/$(t) -max_total_time=$(FUZZ_SECONDS) $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS)) -timeout=10 -rss_limit_mb=2048 \
			-max_len=$(or $(FUZZ_MAX_LEN_$(t)),4096) $(FUZZ_FLAGS_$(t)) -print_final_stats=1 \
			-artifact_prefix=$(FB)/crashes/$(t)- $(FB)/corpus/$(t) tests/fuzz/corpus/$(t);)

fuzz-%: fuzz-build
	@$(MAKE) --no-print-directory fuzz FUZZ_TARGETS=$*

.PHONY: fuzz fuzz-build fuzz-bins
