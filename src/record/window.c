// SPDX-License-Identifier: MIT
/*
 * The window (window.h).  Chunks are held in the order they were read; a
 * CPU's chunks are in time order, so those a trim lets go of are the
 * oldest of each CPU, and the history taken from them precedes everything
 * still held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/window.h"
#include "util/vec.h"

int f2t_window_add(struct f2t_window *w, uint32_t arg, const void *data, size_t len,
		   uint64_t last_ns)
{
	unsigned char *copy;

	if (!len)
		return 0;
	if (f2t_vec_reserve(&w->c, &w->cap, w->n + 1, 64))
		return -ENOMEM;
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	w->c[w->n++] = (struct f2t_window_chunk){ arg, last_ns, len, copy };
	w->bytes += len;
	if (w->bytes > w->peak)
		w->peak = w->bytes;
	return 0;
}

static struct f2t_window_hist *history_of(struct f2t_window *w, uint32_t arg)
{
	for (size_t i = 0; i < w->nh; i++)
		if (w->h[i].arg == arg)
			return &w->h[i];
	if (f2t_vec_reserve(&w->h, &w->caph, w->nh + 1, 8))
		return NULL;
	w->h[w->nh] = (struct f2t_window_hist){ .arg = arg };
	return &w->h[w->nh++];
}

/* What the keep function keeps of chunk C, appended to its CPU's history. */
static int keep_past(struct f2t_window *w, struct f2t_window_chunk *c)
{
	struct f2t_window_hist *h;
	size_t kept = w->keep ? w->keep(c->data, c->len) : 0;

	if (!kept)
		return 0;
	h = history_of(w, c->arg);
	if (!h || f2t_vec_reserve(&h->p, &h->cap, h->len + kept, 4096))
		return -ENOMEM;
	memcpy(h->p + h->len, c->data, kept);
	h->len += kept;
	w->bytes += kept;
	return 0;
}

int f2t_window_trim(struct f2t_window *w, uint64_t from_ns)
{
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < w->n; i++) {
		struct f2t_window_chunk *c = &w->c[i];

		if (!err && c->last_ns < from_ns)
			err = keep_past(w, c);
		if (err || c->last_ns >= from_ns) {
			w->c[kept++] = *c;
			continue;
		}
		w->bytes -= c->len;
		free(c->data);
	}
	w->n = kept;
	return err;
}

int f2t_window_limit(struct f2t_window *w, size_t max_bytes)
{
	int cut = 0;

	while (w->bytes > max_bytes && w->n) {
		uint64_t oldest = w->c[0].last_ns;
		int err;

		for (size_t i = 1; i < w->n; i++)
			if (w->c[i].last_ns < oldest)
				oldest = w->c[i].last_ns;
		err = f2t_window_trim(w, oldest + 1);
		if (err)
			return err;
		cut = 1;
	}
	return cut;
}

void f2t_window_prune(struct f2t_window *w, f2t_window_keep_fn keep)
{
	for (size_t i = 0; i < w->nh; i++) {
		size_t len = keep(w->h[i].p, w->h[i].len);

		w->bytes -= w->h[i].len - len;
		w->h[i].len = len;
	}
}

int f2t_window_write(struct f2t_window *w, struct f2t_capw *capw)
{
	int err = 0;

	for (size_t i = 0; i < w->nh && !err; i++)
		if (w->h[i].len)
			err = f2t_capw_add(capw, w->type, w->h[i].arg, w->h[i].p, w->h[i].len);
	for (size_t i = 0; i < w->n; i++) {
		if (!err)
			err = f2t_capw_add(capw, w->type, w->c[i].arg, w->c[i].data, w->c[i].len);
		w->bytes -= w->c[i].len;
		free(w->c[i].data);
	}
	w->n = 0;
	return err;
}

void f2t_window_free(struct f2t_window *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->c[i].data);
	for (size_t i = 0; i < w->nh; i++)
		free(w->h[i].p);
	free(w->c);
	free(w->h);
	w->c = NULL;
	w->h = NULL;
	w->n = w->cap = w->nh = w->caph = w->bytes = 0;
}
