/* SPDX-License-Identifier: MIT */
/*
 * Function-graph calls as nested slices per thread.
 *
 * Slices begin at the funcgraph_entry record and end at the funcgraph_exit
 * record, both on the trace clock: the exit's calltime/rettime are on the
 * kernel's local clock, which is offset from the trace clock by
 * milliseconds and drifts (docs/kernel.md), so they give a call's length
 * but cannot place it among the other events.
 *
 * The stream is not always balanced, and a writer must never end a slice
 * it did not begin (the viewer would end some other one):
 *  - the trace starts inside calls, whose exits then come without entries;
 *    each becomes a whole ("complete") slice ending at its exit and as
 *    long as the kernel measured, moved earlier if needed so that it holds
 *    the calls already shown inside it;
 *  - lost events leave entries without exits: the depth the kernel gives
 *    every record tells, and those slices end where the stream resumes.
 *
 * The idle tasks all have pid 0; each CPU's is kept apart.  Each writer
 * keeps its own instance; every instance makes the same decisions.
 */
#ifndef F2T_FGRAPH_H
#define F2T_FGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"

struct f2t_fgraph;

/* What one funcgraph event asks of a writer, in this order. */
struct f2t_fg_step {
	/* Slices to end on the thread at ev->ts, innermost first.  For an
	 * exit that matches its entry, its own slice is the last of them. */
	unsigned int close;
	bool begin;		/* entry: begin a slice for the function at ev->ts */
	bool complete;		/* exit without entry: one slice [start, ev->ts] */
	uint64_t start;
};

/** f2t_fgraph_new() - empty state, or NULL with errno ENOMEM */
struct f2t_fgraph *f2t_fgraph_new(void);

/** f2t_fgraph_free() - frees @g; NULL is fine */
void f2t_fgraph_free(struct f2t_fgraph *g);

/**
 * f2t_fgraph_event() - the steps for one funcgraph entry or exit
 * @g: the state
 * @ev: F2T_EV_FUNCGRAPH_ENTRY or F2T_EV_FUNCGRAPH_EXIT
 * @step: filled in
 *
 * Return: 0, or -ENOMEM (then @step asks for nothing).
 */
int f2t_fgraph_event(struct f2t_fgraph *g, const struct f2t_event *ev,
		     struct f2t_fg_step *step);

/**
 * f2t_fgraph_unmatched() - exits shown as complete slices so far
 * @g: the state
 *
 * Return: their number (the trace began inside those calls, or lost
 * their entries).
 */
uint64_t f2t_fgraph_unmatched(const struct f2t_fgraph *g);

#endif
