// SPDX-License-Identifier: MIT
/*
 * A Perfetto trace (.pftrace) as an input: ours, or one of Perfetto's
 * recorder on Linux or Android.  The file is mapped and indexed at open
 * (pftrace_index.c); the source hands out its events in time order,
 * decoding each from the mapping: ftrace events whole, compact sched (the
 * task switched out is the one the CPU's last switch put there, as
 * Perfetto's own importer reads it; its priority too), perf samples with
 * their callstacks, and track events as the markers that draw the same
 * slices, instants and counters (on a thread's track: B, E, I, C; on a
 * process's or a named track: G, H, N, C with the track's name).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "perfetto/pf_fields.h"
#include "source/input.h"
#include "source/ktext.h"
#include "source/pftrace/pftrace-local.h"
#include "util/log.h"
#include "util/pbdec.h"
#include "util/vec.h"

#define CLONE_THREAD_FLAG 0x00010000ull
#define NEWTASK_SLOTS 4096

/* What the CPU's last switch put there: a compact switch's previous task, a compact waking's waker. */
struct pft_cpu {
	int32_t pid, prio;
	char comm[F2T_COMM_LEN];
};

/* What the records said of a task: its name, where a switch last put it (-1: nowhere yet). */
struct pft_name {
	char comm[F2T_COMM_LEN];
	int32_t cpu;
};

struct pft_src {
	struct f2t_source base;
	struct pft_index ix;
	struct f2t_inmap inmap;
	size_t pos;			/* the next record */
	struct pft_cpu *cpus;		/* by CPU, max_cpu + 1 */
	char *scratch;			/* the current event's strings */
	size_t scratch_len, scratch_cap;
	char *line;			/* its kernel text */
	size_t line_cap;
	struct f2t_frame *frames;	/* the current sample's */
	size_t framecap;
	struct f2t_idmap depth;		/* track uuid -> open slices (uint32_t) */
	/*
	 * Each task's name as the records last said it: a compact switch
	 * leaves out the name of the task it switches out, which the kernel
	 * printed as it was then (after a rename or an exec).
	 */
	struct f2t_idmap names;		/* pid -> struct pft_name */
	int32_t newtask[NEWTASK_SLOTS];	/* children task_newtask announced: their fork is one */
	struct f2t_stats st;
};

struct pft_input {
	struct f2t_input in;
	struct pft_src *src;		/* until handed to in.events */
	char *path;
};

/* ---- what a file starts with ---- */

/*
 * A Trace: field 1 (packet), length-delimited, whose first byte is a field
 * tag of a wire type protobuf has.  Damage past that is the opener's to
 * report.  Text that begins with a blank line starts with 0x0a too: the
 * text probe comes first, and most text fails the tag.
 */
static bool pftrace_probe(const unsigned char *head, size_t len)
{
	struct pbd d = pbd_init(head, len);
	uint64_t tag, n;

	if (len < 3 || head[0] != 0x0a)
		return false;
	d.p++;
	if (!pbd_varint(&d, &n) || !n || !pbd_varint(&d, &tag))
		return false;
	switch (tag & 7) {
	case 0: case 1: case 2: case 5:
		return tag >> 3 > 0;
	default:
		return false;
	}
}

/* ---- the events ---- */

/* A copy of a string field, NUL-terminated, in the event's scratch (sized for all of them). */
static const char *sz(struct pft_src *s, const struct pbd_field *f)
{
	char *c = s->scratch + s->scratch_len;

	if (!pbd_is_len(f))
		return "";
	memcpy(c, f->data, f->len);
	c[f->len] = '\0';
	s->scratch_len += f->len + 1;
	return c;
}

/* What is known of task @pid, NULL on ENOMEM. */
static struct pft_name *name_of(struct pft_src *s, int32_t pid)
{
	bool fresh;
	struct pft_name *n = f2t_idmap_get(&s->names, pid, &fresh);

	if (n && fresh)
		n->cpu = -1;
	return n;
}

/* Task @pid is called @comm from here on. */
static int named(struct pft_src *s, int32_t pid, const char *comm)
{
	struct pft_name *n;

	if (pid <= 0 || !*comm)
		return 0;
	n = name_of(s, pid);
	if (!n)
		return -ENOMEM;
	snprintf(n->comm, F2T_COMM_LEN, "%s", comm);
	return 0;
}

static int set_running(struct pft_src *s, uint32_t cpu, int32_t pid, int32_t prio, const char *comm)
{
	struct pft_cpu *c = &s->cpus[cpu];
	struct pft_name *n;

	c->pid = pid;
	c->prio = prio;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	if (pid <= 0)
		return 0;
	n = name_of(s, pid);
	if (!n)
		return -ENOMEM;
	if (*comm)
		snprintf(n->comm, F2T_COMM_LEN, "%s", comm);
	n->cpu = (int32_t)cpu;
	return 0;
}

