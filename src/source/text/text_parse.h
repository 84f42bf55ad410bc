/* SPDX-License-Identifier: MIT */
/*
 * The grammar of ftrace text, one line at a time: the kernel's trace file
 * (with or without the TGID column, with latency flags of any width or
 * none), `trace-cmd report` output, and the systrace/atrace dumps Android
 * writes.  Pure functions over bytes: no allocation, nothing kept between
 * calls, so they can be tested and fuzzed alone.  text_input.c turns what
 * they find into events.
 */
#ifndef F2T_TEXT_PARSE_H
#define F2T_TEXT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A piece of the line: not NUL-terminated. */
struct f2t_span {
	const char *s;
	size_t len;
};

enum f2t_tline_kind {
	F2T_TLINE_SKIP,		/* blank, a comment, trace-cmd's own notes */
	F2T_TLINE_EVENT,	/* an event */
	F2T_TLINE_LOST,		/* "CPU:N [LOST M EVENTS]" */
};

struct f2t_tline {
	enum f2t_tline_kind kind;
	struct f2t_span comm;
	int32_t pid;
	int32_t tgid;		/* -1: no TGID column, or "-------" in it */
	uint32_t cpu;
	struct f2t_span flags;	/* the latency columns ("d..2."); empty when absent */
	uint64_t ts;		/* ns */
	struct f2t_span name;	/* the event's name ("sched_switch"); "function" for
				 * the function tracer's "FUNC <-PARENT" lines */
	struct f2t_span body;	/* what follows "name: ", padding skipped */
	uint64_t lost;		/* F2T_TLINE_LOST: how many, 0 if not said */
};

/**
 * f2t_tline_parse() - what one line of ftrace text says
 * @line: the line, without its '\n'
 * @len: its length
 * @out: filled in
 *
 * `trace-cmd report` lines may start with a buffer's name ("inst: ") and
 * pad the event name; both are taken.
 *
 * Return: 0, or -EINVAL for a line that is none of the kinds above.
 */
int f2t_tline_parse(const char *line, size_t len, struct f2t_tline *out);

/**
 * f2t_find_byte() - the first byte C in [P, END), or END
 * @p: where to start
 * @end: where to stop
 * @c: the byte
 *
 * memchr() for the searches across a line (its end, the CPU column),
 * inlined: libc's costs more per call than such a search takes (7% of a
 * text conversion, measured).
 */
static inline const char *f2t_find_byte(const char *p, const char *end, char c)
{
#ifdef __SSE2__
	const __m128i cc = _mm_set1_epi8(c);

	for (; end - p >= 16; p += 16) {
		int hit = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), cc));

		if (hit)
			return p + __builtin_ctz((unsigned int)hit);
	}
#endif
	while (p < end && *p != c)
		p++;
	return p;
}

/**
 * f2t_tline_head() - f2t_tline_parse() without the event's name split off
 * @line: the line, without its '\n'
 * @len: its length
 * @out: filled in as by f2t_tline_parse(), but for an event name is empty
 *	 and body is all that follows the timestamp
 *
 * What a line is and whose, for a reader that wants no more of it.
 *
 * Return: 0, or -EINVAL as f2t_tline_parse().
 */
int f2t_tline_head(const char *line, size_t len, struct f2t_tline *out);

/*
 * The columns of recent lines.  A line with the same bytes as one read
 * before, up to its CPU column, has the same task and CPU: most lines do,
 * and their columns come from here instead of being read again.  Each task
 * (pid above 0) has one entry at most, from its latest line read.
 */
#define F2T_TLINE_CACHE_SLOTS 256
#define F2T_TLINE_CACHE_KEY 64

struct f2t_tline_secs {
	uint64_t text, mask;	/* the "SECONDS." bytes of a line (len of them) */
	uint64_t value;
	uint8_t len;		/* 0: none yet */
};

#define F2T_TLINE_CACHE_PIDS 1024

struct f2t_tline_cache {
	struct f2t_tline_secs secs;	/* the last timestamp's seconds */
	/* The slot of a task's entry, by pid % F2T_TLINE_CACHE_PIDS (pids above 0). */
	uint8_t pid_slot[F2T_TLINE_CACHE_PIDS];
	struct f2t_tline_cache_entry {
		uint8_t len;		/* of key, through the CPU column's ']'; 0: empty */
		uint8_t blanks;		/* where the text starts */
		uint8_t comm, comm_len;
		int32_t pid, tgid;
		uint32_t cpu;
		char key[F2T_TLINE_CACHE_KEY];
	} slot[F2T_TLINE_CACHE_SLOTS];
};

