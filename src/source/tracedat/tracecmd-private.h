/* SPDX-License-Identifier: MIT */
/*
 * Calls libtracecmd.so.1 exports and trace-cmd itself uses, but its public
 * header (trace-cmd/trace-cmd.h) does not declare: what a trace.dat says
 * about where and how it was recorded, so the trace.dat input can name the
 * recording's clock, kernel and CPU count (signatures unchanged since 1.0),
 * when libtracecmd reads the file;
 * and the copy `trace-cmd convert` makes (this signature since 1.2).
 */
#ifndef F2T_TRACECMD_PRIVATE_H
#define F2T_TRACECMD_PRIVATE_H

#include <trace-cmd/trace-cmd.h>

/* The buffer's trace clock ("local", "mono", "x86-tsc"...), or NULL. */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
/* "SYSNAME NODENAME RELEASE VERSION", or NULL. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
/* The per_cpu/cpuN/stats texts saved at the end, or NULL. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
/* How many CPUs the buffer has data for. */
int tracecmd_cpus(struct tracecmd_input *handle);
/* The compression of a version 7 file: 0 and its name, or -1 for none. */
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);

/* How far a file is read or written (trace-cmd's file states); the last holds the data. */
enum tracecmd_file_states {
	TRACECMD_FILE_CPU_FLYRECORD = 11,
};
/* A copy of IHANDLE's file (opened with tracecmd_open_head()) up to STATE, at FILE. */
struct tracecmd_output *tracecmd_copy(struct tracecmd_input *ihandle, const char *file,
				      enum tracecmd_file_states state, int file_version,
				      const char *compression);
void tracecmd_output_close(struct tracecmd_output *handle);

#endif