/*
 * The CPU of a track event of task @pid, which has none in the trace: where
 * the task's last ftrace event was (0 if it had none); every event on a CPU
 * says its task is running there.
 */
static uint32_t cpu_of(struct pft_src *s, int32_t pid)
{
	const struct pft_name *n = pid > 0 ? f2t_idmap_find(&s->names, pid) : NULL;

	return n && n->cpu >= 0 ? (uint32_t)n->cpu : 0;
}

/*
 * What an event says of a task: its name, kept for the compact switches to
 * come, and that the event's task runs on its CPU (for track events).
 */
static int learn_names(struct pft_src *s, const struct f2t_event *ev)
{
	struct pft_name *n;

	if (ev->pid > 0 && ev->kind != F2T_EV_SWITCH) {
		n = name_of(s, ev->pid);
		if (!n)
			return -ENOMEM;
		n->cpu = (int32_t)ev->cpu;
	}
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		return named(s, ev->sw.prev_pid, ev->sw.prev_comm) ?:
		       set_running(s, ev->cpu, ev->sw.next_pid, ev->sw.next_prio, ev->sw.next_comm);
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		return named(s, ev->wake.pid, ev->wake.comm);
	case F2T_EV_FORK:
		return named(s, ev->fork.child_pid, ev->fork.child_comm);
	case F2T_EV_RENAME:
		return named(s, ev->rename.pid, ev->rename.newcomm);
	default:
		return 0;
	}
}

static bool newtask_seen(struct pft_src *s, int32_t child)
{
	int32_t *slot = &s->newtask[(uint32_t)child % NEWTASK_SLOTS];

	if (*slot != child)
		return false;
	*slot = 0;
	return true;
}

