// SPDX-License-Identifier: MIT
/*
 * An off-CPU episode as one complete slice on its thread, from the switch
 * out to the switch back in: named for its state and the kernel function
 * it blocked in ("S pipe_read"), naming its stack (model/profile.h; its
 * node in the stack tree is JSON's "sf": Trace Viewer shows it with the
 * slice), and as arguments the state, the waker and both stacks as text
 * (what Perfetto shows).
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

/* FRAMES as text, one per line, innermost first; cut at LEN. */
static struct f2t_str stack_text(const struct f2t_frame *frames, uint32_t n, char *buf,
				 size_t len)
{
	size_t at = 0;

	for (uint32_t i = 0; i < n && at + 2 < len; i++) {
		if (i)
			buf[at++] = '\n';
		at += f2t_frame_name(&frames[i], buf + at, len - at);
	}
	buf[at] = '\0';
	return (struct f2t_str){ buf, at };
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
	m->series[0] = ev->offcpu.state;
	m->series[1] = '\0';
	m->args[it.nargs++] = (struct f2t_arg){ .name = "state", .type = F2T_ARG_STR,
						.str = f2t_s(m->series) };
	if (wt > 0) {
		const struct f2t_task *t = f2t_tasks_find(m->rec->tasks, wt);

		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker_tid", .type = F2T_ARG_I32,
							.i = wt };
		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker_pid", .type = F2T_ARG_I32,
							.i = ev->offcpu.waker_tgid };
		m->args[it.nargs++] = (struct f2t_arg){ .name = "waker", .type = F2T_ARG_STR,
							.str = f2t_s(t ? t->comm : "") };
	}
	m->args[it.nargs++] = (struct f2t_arg){
		.name = "stack", .type = F2T_ARG_STR,
		.str = stack_text(ev->offcpu.frames, ev->offcpu.nframes, m->stack_text[0],
				  sizeof(m->stack_text[0])) };
	if (wt > 0)
		m->args[it.nargs++] = (struct f2t_arg){
			.name = "waker_stack", .type = F2T_ARG_STR,
			.str = stack_text(ev->offcpu.waker_frames, ev->offcpu.waker_nframes,
					  m->stack_text[1], sizeof(m->stack_text[1])) };
	return f2t_model_put(m, &it);
}
