/* SPDX-License-Identifier: MIT */
/*
 * Raw tracepoint records, as the kernel's ring buffer holds them, into
 * f2t_events, with the kernel's own text and raw fields for each.  Which
 * fields to read is decided once per event type from the recording's format
 * files (libtraceevent), never from hand-written offsets.  Shared by every
 * source of ring-buffer records: our capture's pages (capsrc.c) and
 * trace-cmd's trace.dat (tracedat_input.c).  The source walks its pages and
 * hands each record to f2t_rawdec_decode(); its text and fields ops call
 * the ones here.
 */
#ifndef F2T_RAWDEC_H
#define F2T_RAWDEC_H

#include <stdbool.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "model/recording.h"
#include "source/source.h"

enum { H_MAX_FIELDS = 8 };

/*
 * A switch's or a wakeup's fields, where every kernel we know has them:
 * the comms char[16] arrays, the numbers 32-bit, read without the general
 * case's per-field choices.  Offsets into the record; on = false when the
 * formats say otherwise, and the general case reads them.
 */
struct sched_layout {
	bool on;
	uint16_t comm[2];	/* switch: prev_comm, next_comm; wakeup: comm */
	uint16_t num[4];	/* switch: prev_pid, prev_prio, next_pid, next_prio;
				 * wakeup: pid, prio, target_cpu */
	uint16_t state;		/* switch: prev_state, STATE_SIZE bytes, signed if STATE_SIGNED */
	uint8_t state_size;
	bool state_signed;
};

struct handler {
	enum f2t_event_kind kind;
	struct tep_event *event;
	struct tep_format_field *f[H_MAX_FIELDS];
	int min_size;		/* the record must hold every field of its format */
	bool newtask;		/* task:task_newtask: remembered, not emitted */
	/*
	 * The kernel's print format is the one we know by heart, so its text
	 * can be written from the decoded fields without libtraceevent's
	 * (slow) print-format interpreter.
	 */
	bool known_text;
	/* Its text prints kernel addresses or strings through the symbol tables. */
	bool needs_symbols;
	bool record_width;	/* prints a width from the record: fields listed instead */
	struct sched_layout fast;
};

struct state_memo {
	long long value;
	bool used;
	char letters[F2T_STATE_LEN];
};

#define NEWTASK_SLOTS 4096
#define STATE_MEMO_BITS 6
#define STATE_MEMO_SLOTS (1 << STATE_MEMO_BITS)

struct f2t_ksyms;

struct f2t_rawdec {
	const char *path;		/* the input, for messages */
	const struct f2t_recording *recording;
	struct tep_handle *tep;		/* the caller's; holds the format files */

	struct handler *handlers;	/* indexed by event id */
	int nhandlers;
	struct tep_format_field *common_type, *common_pid;
	/* common_type is an unsigned short and common_pid an int at their usual places */
	bool common_usual;

	/* The record decoded last, for its text and fields. */
	struct tep_record rec;
	struct trace_seq seq;

	struct state_memo states[STATE_MEMO_SLOTS];
	struct {
		int32_t pid;
		uint64_t clone_flags;
	} newtask[NEWTASK_SLOTS];

	char *line;		/* f2t_rawdec_text()'s result */
	size_t line_cap;
	char *scratch;		/* NUL-terminated copies of unterminated strings */
	size_t scratch_len, scratch_cap;

	/* records, unknown_events, bad_records: the decoder's share of the counts */
	struct f2t_stats stats;

	/* Kernel symbols for function events (rawdec_ksyms.c), read on first need. */
	struct f2t_ksyms *ksyms;
	bool ksyms_tried;
	/*
	 * Has the tep been given the kallsyms and printk formats?  Decoders
	 * sharing a tep share this (f2t_rawdec_share_tep()): libtraceevent
	 * given them twice frees past its function table.
	 */
	bool *tep_symbols;
	bool own_tep_symbols;
	/* Softirq names by vec, as the kernel's print format has them; "" until seen. */
	char softirq_names[16][16];
	/*
	 * libtraceevent dereferences what its allocations return: out of
	 * memory inside tep_print_event() is a crash.  Each call into it is
	 * preceded by a probe (f2t_rawdec_guard()); when the probe fails the
	 * reserve is freed for that call to finish in, and the next decode
	 * fails with -ENOMEM.  It starts at what printing a record takes and
	 * grows when a call may take more (the symbol tables): a megabyte for
	 * every input, short ones too, was most of a short one's time.
	 */
	void *reserve;
	size_t reserve_size;
	bool oom;
};