/* The fields of an FtraceEvent's own message into @ev: 1, 0 for an event not read. */
static int ftrace_message(struct pft_src *s, const struct pbd_field *m, struct f2t_event *ev)
{
	struct pbd d = pbd_sub(m);
	struct pbd_field g;
	uint64_t v[8] = { 0 };
	const char *str[8] = { "", "", "", "", "", "", "", "" };
	int ret;

	while ((ret = pbd_next(&d, &g)) > 0) {
		if (g.num >= 8)
			continue;
		if (pbd_is_len(&g))
			str[g.num] = sz(s, &g);
		else
			v[g.num] = g.v;
	}
	if (ret)
		return -EINVAL;
	switch (m->num) {
	case PF_FEV_PRINT:
		ev->kind = F2T_EV_PRINT;
		ev->print.buf = str[PF_PRINT_BUF];
		ev->print.len = strlen(str[PF_PRINT_BUF]);
		if (ev->print.len && ev->print.buf[ev->print.len - 1] == '\n')
			ev->print.len--;
		return 1;
	case PF_FEV_SCHED_SWITCH:
		ev->kind = F2T_EV_SWITCH;
		ev->sw.prev_comm = str[PF_SW_PREV_COMM];
		ev->sw.prev_pid = (int32_t)v[PF_SW_PREV_PID];
		ev->sw.prev_prio = (int32_t)v[PF_SW_PREV_PRIO];
		ev->sw.prev_state_raw = (int64_t)v[PF_SW_PREV_STATE];
		pft_state_letters(ev->sw.prev_state_raw, ev->sw.prev_state);
		ev->sw.next_comm = str[PF_SW_NEXT_COMM];
		ev->sw.next_pid = (int32_t)v[PF_SW_NEXT_PID];
		ev->sw.next_prio = (int32_t)v[PF_SW_NEXT_PRIO];
		return 1;
	case PF_FEV_SCHED_WAKING:
	case PF_FEV_SCHED_WAKEUP:
	case PF_FEV_SCHED_WAKEUP_NEW:
		ev->kind = m->num == PF_FEV_SCHED_WAKING ? F2T_EV_WAKING :
			   m->num == PF_FEV_SCHED_WAKEUP ? F2T_EV_WAKEUP : F2T_EV_WAKEUP_NEW;
		ev->wake.comm = str[PF_WAKE_COMM];
		ev->wake.pid = (int32_t)v[PF_WAKE_PID];
		ev->wake.prio = (int32_t)v[PF_WAKE_PRIO];
		ev->wake.target_cpu = (int32_t)v[PF_WAKE_TARGET_CPU];
		return 1;
	case PF_FEV_TASK_NEWTASK:
		ev->kind = F2T_EV_FORK;
		ev->fork.parent_pid = ev->pid;
		ev->fork.parent_comm = "";
		ev->fork.child_pid = (int32_t)v[PF_NEWTASK_PID];
		ev->fork.child_comm = str[PF_NEWTASK_COMM];
		ev->fork.clone_flags = v[PF_NEWTASK_CLONE_FLAGS];
		ev->fork.clone_thread = (ev->fork.clone_flags & CLONE_THREAD_FLAG) != 0;
		s->newtask[(uint32_t)ev->fork.child_pid % NEWTASK_SLOTS] = ev->fork.child_pid;
		return 1;
	case PF_FEV_SCHED_PROCESS_FORK:
		ev->kind = F2T_EV_FORK;
		ev->fork.parent_comm = str[PF_FORK_PARENT_COMM];
		ev->fork.parent_pid = (int32_t)v[PF_FORK_PARENT_PID];
		ev->fork.child_comm = str[PF_FORK_CHILD_COMM];
		ev->fork.child_pid = (int32_t)v[PF_FORK_CHILD_PID];
		ev->fork.clone_thread = -1;
		/* The same fork task_newtask already said, with whether it made a thread. */
		return !newtask_seen(s, ev->fork.child_pid);
	case PF_FEV_SCHED_PROCESS_EXEC:
		ev->kind = F2T_EV_EXEC;
		ev->exec.filename = str[PF_EXEC_FILENAME];
		ev->exec.pid = (int32_t)v[PF_EXEC_PID];
		ev->exec.old_pid = (int32_t)v[PF_EXEC_OLD_PID];
		return 1;
	case PF_FEV_SCHED_PROCESS_EXIT:
	case PF_FEV_SCHED_PROCESS_FREE: {
		bool exit = m->num == PF_FEV_SCHED_PROCESS_EXIT;

		ev->kind = exit ? F2T_EV_EXIT : F2T_EV_FREE;
		ev->exit.comm = str[exit ? PF_EXIT_COMM : PF_FREE_COMM];
		ev->exit.pid = (int32_t)v[exit ? PF_EXIT_PID : PF_FREE_PID];
		ev->exit.prio = (int32_t)v[exit ? PF_EXIT_PRIO : PF_FREE_PRIO];
		return 1;
	}
	case PF_FEV_TASK_RENAME:
		ev->kind = F2T_EV_RENAME;
		ev->rename.pid = (int32_t)v[PF_RENAME_PID];
		ev->rename.oldcomm = str[PF_RENAME_OLDCOMM];
		ev->rename.newcomm = str[PF_RENAME_NEWCOMM];
		return 1;
	case PF_FEV_IRQ_HANDLER_ENTRY:
	case PF_FEV_IRQ_HANDLER_EXIT:
		ev->kind = m->num == PF_FEV_IRQ_HANDLER_ENTRY ? F2T_EV_IRQ_ENTRY : F2T_EV_IRQ_EXIT;
		ev->irq.irq = (int32_t)v[PF_IRQ_IRQ];
		ev->irq.name = str[PF_IRQ_NAME];
		ev->irq.ret = (int32_t)v[PF_IRQ_RET];
		return 1;
	case PF_FEV_SOFTIRQ_ENTRY:
	case PF_FEV_SOFTIRQ_EXIT: {
		char *name = s->scratch + s->scratch_len;
		int n;

		ev->kind = m->num == PF_FEV_SOFTIRQ_ENTRY ? F2T_EV_SOFTIRQ_ENTRY : F2T_EV_SOFTIRQ_EXIT;
		ev->softirq.vec = (uint32_t)v[PF_SOFTIRQ_VEC];
		/* The trace has no print format to name it by. */
		n = snprintf(name, 32, F2T_SOFTIRQ_UNNAMED, ev->softirq.vec);
		s->scratch_len += (size_t)n + 1;
		ev->softirq.name = name;
		return 1;
	}
	case PF_FEV_CPU_IDLE:
	case PF_FEV_CPU_FREQUENCY:
		ev->kind = m->num == PF_FEV_CPU_IDLE ? F2T_EV_CPU_IDLE : F2T_EV_CPU_FREQ;
		ev->power.state = (uint32_t)v[PF_POWER_STATE];
		ev->power.cpu_id = (uint32_t)v[PF_POWER_CPU_ID];
		return 1;
	case PF_FEV_GENERIC:
		/* A tracepoint Perfetto has no message of its own for: by name, its fields given apart. */
		ev->kind = F2T_EV_OTHER;
		ev->other.name = str[PF_GENERIC_EVENT_NAME];
		return 1;
	default:
		s->st.unknown_events++;
		return 0;
	}
}

