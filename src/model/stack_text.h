/* SPDX-License-Identifier: MIT */
/*
 * A callstack of the profile's (model/profile.h) as text, for the formats
 * that show a stack as an argument: its frames' names as the profile
 * defined them, innermost first, one a line.  The writer hands it the
 * definitions as they come and asks for a callstack's text by id.
 */
#ifndef F2T_STACK_TEXT_H
#define F2T_STACK_TEXT_H

#include <stdint.h>

#include "model/item.h"

/* A stack's text is cut here (whole frames). */
#define F2T_STACK_TEXT_MAX 4095

struct f2t_stack_text;

/* f2t_stack_text_new() - nothing defined yet.  Return: NULL with errno ENOMEM. */
struct f2t_stack_text *f2t_stack_text_new(void);
void f2t_stack_text_free(struct f2t_stack_text *t);

/**
 * f2t_stack_text_define() - keep what a FRAME or CALLSTACK definition says
 *			     (other items: nothing)
 *
 * Return: 0 or -ENOMEM.
 */
int f2t_stack_text_define(struct f2t_stack_text *t, const struct f2t_item *it);

/**
 * f2t_stack_text() - callstack @id's frames, innermost first, joined by '\n'
 *
 * Return: the text (valid until the next call; empty for 0 or an id not
 * defined), cut at F2T_STACK_TEXT_MAX bytes before a frame that does not fit.
 */
struct f2t_str f2t_stack_text(struct f2t_stack_text *t, uint32_t id);

#endif
