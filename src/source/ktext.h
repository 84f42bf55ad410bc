/* SPDX-License-Identifier: MIT */
/*
 * Pieces of the kernel's ftrace text written from decoded events, in the
 * kernel's own column widths (textline.h): the task and CPU columns, the
 * timestamp, and the fields of sched_switch and the wakeups.  Every source
 * that gives an event's text back (rawdec.c for ring-buffer records,
 * text_input.c for text it read) writes them the same way.
 */
#ifndef F2T_KTEXT_H
#define F2T_KTEXT_H

#include "model/event.h"
#include "source/textline.h"

/*
 * "%16s-%-7d (%7s) [%03d] ": the task, its process (TGID < 0, and the idle
 * task's, print as "-------") and the CPU, with the record-tgid option's
 * column.
 */
void f2t_ktext_task(struct textline *l, const char *comm, int32_t pid, int32_t tgid,
		    uint32_t cpu);

/* " %5lu.%06lu: ", rounded to the microsecond as the kernel does (ns2usecs()). */
void f2t_ktext_time(struct textline *l, uint64_t ts);

/* sched_switch's fields: "prev_comm=... ==> next_comm=... next_prio=N". */
void f2t_ktext_switch(struct textline *l, const struct f2t_event *ev);

/* sched_waking's, sched_wakeup's and sched_wakeup_new's: "comm=... target_cpu=NNN". */
void f2t_ktext_wake(struct textline *l, const struct f2t_event *ev);

#endif