/* The GenericFtraceEvent of record @r, into @m: true if it has one. */
static bool generic_of(const struct pft_src *s, const struct pft_rec *r, struct pbd_field *m)
{
	struct pbd d = pbd_init(s->ix.data + r->ev.off, r->ev.len);

	while (pbd_next(&d, m) > 0)
		if (m->num == PF_FEV_GENERIC && pbd_is_len(m))
			return true;
	return false;
}

/* A generic event's fields: name and a number or a string each. */
static int pft_fields(struct f2t_source *src, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx)
{
	struct pft_src *s = (struct pft_src *)src;
	const struct pft_rec *r = ev->raw;
	struct pbd_field m, f, g;
	struct pbd d, e;
	char *buf;
	int ret = 0;

	if (!r || r->kind != PFT_FTRACE || ev->kind != F2T_EV_OTHER || !generic_of(s, r, &m))
		return -ENOENT;
	buf = malloc(2 * m.len + 2);
	if (!buf)
		return -ENOMEM;
	d = pbd_sub(&m);
	while (!ret && pbd_next(&d, &f) > 0) {
		const char *name = "", *str = NULL;
		long long num = 0;
		size_t used = 0;

		if (f.num != PF_GENERIC_FIELD || !pbd_is_len(&f))
			continue;
		e = pbd_sub(&f);
		while (pbd_next(&e, &g) > 0) {
			char *c = buf + used;

			if (pbd_is_len(&g) && (g.num == PF_GFIELD_NAME || g.num == PF_GFIELD_STR)) {
				memcpy(c, g.data, g.len);
				c[g.len] = '\0';
				used += g.len + 1;
				if (g.num == PF_GFIELD_NAME)
					name = c;
				else
					str = c;
			} else if (g.wire == PBD_VARINT && g.num >= PF_GFIELD_INT) {
				num = (long long)g.v;
			}
		}
		ret = fn(ctx, name, str != NULL, num, str);
	}
	free(buf);
	return ret;
}

static int ftrace_event(struct pft_src *s, const struct pft_rec *r, struct f2t_event *ev)
{
	struct pbd d = pbd_init(s->ix.data + r->ev.off, r->ev.len);
	struct pbd_field g, m = { 0 };
	size_t need = 2 * (size_t)r->ev.len + 64;
	int ret;

	if (need > s->scratch_cap) {
		char *p = realloc(s->scratch, need);

		if (!p)
			return -ENOMEM;
		s->scratch = p;
		s->scratch_cap = need;
	}
	s->scratch_len = 0;
	while ((ret = pbd_next(&d, &g)) > 0) {
		if (g.num == PF_FEV_PID && g.wire == PBD_VARINT)
			ev->pid = (int32_t)g.v;
		else if (g.num > PF_FEV_PID && pbd_is_len(&g) && g.num != 5)
			m = g;
	}
	if (ret || !m.num) {
		if (!ret) {
			s->st.unknown_events++;
			return 0;
		}
		f2t_err("%s: offset %" PRIu64 ": a damaged Perfetto trace (an FtraceEvent)", s->ix.path,
			r->ev.off);
		return -EINVAL;
	}
	ret = ftrace_message(s, &m, ev);
	if (ret > 0)
		ret = learn_names(s, ev) ?: 1;
	if (ret == -EINVAL)
		f2t_err("%s: offset %zu: a damaged Perfetto trace (an ftrace event's fields)",
			s->ix.path, (size_t)(m.data - s->ix.data));
	return ret;
}

static int compact_switch(struct pft_src *s, const struct pft_rec *r, struct f2t_event *ev)
{
	struct pft_cpu *c = &s->cpus[r->cpu];
	const char *next = f2t_intern_key(&s->ix.strs, r->cs.comm, NULL);
	const struct pft_name *prev = f2t_idmap_find(&s->names, c->pid);

	ev->kind = F2T_EV_SWITCH;
	/* Before the CPU's first switch its task is unknown: taken as idle (open's comment). */
	ev->pid = ev->sw.prev_pid = c->pid;
	ev->sw.prev_prio = c->prio;
	snprintf(s->scratch, F2T_COMM_LEN, "%s", prev ? prev->comm : c->comm);
	ev->sw.prev_comm = s->scratch;
	ev->sw.prev_state_raw = r->cs.state;
	pft_state_letters(r->cs.state, ev->sw.prev_state);
	ev->sw.next_pid = r->cs.pid;
	ev->sw.next_prio = r->cs.prio;
	ev->sw.next_comm = next;
	return set_running(s, r->cpu, r->cs.pid, r->cs.prio, next) ?: 1;
}

