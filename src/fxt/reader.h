/* SPDX-License-Identifier: MIT */
/*
 * A reader for FXT files, ours or anyone's: walks the records of a buffer
 * in order, keeps each provider's string and thread tables, and decodes
 * every record type of the spec (unknown ones come back undecoded, with
 * their words, since the format lets readers skip them).  Every length and
 * reference is checked against the buffer; a malformed file stops the walk
 * with the offset of the bad record and a reason.
 *
 * Only files in the host's byte order are read (all supported hosts are
 * little-endian); the magic record tells the two apart.
 */
#ifndef F2T_FXT_READER_H
#define F2T_FXT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fxt/fxt_enc.h"

/* What a record is, finer than its record type: the unit of `dump --stats`. */
enum fxt_kind {
	FXT_K_MAGIC,
	FXT_K_PROVIDER_INFO,
	FXT_K_PROVIDER_SECTION,
	FXT_K_PROVIDER_EVENT,
	FXT_K_TRACE_INFO,		/* trace info other than the magic record */
	FXT_K_METADATA,			/* metadata of an unknown type */
	FXT_K_INIT,
	FXT_K_STRING,
	FXT_K_THREAD,
	FXT_K_INSTANT,
	FXT_K_COUNTER,
	FXT_K_DURATION_BEGIN,
	FXT_K_DURATION_END,
	FXT_K_DURATION_COMPLETE,
	FXT_K_ASYNC_BEGIN,
	FXT_K_ASYNC_INSTANT,
	FXT_K_ASYNC_END,
	FXT_K_FLOW_BEGIN,
	FXT_K_FLOW_STEP,
	FXT_K_FLOW_END,
	FXT_K_EVENT,			/* event record of an unknown event type */
	FXT_K_BLOB,
	FXT_K_USERSPACE_OBJECT,
	FXT_K_KERNEL_OBJECT,
	FXT_K_LEGACY_CONTEXT_SWITCH,
	FXT_K_CONTEXT_SWITCH,
	FXT_K_THREAD_WAKEUP,
	FXT_K_SCHEDULING,		/* scheduling record of an unknown type */
	FXT_K_LOG,
	FXT_K_PROFILER_MODULE,
	FXT_K_PROFILER_MMAP,
	FXT_K_PROFILER_BACKTRACE,
	FXT_K_PROFILER,			/* profiler record of an unknown subtype */
	FXT_K_LARGE_BLOB,
	FXT_K_LARGE,			/* large record of an unknown type or format */
	FXT_K_UNKNOWN,			/* record types 11..14 */
	FXT_K_COUNT
};

/* A resolved string: bytes in the file (not NUL-terminated). */
struct fxt_sv {
	const char *s;
	size_t len;
	uint16_t ref;		/* as written: 0, an index, or 0x8000 | length */
};

/* A resolved thread ref. */
struct fxt_thr {
	uint8_t ref;		/* 0 when the koids were inline */
	uint64_t pid, tid;
};

struct fxt_arg {
	uint8_t type;		/* enum fxt_arg_type, or an unknown one */
	uint16_t nwords;
	uint64_t offset;	/* of the argument header in the file */
	struct fxt_sv name;
	union {
		int32_t i32;
		uint32_t u32;
		int64_t i64;
		uint64_t u64;
		double d;
		struct fxt_sv str;
		uint64_t ptr;
		uint64_t koid;
		bool b;
		struct {
			const unsigned char *data;
			uint32_t len;
		} blob;
	};
};

