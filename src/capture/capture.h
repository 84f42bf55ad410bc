/* SPDX-License-Identifier: MIT */
/*
 * The capture file: what `record` writes while the workload runs and what
 * `convert` reads afterwards, possibly on another machine.
 *
 * Layout: a 16-byte file header ("F2TCAPT\0", u32 version, u32 zero), then
 * records, each a 16-byte header {u32 type, u32 arg, u64 len} followed by len
 * bytes of data padded with zeros to a multiple of 8.  All integers are in the
 * recording machine's byte order (little-endian on every machine we support).
 * A capture ends with an F2T_CAP_END record; one without it was cut short
 * (killed recorder) and is decoded up to its last whole record, with a warning.
 */
#ifndef F2T_CAPTURE_H
#define F2T_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/inmap.h"

#define F2T_CAP_MAGIC   "F2TCAPT"	/* 8 bytes with its NUL */
#define F2T_CAP_VERSION 1

enum f2t_cap_type {
	/* "key=value\n" lines: host, kernel, cmdline, clock, page_size, ncpus,
	 * start_ns, stop_ns, realtime_ns, ... */
	F2T_CAP_META = 1,
	F2T_CAP_HEADER_PAGE = 2,	/* events/header_page, verbatim */
	/* "SYSTEM\0" then the event's format file, verbatim */
	F2T_CAP_EVENT_FORMAT = 3,
	/* arg 0: at start, arg 1: at stop.  Lines "TID TGID COMM\n". */
	F2T_CAP_TASKS = 4,
	/* arg = cpu; whole ring-buffer sub-buffers as trace_pipe_raw gave them */
	F2T_CAP_CPU_DATA = 5,
	/* arg = cpu; per_cpu/cpuN/stats at stop, verbatim */
	F2T_CAP_CPU_STATS = 6,
	F2T_CAP_KALLSYMS = 7,		/* /proc/kallsyms, verbatim */
	F2T_CAP_PRINTK_FORMATS = 8,	/* printk_formats, verbatim */
	/* CPU sampling (perf_event_open); see capture/perf_rec.h */
	F2T_CAP_PERF_INFO = 9,		/* "key=value\n": event, sample_type, ... */
	/* arg = cpu; whole perf records, as the cpu's mmap ring held them */
	F2T_CAP_PERF_DATA = 10,
	/* arg = pid; the executable lines of /proc/PID/maps at start */
	F2T_CAP_MAPS = 11,
	/* "HEXBUILDID PATH\n" for files mapped at start (read at stop) */
	F2T_CAP_BUILD_IDS = 12,
	/* arg = pid; /tmp/perf-PID.map (JIT symbols), verbatim */
	F2T_CAP_JIT_MAP = 13,
	/* Off-CPU episodes (record --off-cpu); see capture/offcpu_rec.h */
	F2T_CAP_OFFCPU_INFO = 14,	/* arg 0: at start, arg 1: counts at stop */
	F2T_CAP_OFFCPU_DATA = 15,	/* struct f2t_offcpu_rec, back to back */
	F2T_CAP_OFFCPU_STACKS = 16,	/* the stack map at stop */
	F2T_CAP_TYPE_MAX = F2T_CAP_OFFCPU_STACKS,
	F2T_CAP_END = 0xffff,
};

/* Writing.  f2t_capw_add() may be called from several threads at once. */
struct f2t_capw;

/*
 * Starts a capture at PATH, mode 0600, through a temporary file that takes
 * the name at f2t_capw_close() (util/outfile.h).  UNNAMED: a capture that
 * never gets a name, only an fd (f2t_capw_fd()), in PATH's directory.
 * Returns NULL + errno.
 */
struct f2t_capw *f2t_capw_open(const char *path, bool unnamed);
int f2t_capw_add(struct f2t_capw *w, uint32_t type, uint32_t arg,
		 const void *data, size_t len);
/* Same, data given in two pieces (e.g. a name and a body). */
int f2t_capw_add2(struct f2t_capw *w, uint32_t type, uint32_t arg,
		  const void *a, size_t alen, const void *b, size_t blen);
uint64_t f2t_capw_bytes(const struct f2t_capw *w);
/* The first write error (sticky: nothing is written after it), or 0. */
int f2t_capw_error(const struct f2t_capw *w);
/* The file being written, for messages. */
const char *f2t_capw_name(const struct f2t_capw *w);
int f2t_capw_fd(const struct f2t_capw *w);
/*
 * Writes the END record, syncs, closes, and gives the file its name.
 * Returns 0 or the first error (the file is then removed).
 */
int f2t_capw_close(struct f2t_capw *w);
/* Closes and removes the file (error path). */
void f2t_capw_abort(struct f2t_capw *w);

/* Reading.  The whole file is mapped; records point into the mapping. */
struct f2t_cap_rec {
	uint32_t type;
	uint32_t arg;
	uint64_t offset;	/* of the data, in the file */
	uint64_t len;
	const void *data;
};

struct f2t_capr {
	char *path;
	struct f2t_inmap inmap;	/* the file, mapped */
	const unsigned char *map;	/* inmap's data */
	size_t size;
	struct f2t_cap_rec *recs;
	size_t nrecs;
	bool complete;		/* END record seen */
};

/*
 * Opens and checks PATH.  On error reports what is wrong (naming the file
 * and the offset) and returns NULL with errno set.
 */
struct f2t_capr *f2t_capr_open(const char *path);
/* f2t_capr_open() of the file open as FD (PATH names it); FD may be closed after. */
struct f2t_capr *f2t_capr_open_fd(const char *path, int fd);
void f2t_capr_close(struct f2t_capr *r);
/* First record of TYPE (and ARG, unless arg < 0), or NULL. */
const struct f2t_cap_rec *f2t_capr_find(const struct f2t_capr *r, uint32_t type,
					 long arg);
/*
 * The records of one type that carry per-CPU data (arg = cpu), split by CPU
 * in file order: what a per-CPU stream walks.  Records of no length are left
 * out.  Free with f2t_cap_cpus_free().
 */
struct f2t_cap_cpus {
	uint32_t ncpus;		/* highest cpu seen + 1 */
	struct f2t_cap_cpu {
		size_t *recs;	/* indices into f2t_capr.recs */
		size_t n, cap;
	} *cpu;
};

/*
 * Splits R's records of TYPE by CPU into OUT.  A cpu of MAX_CPUS or more is
 * reported (file and offset) and refused with -EINVAL.  Returns 0, -EINVAL
 * or -ENOMEM.
 */
int f2t_capr_split_by_cpu(const struct f2t_capr *r, uint32_t type, uint32_t max_cpus,
			  struct f2t_cap_cpus *out);
void f2t_cap_cpus_free(struct f2t_cap_cpus *c);

/* The value of KEY in a "key=value\n" record (META, PERF_INFO; R may be NULL), malloc'd, or NULL. */
char *f2t_capr_kv(const struct f2t_cap_rec *r, const char *key);
/* The same as a decimal number; 0 when absent. */
uint64_t f2t_capr_kv_u64(const struct f2t_cap_rec *r, const char *key);
/* The value of KEY in the META record, or NULL.  Returns a malloc'd string. */
char *f2t_capr_meta(const struct f2t_capr *r, const char *key);

#endif
