/* SPDX-License-Identifier: MIT */
/*
 * Inside the report: what is gathered as spans pass (report.c), the table
 * of threads and processes built from it at the end (report_table.c), and
 * the three ways of writing it (report_text.c, report_json.c, report_csv.c).
 */
#ifndef F2T_REPORT_LOCAL_H
#define F2T_REPORT_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/stats.h"
#include "model/thread_states.h"
#include "report/lathist.h"
#include "report/report.h"
#include "source/input.h"
#include "util/idmap.h"

/* How many of a CPU's holders are named for a wait. */
#define F2T_REPORT_HELD 3

/* One wait for a CPU and what ran there meanwhile. */
struct f2t_wait {
	uint64_t start, ns;		/* trace ns */
	int32_t tid;
	uint32_t cpu;			/* where it then ran */
	bool preempted;			/* after a switch out in R, not a wakeup */
	bool complete;			/* held[] names everything that ran meanwhile */
	int32_t waker;			/* wakeups: -1 unknown, 0 idle/interrupt */
	uint8_t nheld;
	struct f2t_tstate_holder held[F2T_REPORT_HELD];
};

/* What is kept per thread: the thread-state stage's consumer bytes. */
struct f2t_rthread {
	uint64_t ns[F2T_TS_COUNT];	/* inside the window */
	uint64_t vol, invol, migrations;
	uint64_t preempt_waits, preempt_max;
	struct f2t_lathist *hist;	/* wakeup latencies; NULL: none yet */
	struct f2t_wait wmax;		/* the longest wakeup latency (ns 0: none) */
	/* Running time on run_cpu not yet added to f2t_report.cputask: one
	 * lookup per change of CPU, not per run. */
	uint64_t run_ns;
	uint32_t run_cpu;
	bool seen;			/* in the window */
};

struct f2t_rcpu {
	uint64_t busy, idle, switches;
	struct f2t_lathist *hist;	/* wakeup latencies of what then ran here; NULL: none */
};

struct f2t_report {
	struct f2t_report_opts o;
	const struct f2t_recording *rec;
	struct f2t_tstates *ts;
	uint64_t w0, w1;		/* the window, trace ns */
	bool window_set;
	struct f2t_rcpu cpus[F2T_MAX_CPUS];
	uint32_t ncpus;			/* highest CPU seen + 1 */
	struct f2t_idmap cputask;	/* cpu << 32 | tid -> uint64_t ns run there */
	uint64_t unknown_why[F2T_TSW_COUNT];
	uint64_t thread_ns;		/* every thread's observed time */
	struct f2t_wait *slow;		/* the waits longer than o.slow_ns */
	size_t nslow, slow_cap;
	struct f2t_stats st;		/* the run's counts, at its end */
	/* The recording's processes (tgid -> nothing): the input's pids and
	 * the processes they started; none: the input names none. */
	struct f2t_idmap focus;
	bool ended;			/* the pass reached its end: the report is whole */
	bool continued;			/* a later input of one table: no CSV header */
	int err;			/* from a span, passed on */
};

/* The per-thread columns, in output order (their names: f2t_report_col_name). */
enum f2t_report_col {
	C_LIFE, C_RUNNING, C_WOKEN, C_PREEMPTED, C_SLEEPING, C_BLOCKED, C_IDLE, C_STOPPED,
	C_UNKNOWN, C_VOL, C_INVOL, C_MIGRATIONS, C_WAKEUPS, C_P50, C_P90, C_P99, C_MAX,
	C_MAX_AT, C_MAX_CPU, C_PREEMPT_WAITS, C_PREEMPT_MAX,
	C_COUNT
};

/* A thread's row, or a process's roll-up of its threads. */
struct f2t_row {
	int32_t tid, pid;		/* tid -1: a process row; pid -1 too: the others */
	const char *comm;
	uint32_t nthreads;
	uint32_t nprocs;		/* the others: how many processes summed */
	uint64_t v[C_COUNT];
	const struct f2t_wait *wmax;	/* the longest wakeup latency; NULL: none */
	/* Wakeup latencies (NULL: none): a thread's own; a process's, its only
	 * thread's, or their merged copy (own_hist, freed with the table). */
	struct f2t_lathist *hist;
	bool own_hist;
};