struct fxt_record {
	uint64_t offset;		/* byte offset of the header in the file */
	const unsigned char *data;	/* the record's bytes, nwords * 8 of them */
	uint64_t nwords;
	uint64_t header;
	uint8_t type;			/* record type, 0..15 */
	uint8_t subtype;		/* metadata / event / scheduling / profiler /
					 * large type; 0 where there is none */
	enum fxt_kind kind;
	uint32_t provider;		/* provider whose tables were used */
	uint64_t used_words;		/* words decoded; more are extensions */
	union {
		struct {
			uint32_t provider_id;
			struct fxt_sv name;	/* provider info */
			uint8_t event_id;	/* provider event */
			uint8_t info_type;	/* trace info */
		} meta;
		uint64_t ticks_per_second;
		struct {
			uint16_t index;		/* 0: record to be ignored */
			struct fxt_sv value;
		} string;
		struct {
			uint8_t index;		/* 0: record to be ignored */
			uint64_t pid, tid;
		} thread;
		struct {
			uint64_t ts;
			struct fxt_thr thread;
			struct fxt_sv category, name;
			bool has_extra;
			uint64_t extra;		/* counter id, end ts, correlation id */
		} event;
		struct {			/* blob and large blob */
			uint8_t blob_type;	/* blob record */
			uint8_t format;		/* large blob: 0 with metadata, 1 without */
			struct fxt_sv category, name;
			struct fxt_thr thread;	/* large blob format 0 */
			uint64_t ts;		/* large blob format 0 */
			const unsigned char *payload;
			uint64_t len;
		} blob;
		struct {
			uint64_t ptr;
			struct fxt_thr process;	/* only pid is meaningful */
			struct fxt_sv name;
		} uobj;
		struct {
			uint8_t obj_type;
			uint64_t koid;
			struct fxt_sv name;
		} kobj;
		struct {
			uint64_t ts;
			uint16_t cpu;
			uint8_t out_state;
			uint64_t out_koid, in_koid;	/* context switch */
			uint64_t koid;			/* thread wakeup */
			struct fxt_thr out, in;		/* legacy context switch */
			uint8_t out_prio, in_prio;	/* legacy context switch */
		} sched;
		struct {
			uint64_t ts;
			struct fxt_thr thread;
			struct fxt_sv msg;
		} log;
		struct {
			uint64_t ts;
			struct fxt_thr thread;
			uint16_t module_id;
			struct fxt_sv name;			/* module */
			const unsigned char *build_id;		/* module */
			size_t build_id_len;
			uint8_t flags;				/* mmap */
			uint64_t start, range, vaddr;		/* mmap */
			const unsigned char *frames;		/* backtrace, 8 bytes each */
			size_t nframes;
		} prof;
	};
	uint8_t nargs;
	struct fxt_arg args[FXT_MAX_ARGS];
};

struct fxt_reader;

/* Loads a little-endian 64-bit word from anywhere. */
static inline uint64_t fxt_load(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/**
 * fxt_reader_new() - a reader over @len bytes at @data
 * @data: the whole file; must stay valid while the reader and the records
 *        it returns are used (strings point into it)
 * @len: its size
 *
 * Return: the reader, or NULL with errno set.
 */
struct fxt_reader *fxt_reader_new(const void *data, size_t len);

/** fxt_reader_free() - frees @r; NULL is fine */
void fxt_reader_free(struct fxt_reader *r);

/**
 * fxt_reader_next() - decodes the next record
 * @r: reader
 * @rec: filled in on success; valid until the next call
 *
 * The first record must be the magic record.  Tables are updated as string,
 * thread and provider records pass.
 *
 * Return: 1 for a record, 0 at the end of the data, -EINVAL for malformed
 * data (fxt_reader_error() says where and why; every later call returns
 * -EINVAL too), -ENOMEM.
 */
int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec);

/**
 * fxt_reader_error() - why fxt_reader_next() failed
 * @r: reader
 * @offset: set to the byte offset of the record at fault
 *
 * Return: the reason, or NULL if there was no error.
 */
const char *fxt_reader_error(const struct fxt_reader *r, uint64_t *offset);

/** fxt_kind_name() - "context_switch", "string", ...: the names dump uses */
const char *fxt_kind_name(enum fxt_kind kind);

/** fxt_thread_state_name() - "running", "blocked", ... for a thread state */
const char *fxt_thread_state_name(unsigned int state);

#endif
