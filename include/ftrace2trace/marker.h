/* SPDX-License-Identifier: MIT */
/*
 * ftrace2trace/marker.h - annotate a program for ftrace2trace.  Header only:
 * include it, nothing to link.
 *
 *	#include <ftrace2trace/marker.h>
 *
 *	f2t_trace_begin("decode frame");
 *	...
 *	f2t_trace_end();
 *	f2t_trace_counter("queue depth", depth);
 *
 * Each call formats one atrace-style line ("B|pid|name", "E|pid",
 * "C|pid|name|value", ...) in a stack buffer and hands it to the kernel
 * with ONE write() to the tracefs trace_marker file, so lines from several
 * threads never interleave and no lock is taken.  The kernel stamps each
 * line with the time and the writing thread; `ftrace2trace record` turns
 * them into slices, counters and instants on that thread, in the process
 * the kernel knows it by (the pid in the line is only informative): FXT
 * duration, counter, async and instant records; JSON B/E, C, b/e and i
 * events.  Slices must nest per thread: an end with nothing open on its
 * thread is dropped and counted, as is an async end with no begin; a line
 * that does not parse becomes an instant that says why.  See MARKERS in
 * ftrace2trace(1).  The header is async-signal-safe apart from the first
 * call, which opens the file.
 *
 * Where the lines go: /sys/kernel/tracing/trace_marker (or the older
 * /sys/kernel/debug/tracing/trace_marker), i.e. the top-level ring buffer.
 * ftrace2trace records in a tracefs instance of its own and asks the kernel
 * to copy top-level trace_marker writes into it (the instance option
 * copy_trace_marker); on kernels without that option, markers reach a
 * recording only when written to the instance's own trace_marker.  The
 * environment variable F2T_TRACE_MARKER, when set, names the file to write
 * instead: an instance's trace_marker, or a plain file for testing (it must
 * exist; it is opened for appending).  It is ignored in set-id programs.
 *
 * Writing trace_marker needs root (or write access given to it).  When the
 * file cannot be opened every call returns that error and does nothing
 * else; a program never has to check.  Define F2T_TRACE_DISABLE before the
 * include to compile every call away.
 *
 * Clock sync: a program that also keeps its own trace on another clock
 * calls f2t_trace_clock_sync("ID") between two reads of its own clock and
 * puts, in its own Chrome JSON trace,
 *	{"name":"clock_sync","ph":"c","ts":AFTER,"args":{"sync_id":"ID","issue_ts":BEFORE}}
 * The kernel trace's JSON holds the other side: a clock_sync event with the
 * same id at the kernel's time for the marker (one per id: use each id
 * once).  `ftrace2trace merge` then puts both traces on one time axis.  Programs
 * that can use CLOCK_MONOTONIC for their own trace need no sync at all:
 * ftrace2trace records on that clock (f2t_trace_now_ns() reads it).
 *
 * Each translation unit that uses these functions opens the marker file
 * once, on first use, and keeps it open.  Names are cut to fit one line
 * (about 970 bytes); '|' and line breaks in names become ' ' so they cannot
 * break the line's fields.
 *
 * Needs POSIX.1-2008 (clock_gettime, O_CLOEXEC): with a strict -std=c11,
 * define _POSIX_C_SOURCE 200809L (or _GNU_SOURCE) before any #include.
 * Usable from C++ too (GCC or Clang: it uses their __atomic builtins).
 */
#ifndef FTRACE2TRACE_MARKER_H
#define FTRACE2TRACE_MARKER_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* One marker line at most; the kernel accepts at least 1 KiB per write. */
#define F2T_TRACE_LINE_MAX 1024
/* Room kept after a name for "|<int64>|<int64>\n". */
#define F2T__TAIL_ROOM 48

#ifndef F2T_TRACE_DISABLE

/* The marker line being built; always leaves one byte for the '\n'. */
struct f2t__line {
	char buf[F2T_TRACE_LINE_MAX];
	size_t len;
};

static inline void f2t__putc(struct f2t__line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
}

