/* SPDX-License-Identifier: MIT */
/*
 * trace-cmd's trace.dat: the walk of its layout, which gathers what the
 * file says about the recording and where each buffer's CPU data lies, and
 * refuses what libtracecmd would mishandle;
 * our own reading of that data, page by page, and of the rest (a tep made
 * from the file's formats); and the uncompressed copy a big compressed file
 * is read through when libtracecmd has to read it.
 */
#ifndef F2T_TRACEDAT_H
#define F2T_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>

#include "source/ringbuf/rbwalk.h"
#include "util/inmap.h"

struct tep_handle;
struct tracecmd_input;

/* No compressed chunk is bigger (trace-cmd cuts them at 10 pages). */
#define F2T_TRACEDAT_CHUNK_MAX (64u << 20)

/* Where one CPU's data of a buffer lies in the file. */
struct f2t_tracedat_cpu {
	uint32_t cpu;
	uint64_t off, len;
};

struct f2t_tracedat_buffer {
	char *name;			/* "" for the top one */
	/*
	 * Its trace clock as the file names it (version 6: the text after its
	 * table; version 7: the top buffer's BUFFER option), else NULL.
	 */
	char *clock;
	uint32_t page;			/* its sub-buffer size */
	uint32_t ncpus;
	struct f2t_tracedat_cpu *cpus;
};

/* An event format file, as the file holds it (text NUL-terminated). */
struct f2t_tracedat_format {
	char *system;			/* "ftrace" for ftrace's own events */
	char *text;
	size_t len;
};

/* What the file says besides its events; texts NUL-terminated, NULL when absent. */
struct f2t_tracedat_meta {
	char *header_page;		/* the kernel's ring-buffer page description */
	size_t header_page_len;
	struct f2t_tracedat_format *formats;
	size_t nformats, formats_cap;
	char *printk, *cmdlines, *uname;
	/*
	 * Where the kallsyms lie, for f2t_tracedat_kallsyms(): megabytes that
	 * only function events need.  At OFF: a 4-byte size and the text, or
	 * with COMPRESSED, a section's compressed and uncompressed sizes and
	 * its zstd data, which inflates to those.
	 */
	struct {
		bool present, compressed;
		uint64_t off;
	} kallsyms_at;
	char *clock;			/* the trace clock of the file (its top buffer's) */
	char *cpustats;			/* every CPU stats option's text, one after the other */
	uint32_t ncpus;
};

struct f2t_tracedat_layout {
	uint32_t version, page;
	bool long8;			/* a 64-bit kernel's pages */
	char compression[32];		/* of the CPU data: "none", "zstd"... */
	bool ts_adjusted;		/* an option changes the timestamps (libtracecmd applies it) */
	bool partial;			/* compressed options: buffers beyond are not listed */
	bool hook;			/* a HOOK option, which libtracecmd must not see */
	size_t nbuffers, buffers_cap;
	struct f2t_tracedat_buffer *buffers;
	struct f2t_tracedat_meta meta;
};

/**
 * f2t_tracedat_layout_read() - walk a trace.dat's layout, keeping what it says
 * @path: the file, for messages
 * @fd: open on it
 * @size: its size
 * @lay: filled with what the walk learnt of the layout (free it)
 *
 * Version 6 or 7, little-endian, and nothing libtracecmd would mishandle
 * (tracedat_refusals.c): once this passed, libtracecmd can open the file.  @lay also gets the file's metadata where
 * we can read it (not in compressed options, nor in a compression other
 * than zstd: f2t_tracedat_pages_unreadable() says so).
 *
 * Return: 0, or -EINVAL after reporting the first problem and its offset
 * (@lay then empty).
 */
int f2t_tracedat_layout_read(const char *path, int fd, uint64_t size, struct f2t_tracedat_layout *lay);
void f2t_tracedat_layout_free(struct f2t_tracedat_layout *lay);

/* The file's CPU data, mapped, for the per-CPU readers below. */
struct f2t_tracedat_data {
	const char *path;
	struct f2t_inmap inmap;
	const unsigned char *map;	/* inmap's data */
	uint64_t size;
	const struct f2t_tracedat_layout *lay;
	int compression;		/* how chunks are inflated (tracedat_pages.c) */
};

