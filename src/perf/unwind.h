/* SPDX-License-Identifier: MIT */
/*
 * User-space stack unwinding after the fact, for --call-graph dwarf: the
 * registers and the copy of the stack a sample carries are handed to
 * libdw's unwinder (CFI from .eh_frame / .debug_frame of the mapped files).
 */
#ifndef F2T_UNWIND_H
#define F2T_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "model/maps.h"

struct f2t_unwinder;

/**
 * f2t_unwinder_new() - an unwinder for samples recorded on @arch
 * @regs_mask: the sample_regs_user mask the samples were taken with
 * @maps: the address spaces (kept, not copied)
 *
 * Return: the unwinder, or NULL when @arch cannot be unwound here (then
 * samples keep only their user instruction pointer).
 */
struct f2t_unwinder *f2t_unwinder_new(const char *arch, uint64_t regs_mask,
				      struct f2t_maps *maps);
void f2t_unwinder_free(struct f2t_unwinder *u);

/**
 * f2t_unwind() - the user call stack of one sample
 * @pid: the process (its mappings find the code)
 * @regs: @nregs u64 values in sample_regs_user bit order (may be unaligned)
 * @stack: the copied stack, starting at the stack pointer
 * @stack_len: its valid length
 * @ips: out: the instruction pointer, then return addresses
 * @max: room in @ips
 *
 * Return: the number of addresses written (0 when nothing is known).
 */
size_t f2t_unwind(struct f2t_unwinder *u, int32_t pid, const unsigned char *regs,
		  unsigned int nregs, const unsigned char *stack, size_t stack_len,
		  uint64_t *ips, size_t max);

#endif
