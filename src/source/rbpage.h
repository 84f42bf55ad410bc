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

/* Does the data the 64-bit commit word of PAGE announces fit in SIZE bytes? */
static inline bool f2t_rb_page_fits(const unsigned char *page, uint32_t size)
{
	enum { COMMIT_MASK = (1 << 27) - 1 };
	const uint64_t missing = 1ull << 31, stored = 1ull << 30;
	uint64_t commit;

	memcpy(&commit, page + 8, 8);
	return F2T_RB_PAGE_HEADER + (commit & COMMIT_MASK) +
		       ((commit & missing) && (commit & stored) ? 8 : 0) <= size;
}

#endif
