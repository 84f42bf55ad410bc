// SPDX-License-Identifier: MIT
/*
 * A look at a trace.dat's layout before libtracecmd opens it.  libtracecmd
 * 1.3 crashes in its own cleanup when a version 6 file's CPU data lies past
 * the end of the file (a truncated download, a recorder killed before it
 * finished), so every length and every CPU data range of a version 6 file
 * is checked to lie inside it, and the first that does not is reported
 * with its offset.  Likewise in version 7 files for the options sections
 * (never compressed by trace-cmd) and the CPU data of every buffer they
 * describe.  The header page description, the event formats and the
 * printk formats (in a version 7 file, their sections, inflated when
 * compressed with zstd) pass the checks a capture's do (fmtcheck.h; the
 * printk formats line by line), since libtraceevent parses and prints with
 * them as they come; every page of
 * uncompressed CPU data has a commit size that fits it (rbpage.h), since
 * kbuffer reads as far as it says; and the options libtracecmd takes as
 * C strings end inside themselves.  On the way, it notes where each
 * buffer's CPU data lies and whether anything in the file changes its
 * timestamps, for our own reading of the CPU data (tracedat_pages.c), and
 * keeps what the file says about the recording (formats, kallsyms, printk
 * formats, cmdlines, uname, clocks, CPU stats) for our own reading of that.
 * Layout facts: trace-cmd's trace-cmd.dat.v6(5) and .v7(5).
 */
#include <endian.h>
#include <stdbool.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <zstd.h>

#include "source/ringbuf/fmtcheck.h"
#include "source/ringbuf/rbpage.h"
#include "source/tracedat/tracedat.h"
#include "util/log.h"
#include "util/vec.h"

/* TRACECMD_OPTION_*: the options libtracecmd reads without checking them. */
enum {
	OPTION_DATE = 1,
	OPTION_CPUSTAT = 2,
	OPTION_BUFFER = 3,	/* an instance's data */
	OPTION_TRACECLOCK = 4,
	OPTION_UNAME = 5,
	OPTION_HOOK = 6,
	OPTION_OFFSET = 7,	/* added to every timestamp */
	OPTION_CPUCOUNT = 8,
	OPTION_VERSION = 9,
	OPTION_PROCMAPS = 10,
	OPTION_TIME_SHIFT = 12,	/* a guest's times mapped onto the host's */
	OPTION_GUEST = 13,	/* a guest's virtual CPUs and their host tasks */
	OPTION_TSC2NSEC = 14,	/* TSC counts into nanoseconds */
	/* Version 7: where the sections libtracecmd hands to libtraceevent are. */
	OPTION_HEADER_INFO = 16,
	OPTION_FTRACE_EVENTS = 17,
	OPTION_EVENT_FORMATS = 18,
	OPTION_KALLSYMS = 19,
	OPTION_PRINTK = 20,
	OPTION_CMDLINES = 21,
	OPTION_BUFFER_TEXT = 22,	/* a latency-format instance */
};

struct walk {
	bool compressed;	/* version 7 with a compression: CPU data in chunks */
	const char *path;
	int fd;
	uint64_t size, off;
	uint32_t page;		/* the ring buffer's page: no record is longer */
	bool long8;		/* recorded by a 64-bit kernel: 8-byte commit words */
	const char *what;	/* what is read at off, for the message */
	struct f2t_tracedat_layout *lay;
	bool trace_clock;	/* version 6: a TRACECLOCK option, so clock text after each table */
	char *clock;		/* the TRACECLOCK option's clock (set_clock()) */
	uint32_t cpucount;	/* version 6: a CPUCOUNT option's, which sizes the CPU data tables */
	bool has_cpucount;
	/* Reading an inflated section: its bytes, and where it lies compressed. */
	const char *mem;
	uint64_t mem_from;
	/*
	 * The event IDs formats were read for, a bit each (shared by the walks
	 * of sections): the decoder keeps one handler per ID, and libtraceevent
	 * could find another event for the ID than the one it was given.
	 */
	uint8_t *ids;
};

static int fail(const struct walk *w, uint64_t off, const char *why)
{
	if (w->mem)
		f2t_err("%s: offset %llu: %s: at %llu of it inflated: %s (truncated or corrupt trace.dat)",
			w->path, (unsigned long long)w->mem_from, w->what, (unsigned long long)off, why);
	else
		f2t_err("%s: offset %llu: %s: %s (truncated or corrupt trace.dat)", w->path,
			(unsigned long long)off, w->what, why);
	return -EINVAL;
}

/*
 * A ring-buffer page (sub-buffer) size a kernel can have: a power of two
 * from 4 KB up.  libtracecmd reads pages of whatever size the file says,
 * past the data when that is absurd.
 */
