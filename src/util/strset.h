/* SPDX-License-Identifier: MIT */
/*
 * A set of byte strings (the merge's sync ids and member names), so "seen
 * before?" stays O(1) however many there are.
 */
#ifndef F2T_STRSET_H
#define F2T_STRSET_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"

struct f2t_strset {
	struct f2t_hash index;	/* of copies of the strings */
};

/* An empty set is all zeros; free it with f2t_strset_fini(). */
void f2t_strset_fini(struct f2t_strset *set);

/**
 * f2t_strset_add() - add a string unless present
 * @set: the set
 * @s: the bytes (copied)
 * @len: how many
 *
 * Return: 1 if added, 0 if it was there already, -ENOMEM.
 */
int f2t_strset_add(struct f2t_strset *set, const char *s, size_t len);

/* 1 if present, else 0. */
int f2t_strset_has(const struct f2t_strset *set, const char *s, size_t len);

#endif
