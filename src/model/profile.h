/* SPDX-License-Identifier: MIT */
/*
 * The profile stage: every stack of a conversion decided once, for every
 * writer.  Mappings (a binary in a process; the kernel's in all of them),
 * frames (an address in a mapping, with its name) and callstacks (a frame
 * called from a parent callstack) are interned as samples and off-CPU
 * episodes bring their frames; each is handed to the writers as a
 * definition item (model/item.h) before the first item that uses it, which
 * names it by id.  A writer encodes ids and definitions; it never sees a
 * frame's symbols.  The stack tree by name (JSON's stackFrames, the count
 * "stack_frames"; model/stacks.h) hangs off the callstacks, made for the
 * stacks that are drawn.  Memory grows with distinct stacks, never with
 * samples.
 */
#ifndef F2T_PROFILE_H
#define F2T_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"
#include "model/item.h"
#include "model/model.h"

/* A frame's name as definitions give it is cut here (the kernel's KSYM_NAME_LEN less one). */
#define F2T_FRAME_NAME_MAX 511

struct f2t_profile;

struct f2t_profile *f2t_profile_new(void);
void f2t_profile_free(struct f2t_profile *p);

/**
 * f2t_profile_stack() - the callstack of @frames in process @pid, what is
 *			 new of it defined first
 * @frames: innermost first
 * @n: how many
 * @named: its node in the stack tree too (for none, the one "[unknown]" root)
 * @use: the item that will name it: its time and track go with the definitions
 * @emit: where the definitions go, with @ctx
 * @ref: set to the callstack (0: no frames) and, when @named, its node
 *
 * Return: 0, -ENOMEM, or what @emit returned.
 */
int f2t_profile_stack(struct f2t_profile *p, int32_t pid, const struct f2t_frame *frames,
		      uint32_t n, bool named, const struct f2t_item *use, f2t_item_fn emit,
		      void *ctx, struct f2t_stack_ref *ref);

/* Nodes of the stack tree made so far. */
uint32_t f2t_profile_nodes(const struct f2t_profile *p);

#endif
