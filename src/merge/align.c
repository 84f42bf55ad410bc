// SPDX-License-Identifier: MIT
/* Offsets between the inputs' clocks, from shared clock_sync ids. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "merge/align.h"
#include "util/strset.h"
#include "util/log.h"
#include "util/sort.h"

/* An input's sync points: the first event of each id, sorted by id. */
struct points {
	const struct f2t_msync **v;
	size_t n;
};

static int by_id(const void *a, const void *b)
{
	const struct f2t_msync *x = *(const struct f2t_msync *const *)a;
	const struct f2t_msync *y = *(const struct f2t_msync *const *)b;
	int c = strcmp(x->id, y->id);

	/* Same id twice in one input: the earlier event first. */
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int collect(const struct f2t_minput *in, struct points *p)
{
	size_t n = 0;

	p->v = malloc((in->nsyncs ? in->nsyncs : 1) * sizeof(*p->v));
	if (!p->v)
		return -ENOMEM;
	for (size_t i = 0; i < in->nsyncs; i++)
		p->v[i] = &in->syncs[i];
	f2t_sort(p->v, in->nsyncs, sizeof(*p->v), by_id);
	for (size_t i = 0; i < in->nsyncs; i++)
		if (!n || strcmp(p->v[n - 1]->id, p->v[i]->id))
			p->v[n++] = p->v[i];
	p->n = n;
	return 0;
}

struct link {
	size_t pairs;
	int64_t mean;		/* A's clock minus B's, ns */
	int64_t spread;
	bool overflow;
};

/* A's clock minus B's at each sync point they share. */
static struct link compare(const struct points *a, const struct points *b)
{
	struct link l = { 0 };
	int64_t first = 0, lo = 0, hi = 0, sum = 0;
	size_t i = 0, j = 0;

	while (i < a->n && j < b->n) {
		int c = strcmp(a->v[i]->id, b->v[j]->id);
		int64_t d, rel;

		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		if (__builtin_sub_overflow(f2t_msync_time(a->v[i]), f2t_msync_time(b->v[j]), &d)) {
			l.overflow = true;
			return l;
		}
		/*
		 * Average the differences to the first one: they are close to
		 * each other, so the sum cannot overflow the way raw
		 * timestamps could.
		 */
		if (!l.pairs)
			first = lo = hi = d;
		if (__builtin_sub_overflow(d, first, &rel) || __builtin_add_overflow(sum, rel, &sum)) {
			l.overflow = true;
			return l;
		}
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		l.pairs++;
		i++;
		j++;
	}
	if (l.pairs) {
		int64_t n = (int64_t)l.pairs;
		/* Round to the nearest ns, halves away from zero. */
		int64_t q = sum / n, r = sum % n;

		if (2 * (r < 0 ? -r : r) >= n)
			q += sum < 0 ? -1 : 1;
		l.mean = first + q;
		l.spread = hi - lo;
	}
	return l;
}

/* Something on a clock that an offset would move. */
static bool timed(const struct f2t_minput *in)
{
	return in->nevents || in->has[F2T_MS_SAMPLES] || in->has[F2T_MS_SYSTEM];
}

static void explain_unplaced(const struct f2t_minput *in, const struct f2t_minput *ref)
{
	if (!in->nsyncs) {
		f2t_err("%s: no clock_sync events, so its clock cannot be matched with %s's; "
			"give --offset %s=SECONDS (added to its timestamps)", in->path, ref->path,
			in->path);
		return;
	}
	f2t_err("%s: none of its clock_sync ids (e.g. \"%s\") is in another input; "
		"give --offset %s=SECONDS (added to its timestamps)", in->path, in->syncs[0].id,
		in->path);
}

int f2t_merge_align(struct f2t_minput *ins, size_t n)
{
	struct points *pts = calloc(n ? n : 1, sizeof(*pts));
	bool *placed = calloc(n ? n : 1, sizeof(*placed));
	bool progress = true;
	int err = 0;

	if (!pts || !placed) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n && !err; i++)
		err = collect(&ins[i], &pts[i]);
	if (err)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (ins[i].offset_given) {
			ins[i].how = F2T_MH_GIVEN;
			placed[i] = true;
		} else if (i == 0) {
			ins[i].how = F2T_MH_REFERENCE;
			ins[i].offset_ns = 0;
			placed[i] = true;
		}
	}
	/*
	 * Place inputs one link at a time, lowest index first, each against
	 * the lowest placed input it shares ids with: inputs that sync with
	 * the reference directly are matched with it, not through others.
	 */
	while (progress) {
		progress = false;
		for (size_t j = 0; j < n && !progress; j++) {
			if (placed[j])
				continue;
			for (size_t i = 0; i < n; i++) {
				struct link l;

				if (!placed[i])
					continue;
				l = compare(&pts[i], &pts[j]);
				if (l.overflow) {
					f2t_err("%s and %s: clock_sync times too far apart to compare",
						ins[i].path, ins[j].path);
					err = -ERANGE;
					goto out;
				}
				if (!l.pairs)
					continue;
				if (__builtin_add_overflow(ins[i].offset_ns, l.mean, &ins[j].offset_ns)) {
					f2t_err("%s: its offset to %s does not fit in 64 bits of ns",
						ins[j].path, ins[0].path);
					err = -ERANGE;
					goto out;
				}
				ins[j].how = F2T_MH_SYNC;
				ins[j].via = i;
				ins[j].pairs = l.pairs;
				ins[j].spread_ns = l.spread;
				placed[j] = progress = true;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (placed[i])
			continue;
		if (!timed(&ins[i])) {
			ins[i].how = F2T_MH_NOTHING;
			ins[i].offset_ns = 0;
			continue;
		}
		explain_unplaced(&ins[i], &ins[0]);
		err = -EINVAL;
	}
out:
	if (pts)
		for (size_t i = 0; i < n; i++)
			free(pts[i].v);
	free(pts);
	free(placed);
	return err;
}

int f2t_merge_pick_syncs(struct f2t_minput *ins, size_t n)
{
	struct f2t_strset seen = { 0 };
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < ins[i].nsyncs; k++) {
			struct f2t_msync *s = &ins[i].syncs[k];
			int r = f2t_strset_add(&seen, s->id, strlen(s->id));

			if (r < 0) {
				err = r;
				goto out;
			}
			s->keep = r == 1;
		}
	}
out:
	f2t_strset_fini(&seen);
	return err;
}
