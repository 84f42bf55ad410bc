/* SPDX-License-Identifier: MIT */
/*
 * Encoders for the Fuchsia trace format (FXT), one per record kind.  Each
 * appends one whole record to a caller's word buffer and does no I/O, so the
 * writer decides where bytes go and tests can check words directly.
 *
 * Conventions for every encoder:
 *  - DST must have room for the record.  No record is ever longer than
 *    FXT_MAX_RECORD_WORDS words, so a buffer that big always suffices; the
 *    size is checked before anything is stored.
 *  - Returns the number of words written (> 0), or -E2BIG when the record
 *    would exceed what its size field can say (or more than 15 arguments),
 *    or -EINVAL for a value the format cannot hold (e.g. string index 0).
 *  - Words are stored in host byte order, as the format says (the magic
 *    record tells readers which order that was).
 *  - Arguments are encoded first, with the fxt_arg_*() encoders, into a
 *    small array; the record encoder copies them after its fixed part,
 *    unless they were encoded there, in DST, already.
 */
#ifndef F2T_FXT_ENC_H
#define F2T_FXT_ENC_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FXT_MAGIC		0x0016547846040010ull
#define FXT_MAX_RECORD_WORDS	4095u	/* 12-bit size field */
#define FXT_MAX_ARGS		15u
#define FXT_MAX_STRING_LEN	32000u	/* the spec's conservative limit */
#define FXT_MAX_STRING_INDEX	0x7fffu
#define FXT_MAX_THREAD_INDEX	0xffu
#define FXT_STR_INLINE		0x8000u

enum fxt_record_type {
	FXT_REC_METADATA = 0,
	FXT_REC_INIT = 1,
	FXT_REC_STRING = 2,
	FXT_REC_THREAD = 3,
	FXT_REC_EVENT = 4,
	FXT_REC_BLOB = 5,
	FXT_REC_USERSPACE_OBJECT = 6,
	FXT_REC_KERNEL_OBJECT = 7,
	FXT_REC_SCHEDULING = 8,
	FXT_REC_LOG = 9,
	FXT_REC_PROFILER = 10,
	FXT_REC_LARGE = 15,
};

enum fxt_metadata_type {
	FXT_META_PROVIDER_INFO = 1,
	FXT_META_PROVIDER_SECTION = 2,
	FXT_META_PROVIDER_EVENT = 3,
	FXT_META_TRACE_INFO = 4,
};

/* Provider event metadata: the only event id the spec defines. */
#define FXT_PROVIDER_EVENT_BUFFER_FILLED 0u

enum fxt_event_type {
	FXT_EV_INSTANT = 0,
	FXT_EV_COUNTER = 1,
	FXT_EV_DURATION_BEGIN = 2,
	FXT_EV_DURATION_END = 3,
	FXT_EV_DURATION_COMPLETE = 4,
	FXT_EV_ASYNC_BEGIN = 5,
	FXT_EV_ASYNC_INSTANT = 6,
	FXT_EV_ASYNC_END = 7,
	FXT_EV_FLOW_BEGIN = 8,
	FXT_EV_FLOW_STEP = 9,
	FXT_EV_FLOW_END = 10,
};

enum fxt_sched_type {
	FXT_SCHED_LEGACY_SWITCH = 0,
	FXT_SCHED_CONTEXT_SWITCH = 1,
	FXT_SCHED_THREAD_WAKEUP = 2,
};

enum fxt_profiler_type {
	FXT_PROF_MODULE = 0,
	FXT_PROF_MMAP = 1,
	FXT_PROF_BACKTRACE = 2,
};

/* ZX_OBJ_TYPE_* values used for kernel object records. */
enum fxt_koid_type {
	FXT_OBJ_PROCESS = 1,
	FXT_OBJ_THREAD = 2,
};

enum fxt_thread_state {
	FXT_THREAD_NEW = 0,
	FXT_THREAD_RUNNING = 1,
	FXT_THREAD_SUSPENDED = 2,
	FXT_THREAD_BLOCKED = 3,
	FXT_THREAD_DYING = 4,
	FXT_THREAD_DEAD = 5,
};

