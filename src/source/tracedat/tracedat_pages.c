// SPDX-License-Identifier: MIT
/*
 * A trace.dat's CPU data read by us rather than by libtracecmd: the file is
 * mapped, and each CPU's pages are walked where they lie, or inflated chunk
 * by chunk when the file is compressed with zstd (trace-cmd's default;
 * Debian's libtracecmd knows no other, so a file compressed otherwise is
 * left to libtracecmd, which says what it can).  libtracecmd reads a record at a time, allocating each and, in
 * 1.3, searching a list of every page it has read whenever it frees one;
 * this walks the same pages as our capture reader does (rbwalk.h).
 * Layout facts: trace-cmd.dat.v7(5), "COMPRESSION FORMAT OF THE TRACE DATA".
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "source/tracedat/tracedat.h"
#include "util/inmap.h"
#include "util/log.h"

enum { COMP_NONE, COMP_ZSTD };

/* Consumed parts of the mapping are dropped in steps this big, so memory stays flat. */
#define RELEASE_STEP (1u << 20)

static int compression_of(const char *name)
{
	if (!strcmp(name, "none"))
		return COMP_NONE;
	if (!strcmp(name, "zstd"))
		return COMP_ZSTD;
	return -1;
}

const char *f2t_tracedat_pages_unreadable(const struct f2t_tracedat_layout *lay)
{
	if (!lay->long8)
		return "recorded by a 32-bit kernel";
	if (lay->ts_adjusted)
		return "its options shift or scale the timestamps";
	if (lay->partial)
		return "its options are compressed";
	if (compression_of(lay->compression) < 0)
		return "a compression other than zstd";
	return NULL;
}

int f2t_tracedat_data_open(struct f2t_tracedat_data *d, const char *path, int fd,
			   const struct f2t_tracedat_layout *lay)
{
	struct stat st;
	int ret = 0;

	*d = (struct f2t_tracedat_data){ .path = path, .lay = lay, .inmap.slot = -1 };
	d->compression = compression_of(lay->compression);
	if (fstat(fd, &st))
		ret = -errno;
	else
		ret = f2t_inmap_open(&d->inmap, fd, (size_t)st.st_size, path);
	if (ret) {
		f2t_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	d->map = d->inmap.data;
	d->size = (uint64_t)st.st_size;
	return 0;
}

void f2t_tracedat_data_close(struct f2t_tracedat_data *d)
{
	f2t_inmap_close(&d->inmap);
	d->map = NULL;
}

static int cpu_fail(const struct f2t_tracedat_cpu_reader *r, uint64_t off, const char *why)
{
	f2t_err("%s: offset %llu: cpu %u: %s (truncated or corrupt trace.dat)", r->d->path,
		(unsigned long long)off, r->where.cpu, why);
	return -EINVAL;
}

/* Room for N bytes and slack in r->buf: 0 or -ENOMEM. */
static int reserve(struct f2t_tracedat_cpu_reader *r, size_t n)
{
	unsigned char *p;

	if (n + F2T_RBWALK_SLACK <= r->buf_cap)
		return 0;
	p = realloc(r->buf, n + F2T_RBWALK_SLACK);
	if (!p)
		return -ENOMEM;
	r->buf = p;
	r->buf_cap = n + F2T_RBWALK_SLACK;
	return 0;
}

int f2t_tracedat_cpu_init(struct f2t_tracedat_cpu_reader *r, const struct f2t_tracedat_data *d,
			  const struct f2t_tracedat_cpu *where, uint32_t page)
{
	uint32_t count;
	int ret;

	*r = (struct f2t_tracedat_cpu_reader){ .d = d, .where = *where, .page = page };
	r->pos = where->off;
	r->released = where->off;
	ret = reserve(r, page);
	if (ret)
		return ret;
	if (d->compression == COMP_NONE || !where->len)
		return 0;
	/* A chunk count, then the chunks. */
	if (where->off + 4 > d->size)
		return cpu_fail(r, where->off, "compressed CPU data past the end of the file");
	memcpy(&count, d->map + where->off, 4);
	r->chunks_left = le32toh(count);
	r->pos += 4;
	r->zctx = ZSTD_createDCtx();
	return r->zctx ? 0 : -ENOMEM;
}

void f2t_tracedat_cpu_fini(struct f2t_tracedat_cpu_reader *r)
{
	if (r->zctx)
		ZSTD_freeDCtx(r->zctx);
	r->zctx = NULL;
	free(r->buf);
	r->buf = NULL;
}

/* Drops the mapping's pages this CPU is done with: its data is read once, in order. */
static void release_read(struct f2t_tracedat_cpu_reader *r)
{
	uintptr_t sys = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)r->d->map + r->released + sys - 1) & ~(sys - 1);
	uintptr_t to = ((uintptr_t)r->d->map + r->pos) & ~(sys - 1);

	if (to >= from + RELEASE_STEP) {
		madvise((void *)from, to - from, MADV_DONTNEED);
		r->released = to - (uintptr_t)r->d->map;
	}
}

