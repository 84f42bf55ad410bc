// SPDX-License-Identifier: MIT
/* Ftrace bundles: compact scheduling and whole events (pf_ftrace.h). */
#include <errno.h>
#include <string.h>

#include "model/tasks.h"
#include "perfetto/pf_fields.h"
#include "perfetto/pf_ftrace.h"
#include "perfetto/pf_packets.h"

int pf_bundle_init(struct pf_bundle *bb, uint32_t cpu)
{
	*bb = (struct pf_bundle){ .cpu = cpu, .gen = 1 };
	return 0;
}

/* CompactSched's field for each column. */
static const uint32_t column_field[PF_NCOLUMNS] = {
	[PF_COL_SWITCH_TS] = PF_CS_SWITCH_TIMESTAMP,
	[PF_COL_SWITCH_STATE] = PF_CS_SWITCH_PREV_STATE,
	[PF_COL_SWITCH_PID] = PF_CS_SWITCH_NEXT_PID,
	[PF_COL_SWITCH_PRIO] = PF_CS_SWITCH_NEXT_PRIO,
	[PF_COL_SWITCH_COMM] = PF_CS_SWITCH_NEXT_COMM_INDEX,
	[PF_COL_WAKING_TS] = PF_CS_WAKING_TIMESTAMP,
	[PF_COL_WAKING_PID] = PF_CS_WAKING_PID,
	[PF_COL_WAKING_CPU] = PF_CS_WAKING_TARGET_CPU,
	[PF_COL_WAKING_PRIO] = PF_CS_WAKING_PRIO,
	[PF_COL_WAKING_COMM] = PF_CS_WAKING_COMM_INDEX,
};

void pf_bundle_fini(struct pf_bundle *bb)
{
	for (int i = 0; i < PF_NCOLUMNS; i++)
		pb_buf_free(&bb->col[i]);
	pb_buf_free(&bb->events);
	pb_buf_free(&bb->frame);
	f2t_intern_fini(&bb->comms);
}

/* Compact events made room for at a time: an eighth of a bundle's most (pf_bundle_full()). */
#define ROOM_EVENTS 1024

int pf_bundle_make_room(struct pf_bundle *bb)
{
	size_t room = SIZE_MAX;

	for (int i = 0; i < PF_NCOLUMNS; i++) {
		struct pb_buf *col = &bb->col[i];

		if (!pb_room(col, ROOM_EVENTS * PB_MAX_VARINT))
			return col->err;
		if ((col->cap - col->len) / PB_MAX_VARINT < room)
			room = (col->cap - col->len) / PB_MAX_VARINT;
	}
	bb->room = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
	return 0;
}

int64_t pf_bundle_comm_intern(struct pf_bundle *bb, struct pf_comm_memo *m, int32_t pid,
			      const char *s)
{
	size_t len = strnlen(s, F2T_COMM_LEN - 1);
	int64_t index = f2t_intern(&bb->comms, s, len, NULL);

	if (index >= 0) {
		*m = (struct pf_comm_memo){ .pid = pid, .index = (uint32_t)index, .gen = bb->gen };
		memcpy(m->comm, s, len);
	}
	return index;
}

static void str(struct pb_buf *b, uint32_t field, const char *s)
{
	if (s)
		pb_str(b, field, s);
}

/* A GenericFtraceEvent field per tracepoint field. */
static int generic_field(void *ctx, const char *name, int is_str, long long num, const char *s)
{
	struct pb_buf *b = ctx;
	size_t f = pb_open(b, PF_GENERIC_FIELD);

	pb_str(b, PF_GFIELD_NAME, name);
	if (is_str)
		str(b, PF_GFIELD_STR, s ? s : "");
	else
		pb_int(b, PF_GFIELD_INT, num);
	pb_close(b, f);
	return 0;
}

