/* SPDX-License-Identifier: MIT */
/*
 * One buffer of a trace.dat (the top one or an instance) as a source, its
 * CPUs interleaved by time.  Two readers make one: ours, which walks the
 * CPU data page by page (tracedat_pagesrc.c), and libtracecmd's record
 * reading, for the files whose timestamps it converts or whose data we do
 * not read (tracedat_tcmsrc.c).  What they share, here and in
 * tracedat_bufsrc.c: the decoder, the naming of tasks from the saved
 * cmdlines, the lost-event counts, the heap of CPUs.
 */
#ifndef F2T_TRACEDAT_BUFSRC_LOCAL_H
#define F2T_TRACEDAT_BUFSRC_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/recording.h"
#include "source/ringbuf/rawdec.h"
#include "source/source.h"
#include "source/tracedat/tracedat.h"
#include "util/minheap.h"

struct tracedat_bufsrc {
	struct f2t_source base;
	const char *path;
	int32_t named[1024];		/* pids whose saved name went out, by pid % 1024 */
	struct f2t_rawdec dec;
	uint32_t ncpus;			/* the buffer's CPUs (with data or not) */
	struct f2t_minheap heap;	/* the reader's cursors, by their pending record's time */
	uint64_t lost_events, lost_pages;
};

/*
 * Gets B ready to decode records of TEP's formats in pages of PAGE bytes
 * (the recording REC's, for its symbols): 0, or a negative errno
 * after saying why (-ENOMEM unsaid).
 */
int f2t_tracedat_bufsrc_init(struct tracedat_bufsrc *b, const struct f2t_source_ops *ops,
			     struct tep_handle *tep, uint32_t page, const struct f2t_recording *rec);
void f2t_tracedat_bufsrc_fini(struct tracedat_bufsrc *b);

/*
 * The record a reader's cursor has pending, at TS on CPU, into EV: DATA of
 * SIZE bytes, or with DATA NULL, a note of MISSED lost events.  1 for an
 * event, 0 for a record that yields none, or a negative errno.
 */
int f2t_tracedat_bufsrc_event(struct tracedat_bufsrc *b, struct f2t_event *ev, uint64_t ts,
			      uint32_t cpu, void *data, int size, uint64_t missed);

/* The text, fields and counts ops, the same for both readers. */
const char *f2t_tracedat_bufsrc_text(struct f2t_source *src, const struct f2t_event *ev,
				     const struct f2t_task *task, size_t *len);
int f2t_tracedat_bufsrc_fields(struct f2t_source *src, const struct f2t_event *ev,
			       f2t_field_fn fn, void *ctx);
void f2t_tracedat_bufsrc_counts(const struct f2t_source *src, struct f2t_stats *st);

/*
 * The two readers: a source of BUF's records, read by us from DATA (the
 * file's CPU data, mapped), or of HANDLE's, read by libtracecmd in pages of
 * PAGE bytes (it owns HANDLE when OWN_HANDLE, also on failure; FD is the
 * input, which must be unchanged when the records end).  Each is
 * decoded with TEP, on NCPUS CPUs at least, and lowers *FIRST_TS to the
 * time of its first record.  NULL with errno set, after saying why.
 */
struct f2t_source *f2t_tracedat_pagesrc_open(struct tep_handle *tep, uint32_t ncpus,
					     const struct f2t_tracedat_buffer *buf,
					     const struct f2t_tracedat_data *data,
					     const struct f2t_recording *rec, uint64_t *first_ts);
struct f2t_source *f2t_tracedat_tcmsrc_open(struct tracecmd_input *handle, bool own_handle,
					    int ncpus, uint32_t page, const struct f2t_recording *rec,
					    int fd, uint64_t *first_ts);

#endif