/*
 * Can we read LAY's CPU data ourselves?  NULL, or why not (libtracecmd
 * then reads it).
 */
const char *f2t_tracedat_pages_unreadable(const struct f2t_tracedat_layout *lay);

/* Maps FD (named PATH) for reading LAY's data: 0, or a negative errno after saying why. */
int f2t_tracedat_data_open(struct f2t_tracedat_data *d, const char *path, int fd,
			   const struct f2t_tracedat_layout *lay);
void f2t_tracedat_data_close(struct f2t_tracedat_data *d);

/* One CPU's data, sub-buffer after sub-buffer: the mapped pages, or its chunks inflated. */
struct f2t_tracedat_cpu_reader {
	const struct f2t_tracedat_data *d;
	struct f2t_tracedat_cpu where;
	uint32_t page;
	uint64_t pos;			/* the next page's, or the next chunk's, offset in the file */
	uint32_t chunks_left;
	unsigned char *buf;		/* an inflated chunk, or a copy of the last page; slack after */
	size_t buf_cap, buf_len, buf_pos;
	uint64_t page_off;		/* the current page's file offset (of its chunk when inflated) */
	uint64_t released;		/* the mapping before this is dropped */
	bool started;
	void *zctx;			/* the inflater's state */
	struct f2t_rbwalk w;		/* the current page */
};

/* 0, -ENOMEM (not reported), or -EINVAL after reporting where the data lies past the file. */
int f2t_tracedat_cpu_init(struct f2t_tracedat_cpu_reader *r, const struct f2t_tracedat_data *d,
			  const struct f2t_tracedat_cpu *where, uint32_t page);
/**
 * f2t_tracedat_cpu_next() - the CPU's next event or lost note, in r->w
 *
 * Return: 1, 0 at the end of its data, or -EINVAL after reporting a corrupt
 * page or chunk with its offset.
 */
int f2t_tracedat_cpu_next(struct f2t_tracedat_cpu_reader *r);
void f2t_tracedat_cpu_fini(struct f2t_tracedat_cpu_reader *r);

/**
 * f2t_tracedat_tep() - libtraceevent's view of the file, from @lay's metadata
 * @path: the file, for messages
 * @lay: its layout, from f2t_tracedat_layout_read()
 *
 * The ring-buffer page description and every event format, as libtracecmd
 * would have given them (a format libtraceevent cannot parse leaves its
 * event unknown), and the saved cmdlines' task names.
 *
 * Return: the tep, or NULL with errno set: ENOMEM (not reported), or EINVAL
 * after saying why.
 */
struct tep_handle *f2t_tracedat_tep(const char *path, const struct f2t_tracedat_layout *lay);

/**
 * f2t_tracedat_kallsyms() - the file's saved /proc/kallsyms text
 * @path: the file, for messages
 * @fd: the file, open
 * @lay: its layout, from f2t_tracedat_layout_read()
 * @len: set to the text's length
 *
 * Return: the text (free it), or NULL after a warning (or none in the file).
 */
char *f2t_tracedat_kallsyms(const char *path, int fd, const struct f2t_tracedat_layout *lay,
			    size_t *len);

/*
 * Is HANDLE's file (of FILE_SIZE bytes) big and compressed, and this
 * libtracecmd one that reads such files in quadratic time (before 1.5.1)?
 */
bool f2t_tracedat_should_inflate(struct tracecmd_input *handle, uint64_t file_size);

/**
 * f2t_tracedat_inflate() - open an uncompressed copy of a trace.dat
 * @path: the compressed trace.dat, for messages
 * @open_path: a name that opens it (its /proc/self/fd one)
 * @flags: for tracecmd_open()
 *
 * The copy is made by libtracecmd in $TMPDIR (or /tmp) and its name is
 * removed before this returns: it lasts as long as the handle.
 *
 * Return: the copy's handle, or NULL after a warning (read @path itself).
 */
struct tracecmd_input *f2t_tracedat_inflate(const char *path, const char *open_path, int flags);

#endif