static int compact_waking(struct pft_src *s, const struct pft_rec *r, struct f2t_event *ev)
{
	ev->kind = F2T_EV_WAKING;
	ev->pid = s->cpus[r->cpu].pid;
	ev->wake.pid = r->cs.pid;
	ev->wake.prio = r->cs.prio;
	ev->wake.target_cpu = r->cs.target_cpu;
	ev->wake.comm = f2t_intern_key(&s->ix.strs, r->cs.comm, NULL);
	return learn_names(s, ev) ?: 1;
}

/* A kernel mapping's path: the kernel's, a module's "[name]"; not [vdso], [heap] and the like. */
static bool kernel_path(const char *p)
{
	static const char *const user[] = { "[vdso]", "[vsyscall]", "[vvar]", "[heap]",
					    "[stack]", "[jit]", "[unknown]" };

	if (p[0] != '[' || !strncmp(p, "[anon", 5))
		return false;
	for (size_t i = 0; i < sizeof(user) / sizeof(user[0]); i++)
		if (!strcmp(p, user[i]))
			return false;
	return true;
}

static int sample(struct pft_src *s, const struct pft_rec *r, struct f2t_event *ev)
{
	const struct pft_index *ix = &s->ix;
	uint32_t n = r->smp.stack == UINT32_MAX ? 0 : ix->stacks[r->smp.stack].n;

	if (f2t_vec_reserve(&s->frames, &s->framecap, n, 64))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const struct pft_frame *fr =
			&ix->frames[ix->stack_frames[ix->stacks[r->smp.stack].first + i] - 1];
		const struct pft_map *m = fr->map ? ix->maps[fr->map - 1] : NULL;
		struct f2t_frame *f = &s->frames[i];
		size_t bid_len = 0;

		*f = (struct f2t_frame){
			.ip = (m ? m->start : 0) + fr->rel_pc,
			.func = fr->func == UINT32_MAX ? NULL : f2t_intern_key(&ix->strs, fr->func, NULL),
			.module = m ? f2t_intern_key(&ix->strs, m->path, NULL) : "[unknown]",
			.offset = fr->rel_pc,
		};
		if (f->func && !*f->func)
			f->func = NULL;
		s->st.frames++;
		s->st.frames_named += f->func != NULL;
		if (!m)
			continue;
		/* An identity for the profile's mappings: the index's own, which lives as long. */
		f->mod = (const struct f2t_module *)m;
		f->mod_id = fr->map;
		f->build_id = (const uint8_t *)f2t_intern_key(&ix->strs, m->build_id, &bid_len);
		f->build_id_len = bid_len > 255 ? 255 : (uint8_t)bid_len;
		f->map_start = m->start;
		f->map_len = m->end > m->start ? m->end - m->start : 0;
		f->map_vaddr = m->pgoff;
		f->kernel = kernel_path(f->module);
	}
	ev->kind = F2T_EV_SAMPLE;
	ev->pid = r->smp.tid;
	ev->sample.tgid = r->smp.pid;
	ev->sample.period = r->smp.period;
	ev->sample.event = f2t_intern_key(&ix->strs, r->smp.event, NULL);
	ev->sample.nframes = n;
	ev->sample.frames = s->frames;
	return 1;
}

/* @name with what would end a marker's field ('|', line ends) made a space, into @out. */
static size_t field(char *out, const char *name)
{
	size_t n = 0;

	for (; name[n]; n++)
		out[n] = name[n] == '|' || name[n] == '\n' || name[n] == '\r' ? ' ' : name[n];
	return n;
}

