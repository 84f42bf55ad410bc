/* SPDX-License-Identifier: MIT */
/*
 * User-space stack unwinding after the fact, for --call-graph dwarf and the
 * innermost frames of off-CPU stacks: the registers and the copy of the
 * stack a sample or an episode carries are handed to libdw's unwinder (CFI from .eh_frame / .debug_frame of the mapped files).
 * One libdwfl session per process, kept while its mappings stay the same.
 */
#ifndef F2T_UNWIND_H
#define F2T_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/maps.h"
#include "symbols/symbolizer.h"

/* Frames one sample's user stack can yield: a runaway walk stops here. */
#define F2T_UNWIND_MAX_FRAMES 127

/* DWARF registers of x86_64 an unwinder starts from: rax..rsp, r8..r15, rip. */
#define F2T_X86_64_DWARF_REGS 17

/*
 * The sample_regs_user mask of the three registers an off-CPU episode keeps
 * (perf's x86_64 numbering: bp 6, sp 7, ip 8), in that order.
 */
#define F2T_UNWIND_X86_64_IP (1ULL << 8)
#define F2T_UNWIND_X86_64_IP_SP_BP ((1ULL << 6) | (1ULL << 7) | F2T_UNWIND_X86_64_IP)

struct f2t_unwinder;

/* What one sample hands the unwinder (pointers into the record). */
struct f2t_unwind_sample {
	int32_t pid, tid;
	uint64_t abi;			/* PERF_SAMPLE_REGS_ABI_* */
	uint64_t regs_mask;		/* which registers @regs holds (sample_regs_user) */
	bool episode;			/* an off-CPU episode's, counted apart from samples */
	const unsigned char *regs;	/* nregs u64, regs_mask bit order, unaligned */
	unsigned int nregs;
	const unsigned char *stack;	/* the copied stack, from the stack pointer up */
	size_t stack_len;		/* its valid length (dyn_size) */
};

struct f2t_unwind_stats {
	uint64_t samples;	/* samples with user registers */
	uint64_t leaf_only;	/* ... of which no caller was found */
	uint64_t episodes;	/* off-CPU episodes with user registers */
	uint64_t episodes_leaf_only;	/* ... of which no caller was found */
	uint64_t sessions;	/* libdwfl sessions built */
	uint64_t rebuilt;	/* ... because a process's files moved or went away (exec) */
	uint64_t evicted;	/* ... after another process's session was dropped */
};

/**
 * f2t_unwind_x86_64_regs() - perf's x86_64 user registers in DWARF order
 * @regs_mask: the sample_regs_user mask (PERF_REG_X86_* bits)
 * @regs: @nregs u64 values in @regs_mask bit order (may be unaligned)
 * @dwarf: out: F2T_X86_64_DWARF_REGS values, by DWARF register number
 *         (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp,
 *         8-15 r8-r15, 16 rip); the ones not sampled are 0
 * @valid: out: bit N set when DWARF register N was sampled
 *
 * Return: 0, or -ENOENT when the instruction or stack pointer is missing.
 */
int f2t_unwind_x86_64_regs(uint64_t regs_mask, const unsigned char *regs, unsigned int nregs,
			   uint64_t *dwarf, uint32_t *valid);

/**
 * f2t_unwinder_new() - an unwinder for stacks recorded on @arch
 * @maps: the address spaces (kept, not copied)
 * @sym: for recorded build-ids and the vDSO (kept)
 * @debug_root: where separate debug files live by build-id (NULL: the
 *              system's); only read when a file's .eh_frame falls short
 *
 * Return: the unwinder, or NULL when @arch cannot be unwound here (then
 * samples keep only their user instruction pointer).
 */
struct f2t_unwinder *f2t_unwinder_new(const char *arch, struct f2t_maps *maps,
				      struct f2t_symbolizer *sym, const char *debug_root);
void f2t_unwinder_free(struct f2t_unwinder *u);

/**
 * f2t_unwind() - the user call stack of one sample
 * @smp: the sample's registers and stack
 * @ips: out: the instruction pointer, then return addresses, leaf first
 * @call: out: for each of @ips, whether it is a return address (so the
 *        call instruction before it names the frame), false for the leaf
 *        and for frames interrupted by a signal
 * @max: room in @ips and @call (at most F2T_UNWIND_MAX_FRAMES are used)
 *
 * When the stack cannot be unwound the sampled instruction pointer alone is
 * returned (counted in f2t_unwinder_stats()).
 *
 * Return: the number of addresses written (0 when not even the
 * instruction pointer is known).
 */
size_t f2t_unwind(struct f2t_unwinder *u, const struct f2t_unwind_sample *smp, uint64_t *ips,
		  bool *call, size_t max);

/* What unwinding did so far. */
void f2t_unwinder_stats(const struct f2t_unwinder *u, struct f2t_unwind_stats *st);

#endif
