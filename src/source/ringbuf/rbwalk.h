/* SPDX-License-Identifier: MIT */
/*
 * One ring-buffer sub-buffer at a time, walked with libtraceevent's
 * kbuffer: its events with their times, and the count of events the kernel
 * lost before it.  Where the sub-buffers come from (a capture's records, a
 * trace.dat's CPU data, mapped or decompressed) is the caller's business.
 */
#ifndef F2T_RBWALK_H
#define F2T_RBWALK_H

#include <stdbool.h>
#include <stdint.h>

#include <traceevent/kbuffer.h>

/* Readable bytes a sub-buffer needs after it: kbuffer reads an event header near the end up to 8 past it. */
#define F2T_RBWALK_SLACK 16

struct f2t_rbwalk {
	struct kbuffer *kbuf;
	const unsigned char *page, *page_end;
	void *data;		/* the current event; NULL when only a lost note is left */
	const void *prev;	/* the event before it in this sub-buffer, or NULL */
	int size;		/* its size: header and payload */
	uint64_t ts;		/* its time, or the sub-buffer's for a lone lost note */
	bool lost;		/* a lost note comes before data */
	uint64_t lost_count;	/* what the note says; 0 when the kernel did not count */
};

/* 0, or -ENOMEM. */
int f2t_rbwalk_init(struct f2t_rbwalk *w);
void f2t_rbwalk_fini(struct f2t_rbwalk *w);

/**
 * f2t_rbwalk_load() - start on a sub-buffer
 * @w: the walk
 * @page: SIZE bytes followed by F2T_RBWALK_SLACK readable ones
 * @size: the sub-buffer size
 *
 * Return: 1 with a lost note or an event (or both) to take, 0 when the
 * sub-buffer holds neither, -EINVAL when its commit size runs past it.
 */
int f2t_rbwalk_load(struct f2t_rbwalk *w, const unsigned char *page, uint32_t size);

/*
 * Past the lost note or the event taken: 1 while the sub-buffer has more, 0
 * at its end.  Inline: it runs once per event.
 */
static inline int f2t_rbwalk_next(struct f2t_rbwalk *w)
{
	unsigned long long ts;

	if (w->lost) {
		w->lost = false;
		return w->data != NULL;
	}
	w->prev = w->data;
	w->data = kbuffer_next_event(w->kbuf, &ts);
	if (!w->data)
		return 0;
	w->ts = ts;
	w->size = kbuffer_event_size(w->kbuf);
	return 1;
}

/*
 * Does the current event lie inside its sub-buffer, header included, and
 * after the one before it?  kbuffer takes a length word as the page says:
 * a hostile one can step it back to an earlier event, and round again for
 * ever (found by fuzzing).
 */
static inline bool f2t_rbwalk_event_fits(const struct f2t_rbwalk *w)
{
	return w->size >= 8 && (const unsigned char *)w->data + w->size <= w->page_end &&
	       (const unsigned char *)w->data > (const unsigned char *)w->prev;
}

#endif
