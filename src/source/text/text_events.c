// SPDX-License-Identifier: MIT
/*
 * One line of ftrace text into an f2t_event, and the kernel's line for it
 * back.  Events are known by name: the kernel's text names no system.
 * Their fields come in the kernel's "key=value" form, or, for sched_switch
 * and the wakeups in `trace-cmd report` output, in the form its plugins
 * print ("comm:pid [prio] S ==> comm:pid [prio]").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ktext.h"
#include "source/text/text-local.h"

#define CLONE_THREAD_FLAG 0x00010000ull

enum { NEWTASK = F2T_EV_KIND_COUNT };	/* remembered, not emitted */

#define KNOWN(name, kind) { name, sizeof(name) - 1, kind }

static const struct {
	const char *name;
	size_t len;
	int kind;
} known[] = {
	KNOWN("sched_switch", F2T_EV_SWITCH),
	KNOWN("sched_waking", F2T_EV_WAKING),
	KNOWN("sched_wakeup", F2T_EV_WAKEUP),
	KNOWN("sched_wakeup_new", F2T_EV_WAKEUP_NEW),
	KNOWN("sched_process_fork", F2T_EV_FORK),
	KNOWN("sched_process_exec", F2T_EV_EXEC),
	KNOWN("sched_process_exit", F2T_EV_EXIT),
	KNOWN("sched_process_free", F2T_EV_FREE),
	KNOWN("task_rename", F2T_EV_RENAME),
	KNOWN("task_newtask", NEWTASK),
	KNOWN("tracing_mark_write", F2T_EV_PRINT),	/* the kernel's text */
	KNOWN("print", F2T_EV_PRINT),		/* trace-cmd report's */
	KNOWN("function", F2T_EV_FUNCTION),
	KNOWN("irq_handler_entry", F2T_EV_IRQ_ENTRY),
	KNOWN("irq_handler_exit", F2T_EV_IRQ_EXIT),
	KNOWN("softirq_entry", F2T_EV_SOFTIRQ_ENTRY),
	KNOWN("softirq_exit", F2T_EV_SOFTIRQ_EXIT),
	KNOWN("cpu_idle", F2T_EV_CPU_IDLE),
	KNOWN("cpu_frequency", F2T_EV_CPU_FREQ),
};

/* The systems of the events most traces hold; the text does not say. */
static const struct {
	const char *prefix, *system;
} systems[] = {
	{ "sched_", "sched" }, { "task_", "task" }, { "irq_", "irq" }, { "softirq_", "irq" },
	{ "cpu_", "power" }, { "clock_", "power" }, { "hrtimer_", "timer" }, { "timer_", "timer" },
	{ "workqueue_", "workqueue" }, { "block_", "block" }, { "sys_", "raw_syscalls" },
};

static bool span_is(struct f2t_span s, const char *str)
{
	return strlen(str) == s.len && !memcmp(s.s, str, s.len);
}

/* A NUL-terminated copy in the line's scratch space (sized for two lines). */
static const char *dup_span(struct text_src *s, struct f2t_span v)
{
	char *p;

	if (s->scratch_len + v.len + 1 > s->scratch_cap)
		return NULL;
	p = s->scratch + s->scratch_len;
	memcpy(p, v.s, v.len);
	p[v.len] = '\0';
	s->scratch_len += v.len + 1;
	return p;
}

static bool str_field(struct text_src *s, struct f2t_fields *f, const char *key, const char **out)
{
	struct f2t_span v;

	return f2t_fields_get(f, key, &v) && (*out = dup_span(s, v)) != NULL;
}

static bool int_field(struct f2t_fields *f, const char *key, int32_t *out)
{
	long long n;

	if (!f2t_fields_int(f, key, &n))
		return false;
	*out = (int32_t)n;
	return true;
}

