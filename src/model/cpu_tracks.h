/* SPDX-License-Identifier: MIT */
/*
 * What each CPU is doing outside any task: the interrupt handlers running
 * on it (hardirqs, softirqs, nested as they interrupted each other) and its
 * idle state.  Writers turn this into per-CPU slices and counters; this
 * module only decides, from the event stream, which slices open and close,
 * so every output agrees and no writer ever ends a slice it did not begin.
 *
 * Each writer keeps its own instance (the state is small): the decisions
 * depend only on the events, so every instance makes the same ones.
 */
#ifndef F2T_CPU_TRACKS_H
#define F2T_CPU_TRACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"

struct f2t_cpu_tracks;

/* What an irq or softirq event does to its CPU's slices. */
struct f2t_irq_step {
	/*
	 * Slices to end, innermost first, at the event's time.  For an exit,
	 * its own slice is the last of them; any before it are handlers whose
	 * exit the ring buffer lost.  0 for an exit whose entry was never seen
	 * (the trace began inside the handler): nothing to end.
	 */
	unsigned int close;
	bool begin;		/* an entry: begin its slice, after the ends */
};

/** f2t_cpu_tracks_new() - empty state; NULL with errno ENOMEM */
struct f2t_cpu_tracks *f2t_cpu_tracks_new(void);

/** f2t_cpu_tracks_free() - frees @c; NULL is fine */
void f2t_cpu_tracks_free(struct f2t_cpu_tracks *c);

/**
 * f2t_cpu_irq() - the slice steps for one irq or softirq event
 * @c: the state
 * @ev: F2T_EV_IRQ_ENTRY, IRQ_EXIT, SOFTIRQ_ENTRY or SOFTIRQ_EXIT
 * @step: filled in
 *
 * An exit ends the innermost open handler of its kind and number (irq or
 * vec), and every handler opened after it.  An entry while the CPU already
 * holds as many open handlers as real nesting allows means exits were lost:
 * they are all ended first.
 */
void f2t_cpu_irq(struct f2t_cpu_tracks *c, const struct f2t_event *ev,
		 struct f2t_irq_step *step);

/**
 * f2t_cpu_lost() - the ring buffer lost events on @cpu
 * @c: the state
 * @cpu: the CPU
 *
 * Whatever was open there may have ended unseen: it is forgotten.
 *
 * Return: how many open slices the writer should end now.
 */
unsigned int f2t_cpu_lost(struct f2t_cpu_tracks *c, uint32_t cpu);

/**
 * f2t_cpu_of() - the CPU a power event is about
 * @ev: F2T_EV_CPU_IDLE or F2T_EV_CPU_FREQ
 *
 * Return: its cpu_id field when it names a CPU we can track, else the CPU
 * that recorded it.
 */
uint32_t f2t_cpu_of(const struct f2t_event *ev);

/**
 * f2t_cpu_idle_value() - an idle state as a counter value
 * @state: power:cpu_idle's state
 *
 * Return: the state (0 is the shallowest), or -1 for "not idle", which the
 * kernel writes as 4294967295: drawn as is, that one value would flatten
 * every real state to nothing.  Perfetto's own idle tracks use -1 too.
 */
int64_t f2t_cpu_idle_value(uint32_t state);

#endif
