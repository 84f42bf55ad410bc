/* SPDX-License-Identifier: MIT */
/*
 * One ring-buffer sub-buffer at a time: its events with their times, and
 * the count of events the kernel lost before it.  Where the sub-buffers
 * come from (a capture's records, a trace.dat's CPU data, mapped or
 * decompressed) is the caller's business.
 *
 * The walk is ours, inline, not libtraceevent's kbuffer: kbuffer's calls
 * through function pointers for every word were a fifth of a conversion's
 * time.  It reads the records as kbuffer 1.7 does (rbpage.h has the page's
 * header): a 32-bit word of type_len (5 bits) and time delta (27 bits),
 * then padding (type 29, its length in the next word), a time extend (30)
 * or absolute time stamp (31, the top 5 bits kept from the time before)
 * with 27 more bits of time in the next word, or data: type_len words of
 * it, or (type 0) a length word counting itself.
 */
#ifndef F2T_RBWALK_H
#define F2T_RBWALK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Readable bytes a sub-buffer needs after it: a record header near the end is read up to 8 past it. */
#define F2T_RBWALK_SLACK 16

/* Nothing to allocate or free: a zeroed walk is one before its first sub-buffer. */
struct f2t_rbwalk {
	const unsigned char *page, *page_end;
	const unsigned char *base;	/* the data after the page's header */
	uint32_t commit;	/* bytes of data the page holds */
	uint32_t curr;		/* offset of the current record's header in base */
	uint32_t next;		/* offset of the record after it */
	void *data;		/* the current event; NULL when only a lost note is left */
	const void *prev;	/* the event before it in this sub-buffer, or NULL */
	int size;		/* its payload's size */
	uint64_t ts;		/* its time, or the sub-buffer's for a lone lost note */
	bool lost;		/* a lost note comes before data */
	uint64_t lost_count;	/* what the note says; 0 when the kernel did not count */
};

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

enum { F2T_RB_PADDING = 29, F2T_RB_TIME_EXTEND = 30, F2T_RB_TIME_STAMP = 31 };

/*
 * The next data record from w->next on: 1 with data, size and ts set, 0 at
 * the end of the commit.  A padding record whose length steps back (which
 * kbuffer follows round for ever) gives an event of size -1, which
 * f2t_rbwalk_event_fits() refuses.
 */
static inline int f2t_rbwalk_step(struct f2t_rbwalk *w)
{
	for (;;) {
		const unsigned char *p;
		uint32_t word, type, arg, index;
		int length;

		w->curr = w->next;
		if (w->curr >= w->commit)
			return 0;
		p = w->base + w->curr;
		memcpy(&word, p, 4);
		memcpy(&arg, p + 4, 4);
		type = word & 31;
		if (type && type < F2T_RB_PADDING) {	/* data of type_len words: most records */
			w->ts += word >> 5;
			index = w->curr + 4;
			length = (int)(type * 4);
		} else if (type == 0) {
			w->ts += word >> 5;
			index = w->curr + 8;
			length = (int)((arg - 4 + 3) & ~3u);	/* rounded up to words */
		} else if (type == F2T_RB_PADDING) {
			w->ts += word >> 5;
			w->next = w->curr + 4 + (uint32_t)arg;
			if (w->next <= w->curr) {
				w->data = (void *)(p + 4);
				w->size = -1;
				return 1;
			}
			continue;
		} else {
			uint64_t t = ((uint64_t)arg << 27) + (word >> 5);

			if (type == F2T_RB_TIME_STAMP)
				w->ts = t | (w->ts & (0xf8ull << 56));
			else
				w->ts += t;
			w->next = w->curr + 8;
			continue;
		}
		w->next = index + (uint32_t)length;
		w->data = (void *)(w->base + index);
		w->size = length;
		return 1;
	}
}

/*
 * Past the lost note or the event taken: 1 while the sub-buffer has more, 0
 * at its end.  Inline: it runs once per event.
 */
static inline int f2t_rbwalk_next(struct f2t_rbwalk *w)
{
	if (w->lost) {
		w->lost = false;
		return w->data != NULL;
	}
	w->prev = w->data;
	if (f2t_rbwalk_step(w))
		return 1;
	w->data = NULL;
	return 0;
}

/*
 * Does the current event lie inside its sub-buffer, header included, and
 * after the one before it?  A length word is taken as the page says: a
 * hostile one can step back to an earlier event, and round again for ever
 * (found by fuzzing).
 */
static inline bool f2t_rbwalk_event_fits(const struct f2t_rbwalk *w)
{
	return w->size >= 8 && (const unsigned char *)w->data + w->size <= w->page_end &&
	       (const unsigned char *)w->data > (const unsigned char *)w->prev;
}

#endif