enum fxt_arg_type {
	FXT_ARG_NULL = 0,
	FXT_ARG_INT32 = 1,
	FXT_ARG_UINT32 = 2,
	FXT_ARG_INT64 = 3,
	FXT_ARG_UINT64 = 4,
	FXT_ARG_DOUBLE = 5,
	FXT_ARG_STRING = 6,
	FXT_ARG_POINTER = 7,
	FXT_ARG_KOID = 8,
	FXT_ARG_BOOL = 9,
	FXT_ARG_BLOB = 10,
};

/*
 * A string ref: 0 for the empty string, an index registered with a string
 * record, or FXT_STR_INLINE | length with the bytes in DATA.
 */
struct fxt_str {
	uint16_t ref;
	const char *data;
};

/* A thread ref: an index registered with a thread record, or 0 and koids. */
struct fxt_thread {
	uint8_t ref;
	uint64_t pid, tid;
};

/* Arguments already encoded with fxt_arg_*(). */
struct fxt_args {
	const uint64_t *words;
	uint16_t nwords;
	uint8_t count;
};

/* What every event record (record type 4) has before its type's data. */
struct fxt_event_head {
	uint64_t ts;
	struct fxt_thread thread;
	struct fxt_str category, name;
	const struct fxt_args *args;	/* may be NULL */
};

static inline struct fxt_str fxt_str_index(uint16_t index)
{
	return (struct fxt_str){ .ref = index & FXT_MAX_STRING_INDEX };
}

/* Inline string; longer than FXT_MAX_STRING_LEN is cut there. */
static inline struct fxt_str fxt_str_inline(const char *s, size_t len)
{
	if (len == 0)
		return (struct fxt_str){ 0 };
	if (len > FXT_MAX_STRING_LEN)
		len = FXT_MAX_STRING_LEN;
	return (struct fxt_str){ .ref = (uint16_t)(FXT_STR_INLINE | len), .data = s };
}

static inline size_t fxt_stream_words(size_t len)
{
	return (len + 7) / 8;
}

/* Words an inline string takes in a record (0 for indexed or empty). */
static inline size_t fxt_str_words(struct fxt_str s)
{
	return (s.ref & FXT_STR_INLINE) ? fxt_stream_words(s.ref & 0x7fffu) : 0;
}

static inline struct fxt_thread fxt_thread_index(uint8_t index)
{
	return (struct fxt_thread){ .ref = index };
}

static inline struct fxt_thread fxt_thread_inline(uint64_t pid, uint64_t tid)
{
	return (struct fxt_thread){ .ref = 0, .pid = pid, .tid = tid };
}

/**
 * fxt_put_stream() - copy LEN bytes to DST, zero-padded to whole words
 * @dst: where the stream goes
 * @p: the bytes
 * @len: how many
 *
 * Return: words written, fxt_stream_words(@len).
 */
size_t fxt_put_stream(uint64_t *dst, const void *p, size_t len);

/*
 * The pieces every encoder is made of, here so that the few encoders of
 * the hot path (scheduling records, small arguments) are inline: a
 * record's header word, its inline strings, its arguments.
 */
static inline uint64_t fxt_rec_hdr(unsigned int type, size_t words)
{
	return (uint64_t)type | (uint64_t)words << 4;
}

static inline size_t fxt_put_str(uint64_t *dst, struct fxt_str s)
{
	if (!(s.ref & FXT_STR_INLINE))
		return 0;
	return fxt_put_stream(dst, s.data, s.ref & 0x7fffu);
}

static inline size_t fxt_args_words(const struct fxt_args *a)
{
	return a ? a->nwords : 0;
}

static inline uint64_t fxt_args_count(const struct fxt_args *a)
{
	return a ? a->count : 0;
}

/* Arguments encoded where they go already (a record built in place) stay. */
static inline size_t fxt_put_args(uint64_t *dst, const struct fxt_args *a)
{
	if (!a || !a->nwords)
		return 0;
	if (a->words != dst)
		memcpy(dst, a->words, a->nwords * sizeof(uint64_t));
	return a->nwords;
}

/* Argument header: type, size, name ref, and 32 bits of type-specific data. */
static inline uint64_t fxt_arg_hdr(unsigned int type, size_t words, struct fxt_str name,
				   uint64_t data)
{
	return (uint64_t)type | (uint64_t)words << 4 | (uint64_t)name.ref << 16 |
	       data << 32;
}

