// SPDX-License-Identifier: MIT
/*
 * The sub-buffer walk shared by our capture and trace.dat files: a 64-bit
 * little-endian kernel's pages, as both hold them.
 */
#include <errno.h>

#include "source/ringbuf/rbpage.h"
#include "source/ringbuf/rbwalk.h"

int f2t_rbwalk_load(struct f2t_rbwalk *w, const unsigned char *page, uint32_t size)
{
	enum { COMMIT_MASK = (1 << 27) - 1 };
	const uint64_t missing = 1ull << 31, stored = 1ull << 30;
	uint64_t commit;
	int64_t lost = 0;
	int missed;

	w->page = page;
	w->page_end = page + size;
	w->data = NULL;
	w->prev = NULL;
	w->lost = false;
	if (!f2t_rb_page_fits(page, size))
		return -EINVAL;
	memcpy(&commit, page + 8, 8);
	w->base = page + F2T_RB_PAGE_HEADER;
	w->commit = (uint32_t)commit & COMMIT_MASK;
	w->ts = f2t_rb_page_time(page);
	w->next = 0;
	if (commit & missing) {
		lost = -1;	/* the kernel did not count them */
		if (commit & stored)
			memcpy(&lost, w->base + w->commit, 8);
	}
	if (!f2t_rbwalk_step(w))
		w->data = NULL;
	/*
	 * As kbuffer tells it: the count belongs to the page's first record,
	 * so a page that starts with a time or padding record says none, and
	 * a count that is no int says what is left of it.
	 */
	missed = w->curr ? 0 : (int)lost;
	if (missed) {
		w->lost = true;
		w->lost_count = missed > 0 ? (uint64_t)missed : 0;
	}
	if (!w->data && w->lost)	/* an empty sub-buffer can still say events were lost */
		w->ts = f2t_rb_page_time(page);
	else if (!w->data)
		w->ts = 0;
	return w->data || w->lost;
}