struct f2t_group {
	struct f2t_row proc;
	struct f2t_row **threads;	/* sorted */
	size_t n;
};

struct f2t_table {
	struct f2t_row *rows;		/* every selected thread */
	struct f2t_row **order;		/* the same, one slice per group (groups[].threads) */
	size_t nrows;
	struct f2t_group *groups;	/* sorted */
	size_t ngroups;
	struct f2t_lathist all;		/* every selected thread's latencies */
	bool filtered;			/* a filter was given */
	/* The processes not the recording's, summed (nprocs 0: none, or
	 * listed: --all-processes, a filter, an input naming none). */
	struct f2t_row others;
};

const char *f2t_report_col_name(enum f2t_report_col c);
/* Columns with no value when a row has no wakeup (percentiles, max...). */
bool f2t_report_col_needs_wakeups(enum f2t_report_col c);

/*
 * Do the filters select thread @tid?  Every kind of filter given must
 * match (a process, a thread, a name: the thread's or its process's);
 * within a kind, any of the values.
 */
bool f2t_report_selects(const struct f2t_report *r, int32_t tid);

int f2t_report_table(const struct f2t_report *r, struct f2t_table *t);
void f2t_report_table_free(struct f2t_table *t);
/* How many groups, and threads of a group, --top lets through. */
size_t f2t_report_top(const struct f2t_report *r, size_t n);

/* The per-CPU figures: the tasks that ran longest on @cpu (up to @max). */
size_t f2t_report_cpu_top(const struct f2t_report *r, uint32_t cpu,
			  struct f2t_tstate_holder *out, size_t max);
/* The window actually covered: [*from, *to] in trace ns. */
void f2t_report_span(const struct f2t_report *r, uint64_t *from, uint64_t *to);
/* A task's name now, "<idle>" for tid 0, "?" for unknown ones. */
const char *f2t_report_comm(const struct f2t_report *r, int32_t tid);
int32_t f2t_report_pid_of(const struct f2t_report *r, int32_t tid);
/* Is process @pid the recording's own (the focus)?  False when it names none. */
bool f2t_report_focused(const struct f2t_report *r, int32_t pid);

/*
 * Where and when the recording was made (model/identity.h), as lines for
 * a terminal, each starting with @indent.
 */
void f2t_report_identity_text(const struct f2t_trace_info *info, const char *indent,
			      struct f2t_out *out);

void f2t_report_write_text(const struct f2t_report *r, const struct f2t_table *t,
			   struct f2t_out *out);
void f2t_report_write_json(const struct f2t_report *r, const struct f2t_table *t,
			   struct f2t_out *out);
/* A CSV field (RFC 4180), quoted when it holds a comma, a quote, a line break or edge spaces. */
void f2t_report_csv_field(struct f2t_out *o, const char *s);

void f2t_report_write_csv(const struct f2t_report *r, const struct f2t_table *t,
			  struct f2t_out *out);
void f2t_report_write_ndjson(const struct f2t_report *r, const struct f2t_table *t,
			     struct f2t_out *out);

/* One input's report after its pass; the input stays open (its task table names the threads). */
struct f2t_report_input {
	struct f2t_input *in;
	struct f2t_report *r;
};

/*
 * One pass over @path with a report as its tap, and @extra's too (NULL:
 * none).  @ri is filled as far as it got, for f2t_report_input_close()
 * whatever the result.  Return: 0, or a negative errno (reported).
 */
int f2t_report_input_run(const char *path, const struct f2t_report_opts *o,
			 const struct f2t_convert_opts *conv, const struct f2t_tap *extra,
			 struct f2t_report_input *ri);
void f2t_report_input_close(struct f2t_report_input *ri);

/*
 * @write(@ctx, out) into @out_path (NULL or "-": standard output), whole
 * or not at all.  @write's error is said here unless it said one itself.
 * Return: 0, or a negative errno (reported).
 */
int f2t_report_write_to(const char *out_path, int (*write)(void *ctx, struct f2t_out *out),
			void *ctx);

#endif
