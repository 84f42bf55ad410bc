// SPDX-License-Identifier: MIT
/* Log-linear latency histograms; see lathist.h. */
#include <math.h>

#include "report/lathist.h"

unsigned int f2t_lathist_bucket(uint64_t ns, uint64_t *lo, uint64_t *hi)
{
	unsigned int e, sub, shift;

	if (ns < F2T_LAT_SUB) {
		*lo = ns;
		*hi = ns + 1;
		return (unsigned int)ns;
	}
	e = 63u - (unsigned int)__builtin_clzll(ns);
	if (e >= F2T_LAT_MAX_EXP) {
		*lo = 1ull << F2T_LAT_MAX_EXP;
		*hi = UINT64_MAX;
		return F2T_LAT_BUCKETS - 1;
	}
	shift = e - F2T_LAT_SUB_BITS;
	sub = (unsigned int)(ns >> shift) & (F2T_LAT_SUB - 1);
	*lo = (uint64_t)(F2T_LAT_SUB + sub) << shift;
	*hi = *lo + (1ull << shift);
	return F2T_LAT_SUB + shift * F2T_LAT_SUB + sub;
}

void f2t_lathist_bounds(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	/* From the smallest value the bucket holds. */
	uint64_t v = i < F2T_LAT_SUB ? i : (uint64_t)(F2T_LAT_SUB + (i - F2T_LAT_SUB) % F2T_LAT_SUB)
		<< ((i - F2T_LAT_SUB) / F2T_LAT_SUB);

	f2t_lathist_bucket(v, lo, hi);
}

static unsigned int log2_us(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned int k = us < 2 ? 0 : 63u - (unsigned int)__builtin_clzll(us);

	return k < F2T_LAT_LOG2 ? k : F2T_LAT_LOG2 - 1;
}

void f2t_lathist_add(struct f2t_lathist *h, uint64_t ns)
{
	uint64_t lo, hi;

	if (!h->count || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->count++;
	h->b[f2t_lathist_bucket(ns, &lo, &hi)]++;
	h->log2_us[log2_us(ns)]++;
}

void f2t_lathist_merge(struct f2t_lathist *dst, const struct f2t_lathist *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	for (unsigned int i = 0; i < F2T_LAT_BUCKETS; i++)
		dst->b[i] += src->b[i];
	for (unsigned int i = 0; i < F2T_LAT_LOG2; i++)
		dst->log2_us[i] += src->log2_us[i];
}

uint64_t f2t_lathist_percentile(const struct f2t_lathist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	/* Multiplied first, so 90% of 10 is 9, not 9.000000000000002. */
	rank = (uint64_t)ceil(pct * (double)h->count / 100.0 - 1e-9);
	/* The ends are known exactly. */
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	for (unsigned int i = 0; i < F2T_LAT_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t lo, hi, mid;

			if (i == F2T_LAT_BUCKETS - 1)
				return h->max;
			f2t_lathist_bounds(i, &lo, &hi);
			mid = lo + (hi - lo) / 2;
			return mid < h->min ? h->min : mid > h->max ? h->max : mid;
		}
	}
	return h->max;
}
