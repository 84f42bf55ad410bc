/* SPDX-License-Identifier: MIT */
/*
 * A set of byte strings (the merge's sync ids and member names), so "seen
 * before?" stays O(1) however many there are: the interner (intern.h)
 * asked only whether a string is new.
 */
#ifndef F2T_STRSET_H
#define F2T_STRSET_H

#include <stddef.h>
#include <stdint.h>

#include "util/intern.h"

struct f2t_strset {
	struct f2t_intern in;
};

/* An empty set is all zeros; free it with f2t_strset_fini(). */
static inline void f2t_strset_fini(struct f2t_strset *set)
{
	f2t_intern_fini(&set->in);
}

/**
 * f2t_strset_add() - add a string unless present
 * @set: the set
 * @s: the bytes (copied)
 * @len: how many
 *
 * Return: 1 if added, 0 if it was there already, -ENOMEM.
 */
static inline int f2t_strset_add(struct f2t_strset *set, const char *s, size_t len)
{
	bool fresh;
	int64_t id = f2t_intern(&set->in, s, len, &fresh);

	return id < 0 ? (int)id : fresh;
}

/* 1 if present, else 0. */
static inline int f2t_strset_has(const struct f2t_strset *set, const char *s, size_t len)
{
	return f2t_intern_find(&set->in, s, len) >= 0;
}

#endif