static bool page_size_ok(uint32_t page)
{
	return page >= 4096 && page <= (16u << 20) && !(page & (page - 1));
}

/* A file that is not damaged but holds what we do not read. */
static int latency_text(const struct walk *w, uint64_t off)
{
	f2t_err("%s: offset %llu: latency-format text (from trace-cmd's latency tracers), which this build does not read; trace-cmd report prints it",
		w->path, (unsigned long long)off);
	return -EINVAL;
}

static int get(struct walk *w, void *buf, size_t n)
{
	if (w->off + n > w->size || (w->mem ? !memcpy(buf, w->mem + w->off, n) :
			pread(w->fd, buf, n, (off_t)w->off) != (ssize_t)n))
		return fail(w, w->off, w->mem ? "past the end of its section" : "past the end of the file");
	w->off += n;
	return 0;
}

static int get32(struct walk *w, uint32_t *v)
{
	int ret = get(w, v, 4);

	*v = le32toh(*v);
	return ret;
}

static int get64(struct walk *w, uint64_t *v)
{
	int ret = get(w, v, 8);

	*v = le64toh(*v);
	return ret;
}

/* Skips N bytes of data, which must lie inside the file. */
static int skip(struct walk *w, uint64_t n)
{
	if (n > w->size || w->off + n > w->size)
		return fail(w, w->off, "past the end of the file");
	w->off += n;
	return 0;
}

static int skip_sized64(struct walk *w)
{
	uint64_t n;

	return get64(w, &n) ?: skip(w, n);
}

/* A NUL-terminated name of at most 256 bytes, into NAME[257] unless NULL. */
static int get_name(struct walk *w, char *name)
{
	char c;

	for (int i = 0; i < 256; i++) {
		int ret = get(w, &c, 1);

		if (ret)
			return ret;
		if (name)
			name[i] = c;
		if (!c)
			return 0;
	}
	return fail(w, w->off, "a name longer than 256 bytes");
}

static int skip_name(struct walk *w)
{
	return get_name(w, NULL);
}

/* A buffer whose CPU data the walk found; NULL after saying so when memory ran out. */
static struct f2t_tracedat_buffer *add_buffer(struct walk *w, const char *name, uint32_t page,
					      uint32_t cpus)
{
	struct f2t_tracedat_layout *lay = w->lay;
	struct f2t_tracedat_buffer *b;

	if (!f2t_vec_reserve(&lay->buffers, &lay->buffers_cap, lay->nbuffers + 1, 4)) {
		b = lay->buffers + lay->nbuffers;
		*b = (struct f2t_tracedat_buffer){ .page = page };
		b->name = strdup(name);
		b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
		if (b->name && b->cpus) {
			lay->nbuffers++;
			return b;
		}
		free(b->name);
		free(b->cpus);
	}
	f2t_err("%s: out of memory", w->path);
	return NULL;
}

void f2t_tracedat_layout_free(struct f2t_tracedat_layout *lay)
{
	struct f2t_tracedat_meta *m = &lay->meta;

	for (size_t i = 0; i < lay->nbuffers; i++) {
		free(lay->buffers[i].name);
		free(lay->buffers[i].clock);
		free(lay->buffers[i].cpus);
	}
	free(lay->buffers);
	for (size_t i = 0; i < m->nformats; i++) {
		free(m->formats[i].system);
		free(m->formats[i].text);
	}
	free(m->formats);
	free(m->header_page);
	free(m->printk);
	free(m->cmdlines);
	free(m->uname);
	free(m->clock);
	free(m->cpustats);
	*lay = (struct f2t_tracedat_layout){ 0 };
}