/* A track event as the marker that draws it: 1, 0 when its track is not known (counted). */
static int track(struct pft_src *s, const struct pft_rec *r, struct f2t_event *ev)
{
	const struct pft_track *t = f2t_idmap_find(&s->ix.tracks, (int64_t)r->te.track);
	const char *name = f2t_intern_key(&s->ix.strs, r->te.name, NULL), *tname;
	size_t need, n;
	uint32_t *depth;
	bool thread;
	char *p;

	if (!t) {
		s->st.bad_records++;
		return 0;
	}
	thread = t->tid > 0;
	tname = f2t_intern_key(&s->ix.strs, t->name, &n);
	need = strlen(name) + n + 96;
	if (need > s->scratch_cap) {
		p = realloc(s->scratch, need);
		if (!p)
			return -ENOMEM;
		s->scratch = p;
		s->scratch_cap = need;
	}
	depth = f2t_idmap_get(&s->depth, (int64_t)r->te.track, NULL);
	if (!depth)
		return -ENOMEM;
	p = s->scratch;
	ev->kind = F2T_EV_PRINT;
	ev->pid = thread ? t->tid : t->pid;
	ev->cpu = cpu_of(s, ev->pid);
	switch (r->te.type) {
	case PF_TE_SLICE_BEGIN:
		p += sprintf(p, thread ? "B|%d|" : "G|%d|", t->pid ? t->pid : t->tid);
		if (!thread) {
			p += *tname ? field(p, tname) : (size_t)sprintf(p, "track %" PRIu64, r->te.track);
			*p++ = '|';
		}
		p += field(p, name);
		if (!thread)
			p += sprintf(p, "|%u", *depth);
		++*depth;
		break;
	case PF_TE_SLICE_END:
		if (*depth)
			--*depth;
		if (thread) {
			p += sprintf(p, "E|%d", t->pid ? t->pid : t->tid);
			break;
		}
		p += sprintf(p, "H|%d|", t->pid);
		p += *tname ? field(p, tname) : (size_t)sprintf(p, "track %" PRIu64, r->te.track);
		p += sprintf(p, "|%u", *depth);
		break;
	case PF_TE_INSTANT:
		p += sprintf(p, thread ? "I|%d|" : "N|%d|", t->pid ? t->pid : t->tid);
		if (!thread) {
			p += *tname ? field(p, tname) : (size_t)sprintf(p, "track %" PRIu64, r->te.track);
			*p++ = '|';
		}
		p += field(p, name);
		break;
	default:	/* a counter, named by its track */
		p += sprintf(p, "C|%d|", t->pid ? t->pid : t->tid);
		p += field(p, *tname ? tname : name);
		if (r->te.is_double)
			p += sprintf(p, "|%s%" PRId64 ".%03" PRId64, r->te.value < 0 ? "-" : "",
				     (int64_t)llabs(r->te.value / 1000),
				     (int64_t)llabs(r->te.value % 1000));
		else
			p += sprintf(p, "|%" PRId64, r->te.value);
		break;
	}
	ev->print.buf = s->scratch;
	ev->print.len = (size_t)(p - s->scratch);
	return 1;
}

static int pft_next(struct f2t_source *src, struct f2t_event *ev)
{
	struct pft_src *s = (struct pft_src *)src;
	int ret = 0;

	while (!ret && s->pos < s->ix.nrecs) {
		const struct pft_rec *r = &s->ix.recs[s->pos++];

		memset(ev, 0, sizeof(*ev));
		ev->ts = r->ts;
		ev->cpu = r->cpu;
		ev->src = src;
		ev->raw = r;
		switch (r->kind) {
		case PFT_FTRACE:
			ret = ftrace_event(s, r, ev);
			break;
		case PFT_CSWITCH:
			ret = compact_switch(s, r, ev);
			break;
		case PFT_CWAKING:
			ret = compact_waking(s, r, ev);
			break;
		case PFT_LOST:
			ev->kind = F2T_EV_LOST;
			s->st.lost_pages++;
			ret = 1;
			break;
		case PFT_SAMPLE:
			ret = sample(s, r, ev);
			break;
		default:
			ret = track(s, r, ev);
			break;
		}
	}
	return ret;
}

/* The kernel's text of what came from ftrace and has a form of it here: switches, wakeups, prints. */
static const char *pft_text(struct f2t_source *src, const struct f2t_event *ev,
			    const struct f2t_task *task, size_t *len)
{
	struct pft_src *s = (struct pft_src *)src;
	const struct pft_rec *r = ev->raw;
	struct textline l;
	const char *name;
	size_t need = 256;

	if (!r || r->kind > PFT_CWAKING || r->kind == PFT_LOST)
		goto none;
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		name = "sched_switch: ";
		need += strlen(ev->sw.prev_comm) + strlen(ev->sw.next_comm);
		break;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		name = ev->kind == F2T_EV_WAKING ? "sched_waking: " :
		       ev->kind == F2T_EV_WAKEUP ? "sched_wakeup: " : "sched_wakeup_new: ";
		need += strlen(ev->wake.comm);
		break;
	case F2T_EV_PRINT:
		name = "tracing_mark_write: ";
		need += ev->print.len;
		break;
	default:
		goto none;
	}
	if (need > s->line_cap) {
		char *p = realloc(s->line, need);

		if (!p)
			return NULL;
		s->line = p;
		s->line_cap = need;
	}
	l = (struct textline){ .buf = s->line };
	/* The kernel's own name for the idle task, whatever the table calls it. */
	f2t_ktext_task(&l, !ev->pid ? "<idle>" : task ? task->comm : "<...>", ev->pid,
		       task ? task->tgid : -1, ev->cpu);
	tl_str(&l, ".....");
	f2t_ktext_time(&l, ev->ts);
	tl_str(&l, name);
	if (ev->kind == F2T_EV_SWITCH)
		f2t_ktext_switch(&l, ev);
	else if (ev->kind == F2T_EV_PRINT)
		tl_mem(&l, ev->print.buf, ev->print.len);
	else
		f2t_ktext_wake(&l, ev);
	l.buf[l.len] = '\0';
	*len = l.len;
	return l.buf;
