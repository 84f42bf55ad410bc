// SPDX-License-Identifier: MIT
/*
 * A trace.dat's options, as the walk meets them: what they say about the
 * recording (uname, CPU stats, the trace clock, the CPU count), whether one
 * changes the timestamps (libtracecmd applies those: then it reads the
 * file), and version 6's instances, whose CPU data tables are walked once
 * every option is known.  What libtracecmd reads of them unchecked is
 * checked first (refuse_option()).
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/tracedat/tracedat-local.h"
#include "util/log.h"
#include "util/vec.h"

/*
 * The clock a trace_clock file's text selects, as libtracecmd reads it:
 * the first space-separated word that starts with '[', up to ']' or white
 * space.  NULL when there is none (or no memory).
 */
static char *clock_of(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
		if (*p != '[')
			continue;
		p += strspn(p, "[]");
		return strndup(p, strcspn(p, "[] \t\n\r\v\f"));
	}
	return NULL;
}

/*
 * Version 6, with a TRACECLOCK option: after each CPU data table, the
 * buffer's trace_clock file ("local [mono] ...").  Text libtracecmd cannot
 * read at all it replaces by "[local]" itself.
 */
int walk_clock_text(struct walk *w, struct f2t_tracedat_buffer *b)
{
	uint64_t n, at;
	char *text = NULL;
	int ret = 0;

	w->what = "the trace clock";
	if (walk_get64(w, &n) || n > w->size - w->off || n > 65536) {
		walk_keep(&b->clock, strdup("local"));	/* what libtracecmd takes then */
		return 0;
	}
	at = w->off;
	ret = walk_get_text(w, n, &text) ?: refuse_empty_clock(w, at, text);
	if (!ret)
		walk_keep(&b->clock, clock_of(text));
	free(text);
	return ret;
}

/*
 * A CPU stats option's TEXT (LEN bytes) after the others'.  trace-cmd ends
 * each with a NUL, which libtracecmd joins with them: its text stops after
 * the first CPU's.  Here they are one text.
 */
static int add_cpustats(struct walk *w, char *text, uint32_t len)
{
	struct f2t_tracedat_meta *m = &w->lay->meta;
	size_t have = m->cpustats ? strlen(m->cpustats) : 0;
	char *all;

	len = (uint32_t)strnlen(text, len);
	all = realloc(m->cpustats, have + len + 1);

	if (!all) {
		free(text);
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	memcpy(all + have, text, len);
	all[have + len] = '\0';
	m->cpustats = all;
	free(text);
	return 0;
}

/*
 * The option ID of LEN bytes at w->off, once refuse_option() passed it.
 * w->off is left anywhere: the caller moves past the option.
 */
int walk_option(struct walk *w, uint16_t id, uint32_t len)
{
	uint64_t at = w->off;
	char *text;
	int ret;

	ret = refuse_option(w, id, len, at);
	if (ret)
		return ret;
	switch (id) {
	case OPTION_OFFSET:
	case OPTION_TIME_SHIFT:
	case OPTION_TSC2NSEC:
		w->lay->ts_adjusted = true;
		return 0;
	case OPTION_CPUCOUNT:
		ret = walk_get32(w, &w->cpucount);
		if (!ret && w->cpucount > 65536)
			ret = walk_fail(w, at, "not a number of CPUs");
		w->has_cpucount = !ret;
		if (!ret)
			w->lay->meta.ncpus = w->cpucount;
		return ret;
	case OPTION_DATE:	/* an offset of the timestamps too */
		w->lay->ts_adjusted = true;
		break;
	case OPTION_HOOK:
		w->lay->hook = true;
		break;
	case OPTION_TRACECLOCK:
		w->trace_clock = true;
		break;
	case OPTION_CPUSTAT:
	case OPTION_UNAME:
	case OPTION_VERSION:
		break;
	default:
		return 0;
	}
	ret = walk_get_text(w, len, &text);
	if (!ret && id == OPTION_CPUSTAT)
		return add_cpustats(w, text, len);
	ret = ret ?: refuse_unterminated(w, at, text, len);
	if (!ret && id == OPTION_UNAME) {
		walk_keep(&w->lay->meta.uname, text);
		return 0;
	}
	if (!ret && id == OPTION_TRACECLOCK)
		walk_keep(&w->clock, clock_of(text));
	free(text);
	return ret;
}

/*
 * The options; each instance's CPU data table is checked where its BUFFER
 * option points once all options are known (a TRACECLOCK option anywhere
 * changes what follows every table).
 */
int walk_options(struct walk *w, uint32_t cpus)
{
	struct instance {
		uint64_t at, off;
		char name[257];
	} *inst = NULL;
	size_t n = 0, cap = 0;
	uint64_t end;
	int ret;

	for (;;) {
		uint16_t id;
		uint32_t len;
		uint64_t at;

		w->what = "an option";
		ret = walk_get(w, &id, 2);
		if (ret || !(id = le16toh(id)))
			break;
		ret = walk_get32(w, &len);
		if (ret)
			break;
		at = w->off;
		ret = walk_option(w, id, len);
		w->off = at;
		if (!ret && id == OPTION_BUFFER && len >= 8) {
			if (f2t_vec_reserve(&inst, &cap, n + 1, 4)) {
				f2t_err("%s: out of memory", w->path);
				ret = -ENOMEM;
				break;
			}
			inst[n].at = at;
			ret = walk_get64(w, &inst[n].off) ?: walk_get_name(w, inst[n].name);
			n++;
			w->off = at;
		}
		ret = ret ?: walk_skip(w, len);
		if (ret)
			break;
	}
	end = w->off;
	if (w->has_cpucount)
		cpus = w->cpucount;
	for (size_t i = 0; !ret && i < n; i++) {
		w->what = "an option";
		if (inst[i].off > w->size) {
			ret = walk_fail(w, inst[i].at, "points past the end of the file");
		} else {
			w->off = inst[i].off;
			ret = walk_flyrecord(w, cpus, inst[i].name);
		}
	}
	w->off = end;
	free(inst);
	return ret;
}
