// SPDX-License-Identifier: MIT
/*
 * The walk of a trace.dat's layout, which our reading of the file starts
 * from: the header, then version 6's fixed sequence (header page, formats,
 * kallsyms, printk formats, cmdlines, options, the top buffer's CPU data
 * table) or version 7's chain of options sections, and each buffer's CPU
 * data.  On the way it notes where each buffer's CPU data lies and whether
 * anything in the file changes its timestamps, for our own reading of the
 * CPU data (tracedat_pages.c), and keeps what the file says about the
 * recording (tracedat_sections.c, tracedat_options.c).  What libtracecmd
 * would mishandle is refused (tracedat_refusals.c), so that it can open
 * every file the walk passes.
 * Layout facts: trace-cmd's trace-cmd.dat.v6(5) and .v7(5).
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/ringbuf/fmtcheck.h"
#include "source/tracedat/tracedat-local.h"
#include "util/log.h"
#include "util/vec.h"

int walk_fail(const struct walk *w, uint64_t off, const char *why)
{
	if (w->mem)
		f2t_err("%s: offset %llu: %s: at %llu of it inflated: %s (truncated or corrupt trace.dat)",
			w->path, (unsigned long long)w->mem_from, w->what, (unsigned long long)off, why);
	else
		f2t_err("%s: offset %llu: %s: %s (truncated or corrupt trace.dat)", w->path,
			(unsigned long long)off, w->what, why);
	return -EINVAL;
}

int walk_get(struct walk *w, void *buf, size_t n)
{
	if (w->off + n > w->size || (w->mem ? !memcpy(buf, w->mem + w->off, n) :
			pread(w->fd, buf, n, (off_t)w->off) != (ssize_t)n))
		return walk_fail(w, w->off, w->mem ? "past the end of its section" :
						     "past the end of the file");
	w->off += n;
	return 0;
}

int walk_get32(struct walk *w, uint32_t *v)
{
	int ret = walk_get(w, v, 4);

	*v = le32toh(*v);
	return ret;
}

int walk_get64(struct walk *w, uint64_t *v)
{
	int ret = walk_get(w, v, 8);

	*v = le64toh(*v);
	return ret;
}

int walk_skip(struct walk *w, uint64_t n)
{
	if (n > w->size || w->off + n > w->size)
		return walk_fail(w, w->off, "past the end of the file");
	w->off += n;
	return 0;
}

static int skip_sized64(struct walk *w)
{
	uint64_t n;

	return walk_get64(w, &n) ?: walk_skip(w, n);
}

int walk_get_name(struct walk *w, char *name)
{
	char c;

	for (int i = 0; i < 256; i++) {
		int ret = walk_get(w, &c, 1);

		if (ret)
			return ret;
		if (name)
			name[i] = c;
		if (!c)
			return 0;
	}
	return walk_fail(w, w->off, "a name longer than 256 bytes");
}

static int skip_name(struct walk *w)
{
	return walk_get_name(w, NULL);
}

/* A buffer whose CPU data the walk found; NULL after saying so when memory ran out. */
static struct f2t_tracedat_buffer *walk_add_buffer(struct walk *w, const char *name, uint32_t page,
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

int walk_get_text(struct walk *w, uint64_t n, char **text)
{
	int ret;

	*text = NULL;	/* the callers free it whatever happened */
	if (n > w->size - w->off)
		return walk_fail(w, w->off, "past the end of the file");
	*text = malloc((size_t)n + 1);
	if (!*text) {
		f2t_err("%s: out of memory", w->path);
		return -ENOMEM;
	}
	ret = walk_get(w, *text, (size_t)n);
	(*text)[n] = '\0';
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

void walk_keep(char **slot, char *text)
{
	free(*slot);
	*slot = text;
}

int walk_keep_sized64(struct walk *w, char **slot)
{
	uint64_t n;
	char *text;
	int ret = walk_get64(w, &n) ?: walk_get_text(w, n, &text);

	if (!ret)
		walk_keep(slot, text);
	return ret;
}

int walk_flyrecord(struct walk *w, uint32_t cpus, const char *name)
{
	struct f2t_tracedat_buffer *b;
	char tag[10];
	int ret;

	w->what = "the CPU data table";
	ret = walk_get(w, tag, sizeof(tag));
	if (ret)
		return ret;
	/* libtracecmd 1.3 crashes reading records from one (it has none). */
	if (!memcmp(tag, "latency  ", 10))
		return refuse_latency_text(w, w->off - 10);
	if (memcmp(tag, "flyrecord", 10))
		return walk_fail(w, w->off - 10, "no \"flyrecord\" tag");
	b = walk_add_buffer(w, name, w->page, cpus);
	if (!b)
		return -ENOMEM;
	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t at = w->off, off, len;

		ret = walk_get64(w, &off) ?: walk_get64(w, &len);
		if (ret)
			return ret;
		ret = refuse_cpu_range(w, at, off, len) ?: refuse_bad_pages(w, off, len, w->page);
		if (ret)
			return ret;
		b->cpus[b->ncpus++] = (struct f2t_tracedat_cpu){ .cpu = c, .off = off, .len = len };
		w->what = "the CPU data table";
	}
	if (w->clock && !(b->clock = strdup(w->clock)))
		return -ENOMEM;
	return w->trace_clock ? walk_clock_text(w, b) : 0;
}

static int walk_v6(struct walk *w)
{
	uint32_t cpus;
	char tag[13];
	int ret;

	ret = walk_header_page(w);
	w->what = "the header formats";
	ret = ret ?: walk_get(w, tag, 13) ?: skip_sized64(w) ?: walk_ftrace_formats(w) ?:
	      walk_event_formats(w);
	if (ret)
		return ret;
	ret = walk_kallsyms(w) ?: walk_printk(w);
	w->what = "the saved cmdlines";
	ret = ret ?: walk_keep_sized64(w, &w->lay->meta.cmdlines);
	w->what = "the CPU count";
	ret = ret ?: walk_get32(w, &cpus);
	if (ret)
		return ret;
	if (cpus > 65536)
		return walk_fail(w, w->off - 4, "not a number of CPUs");
	w->lay->meta.ncpus = cpus;
	/* "options  \0", its options, then the top buffer's "flyrecord\0". */
	w->what = "the options";
	ret = walk_get(w, tag, 10);
	if (ret)
		return ret;
	if (!memcmp(tag, "options  ", 10))
		ret = walk_options(w, cpus);
	else
		w->off -= 10;
	return ret ?: walk_flyrecord(w, w->has_cpucount ? w->cpucount : cpus, "");
}

/* Version 7's BUFFER option: where each CPU's data lies (after OFFSET NAME CLOCK PAGESIZE). */
static int walk_buffer_v7(struct walk *w, uint64_t end)
{
	struct f2t_tracedat_buffer *b;
	uint64_t flyrecord, off, len;
	uint32_t page, cpus, id;
	char name[257], clock[257];
	int ret;

	ret = walk_get64(w, &flyrecord) ?: walk_get_name(w, name) ?: walk_get_name(w, clock) ?:
	      walk_get32(w, &page) ?: walk_get32(w, &cpus);
	if (ret)
		return ret;
	if (flyrecord > w->size)
		return walk_fail(w, w->off - 8, "points past the end of the file");
	if (!walk_page_size_ok(page))
		return walk_fail(w, w->off - 8, "not a ring-buffer page size");
	if (cpus > 65536 || w->off + (uint64_t)cpus * 20 > end)
		return walk_fail(w, w->off - 4, "not a number of CPUs");
	b = walk_add_buffer(w, name, page, cpus);
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

		ret = walk_get32(w, &id) ?: walk_get64(w, &off) ?: walk_get64(w, &len);
		if (ret)
			return ret;
		ret = refuse_cpu_range(w, at, off, len);
		if (ret)
			return ret;
		ret = w->compressed ? (len ? refuse_bad_chunks(w, off, len, page) : 0) :
				      refuse_bad_pages(w, off, len, page);
		if (ret)
			return ret;
		b->cpus[b->ncpus++] = (struct f2t_tracedat_cpu){ .cpu = id, .off = off, .len = len };
	}
	return 0;
}

