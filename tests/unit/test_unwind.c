// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding (--call-graph dwarf): perf's x86_64 user registers put in
 * DWARF order (full, partial and short masks), the address-space
 * generation the unwinder's sessions are keyed on, and the unwinder itself
 * on this test's own stack: registers and a stack copy taken here, as the
 * kernel takes them, unwound through three noinline callers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/perf_event.h>

#include "model/recording.h"
#include "symbols/maps.h"
#include "symbols/unwind.h"
#include "symbols/symbolizer.h"

/* PERF_REG_X86_* numbers (asm/perf_regs.h), as the kernel ABI has them. */
enum {
	AX, BX, CX, DX, SI, DI, BP, SP, IP, FLAGS, CS, SS, DS, ES, FS, GS,
	R8, R9, R10, R11, R12, R13, R14, R15, NPERF,
};

/* What the recorder asks for: AX..IP and R8..R15. */
static const uint64_t full_mask = ((1ULL << NPERF) - 1) &
				  ~((1ULL << FLAGS) | (1ULL << CS) | (1ULL << SS) | (1ULL << DS) |
				    (1ULL << ES) | (1ULL << FS) | (1ULL << GS));

/* Packs VALUE(perf register) for the registers of MASK, in bit order. */
static unsigned int pack(uint64_t mask, unsigned char *out)
{
	unsigned int n = 0;

	for (unsigned int r = 0; r < 64; r++) {
		if (mask & (1ULL << r)) {
			uint64_t v = 0x1000 + r;

			memcpy(out + 8 * n++, &v, 8);
		}
	}
	return n;
}

static void test_regs_full(void **state)
{
	/* DWARF 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
	static const unsigned int want[F2T_X86_64_DWARF_REGS] = {
		AX, DX, CX, BX, SI, DI, BP, SP, R8, R9, R10, R11, R12, R13, R14, R15, IP,
	};
	unsigned char buf[8 * 64];
	uint64_t dw[F2T_X86_64_DWARF_REGS];
	uint32_t valid;
	unsigned int n = pack(full_mask, buf);

	assert_int_equal(n, 17);
	assert_int_equal(f2t_unwind_x86_64_regs(full_mask, buf, n, dw, &valid), 0);
	assert_int_equal(valid, (1u << F2T_X86_64_DWARF_REGS) - 1);
	for (unsigned int r = 0; r < F2T_X86_64_DWARF_REGS; r++)
		assert_int_equal(dw[r], 0x1000 + want[r]);
}

static void test_regs_unaligned_and_partial(void **state)
{
	uint64_t mask = (1ULL << IP) | (1ULL << SP) | (1ULL << BP) | (1ULL << R12);
	unsigned char buf[8 * 8 + 1];
	uint64_t dw[F2T_X86_64_DWARF_REGS];
	uint32_t valid;
	unsigned int n = pack(mask, buf + 1);	/* records need not be 8-aligned */

	assert_int_equal(f2t_unwind_x86_64_regs(mask, buf + 1, n, dw, &valid), 0);
	assert_int_equal(valid, (1u << 6) | (1u << 7) | (1u << 12) | (1u << 16));
	assert_int_equal(dw[6], 0x1000 + BP);
	assert_int_equal(dw[7], 0x1000 + SP);
	assert_int_equal(dw[12], 0x1000 + R12);
	assert_int_equal(dw[16], 0x1000 + IP);
	assert_int_equal(dw[0], 0);
	assert_int_equal(dw[3], 0);
}

static void test_regs_missing(void **state)
{
	unsigned char buf[8 * 64];
	uint64_t dw[F2T_X86_64_DWARF_REGS];
	uint32_t valid;
	uint64_t no_sp = full_mask & ~(1ULL << SP);
	unsigned int n = pack(no_sp, buf);

	assert_int_equal(f2t_unwind_x86_64_regs(no_sp, buf, n, dw, &valid), -ENOENT);
	assert_false(valid & (1u << 7));
	/* A record shorter than its mask: the registers past its end are not there. */
	n = pack(full_mask, buf);
	assert_int_equal(f2t_unwind_x86_64_regs(full_mask, buf, 8, dw, &valid), -ENOENT);
	assert_int_equal(valid, 0xff);	/* AX..SP are the first eight; IP is the ninth */
	assert_int_equal(f2t_unwind_x86_64_regs(full_mask, buf, 9, dw, &valid), 0);
	assert_int_equal(valid, 0xff | (1u << 16));
	assert_int_equal(f2t_unwind_x86_64_regs(full_mask, NULL, 0, dw, &valid), -ENOENT);
	assert_int_equal(valid, 0);
}

