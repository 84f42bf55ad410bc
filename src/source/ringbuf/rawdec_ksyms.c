// SPDX-License-Identifier: MIT
/*
 * Names for the kernel addresses in function-tracer records, from the
 * /proc/kallsyms text the recording holds (symbols/kallsyms.h).  Read the
 * first time a record needs it, so a recording without function events pays
 * nothing for it.  An input that hands its kallsyms straight to libtraceevent
 * (libtracecmd does, for trace.dat) is looked up there instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ringbuf/fmtcheck.h"
#include "source/ringbuf/rawdec.h"
#include "symbols/kallsyms.h"
#include "util/log.h"

static void load(struct f2t_rawdec *s)
{
	struct f2t_text k = f2t_recording_kallsyms(s->recording);

	s->ksyms_tried = true;
	if (!k.s) {
		if (!tep_get_function_count(s->tep))
			f2t_warn("%s: no kernel symbols in the recording: functions are named by address",
				 s->path);
		return;
	}
	s->ksyms = f2t_ksyms_parse(k.s, k.len);
	if (!s->ksyms)
		f2t_warn("%s: out of memory reading the kernel symbols: functions are named by address",
			 s->path);
	else if (!f2t_ksyms_count(s->ksyms))
		f2t_warn("%s: the kernel hid its symbol addresses when recording (kptr_restrict): functions are named by address",
			 s->path);
}

const char *f2t_rawdec_ksym(struct f2t_rawdec *s, uint64_t addr, const char **module)
{
	const struct f2t_kmod *mod = NULL;
	const char *name = NULL;
	uint64_t off;
	char *hex;
	int n;

	*module = NULL;
	if (!s->ksyms_tried)
		load(s);
	if (s->ksyms) {
		name = f2t_ksyms_lookup(s->ksyms, addr, &mod, &off);
	} else {
		/*
		 * libtraceevent sorts its functions into a map at the first
		 * lookup and never again: one registered later counts in the
		 * map's length without being in it, and lookups read past its
		 * end.  So whatever the recording has for it goes in first.
		 */
		f2t_rawdec_tep_symbols(s);
		name = tep_find_function(s->tep, addr);	/* no module names there */
	}
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

void f2t_rawdec_ksyms_free(struct f2t_rawdec *s)
{
	f2t_ksyms_free(s->ksyms);
	s->ksyms = NULL;
}

/*
 * libtraceevent prints %ps/%pS fields (a timer's function, a work item's
 * callback) and %s of kernel strings through its own tables, which stay
 * empty unless given the recording's kallsyms and printk formats.  They
 * are large and only the generic print path needs them: loaded once, on
 * first use.
 */
void f2t_rawdec_tep_symbols(struct f2t_rawdec *s)
{
	struct f2t_text kallsyms = f2t_recording_kallsyms(s->recording);
	const struct f2t_text *texts[] = { &kallsyms, &s->recording->printk_formats };
	int (*parse[])(struct tep_handle *, const char *) = {
		tep_parse_kallsyms, tep_parse_printk_formats,
	};

	if (*s->tep_symbols)
		return;
	*s->tep_symbols = true;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t bad;
		char *copy;

		if (!texts[i]->s || !texts[i]->len)
			continue;
		/* The parsers want a terminated string; the recording's is not. */
		copy = strndup(texts[i]->s, texts[i]->len);
		if (!copy) {
			/* Out of memory is no fallback: the next record fails with it. */
			s->oom = true;
			return;
		}
		f2t_rawdec_guard(s, F2T_RAWDEC_SYMBOLS);
		if (i && f2t_printk_formats_check(copy, &bad))
			f2t_warn("%s: the recording's printk formats: a line that is not 'ADDRESS : \"FORMAT\"' at byte %zu, which libtraceevent would read past: not read, some kernel strings stay addresses",
				 s->path, bad);
		else if (parse[i](s->tep, copy) < 0)
			f2t_warn("%s: cannot read the recording's %s: some kernel addresses stay numbers",
				 s->path, i ? "printk formats" : "kernel symbols");
		free(copy);
	}
}