none:
	errno = ENOENT;
	return NULL;
}

static void pft_counts(const struct f2t_source *src, struct f2t_stats *st)
{
	const struct pft_src *s = (const struct pft_src *)src;

	f2t_stats_add(st, &s->ix.st);
	f2t_stats_add(st, &s->st);
	if (s->ix.any_cpu && s->ix.max_cpu + 1 > st->ncpus)
		st->ncpus = s->ix.max_cpu + 1;
}

static void pft_progress(const struct f2t_source *src, uint64_t *done, uint64_t *total)
{
	const struct pft_src *s = (const struct pft_src *)src;

	*done = s->pos;
	*total = s->ix.nrecs;
}

static void pft_close(struct f2t_source *src)
{
	struct pft_src *s = (struct pft_src *)src;

	if (!s)
		return;
	pft_index_fini(&s->ix);
	f2t_inmap_close(&s->inmap);
	f2t_idmap_fini(&s->depth);
	f2t_idmap_fini(&s->names);
	free(s->cpus);
	free(s->scratch);
	free(s->line);
	free(s->frames);
	free(s);
}

static const struct f2t_source_ops pft_ops = {
	.next = pft_next,
	.text = pft_text,
	.fields = pft_fields,
	.counts = pft_counts,
	.progress = pft_progress,
	.close = pft_close,
};

/* ---- opening ---- */

static void pft_input_close(struct f2t_input *in)
{
	struct pft_input *pi = (struct pft_input *)in;

	f2t_source_close(in->events);
	if (pi->src)
		pft_close(&pi->src->base);
	f2t_tasks_free(in->rec.tasks);
	f2t_tasks_free(in->rec.tasks_end);
	free(pi->path);
	free(pi);
}

/* What the walk found, into the recording; what the trace lacks, said. */
static void fill_recording(struct pft_input *pi)
{
	struct pft_index *ix = &pi->src->ix;
	struct f2t_trace_info *info = &pi->in.rec.info;
	uint64_t kinds[PFT_TRACK + 1] = { 0 };

	*info = ix->info;
	info->host = ix->host ? ix->host : "";
	info->cmdline = ix->cmdline ? ix->cmdline : "";
	info->kernel = ix->kernel ? ix->kernel : "";
	info->kernel_version = ix->kernel_version;
	info->boot_id = ix->boot_id;
	info->cpu_model = ix->cpu_model;
	info->machine = ix->machine ? ix->machine : "";
	/* Who recorded it: what our writer says it came from, else a Perfetto trace. */
	info->recorder = ix->recorder ? ix->recorder : pi->in.kind;
	if (ix->nrecs) {
		info->start_ns = ix->recs[0].ts;
		info->stop_ns = ix->recs[ix->nrecs - 1].ts;
	}
	if (ix->has_tz)
		info->tz_offset_min = (int32_t)ix->tz_offset_min, info->tz_known = true;
	/* The other clocks at the start, as the snapshot relates them: the writers carry them. */
	if (!strcmp(info->clock, "mono") && info->start_ns) {
		if (ix->clock_known[PF_CLOCK_BOOTTIME])
			info->boottime_ns = info->start_ns - ix->clock_at[PF_CLOCK_MONOTONIC] +
					    ix->clock_at[PF_CLOCK_BOOTTIME];
		if (ix->clock_known[PF_CLOCK_REALTIME])
			info->realtime_ns = info->start_ns - ix->clock_at[PF_CLOCK_MONOTONIC] +
					    ix->clock_at[PF_CLOCK_REALTIME];
	}
	/* The recording's own start, where our writer gave it, before the first event's. */
	if (ix->has_start && !strcmp(info->clock, "mono") && (uint64_t)ix->start_ns <= info->start_ns) {
		if (info->realtime_ns)
			info->realtime_ns -= info->start_ns - (uint64_t)ix->start_ns;
		if (info->boottime_ns)
			info->boottime_ns -= info->start_ns - (uint64_t)ix->start_ns;
		info->start_ns = (uint64_t)ix->start_ns;
	}
	if (ix->has_realtime)
		info->realtime_ns = (uint64_t)ix->realtime_ns;
	/* The name of the clock the recording's times were on (our writer keeps them as they were). */
	if (ix->clock)
		info->clock = ix->clock;
	if (!info->ncpus && ix->any_cpu)
		info->ncpus = ix->max_cpu + 1;
	/* The tracker owns the task table from the first event on: the input hands it over. */
	pi->in.rec.tasks = ix->tasks;
	for (size_t i = 0; i < ix->nrecs; i++)
		kinds[ix->recs[i].kind]++;
	if (!kinds[PFT_FTRACE] && !kinds[PFT_CSWITCH])
		f2t_warn("%s: no ftrace events in this Perfetto trace: no scheduling to show", pi->path);
	if (ix->ftrace_clock_other)
		f2t_warn("%s: its ftrace events are on a clock other than the boot clock: taken as that clock",
			 pi->path);
	if (ix->skipped_clock)
		f2t_warn("%s: %" PRIu64 " track events or samples on a clock of their own sequence (not read)",
			 pi->path, ix->skipped_clock);
	if (ix->skipped_offcpu)
		f2t_warn("%s: %" PRIu64 " off-CPU slices of ftrace2trace's not read back: the off-CPU report needs the capture (record -k)",
			 pi->path, ix->skipped_offcpu);
	if (ix->skipped_tracks)
		f2t_info("%s: %" PRIu64 " track events of kinds not read (legacy, state, or with no track)",
			 pi->path, ix->skipped_tracks);
	if (ix->kernel && strncmp(ix->kernel, "4.", 2) < 0 && ix->kernel[0] >= '0' &&
	    ix->kernel[0] <= '3')
		f2t_warn("%s: Linux %s: sched_switch's prev_state is read as Linux 4.14 and later write it",
			 pi->path, ix->kernel);
}

