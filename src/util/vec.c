// SPDX-License-Identifier: MIT
/* Growable arrays (vec.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

int f2t_vec_grow(void *vp, size_t *cap, size_t esize, size_t need, size_t first)
{
	size_t max = SIZE_MAX / esize, n = *cap ? *cap : first;
	void *p;

	if (need > max)
		goto nomem;
	if (!n)
		n = 1;
	while (n < need)
		n = n > max / 2 ? max : n * 2;
	/* The array's pointer is of the caller's type: read and written as bytes. */
	memcpy(&p, vp, sizeof(p));
	p = realloc(p, n * esize);
	if (!p)
		goto nomem;
	memcpy(vp, &p, sizeof(p));
	*cap = n;
	return 0;
nomem:
	errno = ENOMEM;		/* for callers that return NULL */
	return -ENOMEM;
}
