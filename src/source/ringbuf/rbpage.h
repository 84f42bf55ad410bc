/* SPDX-License-Identifier: MIT */
/*
 * A ring-buffer sub-buffer ("page") as the kernel writes it and trace.dat
 * files keep it: an 8-byte timestamp, a commit word (the data's length, and
 * flags for lost events), the data.  kbuffer trusts the commit word: it
 * reads the lost-event count after the data's end and event headers up to
 * the commit size, so a page whose commit runs past it is refused first.
 */
#ifndef F2T_RBPAGE_H
#define F2T_RBPAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define F2T_RB_PAGE_HEADER 16	/* timestamp, commit (64-bit kernels) */

/*
 * Does the data the commit word of PAGE announces fit in SIZE bytes?  The
 * word is a kernel long: 8 bytes (LONG8), or 4 on a 32-bit kernel, after
 * the 8-byte timestamp; a count of lost events stored after the data is
 * one too.
 */
static inline bool f2t_rb_page_fits_long(const unsigned char *page, uint32_t size, bool long8)
{
	enum { COMMIT_MASK = (1 << 27) - 1 };
	const uint64_t missing = 1ull << 31, stored = 1ull << 30;
	uint64_t commit = 0, word = long8 ? 8 : 4;

	memcpy(&commit, page + 8, word);
	return 8 + word + (commit & COMMIT_MASK) +
		       ((commit & missing) && (commit & stored) ? word : 0) <= size;
}

/* The same for a 64-bit kernel's page, as our captures hold. */
static inline bool f2t_rb_page_fits(const unsigned char *page, uint32_t size)
{
	return f2t_rb_page_fits_long(page, size, true);
}

/*
 * A 64-bit kernel's page made to say "nothing missed before me": its commit
 * word's flags cleared (a stored count after the data is left, unread).
 */
static inline void f2t_rb_page_clear_missed(unsigned char *page)
{
	uint64_t commit;

	memcpy(&commit, page + 8, 8);
	commit &= ~((1ull << 31) | (1ull << 30));
	memcpy(page + 8, &commit, 8);
}

/* The page's base timestamp: its first event's time on the trace clock. */
static inline uint64_t f2t_rb_page_time(const unsigned char *page)
{
	uint64_t ts;

	memcpy(&ts, page, 8);
	return ts;
}

#endif