static int map_file(struct pft_src *s, int fd, const char *path)
{
	struct stat st;
	int ret;

	s->inmap.slot = -1;
	if (fstat(fd, &st))
		return -errno;
	if (st.st_size <= 0)
		return -EINVAL;
	ret = f2t_inmap_open(&s->inmap, fd, (size_t)st.st_size, path);
	if (ret)
		return ret;
	madvise((void *)s->inmap.data, s->inmap.len, MADV_SEQUENTIAL);
	s->ix.data = s->inmap.data;
	s->ix.len = s->inmap.len;
	return 0;
}

static int pftrace_open(const char *path, int fd, struct f2t_input **out)
{
	struct pft_input *pi = calloc(1, sizeof(*pi));
	struct pft_src *s = calloc(1, sizeof(*s));
	unsigned long said = f2t_errors();
	int ret;

	if (!pi || !s) {
		free(pi);
		free(s);
		f2t_err("%s: out of memory", path);
		return -ENOMEM;
	}
	pi->in.kind = f2t_pftrace_input.name;
	pi->in.close = pft_input_close;
	pi->src = s;
	s->base.ops = &pft_ops;
	s->inmap.slot = -1;
	pi->path = strdup(path);
	pi->in.rec.path = pi->path;
	pi->in.rec.tasks_end = f2t_tasks_new();
	s->ix.path = pi->path;
	if (!pi->path || !pi->in.rec.tasks_end || f2t_idmap_init(&s->depth, sizeof(uint32_t)) ||
	    f2t_idmap_init(&s->names, sizeof(struct pft_name))) {
		ret = -ENOMEM;
		goto out;
	}
	ret = map_file(s, fd, pi->path);
	if (ret) {
		f2t_err("%s: %s", path, strerror(-ret));
		goto out;
	}
	ret = pft_index_build(&s->ix) ?: f2t_inmap_check();
	if (ret)
		goto out;
	s->cpus = calloc((size_t)s->ix.max_cpu + 1, sizeof(*s->cpus));
	/* Before its first switch a CPU's task is taken as its idle task, named as the kernel names it. */
	for (uint32_t cpu = 0; s->cpus && cpu <= s->ix.max_cpu; cpu++)
		snprintf(s->cpus[cpu].comm, F2T_COMM_LEN, "swapper/%u", cpu);
	/* Room for a compact switch's name of the task switched out, before any whole event. */
	s->scratch_cap = 256;
	s->scratch = malloc(s->scratch_cap);
	if (!s->cpus || !s->scratch) {
		ret = -ENOMEM;
		goto out;
	}
	fill_recording(pi);
	s->ix.tasks = NULL;	/* the recording's now */
	pi->in.events = &s->base;
	pi->src = NULL;
out:
	if (ret == -ENOMEM && f2t_errors() == said)
		f2t_err("%s: out of memory", path);
	if (ret) {
		pft_input_close(&pi->in);
		return ret;
	}
	*out = &pi->in;
	return 0;
}

const struct f2t_input_kind f2t_pftrace_input = {
	.name = "Perfetto trace",
	.probe = pftrace_probe,
	.open = pftrace_open,
};
