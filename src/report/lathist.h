/* SPDX-License-Identifier: MIT */
/*
 * Latencies as a compact log-linear histogram, so percentiles cost a few
 * kilobytes per thread whatever the number of wakeups: exact below 16 ns,
 * then 16 buckets per power of two.  A percentile read from it is the
 * middle of the bucket that holds the true value (nearest rank): a bucket
 * [lo, hi) has hi - lo <= lo / 16, so the middle is within 1/32 (3.125%)
 * of any value in it.  Beside it, the log2 buckets of
 * microseconds that bcc's runqlat draws.
 */
#ifndef F2T_LATHIST_H
#define F2T_LATHIST_H

#include <stdint.h>

#define F2T_LAT_SUB_BITS 4
#define F2T_LAT_SUB (1u << F2T_LAT_SUB_BITS)
/* Values of 2^F2T_LAT_MAX_EXP ns (73 minutes) and more share the last bucket. */
#define F2T_LAT_MAX_EXP 42
#define F2T_LAT_BUCKETS (F2T_LAT_SUB + (F2T_LAT_MAX_EXP - F2T_LAT_SUB_BITS) * F2T_LAT_SUB)
/* log2 buckets of microseconds: [0, 1], [2, 3], [4, 7], ... as runqlat prints them. */
#define F2T_LAT_LOG2 40

struct f2t_lathist {
	uint64_t count;
	uint64_t min, max;	/* exact */
	uint32_t b[F2T_LAT_BUCKETS];
	uint32_t log2_us[F2T_LAT_LOG2];
};

/** f2t_lathist_add() - count one latency of @ns nanoseconds */
void f2t_lathist_add(struct f2t_lathist *h, uint64_t ns);

/** f2t_lathist_merge() - add every count of @src to @dst */
void f2t_lathist_merge(struct f2t_lathist *dst, const struct f2t_lathist *src);

/**
 * f2t_lathist_percentile() - the @pct-th percentile (0 < @pct <= 100)
 *
 * The value of nearest rank ceil(@pct / 100 * count), as the middle of its
 * bucket, kept within [min, max]; the first and last ranks are the exact
 * min and max.  Return: nanoseconds; 0 when empty.
 */
uint64_t f2t_lathist_percentile(const struct f2t_lathist *h, double pct);

/** f2t_lathist_bucket() - the bucket of @ns and its bounds [*lo, *hi) */
unsigned int f2t_lathist_bucket(uint64_t ns, uint64_t *lo, uint64_t *hi);

/** f2t_lathist_bounds() - the bounds [*lo, *hi) of bucket @i (< F2T_LAT_BUCKETS) */
void f2t_lathist_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);

#endif
