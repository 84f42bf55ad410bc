// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include "util/out.h"

/*
 * The fuzz build's are small: every input flushes (the writing path gets
 * fuzzed too), and ASan does not map and poison a megabyte per output.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define OUT_BUF_SIZE (1u << 12)
#else
#define OUT_BUF_SIZE (1u << 20)
#endif
/* Fast compression: a trace is written once, at the end of a recording. */
#define GZIP_LEVEL 1
#define GZIP_WINDOW (15 + 16)	/* 32 KB window, gzip header and trailer */

struct f2t_gzip {
	z_stream z;
	unsigned char out[1u << 16];
};

static struct f2t_out *out_new(int fd, const char *name)
{
	struct f2t_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->buf = malloc(OUT_BUF_SIZE);
	o->path = strdup(name);
	if (!o->buf || !o->path) {
		free(o->buf);
		free(o->path);
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	o->cap = OUT_BUF_SIZE;
	o->fd = fd;
	return o;
}

struct f2t_out *f2t_out_open(const char *path)
{
	struct f2t_outfile *file;
	struct f2t_out *o;
	int err;

	if (strcmp(path, "-") == 0)
		return f2t_out_fdopen(STDOUT_FILENO, "standard output");
	file = malloc(sizeof(*file));
	if (!file)
		return NULL;
	err = f2t_outfile_open(file, path, 0);
	if (err) {
		free(file);
		errno = -err;
		return NULL;
	}
	o = out_new(file->fd, path);
	if (!o) {
		f2t_outfile_abort(file);
		free(file);
		errno = ENOMEM;
		return NULL;
	}
	o->file = file;
	return o;
}

struct f2t_out *f2t_out_open_gzip(const char *path)
{
	struct f2t_out *o = f2t_out_open(path);

	if (!o)
		return NULL;
	o->gz = calloc(1, sizeof(*o->gz));
	if (!o->gz || deflateInit2(&o->gz->z, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW, 8,
				   Z_DEFAULT_STRATEGY) != Z_OK) {
		free(o->gz);
		o->gz = NULL;
		f2t_out_abort(o);
		errno = ENOMEM;
		return NULL;
	}
	return o;
}

struct f2t_out *f2t_out_fdopen(int fd, const char *name)
{
	struct f2t_out *o = out_new(fd, name);

	if (o)
		o->fd = -fd - 1;	/* negative: not ours to close */
	return o;
}

static int out_fd(const struct f2t_out *o)
{
	return o->fd < 0 ? -o->fd - 1 : o->fd;
}

static void out_fd_write(struct f2t_out *o, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n && !o->err) {
		ssize_t w = write(out_fd(o), c, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = -errno;
			return;
		}
		c += w;
		n -= (size_t)w;
	}
}

/* N bytes through the compressor; FINISH ends the gzip stream. */
static void out_deflate(struct f2t_out *o, const void *p, size_t n, bool finish)
{
	z_stream *z = &o->gz->z;

	z->next_in = (unsigned char *)p;
	z->avail_in = (uInt)n;
	do {
		z->next_out = o->gz->out;
		z->avail_out = sizeof(o->gz->out);
		if (deflate(z, finish ? Z_FINISH : Z_NO_FLUSH) == Z_STREAM_ERROR) {
			o->err = o->err ? o->err : -EIO;
			return;
		}
		out_fd_write(o, o->gz->out, sizeof(o->gz->out) - z->avail_out);
	} while (!o->err && (z->avail_out == 0 || z->avail_in));
}

static void out_raw(struct f2t_out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->gz)
		out_deflate(o, p, n, false);
	else
		out_fd_write(o, p, n);
	if (!o->err)
		o->total += (uint64_t)n;
}

int f2t_out_flush(struct f2t_out *o)
{
	out_raw(o, o->buf, o->len);
	o->len = 0;
	return o->err;
}

void f2t_out_writev(struct f2t_out *o, const struct iovec *iov, int n)
{
	int i = 0;

	if (f2t_out_flush(o))
		return;
	if (o->gz) {
		for (; i < n; i++)
			out_raw(o, iov[i].iov_base, iov[i].iov_len);
		return;
	}
	while (i < n && !o->err) {
		ssize_t w = writev(out_fd(o), iov + i, n - i > IOV_MAX ? IOV_MAX : n - i);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = -errno;
			return;
		}
		o->total += (uint64_t)w;
		for (; i < n && (size_t)w >= iov[i].iov_len; i++)
			w -= (ssize_t)iov[i].iov_len;
		if (w) {	/* a piece written in part: its rest alone */
			out_raw(o, (const char *)iov[i].iov_base + w, iov[i].iov_len - (size_t)w);
			i++;
		}
	}
}

void f2t_out_write_slow(struct f2t_out *o, const void *p, size_t n)
{
	f2t_out_flush(o);
	if (n >= o->cap) {
		out_raw(o, p, n);
		return;
	}
	memcpy(o->buf, p, n);
	o->len = n;
}

void f2t_out_printf(struct f2t_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->cap - o->len < 512)
		f2t_out_flush(o);
	va_start(ap, fmt);
	n = vsnprintf((char *)o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < o->cap - o->len) {
		o->len += (size_t)n;
		return;
	}
	/* Longer than what is left: format into a heap buffer. */
	char *tmp = malloc((size_t)n + 1);

	if (!tmp) {
		o->err = o->err ? o->err : -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	va_end(ap);
	f2t_out_write(o, tmp, (size_t)n);
	free(tmp);
}

static void out_free(struct f2t_out *o)
{
	if (o->gz)
		deflateEnd(&o->gz->z);
	free(o->gz);
	free(o->file);
	free(o->buf);
	free(o->path);
	free(o);
}

int f2t_out_close(struct f2t_out *o)
{
	int err;

	if (!o)
		return 0;
	err = f2t_out_flush(o);
	if (o->gz && !err) {
		out_deflate(o, NULL, 0, true);
		err = o->err;
	}
	if (o->file && err)
		f2t_outfile_abort(o->file);
	else if (o->file)
		err = f2t_outfile_commit(o->file);
	out_free(o);
	return err;
}

void f2t_out_abort(struct f2t_out *o)
{
	if (!o)
		return;
	if (o->file)
		f2t_outfile_abort(o->file);
	out_free(o);
}
