/* SPDX-License-Identifier: MIT */
/*
 * The stack tree by name (JSON's stackFrames dictionary): a node is
 * (parent, function name, module), made once; the profile stage
 * (model/profile.h) makes one for each callstack drawn.  Memory grows with
 * distinct stacks only, never with samples.
 */
#ifndef F2T_STACKS_H
#define F2T_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

struct f2t_stacks;

struct f2t_stacks *f2t_stacks_new(void);
void f2t_stacks_free(struct f2t_stacks *s);

/**
 * f2t_stacks_node() - the id of node (@parent, @name, @category), made if new
 * @parent: a node id, or 0 for a root
 *
 * Ids are 1, 2, ... in order of creation, so a parent's id is always
 * smaller than its children's.
 *
 * Return: the id, or -ENOMEM.
 */
int64_t f2t_stacks_node(struct f2t_stacks *s, uint32_t parent, const char *name, size_t nlen,
			const char *category, size_t clen);

/* Nodes made so far (the largest id). */
uint32_t f2t_stacks_count(const struct f2t_stacks *s);

/**
 * f2t_frame_name() - what a frame is called: its function, else
 *                    "MODULE_BASENAME+0xOFFSET" (never empty)
 *
 * Return: the length written (cut to @len - 1).
 */
size_t f2t_frame_name(const struct f2t_frame *f, char *buf, size_t len);

#endif
