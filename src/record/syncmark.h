/* SPDX-License-Identifier: MIT */
/*
 * The recorder's own clock sync markers.  Right after tracing goes on and
 * right before it goes off, the recorder writes
 *
 *	trace_event_clock_sync: name=ftrace2trace-start-PID-REALTIME
 *
 * (and -end-) to our instance's trace_marker, with CLOCK_MONOTONIC,
 * CLOCK_REALTIME and CLOCK_BOOTTIME read back to back just before.  The
 * kernel stamps the marker on the trace clock, so each becomes a point
 * where the trace clock is paired with the wall clock and the boot clock:
 * the JSON writer turns the marker into a clock_sync event and the readings
 * (from META) into otherData.
 */
#ifndef F2T_SYNCMARK_H
#define F2T_SYNCMARK_H

#include <tracefs.h>

#include "record/meta.h"

/**
 * f2t_syncmark_write() - write one clock sync marker and note the clocks
 * @ti:    our instance; tracing must be on for the marker to be recorded
 * @which: "start" or "end", part of the id
 * @s:     filled in: the id and the three clock readings; the id is left
 *	   empty when nothing could be written
 *
 * The id is unique per recording (our pid and CLOCK_REALTIME in ns), so
 * two recordings merged never share it.  Only our instance sees the marker:
 * it is written to the instance's own trace_marker, which is not copied
 * anywhere else.
 *
 * Return: 0 or negative errno (a note was printed; the recording goes on).
 */
int f2t_syncmark_write(struct tracefs_instance *ti, const char *which, struct f2t_meta_sync *s);

#endif
