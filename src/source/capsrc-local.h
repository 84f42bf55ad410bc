/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by capsrc.c (pages, merge) and capsrc_events.c (turning
 * one raw record into an f2t_event, and the kernel's text for it).
 */
#ifndef F2T_CAPSRC_LOCAL_H
#define F2T_CAPSRC_LOCAL_H

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "source/capsrc.h"
#include "util/kmerge.h"

enum { H_MAX_FIELDS = 8 };

struct handler {
	enum f2t_event_kind kind;
	struct tep_event *event;
	struct tep_format_field *f[H_MAX_FIELDS];
	int min_size;		/* the record must hold every field we read */
	bool newtask;		/* task:task_newtask: remembered, not emitted */
	/*
	 * The kernel's print format is the one we know by heart, so its text
	 * can be written from the decoded fields without libtraceevent's
	 * (slow) print-format interpreter.
	 */
	bool known_text;
};

struct state_memo {
	long long value;
	bool used;
	char letters[F2T_STATE_LEN];
};

#define NEWTASK_SLOTS 4096
#define STATE_MEMO_SLOTS 64

struct cursor;
struct f2t_ksyms;

struct f2t_capsrc {
	struct f2t_source base;
	const struct f2t_capr *cap;
	const struct f2t_recording *recording;
	struct tep_handle *tep;
	uint32_t subbuf_size;

	struct handler *handlers;	/* indexed by event id */
	int nhandlers;
	struct tep_format_field *common_type, *common_pid;

	struct f2t_cap_cpus split;	/* CPU_DATA records by CPU */
	struct cursor *cursors;
	uint32_t ncursors;
	struct f2t_kmerge merge;	/* cursors by their next event's time */

	/* The record handed out last, for f2t_event_text(). */
	struct tep_record rec;
	struct trace_seq seq;

	struct state_memo states[STATE_MEMO_SLOTS];
	struct {
		int32_t pid;
		uint64_t clone_flags;
	} newtask[NEWTASK_SLOTS];

	char *line;		/* f2t_event_text()'s result */
	size_t line_cap;
	char *scratch;		/* NUL-terminated copies of unterminated strings */
	size_t scratch_len, scratch_cap;

	uint64_t done_bytes, total_bytes;
	uint64_t released;	/* the capture's bytes before this are unmapped */
	struct f2t_stats stats;

	/* Kernel symbols for function events (capsrc_ksyms.c), read on first need. */
	struct f2t_ksyms *ksyms;
	bool ksyms_tried;
	bool tep_symbols;	/* libtraceevent given kallsyms and printk formats */
	/* Softirq names by vec, as the kernel's print format has them; "" until seen. */
	char softirq_names[16][16];
};

/* Reports and returns -EINVAL for formats it cannot use, or -ENOMEM. */
int f2t_capsrc_bind_events(struct f2t_capsrc *s);
/*
 * Decodes the record DATA/SIZE into EV (ts, cpu, src already set).  Returns
 * 1 for an event, 0 for a record that yields none (counted or remembered).
 */
int f2t_capsrc_decode(struct f2t_capsrc *s, void *data, int size,
		      unsigned long long ts, uint32_t cpu, struct f2t_event *ev);

/* The source's text and fields for the event it handed out last (source.h). */
const char *f2t_capsrc_text(struct f2t_source *src, const struct f2t_event *ev, size_t *len);
int f2t_capsrc_fields(struct f2t_source *src, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx);

/*
 * The kernel symbol holding ADDR, from the capture's recording's kallsyms, with
 * its module ("[MOD]", NULL for the kernel proper) in *MODULE; without a
 * symbol, ADDR as "0x..." text in the record's scratch space.  Never NULL.
 */
const char *f2t_capsrc_ksym(struct f2t_capsrc *s, uint64_t addr, const char **module);
/* Hands libtraceevent the recording's kallsyms and printk formats, once. */
void f2t_capsrc_tep_symbols(struct f2t_capsrc *s);
/* Frees what f2t_capsrc_ksym() read. */
void f2t_capsrc_ksyms_free(struct f2t_capsrc *s);

#endif
