/* SPDX-License-Identifier: MIT */
/*
 * Growable arrays: the caller keeps the pointer, the count and the capacity
 * in its own struct; f2t_vec_reserve() makes room, doubling from a first
 * capacity, and refuses a size whose bytes would not fit in a size_t.
 *
 *   if (f2t_vec_reserve(&t->v, &t->cap, t->n + 1, 64))
 *           return -ENOMEM;
 *   t->v[t->n++] = x;
 *
 *   e = f2t_vec_push(&t->v, &t->n, &t->cap, 64);    the same, NULL on ENOMEM
 */
#ifndef F2T_VEC_H
#define F2T_VEC_H

#include <stddef.h>

/**
 * f2t_vec_grow() - the slow path of f2t_vec_reserve(): reallocates *@vp
 * @vp: address of the array's pointer (of any element type)
 * @cap: its capacity, in elements
 * @esize: bytes of an element
 * @need: elements it must hold
 * @first: capacity of an empty array
 *
 * Return: 0, or -ENOMEM with errno set (array and capacity unchanged).
 */
int f2t_vec_grow(void *vp, size_t *cap, size_t esize, size_t need, size_t first);

static inline int f2t_vec_reserve_(void *vp, size_t *cap, size_t esize, size_t need,
				   size_t first)
{
	return __builtin_expect(need <= *cap, 1) ? 0 : f2t_vec_grow(vp, cap, esize, need, first);
}

/**
 * f2t_vec_reserve() - room for @need elements in the array *@pp
 *
 * The capacity doubles from @first (or from the present one) until it
 * holds @need.  Return: 0 or -ENOMEM (array unchanged).
 */
#define f2t_vec_reserve(pp, capp, need, first) \
	f2t_vec_reserve_((pp), (capp), sizeof(**(pp)), (need), (first))

/**
 * f2t_vec_push() - one more element at the end of the array *@pp of *@np
 *
 * Return: the new element (uninitialised; *@np counts it), or NULL on ENOMEM.
 */
#define f2t_vec_push(pp, np, capp, first) \
	(f2t_vec_reserve((pp), (capp), *(np) + 1, (first)) ? NULL : &(*(pp))[(*(np))++])

#endif
