// SPDX-License-Identifier: MIT
/* The kernel's text for events, piece by piece (ktext.h). */
#include "source/ktext.h"

void f2t_ktext_task(struct textline *l, const char *comm, int32_t pid, int32_t tgid,
		    uint32_t cpu)
{
	tl_str_right(l, comm, 16);
	tl_putc(l, '-');
	tl_int(l, pid, 7, TL_LEFT);
	tl_str(l, " (");
	if (pid == 0 || tgid < 0)
		tl_str(l, "-------");
	else
		tl_int(l, tgid, 7, TL_RIGHT);
	tl_str(l, ") [");
	tl_int(l, cpu, 3, TL_ZERO);
	tl_str(l, "] ");
}

void f2t_ktext_time(struct textline *l, uint64_t ts)
{
	uint64_t usecs = (ts + 500) / 1000;

	tl_putc(l, ' ');
	tl_int(l, (int64_t)(usecs / 1000000), 5, TL_RIGHT);
	tl_putc(l, '.');
	tl_int(l, (int64_t)(usecs % 1000000), 6, TL_ZERO);
	tl_str(l, ": ");
}

/* "prev_comm=... ==> next_pid=N next_prio=N", the kernel's sched_switch text. */
void f2t_ktext_switch(struct textline *l, const struct f2t_event *ev)
{
	tl_str(l, "prev_comm=");
	tl_str(l, ev->sw.prev_comm);
	tl_str(l, " prev_pid=");
	tl_int(l, ev->sw.prev_pid, 0, TL_LEFT);
	tl_str(l, " prev_prio=");
	tl_int(l, ev->sw.prev_prio, 0, TL_LEFT);
	tl_str(l, " prev_state=");
	tl_str(l, ev->sw.prev_state);
	tl_str(l, " ==> next_comm=");
	tl_str(l, ev->sw.next_comm);
	tl_str(l, " next_pid=");
	tl_int(l, ev->sw.next_pid, 0, TL_LEFT);
	tl_str(l, " next_prio=");
	tl_int(l, ev->sw.next_prio, 0, TL_LEFT);
}

void f2t_ktext_wake(struct textline *l, const struct f2t_event *ev)
{
	tl_str(l, "comm=");
	tl_str(l, ev->wake.comm);
	tl_str(l, " pid=");
	tl_int(l, ev->wake.pid, 0, TL_LEFT);
	tl_str(l, " prio=");
	tl_int(l, ev->wake.prio, 0, TL_LEFT);
	tl_str(l, " target_cpu=");
	tl_int(l, ev->wake.target_cpu, 3, TL_ZERO);
}