static void wake(struct pb_buf *b, const struct f2t_event *ev)
{
	str(b, PF_WAKE_COMM, ev->wake.comm);
	pb_int(b, PF_WAKE_PID, ev->wake.pid);
	pb_int(b, PF_WAKE_PRIO, ev->wake.prio);
	pb_int(b, PF_WAKE_TARGET_CPU, ev->wake.target_cpu);
}

/* The fields of @ev's own message (the one event_field() names). */
static int message(struct pb_buf *b, const struct f2t_event *ev)
{
	switch (ev->kind) {
	case F2T_EV_SWITCH:
		str(b, PF_SW_PREV_COMM, ev->sw.prev_comm);
		pb_int(b, PF_SW_PREV_PID, ev->sw.prev_pid);
		pb_int(b, PF_SW_PREV_PRIO, ev->sw.prev_prio);
		pb_int(b, PF_SW_PREV_STATE, ev->sw.prev_state_raw);
		str(b, PF_SW_NEXT_COMM, ev->sw.next_comm);
		pb_int(b, PF_SW_NEXT_PID, ev->sw.next_pid);
		pb_int(b, PF_SW_NEXT_PRIO, ev->sw.next_prio);
		return 0;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		wake(b, ev);
		return 0;
	case F2T_EV_FORK:
		if (ev->fork.clone_thread >= 0) {
			/* task_newtask, which tells a thread from a process. */
			pb_int(b, PF_NEWTASK_PID, ev->fork.child_pid);
			str(b, PF_NEWTASK_COMM, ev->fork.child_comm);
			pb_uint(b, PF_NEWTASK_CLONE_FLAGS, ev->fork.clone_flags);
			return 0;
		}
		str(b, PF_FORK_PARENT_COMM, ev->fork.parent_comm);
		pb_int(b, PF_FORK_PARENT_PID, ev->fork.parent_pid);
		str(b, PF_FORK_CHILD_COMM, ev->fork.child_comm);
		pb_int(b, PF_FORK_CHILD_PID, ev->fork.child_pid);
		return 0;
	case F2T_EV_EXEC:
		str(b, PF_EXEC_FILENAME, ev->exec.filename);
		pb_int(b, PF_EXEC_PID, ev->exec.pid);
		pb_int(b, PF_EXEC_OLD_PID, ev->exec.old_pid);
		return 0;
	case F2T_EV_EXIT:
		str(b, PF_EXIT_COMM, ev->exit.comm);
		pb_int(b, PF_EXIT_PID, ev->exit.pid);
		pb_int(b, PF_EXIT_PRIO, ev->exit.prio);
		return 0;
	case F2T_EV_FREE:
		str(b, PF_FREE_COMM, ev->exit.comm);
		pb_int(b, PF_FREE_PID, ev->exit.pid);
		pb_int(b, PF_FREE_PRIO, ev->exit.prio);
		return 0;
	case F2T_EV_RENAME:
		pb_int(b, PF_RENAME_PID, ev->rename.pid);
		str(b, PF_RENAME_OLDCOMM, ev->rename.oldcomm);
		str(b, PF_RENAME_NEWCOMM, ev->rename.newcomm);
		return 0;
	case F2T_EV_PRINT:
		pb_bytes(b, PF_PRINT_BUF, ev->print.buf, ev->print.len);
		return 0;
	case F2T_EV_IRQ_ENTRY:
		pb_int(b, PF_IRQ_IRQ, ev->irq.irq);
		str(b, PF_IRQ_NAME, ev->irq.name);
		return 0;
	case F2T_EV_IRQ_EXIT:
		pb_int(b, PF_IRQ_IRQ, ev->irq.irq);
		pb_int(b, PF_IRQ_RET, ev->irq.ret);
		return 0;
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		pb_uint(b, PF_SOFTIRQ_VEC, ev->softirq.vec);
		return 0;
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		pb_uint(b, PF_POWER_STATE, ev->power.state);
		pb_uint(b, PF_POWER_CPU_ID, ev->power.cpu_id);
		return 0;
	case F2T_EV_OTHER: {
		int ret;

		str(b, PF_GENERIC_EVENT_NAME, ev->other.name);
		ret = f2t_event_fields(ev, generic_field, b);
		/* A source that keeps no fields (a test's hand-made event) has none to give. */
		return ret == -ENOENT ? 0 : ret;
	}
	default:
		return -ENOENT;
	}
}

