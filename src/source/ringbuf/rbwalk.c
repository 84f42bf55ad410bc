// SPDX-License-Identifier: MIT
/*
 * The sub-buffer walk shared by our capture and trace.dat files: a 64-bit
 * little-endian kernel's pages, as both hold them.
 */
#include <errno.h>

#include <traceevent/kbuffer.h>

#include "source/ringbuf/rbpage.h"
#include "source/ringbuf/rbwalk.h"

int f2t_rbwalk_init(struct f2t_rbwalk *w)
{
	*w = (struct f2t_rbwalk){ 0 };
	w->kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	return w->kbuf ? 0 : -ENOMEM;
}

void f2t_rbwalk_fini(struct f2t_rbwalk *w)
{
	if (w->kbuf)
		kbuffer_free(w->kbuf);
	w->kbuf = NULL;
}

int f2t_rbwalk_load(struct f2t_rbwalk *w, const unsigned char *page, uint32_t size)
{
	unsigned long long ts = 0;
	int missed;

	w->page = page;
	w->page_end = page + size;
	w->data = NULL;
	w->prev = NULL;
	w->lost = false;
	/* kbuffer trusts the commit word (rbpage.h). */
	if (!f2t_rb_page_fits(page, size) || kbuffer_load_subbuffer(w->kbuf, (void *)page) < 0)
		return -EINVAL;
	missed = kbuffer_missed_events(w->kbuf);
	if (missed) {
		w->lost = true;
		w->lost_count = missed > 0 ? (uint64_t)missed : 0;
	}
	w->data = kbuffer_read_event(w->kbuf, &ts);
	if (w->data)
		w->size = kbuffer_event_size(w->kbuf);
	else if (w->lost)	/* an empty sub-buffer can still say events were lost */
		ts = kbuffer_subbuf_timestamp(w->kbuf, (void *)page);
	w->ts = ts;
	return w->data || w->lost;
}
