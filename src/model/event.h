/* SPDX-License-Identifier: MIT */
/*
 * The one event model.  Every source (a capture's ring-buffer pages and perf
 * records, a trace.dat, ftrace text) turns its records into these,
 * in timestamp order, and every writer consumes them without knowing where
 * they came from.  Strings point into the source's memory and are valid only
 * during the callback that receives the event.
 */
#ifndef F2T_EVENT_H
#define F2T_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum f2t_event_kind {
	F2T_EV_SWITCH,		/* sched:sched_switch */
	F2T_EV_WAKING,		/* sched:sched_waking */
	F2T_EV_WAKEUP,		/* sched:sched_wakeup (when recorded) */
	F2T_EV_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	F2T_EV_FORK,		/* sched:sched_process_fork (+ task:task_newtask) */
	F2T_EV_EXEC,		/* sched:sched_process_exec */
	F2T_EV_EXIT,		/* sched:sched_process_exit */
	F2T_EV_FREE,		/* sched:sched_process_free */
	F2T_EV_RENAME,		/* task:task_rename */
	F2T_EV_PRINT,		/* ftrace:print, i.e. a trace_marker write */
	F2T_EV_OTHER,		/* any other tracepoint asked for with -e */
	F2T_EV_LOST,		/* the ring buffer dropped events on this cpu */
	F2T_EV_SAMPLE,		/* a CPU sample (perf_event_open) with its call stack */
	F2T_EV_FUNCTION,	/* ftrace:function, the function tracer */
	F2T_EV_FUNCGRAPH_ENTRY,	/* ftrace:funcgraph_entry, the function_graph tracer */
	F2T_EV_FUNCGRAPH_EXIT,	/* ftrace:funcgraph_exit */
	F2T_EV_IRQ_ENTRY,	/* irq:irq_handler_entry */
	F2T_EV_IRQ_EXIT,	/* irq:irq_handler_exit */
	F2T_EV_SOFTIRQ_ENTRY,	/* irq:softirq_entry */
	F2T_EV_SOFTIRQ_EXIT,	/* irq:softirq_exit */
	F2T_EV_CPU_IDLE,	/* power:cpu_idle */
	F2T_EV_CPU_FREQ,	/* power:cpu_frequency */
	F2T_EV_OFFCPU,		/* a blocked episode (record --off-cpu, BPF) */
	F2T_EV_KIND_COUNT
};

struct f2t_module;
struct f2t_task;

/*
 * One frame of a sample's call stack, resolved when converting.  An
 * unknown function still has its module and offset: frames are never
 * dropped.
 */
struct f2t_frame {
	uint64_t ip;
	const char *func;	/* function name, demangled; NULL: unknown */
	const char *module;	/* file path, "[kernel.kallsyms]", "[MOD]", "[jit]",
				 * "[unknown]" when nothing is mapped there */
	uint64_t offset;	/* ip in the module's own addresses (ELF vaddr) */
	/*
	 * For profiler records: the binary holding ip (NULL: none), an identity
	 * only, never read outside symbols/ (each symbolizer has its own
	 * binaries); its number in its symbolizer (1, 2, ...), its build-id
	 * (length 0: unknown) and its mapping holding ip.
	 */
	const struct f2t_module *mod;
	uint32_t mod_id;
	uint8_t build_id_len;
	const uint8_t *build_id;
	uint64_t map_start, map_len, map_vaddr;
	bool kernel;
};

/* power:cpu_idle's state when a CPU leaves idle ((u32)-1, PWR_EVENT_EXIT). */
#define F2T_IDLE_EXIT 4294967295u

/* Linux task state letters as sched_switch prints them ("R", "R+", "D", ...). */
#define F2T_STATE_LEN 8

/* The name of a softirq whose action the kernel did not print, by its vec (every source's). */
#define F2T_SOFTIRQ_UNNAMED "softirq %u"

