/* SPDX-License-Identifier: MIT */
/*
 * Made-up process and thread ids for what happens on a CPU rather than in a
 * task: interrupt handlers, idle and frequency counters, and the function
 * calls of the per-CPU idle tasks (which all have pid 0, so one "thread"
 * for them would interleave every CPU's calls).
 *
 * Neither viewer has per-CPU tracks for events we can write: Perfetto's
 * FXT importer puts every event on a thread or a process, and JSON has
 * only pid/tid.  So each CPU gets pseudo threads in one pseudo process.
 *
 * The ids are stable (documented in ftrace2trace-record(1)) and chosen
 * not to collide with real ones: Linux pids stop at PID_MAX_LIMIT (2^22),
 * these start at 0x7fff0000.  They stay below 2^31 because Perfetto
 * truncates FXT koids to 32 bits and JSON readers take pid/tid as int32.
 */
#ifndef F2T_PSEUDO_H
#define F2T_PSEUDO_H

#include <stdint.h>

#define F2T_PSEUDO_PID		0x7fff0000	/* the process "CPUs" */
#define F2T_PSEUDO_PROCESS_NAME	"CPUs"
/* "irq cpuN": hardirq and softirq handlers on CPU N, nested as they ran. */
#define F2T_PSEUDO_IRQ_TID(cpu)	(0x7fff1000 + (int32_t)(cpu))
/* "swapper/N": function calls made by CPU N's idle task. */
#define F2T_PSEUDO_IDLE_TID(cpu)	(0x7fff2000 + (int32_t)(cpu))

#endif
