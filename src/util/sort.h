/* SPDX-License-Identifier: MIT */
/*
 * qsort() and qsort_r() for arrays that may be empty.  An empty array is
 * often a NULL pointer here, and handing NULL to qsort() is undefined even
 * with a count of 0 (UBSan says so; the fuzzers found four of them).
 */
#ifndef F2T_SORT_H
#define F2T_SORT_H

#include <stdlib.h>

static inline void f2t_sort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static inline void f2t_sort_r(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n)
		qsort_r(base, n, size, cmp, arg);
}

#endif
