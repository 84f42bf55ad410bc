// SPDX-License-Identifier: MIT
/*
 * An off-CPU episode as one complete slice on its thread, from the switch
 * out to the switch back in: named for its state and the kernel function
 * it blocked in ("S pipe_read"), naming the stack it blocked in and its
 * waker's (model/profile.h: each interned once, the writers draw them from
 * the definitions; the blocked one's node in the stack tree is JSON's
 * "sf", which Trace Viewer shows with the slice), and as arguments the
 * state and the waker (tid; its pid and name as derived arguments).
 */
#include <stdio.h>
#include <string.h>

#include "model/model-local.h"
#include "model/offcpu.h"
#include "model/stacks.h"

/* The scheduler's own frames sit above the function that blocked. */
static bool in_scheduler(const struct f2t_frame *f)
{
	return f->func && (strstr(f->func, "schedule") || !strcmp(f->func, "__cond_resched"));
}

const struct f2t_frame *f2t_offcpu_blocker(const struct f2t_frame *frames, uint32_t n)
{
	for (uint32_t i = 0; i < n && frames[i].kernel; i++)
		if (!in_scheduler(&frames[i]))
			return &frames[i];
	return NULL;
}

int f2t_model_offcpu_event(struct f2t_model *m, const struct f2t_event *ev)
{
	const struct f2t_frame *blocker = f2t_offcpu_blocker(ev->offcpu.frames, ev->offcpu.nframes);
	struct f2t_item it = {
		.kind = F2T_ITEM_COMPLETE, .ts = ev->offcpu.start, .end_ts = ev->ts, .ev = ev,
		.category = f2t_s("off-cpu"), .args = m->args,
	};
	char fname[128];
	int32_t wt = ev->offcpu.waker_tid;
	int ret;

	ret = f2t_model_task_track(m, ev->pid, ev->cpu, ev->ts, &it.track);
	if (ret)
		return ret;
	if (ev->offcpu.tgid > 0)
		it.track.pid = ev->offcpu.tgid;
	if (blocker)
		f2t_frame_name(blocker, fname, sizeof(fname));
	snprintf(m->text, sizeof(m->text), "%c %s", ev->offcpu.state,
		 blocker ? fname : "[unknown]");
	it.name = f2t_s(m->text);
	if (ev->offcpu.nframes) {
		ret = f2t_model_stack(m, ev->offcpu.frames, ev->offcpu.nframes, true, &it,
				      &it.stack);
		if (ret)
			return ret;
	}
	if (wt > 0 && ev->offcpu.waker_nframes) {
		/* The waker's user frames are its own process's. */
		ret = f2t_profile_stack(m->profile, ev->offcpu.waker_tgid, ev->offcpu.waker_frames,
					ev->offcpu.waker_nframes, false, &it, m->emit, m->ctx,
					&it.waker_stack);
		if (ret)
			return ret;
	}
	m->series[0] = ev->offcpu.state;
	m->series[1] = '\0';
	m->args[it.nargs++] = (struct f2t_arg){ .name = "state", .type = F2T_ARG_STR,
						.str = f2t_s(m->series) };
	if (wt > 0) {
		const struct f2t_task *t = f2t_tasks_find(m->rec->tasks, wt);

		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker_tid", .type = F2T_ARG_I32,
							.i = wt };
		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker_pid", .type = F2T_ARG_I32,
							.derived = true,
							.i = ev->offcpu.waker_tgid };
		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker", .type = F2T_ARG_STR,
							.derived = true,
							.str = f2t_s(t ? t->comm : "") };
	}
	return f2t_model_put(m, &it);
}
