// SPDX-License-Identifier: MIT
/*
 * The trace.dat layouts refused before libtracecmd or libtraceevent sees
 * them, because they crash on them or read past their data; each refusal
 * says what it found and where.  In one place, so that what is refused and
 * why can be read together; the walk (tracedat_layout.c) calls them as it
 * meets each part:
 *  - CPU data that lies past the end of the file (a truncated download, a
 *    recorder killed before it finished): libtracecmd 1.3 crashes in its own
 *    cleanup;
 *  - an uncompressed page whose commit size runs past its end (rbpage.h):
 *    kbuffer reads as far as it says;
 *  - a compressed CPU data range whose chunks do not fit, or whose first
 *    chunk does not inflate: libtracecmd inflates it as it opens the file;
 *  - a page size that is not a power of two from 4 KB: libtracecmd reads
 *    pages of whatever size the file says;
 *  - a header page description libtraceevent cannot parse: libtracecmd 1.3
 *    takes a commit word of 0 bytes;
 *  - options it reads as C strings that do not end inside themselves, empty
 *    CPU stats or process maps, a short CPU count, a guest's negative CPU
 *    number, a trace clock in empty brackets;
 *  - latency-format text (libtracecmd 1.3 crashes reading records from it).
 * The event and printk formats pass the checks a capture's do (fmtcheck.h),
 * where the sections are read (tracedat_sections.c).
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "source/ringbuf/rbpage.h"
#include "source/tracedat/tracedat-local.h"
#include "util/log.h"

/*
 * A ring-buffer page (sub-buffer) size a kernel can have: a power of two
 * from 4 KB up.  libtracecmd reads pages of whatever size the file says,
 * past the data when that is absurd.
 */
bool walk_page_size_ok(uint32_t page)
{
	return page >= 4096 && page <= (16u << 20) && !(page & (page - 1));
}

/* A file that is not damaged but holds what we do not read. */
int refuse_latency_text(const struct walk *w, uint64_t off)
{
	f2t_err("%s: offset %llu: latency-format text (from trace-cmd's latency tracers), which this build does not read; trace-cmd report prints it",
		w->path, (unsigned long long)off);
	return -EINVAL;
}

/* CPU data [OFF, OFF + LEN) listed at AT: inside the file. */
int refuse_cpu_range(struct walk *w, uint64_t at, uint64_t off, uint64_t len)
{
	if (off <= w->size && len <= w->size - off)
		return 0;
	w->what = "CPU data";
	return walk_fail(w, at, "past the end of the file");
}

/*
 * Every page of an uncompressed CPU data range [OFF, OFF + LEN) (PAGE:
 * walk_page_size_ok()): libtracecmd hands each to kbuffer, which reads as far as
 * its commit word says.
 */
int refuse_bad_pages(struct walk *w, uint64_t off, uint64_t len, uint32_t page)
{
	unsigned char head[F2T_RB_PAGE_HEADER];

	w->what = "CPU data";
	/* libtracecmd reads a whole page where a range starts, however short the range. */
	for (uint64_t p = off; p < off + len; p += page) {
		if (pread(w->fd, head, sizeof(head), (off_t)p) != (ssize_t)sizeof(head))
			return walk_fail(w, p, "cannot be read");
		if (!f2t_rb_page_fits_long(head, page, w->long8))
			return walk_fail(w, p + 8, "a ring-buffer page whose commit size runs past its end");
	}
	return 0;
}

/*
 * A compressed CPU data range: a chunk count, then each chunk's compressed
 * and uncompressed sizes and its data, inside the range (whose size, as
 * trace-cmd 3.1 writes it, leaves the count out) and the file.
 */
int refuse_bad_chunks(struct walk *w, uint64_t off, uint64_t len, uint32_t page)
{
	uint64_t back = w->off, end = off + 4 + len;
	uint32_t count, csize, usize;
	int ret;

	w->off = off;
	w->what = "compressed CPU data";
	if (end > w->size)
		end = w->size;
	ret = walk_get32(w, &count);
	for (uint32_t i = 0; !ret && i < count; i++) {
		ret = walk_get32(w, &csize) ?: walk_get32(w, &usize);
		if (!ret && (csize > end - w->off || !usize))
			ret = walk_fail(w, w->off - 8, "a chunk past the end of its data");
		/* trace-cmd cuts whole pages; libtracecmd 1.3 crashed on a huge size */
		else if (!ret && (usize > F2T_TRACEDAT_CHUNK_MAX || (page && usize % page)))
			ret = walk_fail(w, w->off - 4, "not the size of a chunk of pages");
		/*
		 * libtracecmd inflates each CPU's first chunk as it opens a buffer,
		 * and 1.3 crashed in its cleanup when that failed; the rest is
		 * read later, by us or by it, and a bad chunk is an error then.
		 */
		else if (!ret && i == 0 && !strcmp(w->lay->compression, "zstd"))
			ret = walk_inflate(w, w->off - 8, csize, usize, NULL);
		else
			w->off += ret ? 0 : csize;
	}
	w->off = back;
	return ret;
}