/* Version 7: the chain of options sections and the buffers they describe. */
static int walk_v7(struct walk *w)
{
	uint64_t next;
	int ret;

	char name[257];

	w->what = "the compression header";
	ret = walk_get_name(w, name);
	if (ret)
		return ret;
	w->compressed = strcmp(name, "none");
	snprintf(w->lay->compression, sizeof(w->lay->compression), "%.31s", name);
	ret = skip_name(w) ?: walk_get64(w, &next);
	for (int sections = 0; !ret && next; sections++) {
		uint16_t id, flags;
		uint32_t strid;
		uint64_t len, end;

		w->what = "an options section";
		if (sections == 64)
			return walk_fail(w, next, "one of more than 64 (a loop?)");
		if (next > w->size)
			return walk_fail(w, w->off - 8, "points past the end of the file");
		w->off = next;
		ret = walk_get(w, &id, 2) ?: walk_get(w, &flags, 2) ?: walk_get32(w, &strid) ?:
		      walk_get64(w, &len);
		if (ret)
			return ret;
		if (le16toh(id) != 0)
			return walk_fail(w, next, "not an options section");
		if (le16toh(flags) & 1) {	/* compressed: libtracecmd's to read */
			w->lay->partial = true;
			return 0;
		}
		if (len > w->size - w->off)
			return walk_fail(w, w->off - 8, "past the end of the file");
		end = w->off + len;
		for (next = 0; !ret;) {
			uint16_t opt;
			uint32_t olen;
			uint64_t at;

			w->what = "an option";
			ret = walk_get(w, &opt, 2) ?: walk_get32(w, &olen);
			if (ret)
				break;
			at = w->off;
			if (olen > end - w->off)
				return walk_fail(w, at - 4, "past the end of its section");
			if (le16toh(opt) == 0) {	/* DONE: where the next section is */
				if (olen < 8)
					return walk_fail(w, at, "too short");
				ret = walk_get64(w, &next);
				break;
			}
			ret = walk_option(w, le16toh(opt), olen);
			w->off = at;
			if (!ret && le16toh(opt) == OPTION_BUFFER)
				ret = walk_buffer_v7(w, at + olen);
			if (!ret && olen >= 8 && (le16toh(opt) == OPTION_HEADER_INFO ||
					le16toh(opt) == OPTION_FTRACE_EVENTS ||
					le16toh(opt) == OPTION_EVENT_FORMATS ||
					le16toh(opt) == OPTION_KALLSYMS ||
					le16toh(opt) == OPTION_PRINTK ||
					le16toh(opt) == OPTION_CMDLINES))
				ret = walk_section_v7(w, le16toh(opt));
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

int f2t_tracedat_layout_read(const char *path, int fd, uint64_t size, struct f2t_tracedat_layout *lay)
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

	ret = walk_get(&w, head, 10);
	if (ret)
		return ret;
	/* The version: a number as text, NUL-terminated. */
	w.what = "the version";
	for (vlen = 0; vlen < 16; vlen++) {
		ret = walk_get(&w, &head[10 + vlen], 1);
		if (ret)
			return ret;
		if (!head[10 + vlen])
			break;
	}
	if (vlen == 16 || sscanf(head + 10, "%lu", &version) != 1)
		return walk_fail(&w, 10, "not a number");
	if (version < 6 || version > 7) {
		f2t_err("%s: offset 10: trace.dat version %lu; this build reads versions 6 and 7",
			path, version);
		return -EINVAL;
	}
	w.what = "the byte order";
	ret = walk_get(&w, endian_long, 2) ?: walk_get32(&w, &page);
	if (ret)
		return ret;
	if (!walk_page_size_ok(page))
		return walk_fail(&w, w.off - 4, "not a ring-buffer page size (a power of two from 4 KB to 16 MB)");
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
		return walk_fail(&w, w.off - 5, "a kernel long of neither 4 nor 8 bytes");
	ret = version == 6 ? walk_v6(&w) : walk_v7(&w);
	ret = ret ?: set_clock(&w, (uint32_t)version);
	free(w.clock);
	if (ret)
		f2t_tracedat_layout_free(lay);
	return ret;
}
