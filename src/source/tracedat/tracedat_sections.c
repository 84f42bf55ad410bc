// SPDX-License-Identifier: MIT
/*
 * The parts of a trace.dat the walk keeps for our own reading of the file:
 * the header page description, the event formats, the printk formats and
 * the saved cmdlines, and where the kallsyms lie (read only when a record
 * needs a kernel symbol).  In a version 6 file they come in a fixed order;
 * in a version 7 file each is a section an option points to, inflated
 * first when compressed with zstd.  The formats pass the checks a
 * capture's do (fmtcheck.h; the printk formats line by line), since
 * libtraceevent parses and prints with them as they come.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "source/ringbuf/fmtcheck.h"
#include "source/tracedat/tracedat-local.h"
#include "util/log.h"
#include "util/vec.h"

/* The kallsyms at w->off (a size, the text): noted, to be read only if needed. */
int walk_kallsyms(struct walk *w)
{
	uint32_t n;

	w->what = "kallsyms";
	w->lay->meta.kallsyms_at.present = true;
	w->lay->meta.kallsyms_at.off = w->off;
	return walk_get32(w, &n) ?: walk_skip(w, n);
}

/* The printk formats: a size, then "ADDR : \"FORMAT\"" lines. */
int walk_printk(struct walk *w)
{
	w->what = "the printk formats";
	uint64_t at = w->off + 4;
	uint32_t n;
	size_t bad;
	char *text = NULL;
	int ret = walk_get32(w, &n) ?: walk_get_text(w, n, &text);

	if (!ret && f2t_printk_formats_check(text, &bad))
		ret = walk_fail(w, at + bad,
			   "a line that is not 'ADDRESS : \"FORMAT\"', which libtraceevent would read past");
	if (ret)
		free(text);
	else
		walk_keep(&w->lay->meta.printk, text);
	return ret;
}

int walk_header_page(struct walk *w)
{
	char tag[12], *text;
	uint64_t n, at;
	int ret;

	w->what = "the header page format";
	ret = walk_get(w, tag, sizeof(tag));
	if (ret)
		return ret;
	if (memcmp(tag, "header_page", sizeof(tag)))
		return walk_fail(w, w->off - sizeof(tag), "no \"header_page\" tag");
	ret = walk_get64(w, &n);
	if (ret)
		return ret;
	at = w->off;
	if (n > F2T_FORMAT_MAX)
		return walk_fail(w, at, "longer than 64 KB");
	ret = walk_get_text(w, n, &text) ?: refuse_bad_header_page(w, at, text, n);
	if (ret) {
		free(text);
		return ret;
	}
	walk_keep(&w->lay->meta.header_page, text);
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
static int walk_format(struct walk *w, const char *system)
{
	const char *why;
	uint64_t n, at;
	uint32_t id;
	size_t bad;
	char *text;
	int ret = walk_get64(w, &n);

	if (ret)
		return ret;
	at = w->off;
	if (n > F2T_FORMAT_MAX)
		return walk_fail(w, at, "a format file longer than 64 KB");
	ret = walk_get_text(w, n, &text);
	if (!ret && f2t_format_check(text, (size_t)n, w->page, &id, &why, &bad))
		ret = walk_fail(w, at + bad, why);
	else if (!ret && (w->ids[id / 8] & (1u << (id % 8))))
		ret = walk_fail(w, at, "a second event format with the same ID");
	else if (!ret)
		w->ids[id / 8] |= (uint8_t)(1u << (id % 8));
	if (ret) {
		free(text);
		return ret;
	}
	return add_format(w, system, text, (size_t)n);
}

/* A count, then that many format files. */
int walk_ftrace_formats(struct walk *w)
{
	uint32_t n;
	int ret;

	w->what = "the ftrace event formats";
	ret = walk_get32(w, &n);
	for (uint32_t i = 0; !ret && i < n; i++)
		ret = walk_format(w, "ftrace");
	return ret;
}

/* A count of systems, then each one's name, count and format files. */
int walk_event_formats(struct walk *w)
{
	uint32_t n;
	int ret;

	w->what = "the event formats";
	ret = walk_get32(w, &n);
	for (uint32_t i = 0; !ret && i < n; i++) {
		char system[257];
		uint32_t k;

		ret = walk_get_name(w, system) ?: walk_get32(w, &k);
		for (uint32_t j = 0; !ret && j < k; j++)
			ret = walk_format(w, system);
	}
	return ret;
}

/*
 * The CSIZE zstd-compressed bytes at w->off, which must inflate to exactly
 * USIZE bytes: into *OUT (NUL-terminated; free it), or only checked when
 * OUT is NULL.  AT is where the sizes were, for the message.
 */
int walk_inflate(struct walk *w, uint64_t at, uint32_t csize, uint32_t usize, char **out)
{
	char *packed = NULL, *body = NULL;
	size_t got;
	int ret;

	ret = walk_get_text(w, csize, &packed);
	body = ret ? NULL : malloc((size_t)usize + 1);
	if (!ret && !body) {
		f2t_err("%s: out of memory", w->path);
		ret = -ENOMEM;
	}
	if (!ret) {
		got = ZSTD_decompress(body, usize, packed, csize);
		if (ZSTD_isError(got) || got != usize)
			ret = walk_fail(w, at + 8, "compressed data that does not inflate to its size");
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
static int walk_section_body(struct walk *w, uint16_t id)
{
	switch (id) {
	case OPTION_HEADER_INFO:
		return walk_header_page(w);
	case OPTION_FTRACE_EVENTS:
		return walk_ftrace_formats(w);
	case OPTION_EVENT_FORMATS:
		return walk_event_formats(w);
	case OPTION_KALLSYMS:
		return walk_kallsyms(w);
	case OPTION_CMDLINES:
		w->what = "the saved cmdlines";
		return walk_keep_sized64(w, &w->lay->meta.cmdlines);
	default:
		return walk_printk(w);
	}
}

/*
 * The version 7 section of kind ID, where the option at w->off says it is:
 * its header (ID, flags, a description's string id, its size), then its
 * body, inflated first when compressed (compressed and uncompressed sizes,
 * the data).  A compressed one of a compression other than zstd is left to
 * libtracecmd.
 */
int walk_section_v7(struct walk *w, uint16_t want)
{
	struct walk sub;
	uint64_t sec, len, at;
	uint32_t csize, usize;
	uint16_t id, flags;
	char *body = NULL;
	int ret;

	ret = walk_get64(w, &sec);
	if (ret)
		return ret;
	w->what = "a section";
	if (sec > w->size)
		return walk_fail(w, w->off - 8, "points past the end of the file");
	w->off = sec;
	ret = walk_get(w, &id, 2) ?: walk_get(w, &flags, 2) ?: walk_skip(w, 4) ?:
	      walk_get64(w, &len);
	if (ret)
		return ret;
	if (le16toh(id) != want)
		return walk_fail(w, sec, "not the section its option says");
	sub = *w;
	if (!(le16toh(flags) & 1)) {
		if (len < sub.size - sub.off)
			sub.size = sub.off + len;
		return walk_section_body(&sub, want);
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
	ret = walk_get32(w, &csize) ?: walk_get32(w, &usize);
	if (ret)
		return ret;
	if (usize > (64u << 20))
		return walk_fail(w, at + 4, "a section of more than 64 MB");
	ret = walk_inflate(w, at, csize, usize, &body);
	if (!ret) {
		sub.mem = body;
		sub.mem_from = at;
		sub.off = 0;
		sub.size = usize;
		ret = walk_section_body(&sub, want);
	}
	free(body);
	return ret;
}