static void test_maps_generation(void **state)
{
	struct f2t_maps *m = f2t_maps_new();
	struct f2t_module *a;
	uint64_t g1, g2, g3, g4;
	size_t n;

	assert_non_null(m);
	a = f2t_maps_module(m, "/a", 2, NULL);
	assert_null(f2t_maps_list(m, 10, &n, &g1));
	assert_int_equal(g1, 0);
	assert_int_equal(f2t_maps_add(m, 10, 0x1000, 0x1000, 0, a), 0);
	assert_non_null(f2t_maps_list(m, 10, &n, &g1));
	assert_int_equal(n, 1);
	assert_int_equal(f2t_maps_fork(m, 10, 11), 0);
	f2t_maps_list(m, 11, &n, &g2);
	assert_int_equal(n, 1);
	/* Same mappings, another process: never the same generation. */
	assert_true(g2 != g1 && g2 != 0);
	assert_int_equal(f2t_maps_add(m, 10, 0x3000, 0x1000, 0, a), 0);
	f2t_maps_list(m, 10, &n, &g3);
	assert_int_equal(n, 2);
	assert_true(g3 != g1 && g3 != g2);
	f2t_maps_exec(m, 10);
	f2t_maps_list(m, 10, &n, &g4);
	assert_int_equal(n, 0);
	assert_true(g4 != g3);
	f2t_maps_list(m, 11, &n, &g1);
	assert_int_equal(g1, g2);	/* untouched */
	f2t_maps_free(m, NULL);
}

#if defined(__x86_64__)

struct snap {
	uint64_t regs[NPERF];	/* by perf register number */
	unsigned char stack[65536];	/* cmocka's frames are deep */
	size_t len;
};

/* The end of the mapping holding ADDR in /proc/self/maps (0 if none). */
static uint64_t mapping_end(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi;
	char line[512];
	uint64_t end = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo <= addr && addr < hi)
			end = hi;
	if (f)
		fclose(f);
	return end;
}

/*
 * Takes the registers and the top of the stack the way the kernel does for
 * a sample: the instruction pointer is a label in this function, every
 * other register as it is there.
 */
static __attribute__((noinline)) void grab(struct snap *s)
{
	uint64_t *r = s->regs, end;

	__asm__ volatile(
		"mov %%rax, 0(%0)\n\t"
		"mov %%rbx, 8(%0)\n\t"
		"mov %%rcx, 16(%0)\n\t"
		"mov %%rdx, 24(%0)\n\t"
		"mov %%rsi, 32(%0)\n\t"
		"mov %%rdi, 40(%0)\n\t"
		"mov %%rbp, 48(%0)\n\t"
		"mov %%rsp, 56(%0)\n\t"
		"mov %%r8, 128(%0)\n\t"
		"mov %%r9, 136(%0)\n\t"
		"mov %%r10, 144(%0)\n\t"
		"mov %%r11, 152(%0)\n\t"
		"mov %%r12, 160(%0)\n\t"
		"mov %%r13, 168(%0)\n\t"
		"mov %%r14, 176(%0)\n\t"
		"mov %%r15, 184(%0)\n\t"
		"lea 1f(%%rip), %%rcx\n\t"
		"1:\n\t"
		"mov %%rcx, 64(%0)\n\t"
		: : "r"(r) : "rcx", "memory");
	end = mapping_end(r[SP]);
	s->len = end - r[SP] < sizeof(s->stack) ? end - r[SP] : sizeof(s->stack);
	memcpy(s->stack, (const void *)(uintptr_t)r[SP], s->len);
}

static volatile int depth_sink;

static __attribute__((noinline)) void level3(struct snap *s)
{
	grab(s);
	depth_sink++;	/* no tail call: each level keeps its frame */
}

static __attribute__((noinline)) void level2(struct snap *s)
{
	level3(s);
	depth_sink++;
}

static __attribute__((noinline)) void level1(struct snap *s)
{
	level2(s);
	depth_sink++;
}

/* Frame F is function NAME, or a clone gcc made of it (NAME.constprop.0). */
static bool is(const struct f2t_frame *f, const char *name)
{
	size_t n = strlen(name);

	return f->func && !strncmp(f->func, name, n) && (!f->func[n] || f->func[n] == '.');
}

static bool has(const struct f2t_frame *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (is(&f[i], name))
			return true;
	return false;
}

