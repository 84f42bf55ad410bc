/* SPDX-License-Identifier: MIT */
/*
 * What the recorder and the decoder agree on about sampling data in a
 * capture: the PERF_INFO keys, and the perf record layouts for the
 * sample_type we ask for.  Layouts and constants are the kernel's ABI
 * (linux/perf_event.h); nothing here is copied from perf.
 *
 * PERF_INFO is "key=value\n" text:
 *   event=cpu-clock          what was sampled (a JSON sample's name)
 *   type=1 config=0          perf_event_attr type and config
 *   freq=999                 asked-for samples per second per CPU
 *   sample_type=N            perf_event_attr.sample_type, decimal
 *   regs_user=N              sample_regs_user mask (dwarf), else 0
 *   stack_user=N             sample_stack_user bytes (dwarf), else 0
 *   callgraph=fp|dwarf
 *   scope=all|command|pids   whose samples the trace shows
 *   roots=PID[,PID...]       the command's pid, or the -p processes' tgids:
 *                            the events were per CPU, every task's samples
 *                            are in the data and the conversion keeps the
 *                            scope's (source/perf/sample_filter.h).  Absent in
 *                            scope all, and in captures of older recorders,
 *                            whose command/pids events were task-bound
 *                            (inherit), the data holding the scope's only.
 *   kernel_build_id=HEX      from /sys/kernel/notes, when readable
 *   arch=x86_64              the recording machine's, for unwinding
 */
#ifndef F2T_PERF_REC_H
#define F2T_PERF_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/perf_event.h>

/* What every sample carries, in this order (PERF_SAMPLE_* bit order). */
#define F2T_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define F2T_SAMPLE_TYPE_DWARF (F2T_SAMPLE_TYPE | PERF_SAMPLE_REGS_USER | \
			       PERF_SAMPLE_STACK_USER)

/*
 * The sample_id_all trailer of every non-sample record for our sample_type:
 * {u32 pid, tid; u64 time; u32 cpu, res}.
 */
#define F2T_PERF_ID_TRAILER 24

/* Callchain entries at or above this are context markers, not addresses. */
#define F2T_PERF_CONTEXT_MAX ((uint64_t)-4095)

/* Loads from possibly unaligned record bytes. */
static inline uint64_t f2t_perf_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t f2t_perf_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The time in a whole record of SIZE bytes at REC (header included) of
 * TYPE, for a capture's SAMPLE_TYPE: a sample's own, another record's
 * sample_id_all trailer's.  False when the record is too short to hold it.
 */
static inline bool f2t_perf_rec_time(const unsigned char *rec, size_t size, uint32_t type,
				     uint64_t sample_type, uint64_t *ts)
{
	size_t at = size - F2T_PERF_ID_TRAILER + 8;

	if (type == PERF_RECORD_SAMPLE)
		at = 8 + ((sample_type & PERF_SAMPLE_IP) ? 8 : 0) + 8;
	else if (size < 8 + F2T_PERF_ID_TRAILER)
		return false;
	if (at + 8 > size)
		return false;
	*ts = f2t_perf_u64(rec + at);
	return true;
}

#endif
