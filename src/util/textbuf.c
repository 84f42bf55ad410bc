// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/textbuf.h"
#include "util/vec.h"

int f2t_textbuf_add(struct f2t_textbuf *b, const char *s, size_t n)
{
	if (n > SIZE_MAX - b->len || f2t_vec_reserve(&b->p, &b->cap, b->len + n, 64 * 1024))
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}