static void test_unwind_own_stack(void **state)
{
	static struct snap s;
	struct f2t_recording rec = { .path = "(none)" };
	unsigned char packed[8 * NPERF];
	/* Static, so the stack between here and main stays small. */
	static struct f2t_frame frames[F2T_UNWIND_MAX_FRAMES];
	static uint64_t ips[F2T_UNWIND_MAX_FRAMES];
	static bool call[F2T_UNWIND_MAX_FRAMES];
	static char text[65536];
	struct f2t_unwind_stats st;
	struct f2t_unwind_sample smp;
	struct f2t_symbolizer *sym;
	struct f2t_unwinder *u;
	struct f2t_maps *maps;
	unsigned int nregs = 0;
	size_t len, n;
	FILE *f;

	level1(&s);
	assert_true(s.len > 256);
	for (unsigned int r = 0; r < NPERF; r++)
		if (full_mask & (1ULL << r))
			memcpy(packed + 8 * nregs++, &s.regs[r], 8);

	f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	len = fread(text, 1, sizeof(text), f);
	fclose(f);
	maps = f2t_maps_new();
	assert_non_null(maps);
	assert_true(f2t_maps_parse_proc(maps, getpid(), text, len) > 0);
	sym = f2t_symbolizer_new(&rec, maps, NULL);
	assert_non_null(sym);
	assert_null(f2t_unwinder_new("aarch64", maps, sym, NULL));
	u = f2t_unwinder_new("x86_64", maps, sym, NULL);
	assert_non_null(u);

	smp = (struct f2t_unwind_sample){
		.pid = getpid(), .tid = getpid(), .abi = PERF_SAMPLE_REGS_ABI_64,
		.regs_mask = full_mask, .regs = packed, .nregs = nregs, .stack = s.stack, .stack_len = s.len,
	};
	n = f2t_unwind(u, &smp, ips, call, F2T_UNWIND_MAX_FRAMES);
	for (size_t i = 0; i < n; i++) {
		f2t_symbolize(sym, getpid(), ips[i], false, call[i], &frames[i]);
		print_message("  #%zu %#llx %s%s\n", i, (unsigned long long)ips[i],
			      frames[i].func ? frames[i].func : frames[i].module,
			      call[i] ? "" : " (not a return address)");
	}
	assert_true(n >= 5);
	assert_int_equal(ips[0], s.regs[IP]);
	assert_false(call[0]);
	assert_true(call[1]);
	assert_true(is(&frames[0], "grab"));
	assert_true(is(&frames[1], "level3"));
	assert_true(is(&frames[2], "level2"));
	assert_true(is(&frames[3], "level1"));
	assert_true(has(frames, n, "test_unwind_own_stack"));
	assert_true(has(frames, n, "main"));

	/* A bound on the frames is kept. */
	assert_int_equal(f2t_unwind(u, &smp, ips, call, 3), 3);

	/* No stack copy: the leaf alone, counted. */
	smp.stack_len = 0;
	n = f2t_unwind(u, &smp, ips, call, F2T_UNWIND_MAX_FRAMES);
	assert_int_equal(n, 1);
	assert_int_equal(ips[0], s.regs[IP]);
	/* A 32-bit process: its leaf only. */
	smp.stack_len = s.len;
	smp.abi = PERF_SAMPLE_REGS_ABI_32;
	assert_int_equal(f2t_unwind(u, &smp, ips, call, F2T_UNWIND_MAX_FRAMES), 1);
	f2t_unwinder_stats(u, &st);
	assert_int_equal(st.samples, 4);
	assert_int_equal(st.leaf_only, 2);
	assert_int_equal(st.sessions, 1);	/* one process, its mappings unchanged */

	/* A library loaded (this binary again, far away): added to the session. */
	smp.abi = PERF_SAMPLE_REGS_ABI_64;
	{
		char exe[4096];
		ssize_t l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		struct f2t_module *mod;

		assert_true(l > 0);
		mod = f2t_maps_module(maps, exe, (size_t)l, NULL);
		assert_non_null(mod);
		assert_int_equal(f2t_maps_add(maps, getpid(), 0x100000000000ull, 0x1000, 0, mod), 0);
	}
	assert_true(f2t_unwind(u, &smp, ips, call, F2T_UNWIND_MAX_FRAMES) >= 5);
	f2t_unwinder_stats(u, &st);
	assert_int_equal(st.sessions, 1);
	assert_int_equal(st.rebuilt, 0);
	/* An exec: everything moved, the session is made anew. */
	f2t_maps_exec(maps, getpid());
	assert_true(f2t_maps_parse_proc(maps, getpid(), text, len) > 0);
	n = f2t_unwind(u, &smp, ips, call, F2T_UNWIND_MAX_FRAMES);
	assert_true(n >= 5);
	f2t_unwinder_stats(u, &st);
	assert_int_equal(st.sessions, 2);
	assert_int_equal(st.rebuilt, 1);
	assert_int_equal(st.leaf_only, 2);

	f2t_unwinder_free(u);
	f2t_symbolizer_free(sym);
	f2t_maps_free(maps, f2t_symbolizer_free_module_syms);
}
#else
static void test_unwind_own_stack(void **state)
{
	skip();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs_full),
		cmocka_unit_test(test_regs_unaligned_and_partial),
		cmocka_unit_test(test_regs_missing),
		cmocka_unit_test(test_maps_generation),
		cmocka_unit_test(test_unwind_own_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
