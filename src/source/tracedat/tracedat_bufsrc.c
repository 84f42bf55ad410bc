// SPDX-License-Identifier: MIT
/*
 * What the two readers of a trace.dat buffer share (tracedat_bufsrc-local.h):
 * each hands its pending record here to become an event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "source/tracedat/tracedat_bufsrc-local.h"
#include "util/log.h"

int f2t_tracedat_bufsrc_init(struct tracedat_bufsrc *b, const struct f2t_source_ops *ops,
			     struct tep_handle *tep, uint32_t page, const struct f2t_recording *rec)
{
	uint32_t subbuf = 4096;

	b->base.ops = ops;
	b->path = rec->path;
	if (page > subbuf)
		subbuf = page;
	if (tep_get_sub_buffer_size(tep) > (int)subbuf)
		subbuf = (uint32_t)tep_get_sub_buffer_size(tep);
	if (tep_get_page_size(tep) > (int)subbuf)
		subbuf = (uint32_t)tep_get_page_size(tep);
	return f2t_rawdec_init(&b->dec, tep, subbuf, rec, rec->path);
}

void f2t_tracedat_bufsrc_fini(struct tracedat_bufsrc *b)
{
	f2t_minheap_free(&b->heap);
	f2t_rawdec_fini(&b->dec);
}

/*
 * A task's name from the file's saved cmdlines, with its first record:
 * the tracker gives it to the task if it makes the task for that event, as
 * if known from the start ("<...>", the kernel's name for a task it has
 * none for, when the file saved none).  Only the tasks the trace holds are
 * named (the file may save thousands), and libtracecmd gave the cmdlines to
 * the tep, which can only be asked pid by pid.  NULL: said already.
 */
static const char *saved_comm(struct tracedat_bufsrc *b, int32_t pid)
{
	int32_t *memo = &b->named[(uint32_t)pid % 1024];

	if (pid <= 0 || *memo == pid)
		return NULL;
	*memo = pid;
	return tep_is_pid_registered(b->dec.tep, pid) ? tep_data_comm_from_pid(b->dec.tep, pid) :
							 "<...>";
}

int f2t_tracedat_bufsrc_event(struct tracedat_bufsrc *b, struct f2t_event *ev, uint64_t ts,
			      uint32_t cpu, void *data, int size, uint64_t missed)
{
	int ret;

	ev->ts = ts;
	ev->cpu = cpu;
	ev->src = &b->base;
	ev->pid_comm = NULL;
	if (!data) {
		*ev = (struct f2t_event){
			.ts = ts, .cpu = cpu, .src = &b->base, .pid = -1,
			.kind = F2T_EV_LOST, .lost.count = missed,
		};
		b->lost_events += missed;
		return 1;
	}
	ret = f2t_rawdec_decode(&b->dec, data, size, ts, cpu, ev);
	if (ret <= 0)
		return ret;
	ev->pid_comm = saved_comm(b, ev->pid);
	return 1;
}

const char *f2t_tracedat_bufsrc_text(struct f2t_source *src, const struct f2t_event *ev,
				     const struct f2t_task *task, size_t *len)
{
	return f2t_rawdec_text(&((struct tracedat_bufsrc *)src)->dec, ev, task, len);
}

int f2t_tracedat_bufsrc_fields(struct f2t_source *src, const struct f2t_event *ev,
			       f2t_field_fn fn, void *ctx)
{
	return f2t_rawdec_fields(&((struct tracedat_bufsrc *)src)->dec, ev, fn, ctx);
}

void f2t_tracedat_bufsrc_counts(const struct f2t_source *src, struct f2t_stats *st)
{
	const struct tracedat_bufsrc *b = (const struct tracedat_bufsrc *)src;

	st->lost_marked += b->lost_events;
	st->lost_pages += b->lost_pages;
	f2t_rawdec_counts(&b->dec, st);
	if (b->ncpus > st->ncpus)
		st->ncpus = b->ncpus;
}
