// SPDX-License-Identifier: MIT
/*
 * Unwinding: for now the sampled user instruction pointer only.
 */
#include <stdlib.h>
#include <string.h>

#include "perf/unwind.h"

#define X86_64_REG_IP 8		/* PERF_REG_X86_IP */

struct f2t_unwinder {
	uint64_t regs_mask;
	struct f2t_maps *maps;
};

struct f2t_unwinder *f2t_unwinder_new(const char *arch, uint64_t regs_mask,
				      struct f2t_maps *maps)
{
	struct f2t_unwinder *u;

	if (!arch || strcmp(arch, "x86_64") || !(regs_mask & (1ULL << X86_64_REG_IP)))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->regs_mask = regs_mask;
	u->maps = maps;
	return u;
}

void f2t_unwinder_free(struct f2t_unwinder *u)
{
	free(u);
}

/* Register REG of the sample, if it was recorded. */
static int reg(const struct f2t_unwinder *u, const unsigned char *regs, unsigned int nregs,
	       unsigned int r, uint64_t *v)
{
	unsigned int idx;

	if (!(u->regs_mask & (1ULL << r)))
		return -1;
	idx = (unsigned int)__builtin_popcountll(u->regs_mask & ((1ULL << r) - 1));
	if (idx >= nregs)
		return -1;
	memcpy(v, regs + idx * 8, 8);
	return 0;
}

size_t f2t_unwind(struct f2t_unwinder *u, int32_t pid, const unsigned char *regs,
		  unsigned int nregs, const unsigned char *stack, size_t stack_len,
		  uint64_t *ips, size_t max)
{
	uint64_t ip;

	if (!max || reg(u, regs, nregs, X86_64_REG_IP, &ip))
		return 0;
	ips[0] = ip;
	return 1;
}