/* The next N bytes, NUL-terminated, into *TEXT (free it). */
static int get_text(struct walk *w, uint64_t n, char **text)
{
	int ret;

	*text = NULL;	/* the callers free it whatever happened */
	if (n > w->size - w->off)
		return fail(w, w->off, "past the end of the file");
	*text = malloc((size_t)n + 1);
	if (!*text) {
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	ret = get(w, *text, (size_t)n);
	(*text)[n] = '\0';
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

/* TEXT into *SLOT, for the metadata: the last of two wins, as in libtracecmd. */
static void keep(char **slot, char *text)
{
	free(*slot);
	*slot = text;
}

/* An 8-byte size and that many bytes of text, kept in *SLOT. */
static int keep_sized64(struct walk *w, char **slot)
{
	uint64_t n;
	char *text;
	int ret = get64(w, &n) ?: get_text(w, n, &text);

	if (!ret)
		keep(slot, text);
	return ret;
}

/* The kallsyms at w->off (a size, the text): noted, to be read only if needed. */
static int note_kallsyms(struct walk *w)
{
	uint32_t n;

	w->what = "kallsyms";
	w->lay->meta.kallsyms_at.present = true;
	w->lay->meta.kallsyms_at.off = w->off;
	return get32(w, &n) ?: skip(w, n);
}

/* The printk formats: a size, then "ADDR : \"FORMAT\"" lines. */
static int check_printk(struct walk *w)
{
	w->what = "the printk formats";
	uint64_t at = w->off + 4;
	uint32_t n;
	size_t bad;
	char *text = NULL;
	int ret = get32(w, &n) ?: get_text(w, n, &text);

	if (!ret && f2t_printk_formats_check(text, &bad))
		ret = fail(w, at + bad,
			   "a line that is not 'ADDRESS : \"FORMAT\"', which libtraceevent would read past");
	if (ret)
		free(text);
	else
		keep(&w->lay->meta.printk, text);
	return ret;
}

/*
 * Every page of an uncompressed CPU data range [OFF, OFF + LEN) (PAGE:
 * page_size_ok()): libtracecmd hands each to kbuffer, which reads as far as
 * its commit word says.
 */
static int check_pages(struct walk *w, uint64_t off, uint64_t len, uint32_t page)
{
	unsigned char head[F2T_RB_PAGE_HEADER];

	w->what = "CPU data";
	/* libtracecmd reads a whole page where a range starts, however short the range. */
	for (uint64_t p = off; p < off + len; p += page) {
		if (pread(w->fd, head, sizeof(head), (off_t)p) != (ssize_t)sizeof(head))
			return fail(w, p, "cannot be read");
		if (!f2t_rb_page_fits_long(head, page, w->long8))
			return fail(w, p + 8, "a ring-buffer page whose commit size runs past its end");
	}
	return 0;
}

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
 * buffer's trace_clock file ("local [mono] ...").  libtracecmd takes the
 * first word in brackets through strtok() and sscanf(), which crash when
 * the brackets hold nothing; text it cannot read at all it replaces by
 * "[local]" itself.
 */
static int check_clock_text(struct walk *w, struct f2t_tracedat_buffer *b)
{
	uint64_t n, at;
	char *text = NULL, *p;
	int ret = 0;

	w->what = "the trace clock";
	if (get64(w, &n) || n > w->size - w->off || n > 65536) {
		keep(&b->clock, strdup("local"));	/* what libtracecmd takes then */
		return 0;
	}
	at = w->off;
	ret = get_text(w, n, &text);
	for (p = text; !ret && p && (p = strchr(p, '[')); p++) {
		if (p != text && p[-1] != ' ')
			continue;	/* libtracecmd looks at words that start with '[' */
		if (!p[strspn(p, "[]")] || p[strspn(p, "[]")] == ' ')
			ret = fail(w, at + (uint64_t)(p - text), "a clock in brackets with no name");
		break;
	}
	if (!ret)
		keep(&b->clock, clock_of(text));
	free(text);
	return ret;
}

/* "flyrecord\0" and an (offset, size) per CPU, each range inside the file: buffer NAME's. */
static int check_flyrecord(struct walk *w, uint32_t cpus, const char *name)
{
	struct f2t_tracedat_buffer *b;
	char tag[10];
	int ret;

	w->what = "the CPU data table";
	ret = get(w, tag, sizeof(tag));
	if (ret)
		return ret;
	/* libtracecmd 1.3 crashes reading records from one (it has none). */
	if (!memcmp(tag, "latency  ", 10))
		return latency_text(w, w->off - 10);
	if (memcmp(tag, "flyrecord", 10))
		return fail(w, w->off - 10, "no \"flyrecord\" tag");
	b = add_buffer(w, name, w->page, cpus);
	if (!b)
		return -ENOMEM;
	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t at = w->off, off, len;

		ret = get64(w, &off) ?: get64(w, &len);
		if (ret)
			return ret;
		if (off > w->size || len > w->size - off) {
			w->what = "CPU data";
			return fail(w, at, "past the end of the file");
		}
		ret = check_pages(w, off, len, w->page);
		if (ret)
			return ret;
		b->cpus[b->ncpus++] = (struct f2t_tracedat_cpu){ .cpu = c, .off = off, .len = len };
		w->what = "the CPU data table";
	}
	if (w->clock && !(b->clock = strdup(w->clock)))
		return -ENOMEM;
	return w->trace_clock ? check_clock_text(w, b) : 0;
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
 * A GUEST option: a name, a trace ID, a count of virtual CPUs, then a CPU
 * number and a host task for each.  libtracecmd 1.3 stores each task at
 * its CPU's place in a table of the count, checking the number against the
 * count only: a negative one writes before the table, where the file says.
 * Its name runs on as far as a NUL, wherever that is.
 */
static int check_guest(struct walk *w, uint32_t len)
{
	uint64_t at = w->off;
	size_t name, left;
	uint32_t n, cpu;
	const char *p;
	char *text;
	int ret;

	if (len > (16u << 20))
		return fail(w, at, "a guest option longer than 16 MB");
	ret = get_text(w, len, &text);
	if (ret)
		return ret;
	name = strnlen(text, len);
	if (name == len) {
		free(text);
		return fail(w, at, "a guest option's name without its terminating NUL");
	}
	p = text + name + 1;
	left = len - name - 1;
	if (left >= 12) {	/* libtracecmd passes by a shorter one */
		memcpy(&n, p + 8, 4);
		for (n = le32toh(n), p += 12, left -= 12; !ret && n && left >= 8;
		     n--, p += 8, left -= 8) {
			memcpy(&cpu, p, 4);
			if ((int32_t)le32toh(cpu) < 0)
				ret = fail(w, at + (uint64_t)(p - text),
					   "a guest option's CPU number is negative");
		}
	}
	free(text);
	return ret;
}

/*
 * The option ID of LEN bytes at w->off, as libtracecmd reads it: text it
 * strdup()s or parses as a C string must end inside the option, and the
 * CPU stats and count must hold what it reads of them.  w->off is left
 * anywhere: the caller moves past the option.
 */
static int check_option(struct walk *w, uint16_t id, uint32_t len)
{
	uint64_t at = w->off;
	char *text;
	int ret;

	switch (id) {
	case OPTION_OFFSET:
	case OPTION_TIME_SHIFT:
	case OPTION_TSC2NSEC:
		w->lay->ts_adjusted = true;
		return 0;
	case OPTION_GUEST:
		return check_guest(w, len);
	case OPTION_PROCMAPS:
		/* libtracecmd looks for the NUL at its last byte */
		return len ? 0 : fail(w, at, "an empty process maps option");
	case OPTION_BUFFER_TEXT:
		return latency_text(w, at);
	case OPTION_CPUSTAT:
		if (!len)
			return fail(w, at, "empty CPU stats");
		break;
	case OPTION_CPUCOUNT:
		if (len < 4)
			return fail(w, at, "a CPU count of fewer than 4 bytes");
		/* libtracecmd reads as many CPUs' entries in the data tables */
		ret = get32(w, &w->cpucount);
		if (!ret && w->cpucount > 65536)
			ret = fail(w, at, "not a number of CPUs");
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
		/* fall through: text */
	case OPTION_UNAME:
	case OPTION_VERSION:
		break;
	default:
		return 0;
	}
	if (len > 65536)
		return fail(w, at, "a text option longer than 64 KB");
	ret = get_text(w, len, &text);
	if (!ret && id == OPTION_CPUSTAT)
		return add_cpustats(w, text, len);
	if (!ret && !memchr(text, '\0', len))
		ret = fail(w, at, "a text option without its terminating NUL");
	if (!ret && id == OPTION_UNAME) {
		keep(&w->lay->meta.uname, text);
		return 0;
	}
	if (!ret && id == OPTION_TRACECLOCK)
		keep(&w->clock, clock_of(text));
	free(text);
	return ret;
}

/*
 * The options; each instance's CPU data table is checked where its BUFFER
 * option points once all options are known (a TRACECLOCK option anywhere
 * changes what follows every table).
 */
static int check_options(struct walk *w, uint32_t cpus)
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
		ret = get(w, &id, 2);
		if (ret || !(id = le16toh(id)))
			break;
		ret = get32(w, &len);
		if (ret)
			break;
		at = w->off;
		ret = check_option(w, id, len);
		w->off = at;
		if (!ret && id == OPTION_BUFFER && len >= 8) {
			if (f2t_vec_reserve(&inst, &cap, n + 1, 4)) {
				f2t_err("%s: out of memory", w->path);
				ret = -ENOMEM;
				break;
			}
			inst[n].at = at;
			ret = get64(w, &inst[n].off) ?: get_name(w, inst[n].name);
			n++;
			w->off = at;
		}
		ret = ret ?: skip(w, len);
		if (ret)
			break;
	}
	end = w->off;
	if (w->has_cpucount)
		cpus = w->cpucount;
	for (size_t i = 0; !ret && i < n; i++) {
		w->what = "an option";
		if (inst[i].off > w->size) {
			ret = fail(w, inst[i].at, "points past the end of the file");
		} else {
			w->off = inst[i].off;
			ret = check_flyrecord(w, cpus, inst[i].name);
		}
	}
	w->off = end;
	free(inst);
	return ret;
}