/*
 * "header_page\0", its size and the kernel's description of a ring-buffer
 * page, which libtracecmd hands to libtraceevent without looking at what
 * it says: when libtraceevent cannot parse it, libtracecmd 1.3 takes a
 * commit word of 0 bytes and crashes in its own cleanup.  So it is parsed
 * here first: its timestamp and commit fields must be found.
 */
int refuse_bad_header_page(struct walk *w, uint64_t at, char *text, uint64_t n)
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
		ret = walk_fail(w, at, "not a ring-buffer page's description libtraceevent reads");
	tep_free(tep);
	return ret;
}

/*
 * Version 6, with a TRACECLOCK option: after each CPU data table, the
 * buffer's trace_clock file ("local [mono] ...").  libtracecmd takes the
 * first word in brackets through strtok() and sscanf(), which crash when
 * the brackets hold nothing.
 */
int refuse_empty_clock(struct walk *w, uint64_t at, const char *text)
{
	for (const char *p = text; p && (p = strchr(p, '[')); p++) {
		if (p != text && p[-1] != ' ')
			continue;	/* libtracecmd looks at words that start with '[' */
		if (!p[strspn(p, "[]")] || p[strspn(p, "[]")] == ' ')
			return walk_fail(w, at + (uint64_t)(p - text),
					 "a clock in brackets with no name");
		break;
	}
	return 0;
}

/*
 * A GUEST option: a name, a trace ID, a count of virtual CPUs, then a CPU
 * number and a host task for each.  libtracecmd 1.3 stores each task at
 * its CPU's place in a table of the count, checking the number against the
 * count only: a negative one writes before the table, where the file says.
 * Its name runs on as far as a NUL, wherever that is.
 */
static int refuse_bad_guest(struct walk *w, uint32_t len)
{
	uint64_t at = w->off;
	size_t name, left;
	uint32_t n, cpu;
	const char *p;
	char *text;
	int ret;

	if (len > (16u << 20))
		return walk_fail(w, at, "a guest option longer than 16 MB");
	ret = walk_get_text(w, len, &text);
	if (ret)
		return ret;
	name = strnlen(text, len);
	if (name == len) {
		free(text);
		return walk_fail(w, at, "a guest option's name without its terminating NUL");
	}
	p = text + name + 1;
	left = len - name - 1;
	if (left >= 12) {	/* libtracecmd passes by a shorter one */
		memcpy(&n, p + 8, 4);
		for (n = le32toh(n), p += 12, left -= 12; !ret && n && left >= 8;
		     n--, p += 8, left -= 8) {
			memcpy(&cpu, p, 4);
			if ((int32_t)le32toh(cpu) < 0)
				ret = walk_fail(w, at + (uint64_t)(p - text),
					   "a guest option's CPU number is negative");
		}
	}
	free(text);
	return ret;
}

/*
 * The option ID of LEN bytes at AT, as libtracecmd reads it: text it
 * strdup()s or parses as a C string must end inside the option
 * (refuse_unterminated()), and the CPU stats and count must hold what it
 * reads of them.
 */
int refuse_option(struct walk *w, uint16_t id, uint32_t len, uint64_t at)
{
	switch (id) {
	case OPTION_GUEST:
		return refuse_bad_guest(w, len);
	case OPTION_PROCMAPS:
		/* libtracecmd looks for the NUL at its last byte */
		return len ? 0 : walk_fail(w, at, "an empty process maps option");
	case OPTION_BUFFER_TEXT:
		return refuse_latency_text(w, at);
	case OPTION_CPUSTAT:
		if (!len)
			return walk_fail(w, at, "empty CPU stats");
		break;
	case OPTION_CPUCOUNT:
		/* libtracecmd reads as many CPUs' entries in the data tables */
		return len < 4 ? walk_fail(w, at, "a CPU count of fewer than 4 bytes") : 0;
	case OPTION_DATE:
	case OPTION_HOOK:
	case OPTION_TRACECLOCK:
	case OPTION_UNAME:
	case OPTION_VERSION:
		break;
	default:
		return 0;
	}
	return len > 65536 ? walk_fail(w, at, "a text option longer than 64 KB") : 0;
}

int refuse_unterminated(struct walk *w, uint64_t at, const char *text, uint32_t len)
{
	if (memchr(text, '\0', len))
		return 0;
	return walk_fail(w, at, "a text option without its terminating NUL");
}