/* FtraceEvent's field number for @ev's message, 0 if none. */
static uint32_t event_field(const struct f2t_event *ev)
{
	static const uint32_t fields[F2T_EV_KIND_COUNT] = {
		[F2T_EV_SWITCH] = PF_FEV_SCHED_SWITCH,
		[F2T_EV_WAKING] = PF_FEV_SCHED_WAKING,
		[F2T_EV_WAKEUP] = PF_FEV_SCHED_WAKEUP,
		[F2T_EV_WAKEUP_NEW] = PF_FEV_SCHED_WAKEUP_NEW,
		[F2T_EV_EXEC] = PF_FEV_SCHED_PROCESS_EXEC,
		[F2T_EV_EXIT] = PF_FEV_SCHED_PROCESS_EXIT,
		[F2T_EV_FREE] = PF_FEV_SCHED_PROCESS_FREE,
		[F2T_EV_RENAME] = PF_FEV_TASK_RENAME,
		[F2T_EV_PRINT] = PF_FEV_PRINT,
		[F2T_EV_OTHER] = PF_FEV_GENERIC,
		[F2T_EV_IRQ_ENTRY] = PF_FEV_IRQ_HANDLER_ENTRY,
		[F2T_EV_IRQ_EXIT] = PF_FEV_IRQ_HANDLER_EXIT,
		[F2T_EV_SOFTIRQ_ENTRY] = PF_FEV_SOFTIRQ_ENTRY,
		[F2T_EV_SOFTIRQ_EXIT] = PF_FEV_SOFTIRQ_EXIT,
		[F2T_EV_CPU_IDLE] = PF_FEV_CPU_IDLE,
		[F2T_EV_CPU_FREQ] = PF_FEV_CPU_FREQUENCY,
	};

	if (ev->kind == F2T_EV_FORK)
		return ev->fork.clone_thread >= 0 ? PF_FEV_TASK_NEWTASK : PF_FEV_SCHED_PROCESS_FORK;
	return ev->kind < F2T_EV_KIND_COUNT ? fields[ev->kind] : 0;
}

/* Opens an FtraceEvent with its timestamp and common pid, and its message @field. */
static size_t event_open(struct pf_bundle *bb, uint64_t ts, int32_t pid, uint32_t field,
			 size_t *msg)
{
	size_t e = pb_open(&bb->events, PF_BUNDLE_EVENT);

	/* In this order: trace_processor's fast path expects it. */
	pb_uint(&bb->events, PF_FEV_TIMESTAMP, ts);
	pb_uint(&bb->events, PF_FEV_PID, (uint32_t)pid);
	*msg = pb_open(&bb->events, field);
	return e;
}

static int event_close(struct pf_bundle *bb, size_t e, size_t msg)
{
	pb_close(&bb->events, msg);
	pb_close(&bb->events, e);
	bb->nevents++;
	return bb->events.err;
}

int pf_bundle_event(struct pf_bundle *bb, uint64_t ts, const struct f2t_event *ev)
{
	uint32_t field = event_field(ev);
	size_t e, msg;
	int ret;

	if (!field)
		return 0;
	if ((ev->kind == F2T_EV_WAKING || ev->kind == F2T_EV_WAKEUP ||
	     ev->kind == F2T_EV_WAKEUP_NEW) && pf_bundle_wake(bb, ts, field, ev))
		return 1;
	e = event_open(bb, ts, ev->pid, field, &msg);
	ret = message(&bb->events, ev);
	if (ret)
		return ret;
	ret = event_close(bb, e, msg);
	return ret ? ret : 1;
}

int pf_bundle_print(struct pf_bundle *bb, uint64_t ts, int32_t pid, const char *buf,
		    size_t len)
{
	size_t msg, e = event_open(bb, ts, pid, PF_FEV_PRINT, &msg);

	pb_bytes(&bb->events, PF_PRINT_BUF, buf, len);
	return event_close(bb, e, msg);
}

