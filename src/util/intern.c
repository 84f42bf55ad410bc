// SPDX-License-Identifier: MIT
/* Byte strings to dense ids (intern.h). */
#include <errno.h>
#include <stdlib.h>

#include "util/intern.h"
#include "util/vec.h"

void f2t_intern_fini(struct f2t_intern *in)
{
	f2t_hash_fini(&in->index);
	free(in->pool);
	free(in->ent);
	*in = (struct f2t_intern){ 0 };
}

void f2t_intern_clear(struct f2t_intern *in)
{
	f2t_hash_fini(&in->index);
	in->plen = 0;
	in->n = 0;
}

int64_t f2t_intern_add(struct f2t_intern *in, const void *s, size_t len, uint64_t h)
{
	struct f2t_intern_view v = { in, s, len };

	if (!in->index.slot && f2t_hash_init(&in->index, 64))
		return -ENOMEM;
	if (len >= SIZE_MAX - in->plen ||
	    f2t_vec_reserve(&in->pool, &in->pcap, in->plen + len + 1, 1024) ||
	    f2t_vec_reserve(&in->ent, &in->cap, in->n + 1, 64) ||
	    f2t_hash_reserve(&in->index))
		return -ENOMEM;
	memcpy(in->pool + in->plen, s, len);
	in->pool[in->plen + len] = '\0';
	in->ent[in->n] = (struct f2t_intern_ent){ in->plen, len };
	in->plen += len + 1;
	f2t_hash_put(&in->index, f2t_hash_slot(&in->index, h, f2t_intern_same, &v), h, ++in->n);
	return (int64_t)in->n - 1;
}