/* The next chunk inflated into r->buf: 1, 0 after the last, or -EINVAL. */
static int inflate_chunk(struct f2t_tracedat_cpu_reader *r)
{
	const struct f2t_tracedat_data *d = r->d;
	uint32_t csize, usize;
	size_t got, len;
	int ret;

	if (!r->chunks_left)
		return 0;
	r->chunks_left--;
	r->page_off = r->pos;
	if (r->pos + 8 > d->size)
		return cpu_fail(r, r->pos, "a compressed chunk past the end of the file");
	memcpy(&csize, d->map + r->pos, 4);
	memcpy(&usize, d->map + r->pos + 4, 4);
	csize = le32toh(csize);
	usize = le32toh(usize);
	if (csize > d->size - r->pos - 8)
		return cpu_fail(r, r->pos, "a compressed chunk past the end of the file");
	if (!usize || usize > F2T_TRACEDAT_CHUNK_MAX)
		return cpu_fail(r, r->pos + 4, "not the size of a chunk of pages");
	/* Whole pages: a short last one is read as if zero-filled. */
	len = ((size_t)usize + r->page - 1) / r->page * r->page;
	ret = reserve(r, len);
	if (ret) {
		f2t_err("%s: out of memory", d->path);
		return ret;
	}
	got = ZSTD_decompressDCtx(r->zctx, r->buf, usize, d->map + r->pos + 8, csize);
	if (ZSTD_isError(got) || got != usize)
		return cpu_fail(r, r->pos + 8, "a chunk that does not inflate to its size");
	memset(r->buf + usize, 0, len - usize + F2T_RBWALK_SLACK);
	r->buf_len = len;
	r->buf_pos = 0;
	r->pos += 8 + (uint64_t)csize;
	release_read(r);
	return 1;
}

/* The next sub-buffer: 1 with *PAGE set, 0 at the end of the CPU's data, or an error. */
static int next_page(struct f2t_tracedat_cpu_reader *r, const unsigned char **page)
{
	const struct f2t_tracedat_data *d = r->d;
	uint64_t end = r->where.off + r->where.len;

	if (d->compression != COMP_NONE) {
		if (r->buf_pos >= r->buf_len) {
			int ret = inflate_chunk(r);

			if (ret <= 0)
				return ret;
		}
		*page = r->buf + r->buf_pos;
		r->buf_pos += r->page;
		return 1;
	}
	if (r->pos >= end)
		return 0;
	r->page_off = r->pos;
	*page = d->map + r->pos;
	/* A short last page, or one the mapping ends right after: a copy with room. */
	if (end - r->pos < r->page || r->pos + r->page + F2T_RBWALK_SLACK > d->size) {
		size_t n = end - r->pos < r->page ? (size_t)(end - r->pos) : r->page;

		memcpy(r->buf, *page, n);
		memset(r->buf + n, 0, r->page - n + F2T_RBWALK_SLACK);
		*page = r->buf;
	}
	r->pos += r->page;
	release_read(r);
	return 1;
}

int f2t_tracedat_cpu_next(struct f2t_tracedat_cpu_reader *r)
{
	if (r->started && f2t_rbwalk_next(&r->w))
		return 1;
	r->started = true;
	for (;;) {
		const unsigned char *page;
		int ret = next_page(r, &page);

		if (ret <= 0)
			return ret;
		ret = f2t_rbwalk_load(&r->w, page, r->page);
		if (ret < 0)
			return cpu_fail(r, r->page_off,
					"a ring-buffer page whose commit size runs past its end");
		if (ret)
			return 1;
	}
}
