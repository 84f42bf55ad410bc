// SPDX-License-Identifier: MIT
/* The protobuf encoder (pb.h). */
#include <errno.h>
#include <stdlib.h>

#include "perfetto/pb.h"
#include "util/vec.h"

size_t pb_enc_fixed64(uint8_t *dst, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
	return 8;
}

void pb_buf_free(struct pb_buf *b)
{
	free(b->p);
	*b = (struct pb_buf){ 0 };
}

bool pb_buf_grow(struct pb_buf *b, size_t n)
{
	if (b->err)
		return false;
	if (n > SIZE_MAX - b->len || f2t_vec_reserve(&b->p, &b->cap, b->len + n, 256)) {
		b->err = -ENOMEM;
		return false;
	}
	return true;
}

void pb_double(struct pb_buf *b, uint32_t field, double v)
{
	uint64_t bits;

	if (!pb_room(b, PB_MAX_VARINT + 8))
		return;
	memcpy(&bits, &v, sizeof(bits));
	b->len += pb_enc_tag(b->p + b->len, field, PB_FIXED64);
	b->len += pb_enc_fixed64(b->p + b->len, bits);
}

void pb_close_long(struct pb_buf *b, size_t body)
{
	size_t len, extra;

	if (b->err)
		return;
	len = b->len - body;
	extra = pb_varint_len(len) - 1;
	if (!pb_room(b, extra))
		return;
	memmove(b->p + body + extra, b->p + body, len);
	b->len += extra;
	pb_enc_varint(b->p + body - 1, len);
}
