/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from the /proc/kallsyms text the recorder saved: address
 * to function name and module ("[kernel.kallsyms]" for the kernel proper,
 * "[MODNAME]" for a loadable module).
 */
#ifndef F2T_KALLSYMS_H
#define F2T_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct f2t_ksyms;

/* Where a module's (or the kernel's) text lies, as its symbols span it. */
struct f2t_kmod {
	const char *name;	/* "[kernel.kallsyms]" or "[xfs]" */
	uint64_t start, end;
};

/**
 * f2t_ksyms_parse() - index kallsyms text ("ADDR TYPE NAME [MODULE]" lines)
 * @text: the text; copied, so it need not outlive the result
 * @len: its length
 *
 * Lines that do not parse and symbols at address 0 (kptr_restrict) are
 * skipped.
 *
 * Return: the index (possibly empty), or NULL with errno ENOMEM.
 */
struct f2t_ksyms *f2t_ksyms_parse(const char *text, size_t len);
void f2t_ksyms_free(struct f2t_ksyms *k);

/* Number of symbols kept. */
size_t f2t_ksyms_count(const struct f2t_ksyms *k);

/**
 * f2t_ksyms_lookup() - the function holding kernel address @addr
 * @mod: set to the module the address falls in (NULL if none)
 * @off: set to @addr minus the symbol's address
 *
 * A symbol's end is the next symbol's start; past a module's last symbol
 * only a short distance counts (code runs no further).
 *
 * Return: the symbol name, or NULL when no symbol covers @addr.
 */
const char *f2t_ksyms_lookup(const struct f2t_ksyms *k, uint64_t addr,
			     const struct f2t_kmod **mod, uint64_t *off);

/* The module (or kernel) spanning @addr, or NULL. */
const struct f2t_kmod *f2t_ksyms_module(const struct f2t_ksyms *k, uint64_t addr);

#endif