struct f2t_event {
	uint64_t ts;		/* ns on the trace clock (CLOCK_MONOTONIC) */
	uint32_t cpu;
	int32_t pid;		/* the task running when it was recorded (common_pid) */
	enum f2t_event_kind kind;
	union {
		struct {
			int32_t prev_pid, prev_prio;
			int32_t next_pid, next_prio;
			const char *prev_comm, *next_comm;
			char prev_state[F2T_STATE_LEN];
			/* The kernel's own prev_state value, whose letters those are
			 * (their meaning changes between kernels: see docs/kernel.md). */
			int64_t prev_state_raw;
		} sw;
		struct {	/* WAKING, WAKEUP, WAKEUP_NEW */
			int32_t pid, prio, target_cpu;
			const char *comm;
		} wake;
		struct {
			int32_t parent_pid, child_pid;
			/* 1: a thread in the parent's process (CLONE_THREAD),
			 * 0: a new process, -1: the source cannot tell */
			int32_t clone_thread;
			/* task_newtask's clone_flags when clone_thread >= 0 */
			uint64_t clone_flags;
			const char *parent_comm, *child_comm;
		} fork;
		struct {
			int32_t pid, old_pid;
			const char *filename;
		} exec;
		struct {	/* EXIT, FREE */
			int32_t pid, prio;
			const char *comm;
		} exit;
		struct {
			int32_t pid;
			const char *oldcomm, *newcomm;
		} rename;
		struct {
			const char *buf;	/* not NUL-terminated; trailing '\n' removed */
			size_t len;
		} print;
		struct {
			const char *system, *name;
		} other;
		struct {
			uint64_t count;		/* 0 when the kernel could not count */
		} lost;
		struct {	/* SAMPLE; ev->pid is the sampled thread */
			int32_t tgid;
			uint64_t period;	/* events (or ns) this sample stands for */
			const char *event;	/* what was sampled: "cpu-clock", "cycles" */
			uint32_t nframes;
			const struct f2t_frame *frames;	/* innermost first */
		} sample;
		/*
		 * Kernel addresses come with their symbol from the kallsyms
		 * saved at record time, or as "0x..." text when it has none;
		 * module is "[MOD]" for a loadable module's, else NULL.
		 */
		struct {	/* FUNCTION */
			uint64_t ip, parent_ip;
			const char *name, *module;
			const char *parent, *parent_module;
		} func;
		struct {	/* FUNCGRAPH_ENTRY, FUNCGRAPH_EXIT */
			uint64_t func;
			const char *name, *module;
			uint32_t depth;
			/* EXIT only.  calltime/rettime are on the kernel's local
			 * clock, not the trace clock: their difference is the
			 * call's duration, they are not points on ts's timeline. */
			uint32_t overrun;
			uint64_t calltime, rettime;
		} graph;
		struct {	/* IRQ_ENTRY (name), IRQ_EXIT (ret) */
			int32_t irq;
			int32_t ret;		/* 0: unhandled */
			const char *name;
		} irq;
		struct {	/* SOFTIRQ_ENTRY, SOFTIRQ_EXIT */
			uint32_t vec;
			/* "TIMER", "NET_RX"..., as the kernel prints it; else F2T_SOFTIRQ_UNNAMED */
			const char *name;
		} softirq;
		/*
		 * OFFCPU: ev->ts is when the thread ran again (ev->cpu where),
		 * ev->pid the thread.  Stacks are kernel frames then user
		 * frames, innermost first; none when the kernel kept none.
		 */
		struct {	/* ordered to leave no hole: the union's largest */
			int32_t tgid;
			int32_t waker_tid;	/* 0: no wakeup seen */
			int32_t waker_tgid;
			char state;		/* 'S', 'D', 'T', 't', 'P', 'I' */
			uint64_t start;		/* when it was switched out */
			uint32_t nframes, waker_nframes;
			const struct f2t_frame *frames, *waker_frames;
		} offcpu;
		struct {	/* CPU_IDLE, CPU_FREQ */
			uint32_t state;		/* idle: F2T_IDLE_EXIT leaving idle; freq: kHz */
			uint32_t cpu_id;	/* the CPU it is about, not always ev->cpu */
		} power;
	};
	/*
	 * Where the event came from, so a writer can ask for the kernel's own
	 * text for it and its raw fields (below).
	 */
	struct f2t_source *src;
	const void *raw;
	/*
	 * The name of pid's task the source knows from outside the record (a
	 * trace.dat's saved cmdlines), or NULL.  Sources change no task: the
	 * tracker gives the task this name if it makes the task for this
	 * event (model/tracker.h).
	 */
	const char *pid_comm;
	/*
	 * Every comm the event names (sw.prev_comm, sw.next_comm, wake.comm)
	 * has F2T_COMM_LEN readable bytes, NUL-terminated within them, as a
	 * kernel record's char[16] has: compared eight bytes at a time
	 * (model/tasks.h).  A source that cannot say so leaves it false; the
	 * pipeline's event starts zeroed.
	 */
	bool comm_words;
};

