/* SPDX-License-Identifier: MIT */
/*
 * The text of function-tracer records, for the ftrace text outputs.
 *
 * The kernel prints these records in its tracers' own forms, without an
 * event name: "do_sys_openat2 <-__x64_sys_openat" for the function tracer;
 * "  8.934 us   |    }" then the function's name in a C comment, for the
 * function_graph one.  Every line of systemTraceEvents must carry an event name, though: a line
 * Perfetto's tokenizer cannot read ("TS: NAME: ...") makes it refuse the
 * whole JSON file (docs/viewers.md).  So each line is the event name,
 * then the kernel's own text for the record, as trace-cmd prints them.
 */
#ifndef F2T_FUNCTEXT_H
#define F2T_FUNCTEXT_H

#include <stdbool.h>

#include "source/textline.h"
#include "model/event.h"

/* Indentation is cut at this depth; the kernel's own limit is far lower. */
#define F2T_FUNCTEXT_MAX_INDENT 256

/*
 * Function, parent and module names are cut to this many bytes: the
 * kernel's KSYM_NAME_LEN less its NUL, the longest name a kernel prints.
 * Longer ones come only from a damaged or planted symbol table.
 */
#define F2T_FUNCTEXT_MAX_NAME 511

/*
 * The most bytes f2t_functext() appends: the event name and graph columns
 * (64, with a 20-digit duration), the indentation, and two names with
 * their separators; a line needs this much room after its header.
 */
#define F2T_FUNCTEXT_MAX_LEN (64 + 2 * F2T_FUNCTEXT_MAX_INDENT + 2 * F2T_FUNCTEXT_MAX_NAME + 16)

/**
 * f2t_functext() - append what follows "TS: " for a function-tracer event
 * @l: the line, with room for F2T_FUNCTEXT_MAX_LEN bytes more
 * @ev: the event
 *
 *   function: NAME <-PARENT
 *   funcgraph_entry:                 |    NAME() {
 *   funcgraph_exit:    + 12.345 us   |    }  and NAME in a C comment
 *
 * The graph columns are the function_graph tracer's: a mark for long
 * calls, the call's duration (rettime - calltime) as the kernel formats
 * it, then two spaces of indentation per depth.  An entry is never folded with its exit into
 * "NAME();" as the kernel does for a call with no call inside: that needs
 * the next record of the CPU, and text is written one event at a time; so
 * every exit names its function, as with the funcgraph-tail option.
 *
 * Names longer than F2T_FUNCTEXT_MAX_NAME bytes are cut there.
 *
 * Return: true if @ev is a function-tracer event and was written.
 */
bool f2t_functext(struct textline *l, const struct f2t_event *ev);

/**
 * f2t_functext_duration() - a call's duration as function_graph prints it
 * @l: the line
 * @ns: the duration
 *
 * "12.345 us " padded to the kernel's column: microseconds and at most
 * seven digits in all, nanoseconds cut to fit.
 */
void f2t_functext_duration(struct textline *l, uint64_t ns);

#endif
