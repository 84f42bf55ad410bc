// SPDX-License-Identifier: MIT
/*
 * Names for the kernel addresses in function-tracer records, from the
 * /proc/kallsyms text the recorder saved (symbols/kallsyms.h).  Read the
 * first time a record needs it, so a capture without function events pays
 * nothing for it.
 */
#include <stdio.h>
#include <string.h>

#include "source/capsrc-local.h"
#include "symbols/kallsyms.h"
#include "util/log.h"

static void load(struct f2t_capsrc *s)
{
	const struct f2t_cap_rec *r = f2t_capr_find(s->cap, F2T_CAP_KALLSYMS, -1);

	s->ksyms_tried = true;
	if (!r) {
		f2t_warn("%s: no kernel symbols in the capture: functions are named by address",
			 s->cap->path);
		return;
	}
	s->ksyms = f2t_ksyms_parse(r->data, r->len);
	if (!s->ksyms)
		f2t_warn("%s: out of memory reading the kernel symbols: functions are named by address",
			 s->cap->path);
	else if (!f2t_ksyms_count(s->ksyms))
		f2t_warn("%s: the kernel hid its symbol addresses when recording (kptr_restrict): functions are named by address",
			 s->cap->path);
}

const char *f2t_capsrc_ksym(struct f2t_capsrc *s, uint64_t addr, const char **module)
{
	const struct f2t_kmod *mod = NULL;
	const char *name = NULL;
	uint64_t off;
	char *hex;
	int n;

	*module = NULL;
	if (!s->ksyms_tried)
		load(s);
	if (s->ksyms)
		name = f2t_ksyms_lookup(s->ksyms, addr, &mod, &off);
	if (name) {
		/* The kernel names a module's functions "name [mod]", its own "name". */
		if (mod && strcmp(mod->name, "[kernel.kallsyms]"))
			*module = mod->name;
		return name;
	}
	/* As the kernel prints an address it has no symbol for: 0x%08lx. */
	hex = s->scratch + s->scratch_len;
	if (s->scratch_len + 24 > s->scratch_cap)
		return "?";
	n = snprintf(hex, 24, "0x%08llx", (unsigned long long)addr);
	s->scratch_len += (size_t)n + 1;
	return hex;
}

void f2t_capsrc_ksyms_free(struct f2t_capsrc *s)
{
	f2t_ksyms_free(s->ksyms);
	s->ksyms = NULL;
}