/*
 * The kernel's own layout of a body: each key in its place, every value one
 * word ("prev_comm=X prev_pid=N ... next_prio=N").  Read in one pass, with
 * the keys compared as constants.  A value ends at the first " word=" or
 * " ==> " (f2t_tline_field()), and f2t_fields_get() looks for a key where
 * the one before ended (past a " ==> " too), so where the next word is the
 * next key, that lookup would find the same value; anything else is left
 * to it.  Each @lit is "key=", or " key=" / " ==> key=" after a value.
 */
static inline bool layout_key(const char **p, const char *end, const char *lit, size_t n)
{
	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

static inline bool layout_word(const char **p, const char *end, const char *lit, size_t n,
			       struct f2t_span *v)
{
	const char *q = *p;

	if (!layout_key(&q, end, lit, n))
		return false;
	*p = f2t_find_byte(q, end, ' ');
	*v = (struct f2t_span){ q, (size_t)(*p - q) };
	return true;
}

/*
 * A value of 1 to 19 plain digits, read as int_field() reads it
 * (f2t_span_int()); any other value is left to it.
 */
static inline bool layout_int(const char **p, const char *end, const char *lit, size_t n,
			      int32_t *out)
{
	const char *q = *p, *v;
	uint64_t x = 0;

	if (!layout_key(&q, end, lit, n))
		return false;
	for (v = q; q < end && (unsigned char)(*q - '0') < 10 && q - v < 19; q++)
		x = x * 10 + (uint64_t)(*q - '0');
	if (q == v || (q < end && *q != ' '))
		return false;
	*out = (int32_t)(long long)x;
	*p = q;
	return true;
}

#define WORD(p, end, lit, v) layout_word(p, end, lit, sizeof(lit) - 1, v)
#define INT(p, end, lit, v) layout_int(p, end, lit, sizeof(lit) - 1, v)

/* sched_switch in the kernel's layout: 1, or 0 to be read field by field. */
static int switch_layout(struct text_src *s, struct f2t_span b, struct f2t_event *ev,
			 struct f2t_span *state)
{
	const char *p = b.s, *end = b.s + b.len;
	struct f2t_span prev, next;

	return WORD(&p, end, "prev_comm=", &prev) && INT(&p, end, " prev_pid=", &ev->sw.prev_pid) &&
	       INT(&p, end, " prev_prio=", &ev->sw.prev_prio) &&
	       WORD(&p, end, " prev_state=", state) && WORD(&p, end, " ==> next_comm=", &next) &&
	       INT(&p, end, " next_pid=", &ev->sw.next_pid) &&
	       INT(&p, end, " next_prio=", &ev->sw.next_prio) && p == end &&
	       (ev->sw.prev_comm = dup_span(s, prev)) && (ev->sw.next_comm = dup_span(s, next));
}

/* sched_waking and the wakeups in the kernel's layout: 1, or 0 as above. */
static int wake_layout(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	const char *p = b.s, *end = b.s + b.len;
	struct f2t_span comm;

	return WORD(&p, end, "comm=", &comm) && INT(&p, end, " pid=", &ev->wake.pid) &&
	       INT(&p, end, " prio=", &ev->wake.prio) &&
	       INT(&p, end, " target_cpu=", &ev->wake.target_cpu) && p == end &&
	       (ev->wake.comm = dup_span(s, comm));
}

/* "comm:pid [prio]" (trace-cmd's plugins), from the end of @v. */
static bool plugin_task(struct text_src *s, struct f2t_span v, const char **comm, int32_t *pid,
			int32_t *prio)
{
	const char *open = NULL, *colon = NULL;
	long long n;

	for (const char *p = v.s + v.len; p > v.s; p--)
		if (p[-1] == '[') {
			open = p - 1;
			break;
		}
	if (!open || open == v.s || v.s[v.len - 1] != ']' ||
	    !f2t_span_int((struct f2t_span){ open + 1, (size_t)(v.s + v.len - 1 - open - 1) }, &n))
		return false;
	*prio = (int32_t)n;
	for (const char *p = open - 1; p > v.s; p--)
		if (p[-1] == ':') {
			colon = p - 1;
			break;
		}
	if (!colon ||
	    !f2t_span_int((struct f2t_span){ colon + 1, (size_t)(open - 1 - colon - 1) }, &n))
		return false;
	*pid = (int32_t)n;
	*comm = dup_span(s, (struct f2t_span){ v.s, (size_t)(colon - v.s) });
	return *comm != NULL;
}

/*
 * The prev_state value the kernel printed as these letters ("S", "R+",
 * "D|W"): the text keeps only the letters, and the bits are those of
 * TASK_REPORT since Linux 4.14 (docs/kernel.md), "+" being TASK_REPORT_MAX.
 */
static int64_t state_value(struct f2t_span letters)
{
	static const uint16_t bit[128] = {	/* R is none */
		['S'] = 0x01, ['D'] = 0x02, ['T'] = 0x04, ['t'] = 0x08,
		['X'] = 0x10, ['Z'] = 0x20, ['P'] = 0x40, ['I'] = 0x80, ['+'] = 0x100,
	};
	int64_t v = 0;

	for (size_t i = 0; i < letters.len; i++) {
		unsigned char c = (unsigned char)letters.s[i];

		if (c < 128)
			v |= bit[c];
	}
	return v;
}

static int decode_switch(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	struct f2t_span state, left, right;
	const char *arrow;
	size_t mark = s->scratch_len;

	f2t_fields_init(&f, b);
	if (switch_layout(s, b, ev, &state))
		goto state;
	s->scratch_len = mark;
	if (str_field(s, &f, "prev_comm", &ev->sw.prev_comm)) {
		if (!int_field(&f, "prev_pid", &ev->sw.prev_pid) ||
		    !int_field(&f, "prev_prio", &ev->sw.prev_prio) ||
		    !f2t_fields_get(&f, "prev_state", &state) ||
		    !str_field(s, &f, "next_comm", &ev->sw.next_comm) ||
		    !int_field(&f, "next_pid", &ev->sw.next_pid) ||
		    !int_field(&f, "next_prio", &ev->sw.next_prio))
			return -EINVAL;
	} else {	/* "prev:pid [prio] S ==> next:pid [prio]" */
		arrow = memmem(b.s, b.len, " ==> ", 5);
		if (!arrow)
			return -EINVAL;
		left = (struct f2t_span){ b.s, (size_t)(arrow - b.s) };
		right = (struct f2t_span){ arrow + 5, (size_t)(b.s + b.len - arrow - 5) };
		state.s = memrchr(left.s, ' ', left.len);
		if (!state.s)
			return -EINVAL;
		state.len = (size_t)(left.s + left.len - ++state.s);
		left.len = (size_t)(state.s - 1 - left.s);
		if (!plugin_task(s, left, &ev->sw.prev_comm, &ev->sw.prev_pid, &ev->sw.prev_prio) ||
		    !plugin_task(s, right, &ev->sw.next_comm, &ev->sw.next_pid, &ev->sw.next_prio))
			return -EINVAL;
	}
state:
	if (!state.len || state.len >= F2T_STATE_LEN)
		return -EINVAL;
	memcpy(ev->sw.prev_state, state.s, state.len);
	ev->sw.prev_state_raw = state_value(state);
	return 1;
}

static int decode_wake(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	const char *cpu;
	long long n;
	size_t mark = s->scratch_len;

	if (wake_layout(s, b, ev))
		return 1;
	s->scratch_len = mark;
	f2t_fields_init(&f, b);
	if (str_field(s, &f, "comm", &ev->wake.comm))
		return int_field(&f, "pid", &ev->wake.pid) && int_field(&f, "prio", &ev->wake.prio) &&
		       int_field(&f, "target_cpu", &ev->wake.target_cpu) ? 1 : -EINVAL;
	/* "comm:pid [prio] [success=1 ]CPU:NNN" */
	cpu = memmem(b.s, b.len, " CPU:", 5);
	if (!cpu || !f2t_span_int((struct f2t_span){ cpu + 5, (size_t)(b.s + b.len - cpu - 5) }, &n))
		return -EINVAL;
	ev->wake.target_cpu = (int32_t)n;
	b.len = (size_t)(cpu - b.s);
	if (b.len > 10 && !memcmp(b.s + b.len - 10, " success=1", 10))
		b.len -= 10;
	return plugin_task(s, b, &ev->wake.comm, &ev->wake.pid, &ev->wake.prio) ? 1 : -EINVAL;
}

/* "FUNC <-PARENT" (the kernel), "FUNC <-- PARENT" (trace-cmd report). */
static int decode_function(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	const char *arrow = memmem(b.s, b.len, " <-", 3), *p;

	if (!arrow)
		return -EINVAL;
	ev->func.name = dup_span(s, (struct f2t_span){ b.s, (size_t)(arrow - b.s) });
	for (p = arrow + 3; p < b.s + b.len && (*p == '-' || *p == ' '); p++)
		;
	ev->func.parent = dup_span(s, (struct f2t_span){ p, (size_t)(b.s + b.len - p) });
	return ev->func.name && ev->func.parent ? 1 : -EINVAL;
}

static int decode_print(const struct f2t_tline *t, struct f2t_event *ev)
{
	struct f2t_span b = t->body;

	/* trace-cmd report: "print: IP: TEXT", IP named from its kallsyms. */
	if (span_is(t->name, "print")) {
		const char *colon = memmem(b.s, b.len, ": ", 2);

		if (!colon)
			return -EINVAL;
		b.len -= (size_t)(colon + 2 - b.s);
		b.s = colon + 2;
	}
	while (b.len && b.s[b.len - 1] == '\n')
		b.len--;
	ev->print.buf = b.s;
	ev->print.len = b.len;
	return 1;
}

static int decode_newtask(struct text_src *s, struct f2t_span b, int32_t common_pid)
{
	struct f2t_fields f;
	struct f2t_span v;
	int32_t pid = common_pid;
	long long flags;
	uint32_t slot;

	f2t_fields_init(&f, b);
	if (!int_field(&f, "pid", &pid) || !f2t_fields_get(&f, "clone_flags", &v))
		return -EINVAL;
	/* printed as %lx, without 0x */
	flags = strtoll(strndupa(v.s, v.len), NULL, 16);
	slot = (uint32_t)pid % TEXT_NEWTASK_SLOTS;
	s->newtask[slot].pid = pid;
	s->newtask[slot].clone_flags = (uint64_t)flags;
	return 0;
}

static int decode_fork(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	uint32_t slot;

	f2t_fields_init(&f, b);
	if (!str_field(s, &f, "comm", &ev->fork.parent_comm) ||
	    !int_field(&f, "pid", &ev->fork.parent_pid) ||
	    !str_field(s, &f, "child_comm", &ev->fork.child_comm) ||
	    !int_field(&f, "child_pid", &ev->fork.child_pid))
		return -EINVAL;
	slot = (uint32_t)ev->fork.child_pid % TEXT_NEWTASK_SLOTS;
	ev->fork.clone_thread = -1;
	if (s->newtask[slot].pid == ev->fork.child_pid) {
		ev->fork.clone_flags = s->newtask[slot].clone_flags;
		ev->fork.clone_thread = (ev->fork.clone_flags & CLONE_THREAD_FLAG) ? 1 : 0;
		s->newtask[slot].pid = 0;
	}
	return 1;
}

static int decode_irq_exit(struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	struct f2t_span v;
	long long n;

	f2t_fields_init(&f, b);
	if (!int_field(&f, "irq", &ev->irq.irq) || !f2t_fields_get(&f, "ret", &v))
		return -EINVAL;
	ev->irq.ret = span_is(v, "handled") ? 1 : f2t_span_int(v, &n) ? (int32_t)n : 0;
	return 1;
}

/*
 * "vec=9 [action=RCU]", the kernel's print (trace-cmd's too): the value of
 * vec runs on through the bracket, which holds no " word=" to end it.  The
 * name as a capture's (rawdec.c): the action, else "softirq VEC".
 */
static int decode_softirq(struct text_src *s, struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	struct f2t_span v, name = { 0 };
	const char *end, *num_end, *action;
	char fallback[32];
	long long vec;

	f2t_fields_init(&f, b);
	if (!f2t_fields_get(&f, "vec", &v))
		return -EINVAL;
	end = v.s + v.len;
	num_end = memchr(v.s, ' ', v.len);
	if (!num_end)
		num_end = end;
	if (!f2t_span_int((struct f2t_span){ v.s, (size_t)(num_end - v.s) }, &vec) || vec < 0)
		return -EINVAL;
	ev->softirq.vec = (uint32_t)vec;
	action = memmem(num_end, (size_t)(end - num_end), "[action=", 8);
	if (action) {
		name.s = action + 8;
		while (name.s + name.len < end && name.s[name.len] != ']' && name.s[name.len] != ' ')
			name.len++;
	}
	if (!name.len) {
		name.s = fallback;
		name.len = (size_t)snprintf(fallback, sizeof(fallback), F2T_SOFTIRQ_UNNAMED,
					    ev->softirq.vec);
	}
	ev->softirq.name = dup_span(s, name);
	return ev->softirq.name ? 1 : -EINVAL;
}

static int decode_power(struct f2t_span b, struct f2t_event *ev)
{
	struct f2t_fields f;
	struct f2t_span v;
	long long n;

	f2t_fields_init(&f, b);
	if (!f2t_fields_get(&f, "state", &v) || !f2t_span_int(v, &n))
		return -EINVAL;
	ev->power.state = (uint32_t)n;
	if (!f2t_fields_get(&f, "cpu_id", &v) || !f2t_span_int(v, &n))
		return -EINVAL;
	ev->power.cpu_id = (uint32_t)n;
	return 1;
}

static int decode_other(struct text_src *s, const struct f2t_tline *t, struct f2t_event *ev)
{
	ev->kind = F2T_EV_OTHER;
	ev->other.system = "unknown";
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (t->name.len > strlen(systems[i].prefix) &&
		    !memcmp(t->name.s, systems[i].prefix, strlen(systems[i].prefix))) {
			ev->other.system = systems[i].system;
			break;
		}
	ev->other.name = dup_span(s, t->name);
	return ev->other.name ? 1 : -EINVAL;
}

int f2t_text_event(struct text_src *s, const struct f2t_tline *t, struct f2t_event *ev)
{
	struct f2t_fields f;
	struct f2t_span b = t->body;
	int kind = -1;

	f2t_fields_init(&f, t->body);
	s->scratch_len = 0;
	/* Unrolled, each name is compared inline as a constant, not by a call to memcmp(). */
#pragma GCC unroll 32
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (t->name.len == known[i].len && !memcmp(t->name.s, known[i].name, known[i].len)) {
			kind = known[i].kind;
			break;
		}
	if (kind < 0)
		return decode_other(s, t, ev);
	if (kind == NEWTASK)
		return decode_newtask(s, b, ev->pid);
	ev->kind = (enum f2t_event_kind)kind;
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		return decode_switch(s, b, ev);
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		return decode_wake(s, b, ev);
	case F2T_EV_FORK:
		return decode_fork(s, b, ev);
	case F2T_EV_EXEC:
		return str_field(s, &f, "filename", &ev->exec.filename) &&
		       int_field(&f, "pid", &ev->exec.pid) &&
		       int_field(&f, "old_pid", &ev->exec.old_pid) ? 1 : -EINVAL;
	case F2T_EV_EXIT:
	case F2T_EV_FREE:
		return str_field(s, &f, "comm", &ev->exit.comm) && int_field(&f, "pid", &ev->exit.pid) &&
		       int_field(&f, "prio", &ev->exit.prio) ? 1 : -EINVAL;
	case F2T_EV_RENAME:
		/* Newer kernels print no pid: it is the task's own. */
		if (!int_field(&f, "pid", &ev->rename.pid))
			ev->rename.pid = ev->pid;
		return str_field(s, &f, "oldcomm", &ev->rename.oldcomm) &&
		       str_field(s, &f, "newcomm", &ev->rename.newcomm) ? 1 : -EINVAL;
	case F2T_EV_PRINT:
		return decode_print(t, ev);
	case F2T_EV_FUNCTION:
		return decode_function(s, b, ev);
	case F2T_EV_IRQ_ENTRY:
		return int_field(&f, "irq", &ev->irq.irq) && str_field(s, &f, "name", &ev->irq.name) ?
			       1 : -EINVAL;
	case F2T_EV_IRQ_EXIT:
		return decode_irq_exit(b, ev);
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		return decode_softirq(s, b, ev);
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		return decode_power(b, ev);
	default:
		return -EINVAL;
	}
}

