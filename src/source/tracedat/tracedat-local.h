/* SPDX-License-Identifier: MIT */
/*
 * The walk of a trace.dat's layout (f2t_tracedat_layout_read()), inside
 * tracedat/: its cursor and the reads it is made of (tracedat_layout.c),
 * the sections whose contents it keeps (tracedat_sections.c), the options
 * (tracedat_options.c), and the layouts refused because libtracecmd or
 * libtraceevent mishandle them (tracedat_refusals.c).  Each read says what
 * went wrong and where (w->what, at its offset) and returns -EINVAL, or
 * -ENOMEM; the caller stops at the first.
 */
#ifndef F2T_TRACEDAT_LOCAL_H
#define F2T_TRACEDAT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/tracedat/tracedat.h"

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
	bool trace_clock;	/* version 6: a TRACECLOCK option: clock text after each table */
	char *clock;		/* the TRACECLOCK option's clock (set_clock()) */
	uint32_t cpucount;	/* version 6: a CPUCOUNT option's: it sizes the CPU data tables */
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

/* ---- the reads (tracedat_layout.c) ---- */

/* Says what is wrong at OFF (of what w->what names): -EINVAL. */
int walk_fail(const struct walk *w, uint64_t off, const char *why);
int walk_get(struct walk *w, void *buf, size_t n);
int walk_get32(struct walk *w, uint32_t *v);
int walk_get64(struct walk *w, uint64_t *v);
/* Skips N bytes of data, which must lie inside the file. */
int walk_skip(struct walk *w, uint64_t n);
/* A NUL-terminated name of at most 256 bytes, into NAME[257] unless NULL. */
int walk_get_name(struct walk *w, char *name);
/* The next N bytes, NUL-terminated, into *TEXT (free it). */
int walk_get_text(struct walk *w, uint64_t n, char **text);
/* TEXT into *SLOT, for the metadata: the last of two wins, as in libtracecmd. */
void walk_keep(char **slot, char *text);
/* An 8-byte size and that many bytes of text, kept in *SLOT. */
int walk_keep_sized64(struct walk *w, char **slot);
/* "flyrecord\0" and an (offset, size) per CPU, each range inside the file: buffer NAME's. */
int walk_flyrecord(struct walk *w, uint32_t cpus, const char *name);

/* ---- the sections kept (tracedat_sections.c) ---- */

int walk_header_page(struct walk *w);
int walk_ftrace_formats(struct walk *w);
int walk_event_formats(struct walk *w);
int walk_kallsyms(struct walk *w);
int walk_printk(struct walk *w);
/* The version 7 section of kind WANT, where the option at w->off says it is. */
int walk_section_v7(struct walk *w, uint16_t want);
/* CSIZE zstd bytes at w->off that inflate to USIZE: into *OUT (free it), or checked only. */
int walk_inflate(struct walk *w, uint64_t at, uint32_t csize, uint32_t usize, char **out);

/* ---- the options (tracedat_options.c) ---- */

/* The option ID of LEN bytes at w->off; w->off is left anywhere. */
int walk_option(struct walk *w, uint16_t id, uint32_t len);
/* Version 6: the options, then each instance's CPU data table. */
int walk_options(struct walk *w, uint32_t cpus);
/* Version 6 with a TRACECLOCK option: the trace_clock text after B's table. */
int walk_clock_text(struct walk *w, struct f2t_tracedat_buffer *b);

/* ---- what libtracecmd mishandles, refused (tracedat_refusals.c) ---- */

bool walk_page_size_ok(uint32_t page);
int refuse_latency_text(const struct walk *w, uint64_t off);
int refuse_cpu_range(struct walk *w, uint64_t at, uint64_t off, uint64_t len);
int refuse_bad_pages(struct walk *w, uint64_t off, uint64_t len, uint32_t page);
int refuse_bad_chunks(struct walk *w, uint64_t off, uint64_t len, uint32_t page);
int refuse_bad_header_page(struct walk *w, uint64_t at, char *text, uint64_t n);
int refuse_empty_clock(struct walk *w, uint64_t at, const char *text);
/* Option ID of LEN bytes at AT, before its contents are read. */
int refuse_option(struct walk *w, uint16_t id, uint32_t len, uint64_t at);
/* A text option's LEN bytes, read into TEXT, at AT. */
int refuse_unterminated(struct walk *w, uint64_t at, const char *text, uint32_t len);

#endif