void pf_bundle_clear(struct pf_bundle *bb)
{
	for (int i = 0; i < PF_NCOLUMNS; i++)
		bb->col[i].len = 0;
	bb->events.len = 0;
	/* The comms' index starts small again. */
	f2t_intern_clear(&bb->comms);
	bb->nevents = 0;
	bb->room = 0;		/* counted again from the columns' room */
	bb->lost = false;
	bb->gen++;		/* every memo is stale */
	bb->last_switch_ts = bb->last_waking_ts = 0;
}

/* The body of the bundle's CompactSched: its comms, then its columns with values. */
static size_t compact_size(const struct pf_bundle *bb)
{
	size_t n = 0, len;

	for (size_t i = 0; i < bb->comms.n; i++) {
		f2t_intern_key(&bb->comms, i, &len);
		n += pb_len_size(PF_CS_INTERN_TABLE, len);
	}
	for (int i = 0; i < PF_NCOLUMNS; i++)
		if (bb->col[i].len)
			n += pb_len_size(column_field[i], bb->col[i].len);
	return n;
}

static void piece(struct iovec *iov, int *n, const void *p, size_t len)
{
	if (len)
		iov[(*n)++] = (struct iovec){ .iov_base = (void *)p, .iov_len = len };
}

int pf_bundle_pieces(struct pf_bundle *bb, uint32_t seq, struct iovec *iov)
{
	struct pb_buf *f = &bb->frame;
	size_t cs, bundle, head, ends[PF_NCOLUMNS] = { 0 }, from;
	int n = 0;

	if (!bb->nevents && !bb->lost)
		return 0;
	/*
	 * Every length known before a byte is written, so that the bundle's
	 * buffers go out as they are: the frame holds the bytes between them
	 * (the packet's head, each column's key and length), the buffers are
	 * pieces of their own, where they were copied into the packet before.
	 */
	cs = bb->comms.n ? compact_size(bb) : 0;
	bundle = pb_uint_size(PF_BUNDLE_CPU, bb->cpu) +
		 (bb->lost ? pb_uint_size(PF_BUNDLE_LOST_EVENTS, 1) : 0) + bb->events.len +
		 (bb->comms.n ? pb_len_size(PF_BUNDLE_COMPACT_SCHED, cs) : 0);
	f->len = 0;
	pf_packet_open_sized(f, &(struct pf_head){ .seq = seq },
			     pb_len_size(PF_PKT_FTRACE_EVENTS, bundle));
	pb_open_sized(f, PF_PKT_FTRACE_EVENTS, bundle);
	pb_uint(f, PF_BUNDLE_CPU, bb->cpu);
	if (bb->lost)
		pb_uint(f, PF_BUNDLE_LOST_EVENTS, 1);
	head = f->len;
	if (bb->comms.n) {
		pb_open_sized(f, PF_BUNDLE_COMPACT_SCHED, cs);
		for (size_t i = 0; i < bb->comms.n; i++) {
			size_t len;
			const char *c = f2t_intern_key(&bb->comms, i, &len);

			pb_bytes(f, PF_CS_INTERN_TABLE, c, len);
		}
		for (int i = 0; i < PF_NCOLUMNS; i++) {
			if (bb->col[i].len)
				pb_open_sized(f, column_field[i], bb->col[i].len);
			ends[i] = f->len;
		}
	}
	if (f->err)
		return f->err;
	/* Pieces only now: the frame may have moved as it grew. */
	piece(iov, &n, f->p, head);
	piece(iov, &n, bb->events.p, bb->events.len);
	from = head;
	for (int i = 0; bb->comms.n && i < PF_NCOLUMNS; i++) {
		piece(iov, &n, f->p + from, ends[i] - from);
		piece(iov, &n, bb->col[i].p, bb->col[i].len);
		from = ends[i];
	}
	return n;
}