/* Copies S, cut to leave F2T__TAIL_ROOM bytes, with '|' and line breaks as ' '. */
static inline void f2t__put_name(struct f2t__line *l, const char *s)
{
	size_t room = sizeof(l->buf) - F2T__TAIL_ROOM;

	for (; s && *s && l->len < room; s++)
		l->buf[l->len++] = (*s == '|' || *s == '\n' || *s == '\r') ? ' ' : *s;
}

static inline void f2t__put_i64(struct f2t__line *l, int64_t v)
{
	char digits[20];
	/* Negate in unsigned arithmetic: INT64_MIN has no positive twin. */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n = 0;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		f2t__putc(l, '-');
	while (n)
		f2t__putc(l, digits[--n]);
}

/* "X|pid|" */
static inline void f2t__start(struct f2t__line *l, char phase)
{
	l->len = 0;
	f2t__putc(l, phase);
	f2t__putc(l, '|');
	f2t__put_i64(l, (int64_t)getpid());
}

/* The marker file, opened once per translation unit; negative errno if none. */
static inline int f2t__open_marker(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/trace_marker",
		"/sys/kernel/debug/tracing/trace_marker",
	};
	const char *env = getenv("F2T_TRACE_MARKER");
	int err = ENOENT;

	/* A set-id program must not write where its caller says. */
	if (env && *env && getuid() == geteuid() && getgid() == getegid()) {
		int fd = open(env, O_WRONLY | O_APPEND | O_CLOEXEC);

		return fd >= 0 ? fd : -errno;
	}
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int fd = open(paths[i], O_WRONLY | O_CLOEXEC);

		if (fd >= 0)
			return fd;
		/* Report the most telling failure: EACCES over ENOENT. */
		if (errno != ENOENT)
			err = errno;
	}
	return -err;
}

/**
 * f2t_trace_fd() - the marker file descriptor
 *
 * Opens the file on the first call (from any thread: the first to finish
 * opening wins, the others close theirs) and returns the same descriptor
 * afterwards.  A failure is remembered too, so a program without access
 * pays for one open() only.
 *
 * Return: the descriptor, or a negative errno.
 */