/* Arguments whose value fits in the header. */
static inline int fxt_arg_small(uint64_t *dst, unsigned int type, struct fxt_str name,
				uint32_t v)
{
	size_t size = 1 + fxt_str_words(name);

	if (size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_arg_hdr(type, size, name, v);
	fxt_put_str(dst + 1, name);
	return (int)size;
}

/* Arguments with one value word after the name. */
static inline int fxt_arg_word(uint64_t *dst, unsigned int type, struct fxt_str name,
			       uint64_t v)
{
	size_t size = 2 + fxt_str_words(name);

	if (size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_arg_hdr(type, size, name, 0);
	dst[size - 1] = v;
	fxt_put_str(dst + 1, name);
	return (int)size;
}

/* Metadata and table records. */

/**
 * fxt_magic() - the magic number record, 0x0016547846040010
 * @dst: room for 1 word
 *
 * Return: 1.
 */
int fxt_magic(uint64_t *dst);

/**
 * fxt_provider_info() - provider info metadata: who wrote what follows
 * @dst: output words
 * @id: provider id (32 bits)
 * @name: provider name, up to 255 bytes (longer is cut)
 * @len: its length
 *
 * Return: words written.
 */
int fxt_provider_info(uint64_t *dst, uint32_t id, const char *name, size_t len);

/**
 * fxt_provider_section() - provider section metadata: switch to provider @id
 * @dst: room for 1 word
 * @id: provider id
 *
 * Return: 1.
 */
int fxt_provider_section(uint64_t *dst, uint32_t id);

/**
 * fxt_provider_event() - provider event metadata, e.g. buffer filled
 * @dst: room for 1 word
 * @id: provider id
 * @event: event id (4 bits), FXT_PROVIDER_EVENT_BUFFER_FILLED
 *
 * Return: 1, or -EINVAL for an event id over 15.
 */
int fxt_provider_event(uint64_t *dst, uint32_t id, unsigned int event);

/**
 * fxt_init() - initialization record
 * @dst: room for 2 words
 * @ticks_per_second: timestamp unit
 *
 * Return: 2.
 */
int fxt_init(uint64_t *dst, uint64_t ticks_per_second);

/**
 * fxt_string() - string record: registers @s at @index
 * @dst: output words
 * @index: 1..0x7fff
 * @s: the string (need not be NUL-terminated)
 * @len: its length, up to FXT_MAX_STRING_LEN
 *
 * Return: words written, -EINVAL for index 0 or over 0x7fff, -E2BIG if too long.
 */
int fxt_string(uint64_t *dst, uint16_t index, const char *s, size_t len);

/**
 * fxt_thread_record() - thread record: registers (@pid, @tid) at @index
 * @dst: room for 3 words
 * @index: 1..255
 * @pid: process koid
 * @tid: thread koid
 *
 * Return: 3, or -EINVAL for index 0.
 */
int fxt_thread_record(uint64_t *dst, uint8_t index, uint64_t pid, uint64_t tid);

/* Object records. */

/**
 * fxt_kernel_object() - kernel object record (names processes and threads)
 * @dst: output words
 * @obj_type: ZX_OBJ_TYPE_*, FXT_OBJ_PROCESS or FXT_OBJ_THREAD
 * @koid: the object's koid
 * @name: its name
 * @args: arguments (a thread's "process" koid), or NULL
 *
 * Return: words written or negative errno.
 */
int fxt_kernel_object(uint64_t *dst, uint8_t obj_type, uint64_t koid,
		      struct fxt_str name, const struct fxt_args *args);

/**
 * fxt_userspace_object() - userspace object record
 * @dst: output words
 * @process: the process, as a thread ref (inline: only @process.pid is written)
 * @ptr: the object's address
 * @name: its name
 * @args: arguments, or NULL
 *
 * Return: words written or negative errno.
 */
int fxt_userspace_object(uint64_t *dst, struct fxt_thread process, uint64_t ptr,
			 struct fxt_str name, const struct fxt_args *args);

/* Scheduling records: the hot path, a few stores each. */

/**
 * fxt_context_switch() - context switch record (scheduling type 1)
 * @dst: output words
 * @cpu: cpu number (16 bits)
 * @out_state: the outgoing thread's new state, enum fxt_thread_state
 * @ts: ticks
 * @out_koid: outgoing thread koid
 * @in_koid: incoming thread koid
 * @args: e.g. outgoing_weight / incoming_weight, or NULL
 *
 * Return: words written (4 + argument words) or negative errno.
 */
static inline int fxt_context_switch(uint64_t *dst, uint16_t cpu, uint8_t out_state,
				     uint64_t ts, uint64_t out_koid, uint64_t in_koid,
				     const struct fxt_args *args)
{
	size_t size = 4 + fxt_args_words(args);

	if (size > FXT_MAX_RECORD_WORDS || fxt_args_count(args) > FXT_MAX_ARGS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_SCHEDULING, size) | fxt_args_count(args) << 16 |
		 (uint64_t)cpu << 20 | (uint64_t)(out_state & 0xf) << 36 |
		 (uint64_t)FXT_SCHED_CONTEXT_SWITCH << 60;
	dst[1] = ts;
	dst[2] = out_koid;
	dst[3] = in_koid;
	fxt_put_args(dst + 4, args);
	return (int)size;
}

/**
 * fxt_thread_wakeup() - thread wakeup record (scheduling type 2)
 * @dst: output words
 * @cpu: cpu the thread wakes on (16 bits)
 * @ts: ticks
 * @koid: the woken thread's koid
 * @args: e.g. weight / waker, or NULL
 *
 * Return: words written (3 + argument words) or negative errno.
 */
static inline int fxt_thread_wakeup(uint64_t *dst, uint16_t cpu, uint64_t ts, uint64_t koid,
				    const struct fxt_args *args)
{
	size_t size = 3 + fxt_args_words(args);

	if (size > FXT_MAX_RECORD_WORDS || fxt_args_count(args) > FXT_MAX_ARGS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_SCHEDULING, size) | fxt_args_count(args) << 16 |
		 (uint64_t)cpu << 20 | (uint64_t)FXT_SCHED_THREAD_WAKEUP << 60;
	dst[1] = ts;
	dst[2] = koid;
	fxt_put_args(dst + 3, args);
	return (int)size;
}

/**
 * fxt_legacy_context_switch() - legacy context switch record (scheduling type 0)
 * @dst: output words
 * @cpu: cpu number (8 bits)
 * @out_state: outgoing thread state (4 bits)
 * @out: outgoing thread
 * @in: incoming thread
 * @out_prio: outgoing priority (8 bits)
 * @in_prio: incoming priority (8 bits)
 * @ts: ticks
 *
 * Return: words written.
 */
int fxt_legacy_context_switch(uint64_t *dst, uint8_t cpu, uint8_t out_state,
			      struct fxt_thread out, struct fxt_thread in,
			      uint8_t out_prio, uint8_t in_prio, uint64_t ts);

/* Event records (record type 4).  Return words written or negative errno. */

/** fxt_instant() - instant event: a moment on a thread */
int fxt_instant(uint64_t *dst, const struct fxt_event_head *e);
/** fxt_counter() - counter event: each argument is a sample of counter @id */
int fxt_counter(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_duration_begin() - duration begin event */
int fxt_duration_begin(uint64_t *dst, const struct fxt_event_head *e);
/** fxt_duration_end() - duration end event */
int fxt_duration_end(uint64_t *dst, const struct fxt_event_head *e);
/** fxt_duration_complete() - duration from e->ts to @end_ts */
int fxt_duration_complete(uint64_t *dst, const struct fxt_event_head *e, uint64_t end_ts);
/** fxt_async_begin() - async begin event with correlation @id */
int fxt_async_begin(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_async_instant() - async instant event with correlation @id */
int fxt_async_instant(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_async_end() - async end event with correlation @id */
int fxt_async_end(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_flow_begin() - flow begin event with flow @id */
int fxt_flow_begin(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_flow_step() - flow step event with flow @id */
int fxt_flow_step(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);
/** fxt_flow_end() - flow end event with flow @id */
int fxt_flow_end(uint64_t *dst, const struct fxt_event_head *e, uint64_t id);

/* Other records. */

/**
 * fxt_blob() - blob record
 * @dst: output words
 * @name: blob name
 * @blob_type: 1 data, 2 last branch, 3 Perfetto protobuf
 * @data: payload
 * @len: payload bytes (up to 0x7fff and the record size limit)
 *
 * Return: words written or negative errno.
 */
int fxt_blob(uint64_t *dst, struct fxt_str name, uint8_t blob_type,
	     const void *data, size_t len);

/**
 * fxt_log() - log record
 * @dst: output words
 * @ts: ticks
 * @thread: the thread that logged
 * @msg: message bytes
 * @len: message length (up to 0x7fff and the record size limit)
 *
 * Return: words written or negative errno.
 */
int fxt_log(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
	    const char *msg, size_t len);

/**
 * fxt_profiler_module() - profiler module record (subtype 0)
 * @dst: output words
 * @ts: ticks
 * @thread: thread (inline: pid and tid words follow)
 * @module_id: 16-bit id later mmap records refer to
 * @name: module name bytes (up to 255)
 * @name_len: its length
 * @build_id: build id bytes (up to 255)
 * @build_id_len: its length
 *
 * Return: words written or negative errno.
 */
int fxt_profiler_module(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
			uint16_t module_id, const char *name, size_t name_len,
			const void *build_id, size_t build_id_len);

/**
 * fxt_profiler_mmap() - profiler mmap record (subtype 1)
 * @dst: output words
 * @ts: ticks
 * @thread: thread
 * @module_id: the module mapped
 * @flags: 3 bits
 * @start: start address
 * @range: length of the mapping
 * @vaddr: module-relative address of @start
 *
 * Return: words written or negative errno.
 */
int fxt_profiler_mmap(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
		      uint16_t module_id, uint8_t flags, uint64_t start,
		      uint64_t range, uint64_t vaddr);

/**
 * fxt_profiler_backtrace() - profiler backtrace record (subtype 2)
 * @dst: output words
 * @ts: ticks
 * @thread: thread
 * @frames: return addresses, innermost first
 * @nframes: how many (up to 255 and the record size limit)
 *
 * Return: words written or negative errno.
 */
int fxt_profiler_backtrace(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
			   const uint64_t *frames, size_t nframes);

/*
 * Arguments.  Each returns words written (1 unless the name or value string
 * is inline) or -E2BIG.  Increment fxt_args.count once per call.
 */

/** fxt_arg_null() - argument with a name and no value */
static inline int fxt_arg_null(uint64_t *dst, struct fxt_str name)
{
	return fxt_arg_small(dst, FXT_ARG_NULL, name, 0);
}

/** fxt_arg_int32() - 32-bit signed argument */
static inline int fxt_arg_int32(uint64_t *dst, struct fxt_str name, int32_t v)
{
	return fxt_arg_small(dst, FXT_ARG_INT32, name, (uint32_t)v);
}

/** fxt_arg_uint32() - 32-bit unsigned argument */
static inline int fxt_arg_uint32(uint64_t *dst, struct fxt_str name, uint32_t v)
{
	return fxt_arg_small(dst, FXT_ARG_UINT32, name, v);
}

/** fxt_arg_int64() - 64-bit signed argument */
static inline int fxt_arg_int64(uint64_t *dst, struct fxt_str name, int64_t v)
{
	return fxt_arg_word(dst, FXT_ARG_INT64, name, (uint64_t)v);
}

/** fxt_arg_uint64() - 64-bit unsigned argument */
static inline int fxt_arg_uint64(uint64_t *dst, struct fxt_str name, uint64_t v)
{
	return fxt_arg_word(dst, FXT_ARG_UINT64, name, v);
}

/** fxt_arg_double() - double argument */
int fxt_arg_double(uint64_t *dst, struct fxt_str name, double v);
/** fxt_arg_string() - string argument */
int fxt_arg_string(uint64_t *dst, struct fxt_str name, struct fxt_str v);

/** fxt_arg_pointer() - pointer argument */
static inline int fxt_arg_pointer(uint64_t *dst, struct fxt_str name, uint64_t v)
{
	return fxt_arg_word(dst, FXT_ARG_POINTER, name, v);
}

/** fxt_arg_koid() - kernel object id argument */
static inline int fxt_arg_koid(uint64_t *dst, struct fxt_str name, uint64_t v)
{
	return fxt_arg_word(dst, FXT_ARG_KOID, name, v);
}

/** fxt_arg_bool() - boolean argument */
static inline int fxt_arg_bool(uint64_t *dst, struct fxt_str name, bool v)
{
	return fxt_arg_small(dst, FXT_ARG_BOOL, name, v ? 1 : 0);
}

/** fxt_arg_blob() - blob argument (@len bytes of @data) */
int fxt_arg_blob(uint64_t *dst, struct fxt_str name, const void *data, size_t len);

#endif