/*
 * "header_page\0", its size and the kernel's description of a ring-buffer
 * page, which libtracecmd hands to libtraceevent without looking at what
 * it says: when libtraceevent cannot parse it, libtracecmd 1.3 takes a
 * commit word of 0 bytes and crashes in its own cleanup.  So it is parsed
 * here first: its timestamp and commit fields must be found.
 */
static int check_header_text(struct walk *w, uint64_t at, char *text, uint64_t n)
{
	struct tep_handle *tep = tep_alloc();
	int ret = 0;

	if (!tep) {
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	/* It returns 0 even when it gave up: what it found is what tells. */
	if (tep_parse_header_page(tep, text, (unsigned long)n, w->long8 ? 8 : 4) < 0 ||
	    tep_get_header_timestamp_size(tep) != 8 ||
	    (tep_get_header_page_size(tep) != 4 && tep_get_header_page_size(tep) != 8))
		ret = fail(w, at, "not a ring-buffer page's description libtraceevent reads");
	tep_free(tep);
	return ret;
}

static int check_header_page(struct walk *w)
{
	char tag[12], *text;
	uint64_t n, at;
	int ret;

	w->what = "the header page format";
	ret = get(w, tag, sizeof(tag));
	if (ret)
		return ret;
	if (memcmp(tag, "header_page", sizeof(tag)))
		return fail(w, w->off - sizeof(tag), "no \"header_page\" tag");
	ret = get64(w, &n);
	if (ret)
		return ret;
	at = w->off;
	if (n > F2T_FORMAT_MAX)
		return fail(w, at, "longer than 64 KB");
	ret = get_text(w, n, &text) ?: check_header_text(w, at, text, n);
	if (ret) {
		free(text);
		return ret;
	}
	keep(&w->lay->meta.header_page, text);
	w->lay->meta.header_page_len = (size_t)n;
	return 0;
}

/* A format file of SYSTEM, into the metadata (it takes TEXT, also on failure). */
static int add_format(struct walk *w, const char *system, char *text, size_t len)
{
	struct f2t_tracedat_meta *m = &w->lay->meta;
	struct f2t_tracedat_format *f;

	if (!f2t_vec_reserve(&m->formats, &m->formats_cap, m->nformats + 1, 64)) {
		f = m->formats + m->nformats;
		*f = (struct f2t_tracedat_format){ .system = strdup(system), .text = text, .len = len };
		if (f->system) {
			m->nformats++;
			return 0;
		}
	}
	free(text);
	f2t_err("%s: out of memory", w->path);
	return -ENOMEM;
}

/*
 * An event format file of SYSTEM, checked as a capture's are (fmtcheck.h)
 * before libtraceevent parses it: its parser and printer trust it.
 */
static int check_format(struct walk *w, const char *system)
{
	const char *why;
	uint64_t n, at;
	uint32_t id;
	size_t bad;
	char *text;
	int ret = get64(w, &n);

	if (ret)
		return ret;
	at = w->off;
	if (n > F2T_FORMAT_MAX)
		return fail(w, at, "a format file longer than 64 KB");
	ret = get_text(w, n, &text);
	if (!ret && f2t_format_check(text, (size_t)n, w->page, &id, &why, &bad))
		ret = fail(w, at + bad, why);
	else if (!ret && (w->ids[id / 8] & (1u << (id % 8))))
		ret = fail(w, at, "a second event format with the same ID");
	else if (!ret)
		w->ids[id / 8] |= (uint8_t)(1u << (id % 8));
	if (ret) {
		free(text);
		return ret;
	}
	return add_format(w, system, text, (size_t)n);
}

/* A count, then that many format files. */
static int check_ftrace_formats(struct walk *w)
{
	uint32_t n;
	int ret;

	w->what = "the ftrace event formats";
	ret = get32(w, &n);
	for (uint32_t i = 0; !ret && i < n; i++)
		ret = check_format(w, "ftrace");
	return ret;
}

/* A count of systems, then each one's name, count and format files. */
static int check_event_formats(struct walk *w)
{
	uint32_t n;
	int ret;

	w->what = "the event formats";
	ret = get32(w, &n);
	for (uint32_t i = 0; !ret && i < n; i++) {
		char system[257];
		uint32_t k;

		ret = get_name(w, system) ?: get32(w, &k);
		for (uint32_t j = 0; !ret && j < k; j++)
			ret = check_format(w, system);
	}
	return ret;
}

/*
 * The CSIZE zstd-compressed bytes at w->off, which must inflate to exactly
 * USIZE bytes: into *OUT (NUL-terminated; free it), or only checked when
 * OUT is NULL.  AT is where the sizes were, for the message.
 */
static int inflate(struct walk *w, uint64_t at, uint32_t csize, uint32_t usize, char **out)
{
	char *packed = NULL, *body = NULL;
	size_t got;
	int ret;

	ret = get_text(w, csize, &packed);
	body = ret ? NULL : malloc((size_t)usize + 1);
	if (!ret && !body) {
		f2t_err("%s: out of memory", w->path);
		ret = -ENOMEM;
	}
	if (!ret) {
		got = ZSTD_decompress(body, usize, packed, csize);
		if (ZSTD_isError(got) || got != usize)
			ret = fail(w, at + 8, "compressed data that does not inflate to its size");
		else
			body[usize] = '\0';
	}
	free(packed);
	if (ret || !out)
		free(body);
	else
		*out = body;
	return ret;
}

/* What a version 7 section holds, checked as the same part of a version 6 file. */
static int check_section_body(struct walk *w, uint16_t id)
{
	switch (id) {
	case OPTION_HEADER_INFO:
		return check_header_page(w);
	case OPTION_FTRACE_EVENTS:
		return check_ftrace_formats(w);
	case OPTION_EVENT_FORMATS:
		return check_event_formats(w);
	case OPTION_KALLSYMS:
		return note_kallsyms(w);
	case OPTION_CMDLINES:
		w->what = "the saved cmdlines";
		return keep_sized64(w, &w->lay->meta.cmdlines);
	default:
		return check_printk(w);
	}
}

/*
 * The version 7 section of kind ID, where the option at w->off says it is:
 * its header (ID, flags, a description's string id, its size), then its
 * body, inflated first when compressed (compressed and uncompressed sizes,
 * the data).  A compressed one of a compression other than zstd is left to
 * libtracecmd.
 */
static int check_section_v7(struct walk *w, uint16_t want)
{
	struct walk sub;
	uint64_t sec, len, at;
	uint32_t csize, usize;
	uint16_t id, flags;
	char *body = NULL;
	int ret;

	ret = get64(w, &sec);
	if (ret)
		return ret;
	w->what = "a section";
	if (sec > w->size)
		return fail(w, w->off - 8, "points past the end of the file");
	w->off = sec;
	ret = get(w, &id, 2) ?: get(w, &flags, 2) ?: skip(w, 4) ?: get64(w, &len);
	if (ret)
		return ret;
	if (le16toh(id) != want)
		return fail(w, sec, "not the section its option says");
	sub = *w;
	if (!(le16toh(flags) & 1)) {
		if (len < sub.size - sub.off)
			sub.size = sub.off + len;
		return check_section_body(&sub, want);
	}
	if (strcmp(w->lay->compression, "zstd"))
		return 0;
	at = w->off;
	if (want == OPTION_KALLSYMS) {
		/* Inflated only if needed (f2t_tracedat_kallsyms()). */
		w->lay->meta.kallsyms_at.present = true;
		w->lay->meta.kallsyms_at.compressed = true;
		w->lay->meta.kallsyms_at.off = at;
		return 0;
	}
	ret = get32(w, &csize) ?: get32(w, &usize);
	if (ret)
		return ret;
	if (usize > (64u << 20))
		return fail(w, at + 4, "a section of more than 64 MB");
	ret = inflate(w, at, csize, usize, &body);
	if (!ret) {
		sub.mem = body;
		sub.mem_from = at;
		sub.off = 0;
		sub.size = usize;
		ret = check_section_body(&sub, want);
	}
	free(body);
	return ret;
}

static int check_v6(struct walk *w)
{
	uint32_t cpus;
	char tag[13];
	int ret;

	ret = check_header_page(w);
	w->what = "the header formats";
	ret = ret ?: get(w, tag, 13) ?: skip_sized64(w) ?: check_ftrace_formats(w) ?:
	      check_event_formats(w);
	if (ret)
		return ret;
	ret = note_kallsyms(w) ?: check_printk(w);
	w->what = "the saved cmdlines";
	ret = ret ?: keep_sized64(w, &w->lay->meta.cmdlines);
	w->what = "the CPU count";
	ret = ret ?: get32(w, &cpus);
	if (ret)
		return ret;
	if (cpus > 65536)
		return fail(w, w->off - 4, "not a number of CPUs");
	w->lay->meta.ncpus = cpus;
	/* "options  \0", its options, then the top buffer's "flyrecord\0". */
	w->what = "the options";
	ret = get(w, tag, 10);
	if (ret)
		return ret;
	if (!memcmp(tag, "options  ", 10))
		ret = check_options(w, cpus);
	else
		w->off -= 10;
	return ret ?: check_flyrecord(w, w->has_cpucount ? w->cpucount : cpus, "");
}

/*
 * A compressed CPU data range: a chunk count, then each chunk's compressed
 * and uncompressed sizes and its data, inside the range (whose size, as
 * trace-cmd 3.1 writes it, leaves the count out) and the file.
 */
static int check_chunks(struct walk *w, uint64_t off, uint64_t len, uint32_t page)
{
	uint64_t back = w->off, end = off + 4 + len;
	uint32_t count, csize, usize;
	int ret;

	w->off = off;
	w->what = "compressed CPU data";
	if (end > w->size)
		end = w->size;
	ret = get32(w, &count);
	for (uint32_t i = 0; !ret && i < count; i++) {
		ret = get32(w, &csize) ?: get32(w, &usize);
		if (!ret && (csize > end - w->off || !usize))
			ret = fail(w, w->off - 8, "a chunk past the end of its data");
		/* trace-cmd cuts whole pages; libtracecmd 1.3 crashed on a huge size */
		else if (!ret && (usize > F2T_TRACEDAT_CHUNK_MAX || (page && usize % page)))
			ret = fail(w, w->off - 4, "not the size of a chunk of pages");
		/*
		 * libtracecmd inflates each CPU's first chunk as it opens a buffer,
		 * and 1.3 crashed in its cleanup when that failed; the rest is
		 * read later, by us or by it, and a bad chunk is an error then.
		 */
		else if (!ret && i == 0 && !strcmp(w->lay->compression, "zstd"))
			ret = inflate(w, w->off - 8, csize, usize, NULL);
		else
			w->off += ret ? 0 : csize;
	}
	w->off = back;
	return ret;
}

/* Version 7's BUFFER option: where each CPU's data lies (after OFFSET NAME CLOCK PAGESIZE). */
static int check_buffer_v7(struct walk *w, uint64_t end)
{
	struct f2t_tracedat_buffer *b;
	uint64_t flyrecord, off, len;
	uint32_t page, cpus, id;
	char name[257], clock[257];
	int ret;

	ret = get64(w, &flyrecord) ?: get_name(w, name) ?: get_name(w, clock) ?: get32(w, &page) ?:
	      get32(w, &cpus);
	if (ret)
		return ret;
	if (flyrecord > w->size)
		return fail(w, w->off - 8, "points past the end of the file");
	if (!page_size_ok(page))
		return fail(w, w->off - 8, "not a ring-buffer page size");
	if (cpus > 65536 || w->off + (uint64_t)cpus * 20 > end)
		return fail(w, w->off - 4, "not a number of CPUs");
	b = add_buffer(w, name, page, cpus);
	if (!b)
		return -ENOMEM;
	/*
	 * The top buffer's, unless a TRACECLOCK option says (set_clock()).  An
	 * instance's is whatever trace-cmd's instance was reset to before the
	 * file was written (local, on one recorded on mono): libtracecmd gives
	 * instances the top buffer's clock.
	 */
	if (!*name && *clock && !(b->clock = strdup(clock))) {
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t at = w->off;

		ret = get32(w, &id) ?: get64(w, &off) ?: get64(w, &len);
		if (ret)
			return ret;
		if (off > w->size || len > w->size - off) {
			w->what = "CPU data";
			return fail(w, at, "past the end of the file");
		}
		ret = w->compressed ? (len ? check_chunks(w, off, len, page) : 0) :
				      check_pages(w, off, len, page);
		if (ret)
			return ret;
		b->cpus[b->ncpus++] = (struct f2t_tracedat_cpu){ .cpu = id, .off = off, .len = len };
	}
	return 0;
}

/* Version 7: the chain of options sections and the buffers they describe. */
static int check_v7(struct walk *w)
{
	uint64_t next;
	int ret;

	char name[257];

	w->what = "the compression header";
	ret = get_name(w, name);
	if (ret)
		return ret;
	w->compressed = strcmp(name, "none");
	snprintf(w->lay->compression, sizeof(w->lay->compression), "%.31s", name);
	ret = skip_name(w) ?: get64(w, &next);
	for (int sections = 0; !ret && next; sections++) {
		uint16_t id, flags;
		uint32_t strid;
		uint64_t len, end;

		w->what = "an options section";
		if (sections == 64)
			return fail(w, next, "one of more than 64 (a loop?)");
		if (next > w->size)
			return fail(w, w->off - 8, "points past the end of the file");
		w->off = next;
		ret = get(w, &id, 2) ?: get(w, &flags, 2) ?: get32(w, &strid) ?: get64(w, &len);
		if (ret)
			return ret;
		if (le16toh(id) != 0)
			return fail(w, next, "not an options section");
		if (le16toh(flags) & 1) {	/* compressed: libtracecmd's to read */
			w->lay->partial = true;
			return 0;
		}
		if (len > w->size - w->off)
			return fail(w, w->off - 8, "past the end of the file");
		end = w->off + len;
		for (next = 0; !ret;) {
			uint16_t opt;
			uint32_t olen;
			uint64_t at;

			w->what = "an option";
			ret = get(w, &opt, 2) ?: get32(w, &olen);
			if (ret)
				break;
			at = w->off;
			if (olen > end - w->off)
				return fail(w, at - 4, "past the end of its section");
			if (le16toh(opt) == 0) {	/* DONE: where the next section is */
				if (olen < 8)
					return fail(w, at, "too short");
				ret = get64(w, &next);
				break;
			}
			ret = check_option(w, le16toh(opt), olen);
			w->off = at;
			if (!ret && le16toh(opt) == OPTION_BUFFER)
				ret = check_buffer_v7(w, at + olen);
			if (!ret && olen >= 8 && (le16toh(opt) == OPTION_HEADER_INFO ||
					le16toh(opt) == OPTION_FTRACE_EVENTS ||
					le16toh(opt) == OPTION_EVENT_FORMATS ||
					le16toh(opt) == OPTION_KALLSYMS ||
					le16toh(opt) == OPTION_PRINTK ||
					le16toh(opt) == OPTION_CMDLINES))
				ret = check_section_v7(w, le16toh(opt));
			w->off = at + olen;
		}
	}
	return ret;
}

/*
 * The file's clock, as libtracecmd reads it: version 6, the top buffer's
 * (the text after its table, else the TRACECLOCK option's); version 7, the
 * TRACECLOCK option's, else the top buffer's BUFFER option's.
 */
static int set_clock(struct walk *w, uint32_t version)
{
	const char *clock = version == 7 ? w->clock : NULL;

	for (size_t i = 0; !clock && i < w->lay->nbuffers; i++)
		if (!*w->lay->buffers[i].name)
			clock = w->lay->buffers[i].clock;
	if (clock && !(w->lay->meta.clock = strdup(clock))) {
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	return 0;
}

int f2t_tracedat_check(const char *path, int fd, uint64_t size, struct f2t_tracedat_layout *lay)
{
	uint8_t ids[65536 / 8] = { 0 };	/* f2t_format_check() refuses larger IDs */
	struct walk w = { .path = path, .fd = fd, .size = size, .what = "the header", .lay = lay,
			  .ids = ids };
	char head[10 + 16];
	unsigned long version;
	unsigned char endian_long[2];
	uint32_t page;
	size_t vlen;
	int ret;

	ret = get(&w, head, 10);
	if (ret)
		return ret;
	/* The version: a number as text, NUL-terminated. */
	w.what = "the version";
	for (vlen = 0; vlen < 16; vlen++) {
		ret = get(&w, &head[10 + vlen], 1);
		if (ret)
			return ret;
		if (!head[10 + vlen])
			break;
	}
	if (vlen == 16 || sscanf(head + 10, "%lu", &version) != 1)
		return fail(&w, 10, "not a number");
	if (version < 6 || version > 7) {
		f2t_err("%s: offset 10: trace.dat version %lu; this build reads versions 6 and 7",
			path, version);
		return -EINVAL;
	}
	w.what = "the byte order";
	ret = get(&w, endian_long, 2) ?: get32(&w, &page);
	if (ret)
		return ret;
	if (!page_size_ok(page))
		return fail(&w, w.off - 4, "not a ring-buffer page size (a power of two from 4 KB to 16 MB)");
	w.page = page;
	w.long8 = endian_long[1] == 8;
	lay->version = (uint32_t)version;
	lay->page = page;
	lay->long8 = w.long8;
	snprintf(lay->compression, sizeof(lay->compression), "none");
	if (endian_long[0]) {
		f2t_err("%s: offset %llu: recorded on a big-endian machine, which this build does not read",
			path, (unsigned long long)w.off - 6);
		return -EINVAL;
	}
	if (endian_long[1] != 4 && endian_long[1] != 8)
		return fail(&w, w.off - 5, "a kernel long of neither 4 nor 8 bytes");
	ret = version == 6 ? check_v6(&w) : check_v7(&w);
	ret = ret ?: set_clock(&w, (uint32_t)version);
	free(w.clock);
	if (ret)
		f2t_tracedat_layout_free(lay);
	return ret;
}