/**
 * f2t_rawdec_init() - get ready to decode the records of one ring buffer
 * @d: the decoder, zeroed
 * @tep: the recording's event formats, already parsed; the caller's
 * @subbuf_size: the largest record and marker text to expect (a sub-buffer)
 * @rec: the recording: its kallsyms and printk formats name kernel
 *	addresses (its task table is the tracker's: not read here)
 * @path: the input, for messages
 *
 * Return: 0, -EINVAL after reporting formats it cannot use, or -ENOMEM.
 */
int f2t_rawdec_init(struct f2t_rawdec *d, struct tep_handle *tep, uint32_t subbuf_size,
		    const struct f2t_recording *rec, const char *path);

/*
 * f2t_rawdec_share_tep() - D decodes with the same tep as another decoder:
 * LOADED, the same for both, says whether it has the recording's symbols.
 */
void f2t_rawdec_share_tep(struct f2t_rawdec *d, bool *loaded);

/**
 * f2t_rawdec_guard() - is there memory for a call into libtraceevent?
 * @d: the decoder
 * @takes: what the call about to be made may allocate, at most
 *	   (F2T_RAWDEC_HEADROOM or F2T_RAWDEC_SYMBOLS)
 *
 * Grows the decoder's reserve to @takes bytes, then probes for
 * F2T_RAWDEC_HEADROOM more.  When either is not there, frees the reserve,
 * so that the call finishes, and marks the decoder out of memory: its next
 * f2t_rawdec_decode() fails.
 */
void f2t_rawdec_guard(struct f2t_rawdec *d, size_t takes);

/* What printing one record may allocate, at most: its text, with room to spare. */
#define F2T_RAWDEC_HEADROOM	(64u << 10)
/* What reading the recording's symbol tables into libtraceevent may take: more. */
#define F2T_RAWDEC_SYMBOLS	(1u << 20)

/** f2t_rawdec_fini() - free what the decoder holds (not the tep) */
void f2t_rawdec_fini(struct f2t_rawdec *d);

/**
 * f2t_rawdec_decode() - one record into an event
 * @d: the decoder
 * @data: the record's payload (common fields first); must stay valid until
 *	  the next call, for the event's text and fields
 * @size: its length
 * @ts: its time
 * @cpu: its CPU
 * @ev: with ts, cpu, src and pid_comm set by the caller; the rest is set
 *	here (not cleared by the caller: once per event, that cost a tenth
 *	of the capture source)
 *
 * Return: 1 for an event, 0 for a record that yields none (counted, or
 * remembered: task_newtask), -ENOMEM once memory ran out (reported, naming
 * the input).
 */
int f2t_rawdec_decode(struct f2t_rawdec *d, void *data, int size, unsigned long long ts,
		      uint32_t cpu, struct f2t_event *ev);

/* Adds the decoder's counts (records, unknown events, bad records) to @st. */
void f2t_rawdec_counts(const struct f2t_rawdec *d, struct f2t_stats *st);

/* The text and fields ops (model/event.h) for the event decoded last. */
const char *f2t_rawdec_text(struct f2t_rawdec *d, const struct f2t_event *ev,
			    const struct f2t_task *task, size_t *len);
int f2t_rawdec_fields(struct f2t_rawdec *d, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx);

/*
 * The kernel symbol holding ADDR, from the recording's kallsyms (or, when it
 * has none as text, those the tep was given), with its module ("[MOD]",
 * NULL for the kernel proper) in *MODULE; without a symbol, ADDR as "0x..."
 * text in the record's scratch space.  Never NULL.
 */
const char *f2t_rawdec_ksym(struct f2t_rawdec *d, uint64_t addr, const char **module);
/* Hands libtraceevent the recording's kallsyms and printk formats, once. */
void f2t_rawdec_tep_symbols(struct f2t_rawdec *d);
/* Frees what f2t_rawdec_ksym() read. */
void f2t_rawdec_ksyms_free(struct f2t_rawdec *d);

#endif
