// SPDX-License-Identifier: MIT
/* The bounded protobuf decoder (pbdec.h). */
#include <errno.h>

#include "util/pbdec.h"

bool pbd_varint(struct pbd *d, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned int i = 0; i < 10 && d->p + i < d->end; i++) {
		uint8_t b = d->p[i];

		/* The tenth byte holds bit 63 alone: more is not a uint64. */
		if (i == 9 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			d->p += i + 1;
			*v = x;
			return true;
		}
	}
	return false;
}

int pbd_next(struct pbd *d, struct pbd_field *f)
{
	const uint8_t *start = d->p;
	uint64_t tag, len;

	if (d->p >= d->end)
		return 0;
	if (!pbd_varint(d, &tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
		goto bad;
	f->num = (uint32_t)(tag >> 3);
	f->wire = (enum pbd_wire)(tag & 7);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (tag & 7) {
	case PBD_VARINT:
		if (!pbd_varint(d, &f->v))
			goto bad;
		return 1;
	case PBD_FIXED64:
	case PBD_FIXED32: {
		size_t n = (tag & 7) == PBD_FIXED64 ? 8 : 4;

		if ((size_t)(d->end - d->p) < n)
			goto bad;
		for (size_t i = 0; i < n; i++)
			f->v |= (uint64_t)d->p[i] << (8 * i);
		f->data = d->p;
		f->len = n;
		d->p += n;
		return 1;
	}
	case PBD_LEN:
		if (!pbd_varint(d, &len) || len > (uint64_t)(d->end - d->p))
			goto bad;
		f->data = d->p;
		f->len = (size_t)len;
		d->p += len;
		return 1;
	default:
		goto bad;
	}
bad:
	d->p = start;
	return -EINVAL;
}

int pbd_repeated(const struct pbd_field *f, struct pbd *it, bool first, uint64_t *v)
{
	if (f->wire == PBD_VARINT) {
		*v = f->v;
		return first;
	}
	if (f->wire != PBD_LEN)
		return -EINVAL;
	if (it->p >= it->end)
		return 0;
	return pbd_varint(it, v) ? 1 : -EINVAL;
}