/*
 * Called once per field of a tracepoint, with its name and either a number
 * (is_str 0) or a string.  A non-zero return stops the walk.
 */
typedef int (*f2t_field_fn)(void *ctx, const char *name, int is_str, long long num,
			    const char *str);

/*
 * Where events come from: a source yields them in timestamp order and can
 * say more about each one it handed out (source/source.h has the calls, and
 * several sources interleaved).  An event handed out by next() points into
 * its source's memory and stays valid until that same source is asked for
 * its next event.
 */
struct f2t_stats;

struct f2t_source_ops {
	/* The next event into @ev: 1, 0 at the end, or a negative errno after
	 * reporting what is wrong (file and offset). */
	int (*next)(struct f2t_source *s, struct f2t_event *ev);
	/* The kernel's text for @ev (see f2t_event_text()); NULL if none. */
	const char *(*text)(struct f2t_source *s, const struct f2t_event *ev,
			    const struct f2t_task *task, size_t *len);
	/* @ev's raw fields (see f2t_event_fields()); -ENOENT if it keeps none. */
	int (*fields)(struct f2t_source *s, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx);
	/* Adds what the source counted (lost, unknown, malformed) to @st. */
	void (*counts)(const struct f2t_source *s, struct f2t_stats *st);
	/* Bytes consumed so far and in all, for progress. */
	void (*progress)(const struct f2t_source *s, uint64_t *done, uint64_t *total);
	void (*close)(struct f2t_source *s);
};

/* Embedded first in every source's own state. */
struct f2t_source {
	const struct f2t_source_ops *ops;
};

/**
 * f2t_event_text() - the kernel's own ftrace text for an event
 * @ev: an event, during the call that received it
 * @task: @ev's task (ev->pid) as the task table has it now (NULL: not
 *	known): the name and process a record without them is printed with
 * @len: out: the text's length
 *
 * Exactly as /sys/kernel/tracing/trace prints it with the record-tgid option
 * ("TASK-PID (TGID) [CPU] FLAGS SECONDS: event: fields", no trailing
 * newline).  The buffer belongs to the event's source and is valid until the
 * next call.  A source reads no task table: what its records do not say
 * about their task comes from @task.
 *
 * Return: the text, or NULL with errno ENOENT for an event that has none
 * (lost-event notes, CPU samples).
 */
const char *f2t_event_text(const struct f2t_event *ev, const struct f2t_task *task, size_t *len);

/**
 * f2t_event_fields() - the raw fields of a tracepoint event
 * @ev: an event, during the call that received it (F2T_EV_OTHER, mostly)
 * @fn: called once per field
 * @ctx: passed to @fn
 *
 * For writers that pass tracepoints they do not model through.
 *
 * Return: 0, what @fn returned to stop, -ENOENT when the event's source
 * keeps no fields, or another negative errno.
 */
int f2t_event_fields(const struct f2t_event *ev, f2t_field_fn fn, void *ctx);

#endif
