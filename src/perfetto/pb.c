// SPDX-License-Identifier: MIT
/* The protobuf encoder (pb.h). */
#include <errno.h>
#include <stdlib.h>

#include "perfetto/pb.h"
#include "util/vec.h"

size_t pb_enc_tag(uint8_t *dst, uint32_t field, enum pb_wire wire)
{
	return pb_enc_varint(dst, (uint64_t)field << 3 | (uint64_t)wire);
}

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

void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t len)
{
	if (!pb_room(b, 2 * PB_MAX_VARINT + len))
		return;
	b->len += pb_enc_tag(b->p + b->len, field, PB_LEN);
	b->len += pb_enc_varint(b->p + b->len, len);
	if (len)
		memcpy(b->p + b->len, p, len);
	b->len += len;
}

size_t pb_open(struct pb_buf *b, uint32_t field)
{
	if (!pb_room(b, PB_MAX_VARINT + 1))
		return b->len;
	b->len += pb_enc_tag(b->p + b->len, field, PB_LEN);
	b->p[b->len++] = 0;	/* the length, when it fits one byte */
	return b->len;
}

void pb_close(struct pb_buf *b, size_t body)
{
	size_t len, extra;

	if (b->err)
		return;
	len = b->len - body;
	extra = pb_varint_len(len) - 1;
	/* Most messages are short: their length fits the byte reserved. */
	if (extra) {
		if (!pb_room(b, extra))
			return;
		memmove(b->p + body + extra, b->p + body, len);
		b->len += extra;
	}
	pb_enc_varint(b->p + body - 1, len);
}