static inline int f2t_trace_fd(void)
{
	/* -1: not opened yet; >= 0: the fd; < -1: -(errno) - 1 of the failure. */
	static int state = -1;
	int cur = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	int expected = -1, fd, mine;

	if (cur != -1)
		return cur >= 0 ? cur : cur + 1;
	fd = f2t__open_marker();
	mine = fd >= 0 ? fd : fd - 1;
	if (!__atomic_compare_exchange_n(&state, &expected, mine, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* Another thread got there first: use its result. */
		if (fd >= 0)
			close(fd);
		return expected >= 0 ? expected : expected + 1;
	}
	return fd;
}

/* Ends the line and writes it with one write(): 0 or negative errno. */
static inline int f2t__emit(struct f2t__line *l)
{
	int fd = f2t_trace_fd();
	ssize_t n;

	if (fd < 0)
		return fd;
	l->buf[l->len++] = '\n';	/* f2t__putc always leaves this byte */
	do
		n = write(fd, l->buf, l->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == l->len ? 0 : -EIO;
}

/**
 * f2t_trace_begin() - begin a slice on the calling thread
 * @name: what the slice is called
 *
 * Slices nest: each f2t_trace_end() on the same thread ends the innermost.
 *
 * Return: 0, or a negative errno (nothing was recorded).
 */
static inline int f2t_trace_begin(const char *name)
{
	struct f2t__line l;

	f2t__start(&l, 'B');
	f2t__putc(&l, '|');
	f2t__put_name(&l, name);
	return f2t__emit(&l);
}

/**
 * f2t_trace_end() - end the innermost slice of the calling thread
 *
 * Return: 0, or a negative errno.
 */
static inline int f2t_trace_end(void)
{
	struct f2t__line l;

	f2t__start(&l, 'E');
	return f2t__emit(&l);
}

/**
 * f2t_trace_counter() - set a counter of the calling process
 * @name: the counter (one track per name and process)
 * @value: its value from now on
 *
 * Return: 0, or a negative errno.
 */
static inline int f2t_trace_counter(const char *name, int64_t value)
{
	struct f2t__line l;

	f2t__start(&l, 'C');
	f2t__putc(&l, '|');
	f2t__put_name(&l, name);
	f2t__putc(&l, '|');
	f2t__put_i64(&l, value);
	return f2t__emit(&l);
}

/**
 * f2t_trace_async_begin() - begin an asynchronous slice
 * @name: what it is called
 * @cookie: tells apart overlapping slices of the same name in the process
 *
 * It may end on any thread: f2t_trace_async_end() with the same name and
 * cookie.
 *
 * Return: 0, or a negative errno.
 */
static inline int f2t_trace_async_begin(const char *name, int64_t cookie)
{
	struct f2t__line l;

	f2t__start(&l, 'S');
	f2t__putc(&l, '|');
	f2t__put_name(&l, name);
	f2t__putc(&l, '|');
	f2t__put_i64(&l, cookie);
	return f2t__emit(&l);
}

/**
 * f2t_trace_async_end() - end an asynchronous slice
 * @name: as given to f2t_trace_async_begin()
 * @cookie: as given to f2t_trace_async_begin()
 *
 * Return: 0, or a negative errno.
 */
static inline int f2t_trace_async_end(const char *name, int64_t cookie)
{
	struct f2t__line l;

	f2t__start(&l, 'F');
	f2t__putc(&l, '|');
	f2t__put_name(&l, name);
	f2t__putc(&l, '|');
	f2t__put_i64(&l, cookie);
	return f2t__emit(&l);
}

/**
 * f2t_trace_instant() - mark a moment on the calling thread
 * @name: what happened
 *
 * Return: 0, or a negative errno.
 */
static inline int f2t_trace_instant(const char *name)
{
	struct f2t__line l;

	f2t__start(&l, 'I');
	f2t__putc(&l, '|');
	f2t__put_name(&l, name);
	return f2t__emit(&l);
}

/**
 * f2t_trace_clock_sync() - leave a clock sync point in the kernel trace
 * @id: the sync id: 1 to 64 letters, digits, '_' or '-' (what Trace
 *	Viewer accepts), unique within the recording
 *
 * Writes "trace_event_clock_sync: name=ID".  Read the program's own clock
 * just before and just after the call and record a clock_sync event with
 * the same id in the program's own trace (see the top of this file).
 *
 * Return: 0, -EINVAL for a bad id (nothing written), or a negative errno.
 */
static inline int f2t_trace_clock_sync(const char *id)
{
	static const char prefix[] = "trace_event_clock_sync: name=";
	struct f2t__line l;
	size_t n = 0;

	for (; id && id[n]; n++) {
		char c = id[n];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || c == '_' || c == '-'))
			return -EINVAL;
	}
	if (n == 0 || n > 64)
		return -EINVAL;
	l.len = 0;
	for (size_t i = 0; prefix[i]; i++)
		f2t__putc(&l, prefix[i]);
	for (size_t i = 0; i < n; i++)
		f2t__putc(&l, id[i]);
	return f2t__emit(&l);
}

#else /* F2T_TRACE_DISABLE: every call compiles to nothing. */

static inline int f2t_trace_fd(void) { return -ENODEV; }
static inline int f2t_trace_begin(const char *name) { (void)name; return 0; }
static inline int f2t_trace_end(void) { return 0; }
static inline int f2t_trace_counter(const char *name, int64_t value)
{ (void)name; (void)value; return 0; }
static inline int f2t_trace_async_begin(const char *name, int64_t cookie)
{ (void)name; (void)cookie; return 0; }
static inline int f2t_trace_async_end(const char *name, int64_t cookie)
{ (void)name; (void)cookie; return 0; }
static inline int f2t_trace_instant(const char *name) { (void)name; return 0; }
static inline int f2t_trace_clock_sync(const char *id) { (void)id; return 0; }

#endif /* F2T_TRACE_DISABLE */

/**
 * f2t_trace_now_ns() - CLOCK_MONOTONIC now, in nanoseconds
 *
 * The clock ftrace2trace records on (trace_clock "mono"): a program that
 * stamps its own events with it shares the kernel trace's time axis.
 *
 * Return: the time, or 0 if the clock cannot be read.
 */
static inline uint64_t f2t_trace_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* FTRACE2TRACE_MARKER_H */