/**
 * f2t_tline_task_cached() - whose line this is, from @c when it can
 * @c: the cache, as f2t_tline_parse_cached() keeps it
 *
 * For a reader that wants a line's task and no more: when the columns are
 * in @c the rest of the line is not read (nor whether it makes an event).
 *
 * Return: 1 when the columns came from @c (@out holds them, and nothing
 * else); else as f2t_tline_head(), the line read whole.
 */
int f2t_tline_task_cached(struct f2t_tline_cache *c, const char *line, size_t len,
			  struct f2t_tline *out);

/**
 * f2t_tline_parse_cached() - f2t_tline_parse(), with the columns from @c
 * @c: the cache (zeroed at first)
 *
 * The same result as f2t_tline_parse() for every line.
 *
 * Return: 1 when the columns came from @c: a line with these columns, of
 * this task, was read before and none of the task's with other columns
 * since; else as f2t_tline_parse().
 */
int f2t_tline_parse_cached(struct f2t_tline_cache *c, const char *line, size_t len,
			   struct f2t_tline *out);

/**
 * f2t_tline_field() - the value of KEY in a "key=value key=value" body
 * @body: an event's fields
 * @key: the key, without '='
 * @val: out: its value: up to the next " word=" or " ==> ", or the end
 *
 * A value may hold spaces (a task named "Web Content").
 *
 * Return: true if KEY is there.
 */
bool f2t_tline_field(struct f2t_span body, const char *key, struct f2t_span *val);

/*
 * A body's fields read in the order the kernel prints them: each lookup
 * tries first where the one before ended (past a " ==> " too, while every
 * key so far was found so), and searches the whole body only when the key
 * is not there.
 */
#define F2T_FIELDS_KEYS 8

struct f2t_fields {
	struct f2t_span body;
	const char *at;
	/* The keys found in order from the start; nkeys -1 once one was not. */
	int nkeys;
	struct f2t_span keys[F2T_FIELDS_KEYS];
};

/* Filled in place: the struct is too big to hand back by value each event. */
static inline void f2t_fields_init(struct f2t_fields *f, struct f2t_span body)
{
	f->body = body;
	f->at = body.s;
	f->nkeys = 0;
}

/** f2t_fields_get_len() - f2t_fields_get() for a key of KLEN bytes */
bool f2t_fields_get_len(struct f2t_fields *f, const char *key, size_t klen, struct f2t_span *val);

/** f2t_fields_get() - f2t_tline_field() for the next key, in order */
static inline bool f2t_fields_get(struct f2t_fields *f, const char *key, struct f2t_span *val)
{
	return f2t_fields_get_len(f, key, strlen(key), val);	/* a literal's length is known */
}

/** f2t_fields_int_len() - f2t_fields_int() for a key of KLEN bytes */
bool f2t_fields_int_len(struct f2t_fields *f, const char *key, size_t klen, long long *v);

/**
 * f2t_fields_int() - f2t_fields_get() and f2t_span_int() of its value
 * @f: the fields
 * @key: the key
 * @v: out: the number
 *
 * Return: true if KEY is there and its value is a number.
 */
static inline bool f2t_fields_int(struct f2t_fields *f, const char *key, long long *v)
{
	return f2t_fields_int_len(f, key, strlen(key), v);
}

/**
 * f2t_tline_next_field() - walk the "key=value" pairs of a body
 * @body: in: what is left to walk; out: what is left after this pair
 * @key: out: the key
 * @val: out: its value (as f2t_tline_field() takes it)
 *
 * Text that is no pair (a leading word, "==>") is stepped over.
 *
 * Return: true for a pair, false at the end.
 */
bool f2t_tline_next_field(struct f2t_span *body, struct f2t_span *key, struct f2t_span *val);

/**
 * f2t_span_int() - a span as a decimal or 0x hexadecimal integer
 * @s: the text
 * @v: out: the number
 *
 * Return: true if all of @s is one.
 */
bool f2t_span_int(struct f2t_span s, long long *v);

#endif