const char *f2t_text_line(struct text_src *s, const struct f2t_event *ev,
			  const struct f2t_task *task, size_t *len)
{
	const struct f2t_tline *t = &s->cur;
	struct textline l;
	int32_t tgid = t->tgid;
	size_t comm_len = t->comm.len < 256 ? t->comm.len : 256;
	char comm[257];

	if (ev->kind == F2T_EV_LOST || ev->raw != t) {
		errno = ENOENT;
		return NULL;
	}
	l = (struct textline){ .buf = s->line };
	/* A line without its tgid: the task table's, given. */
	if (tgid < 0 && ev->pid && task)
		tgid = task->tgid;
	memcpy(comm, t->comm.s, comm_len);
	comm[comm_len] = '\0';
	f2t_ktext_task(&l, comm, ev->pid, tgid, ev->cpu);
	if (t->flags.len)
		tl_mem(&l, t->flags.s, t->flags.len);
	else
		tl_str(&l, ".....");
	f2t_ktext_time(&l, ev->ts);
	if (ev->kind == F2T_EV_PRINT) {
		tl_str(&l, "tracing_mark_write: ");
		tl_mem(&l, ev->print.buf, ev->print.len);
	} else {
		tl_mem(&l, t->name.s, t->name.len);
		tl_str(&l, ": ");
		if (ev->kind == F2T_EV_SWITCH)
			f2t_ktext_switch(&l, ev);
		else if (ev->kind == F2T_EV_WAKING || ev->kind == F2T_EV_WAKEUP ||
			 ev->kind == F2T_EV_WAKEUP_NEW)
			f2t_ktext_wake(&l, ev);
		else
			tl_mem(&l, t->body.s, t->body.len);
	}
	l.buf[l.len] = '\0';
	if (len)
		*len = l.len;
	return l.buf;
}

int f2t_text_fields(struct text_src *s, const struct f2t_event *ev, f2t_field_fn fn, void *ctx)
{
	struct f2t_span body = s->cur.body, key, val;

	if (ev->raw != &s->cur || ev->kind == F2T_EV_LOST)
		return -ENOENT;
	while (f2t_tline_next_field(&body, &key, &val)) {
		const char *k = dup_span(s, key), *v;
		long long n;
		int ret;

		if (!k)
			return -ENOMEM;
		if (f2t_span_int(val, &n)) {
			ret = fn(ctx, k, 0, n, NULL);
		} else {
			v = dup_span(s, val);
			if (!v)
				return -ENOMEM;
			ret = fn(ctx, k, 1, 0, v);
		}
		if (ret)
			return ret;
	}
	return 0;
}
