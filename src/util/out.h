/* SPDX-License-Identifier: MIT */
/*
 * Buffered, append-only output to a file descriptor.  Writers produce many
 * small pieces; this batches them into large write()s and remembers the first
 * error so callers check once, at f2t_out_close().  A named file appears
 * under its name only at f2t_out_close(), whole (util/outfile.h).  An output
 * opened with f2t_out_open_gzip() compresses what it is given (zlib, gzip
 * format) on its way to the file; its writers do not know.
 */
#ifndef F2T_OUT_H
#define F2T_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/outfile.h"

struct f2t_out {
	int fd;
	int err;		/* first negative errno seen, sticky */
	size_t len;
	size_t cap;
	uint64_t total;		/* bytes handed to the kernel so far */
	unsigned char *buf;
	char *path;		/* for messages */
	struct f2t_outfile *file;	/* f2t_out_open()ed: where it goes at the end */
	struct f2t_gzip *gz;	/* NULL: bytes go to fd as they are */
};

/*
 * Starts writing PATH ("-": standard output) through a temporary file.
 * Returns NULL + errno (see f2t_outfile_open()).
 */
struct f2t_out *f2t_out_open(const char *path);
/* The same, writing what it is given gzip-compressed.  Returns NULL + errno. */
struct f2t_out *f2t_out_open_gzip(const char *path);
/* Wraps an existing fd, which f2t_out_close() will not close. */
struct f2t_out *f2t_out_fdopen(int fd, const char *name);
int f2t_out_flush(struct f2t_out *o);
/*
 * Flushes; a file from f2t_out_open() then takes its name (or, on error,
 * is removed).  Returns 0 or the first error.  Frees o.
 */
int f2t_out_close(struct f2t_out *o);
/* Frees o, writing nothing more; a file from f2t_out_open() is removed. */
void f2t_out_abort(struct f2t_out *o);

void f2t_out_write_slow(struct f2t_out *o, const void *p, size_t n);

struct iovec;

/*
 * Writes the @n pieces at @iov, in order, after what is buffered: handed
 * to the kernel (or the compressor) where they are, not copied into the
 * buffer, for a writer whose records are large and already built in
 * pieces of its own (a Perfetto ftrace bundle, a tenth of a megabyte).
 */
void f2t_out_writev(struct f2t_out *o, const struct iovec *iov, int n);

static inline void f2t_out_write(struct f2t_out *o, const void *p, size_t n)
{
	if (o->len + n <= o->cap) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		return;
	}
	f2t_out_write_slow(o, p, n);
}

/*
 * Room for @n more bytes at the end of the buffer (@n at most its size),
 * for a writer that encodes there in place rather than copy each small
 * record in; f2t_out_commit() then keeps the bytes it used.
 */
static inline unsigned char *f2t_out_room(struct f2t_out *o, size_t n)
{
	if (o->len + n > o->cap)
		f2t_out_flush(o);
	return o->buf + o->len;
}

static inline void f2t_out_commit(struct f2t_out *o, size_t n)
{
	o->len += n;
}

static inline void f2t_out_u64(struct f2t_out *o, uint64_t v)
{
	f2t_out_write(o, &v, sizeof(v));
}

static inline void f2t_out_puts(struct f2t_out *o, const char *s)
{
	f2t_out_write(o, s, strlen(s));
}

static inline void f2t_out_putc(struct f2t_out *o, char c)
{
	if (o->len < o->cap)
		o->buf[o->len++] = (unsigned char)c;
	else
		f2t_out_write_slow(o, &c, 1);
}

void f2t_out_printf(struct f2t_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Bytes written so far, buffered ones included (before any compression). */
static inline uint64_t f2t_out_offset(const struct f2t_out *o)
{
	return o->total + o->len;
}

#endif
