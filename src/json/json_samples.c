// SPDX-License-Identifier: MIT
/*
 * The global "samples" array and its "stackFrames" dictionary (the Trace
 * Event Format's own place for CPU samples; chrome://tracing shows them,
 * Perfetto does not read them).  Samples are spooled as they come, so
 * memory stays flat, and written with the frame tree after traceEvents and
 * systemTraceEvents:
 *   {"cpu":C,"tid":T,"ts":US,"name":EVENT,"sf":ID,"weight":1}
 *   "ID":{"name":FUNCTION,"category":MODULE,"parent":"PARENT_ID"}
 * weight 1 because every sample of one run stands for the same period
 * (cpu-clock turns a frequency into a fixed period).  Every sample's "sf" is
 * in stackFrames: catapult refuses a trace otherwise.
 */
#include <string.h>

#include "json/json_fmt.h"
#include "json/json_writer-local.h"

int json_sample(struct f2t_writer *w, const struct f2t_item *it)
{
	struct json_priv *p = w->priv;
	const struct f2t_event *ev = it->ev;
	struct f2t_out *o;
	int ret;

	if (!p->sample_spool.out) {
		ret = f2t_spool_open(&p->sample_spool, w->out->path);
		if (ret)
			return ret;
	}
	o = p->sample_spool.out;
	f2t_out_puts(o, p->samples ? ",\n{\"cpu\":" : "{\"cpu\":");
	f2t_json_put_u64(o, ev->cpu);
	f2t_out_puts(o, ",\"tid\":");
	f2t_json_put_u64(o, ev->pid > 0 ? (uint64_t)ev->pid : 0);
	f2t_out_puts(o, ",\"ts\":");
	f2t_json_put_ts(o, ev->ts);
	f2t_out_puts(o, ",\"name\":");
	f2t_json_put_string(o, ev->sample.event, strlen(ev->sample.event));
	f2t_out_puts(o, ",\"sf\":");
	f2t_json_put_u64(o, (uint64_t)it->stack);
	f2t_out_puts(o, ",\"weight\":1}");
	p->samples++;
	return o->err;
}

int json_write_samples(struct f2t_writer *w)
{
	struct json_priv *p = w->priv;
	const struct f2t_stacks *stacks = f2t_model_stacks(w->model);
	uint32_t n = f2t_stacks_count(stacks);
	struct f2t_out *o = w->out;
	int ret;

	if (!p->samples && !p->stack_refs)
		return 0;
	ret = 0;
	if (p->samples) {
		f2t_out_puts(o, ",\n\"samples\":[\n");
		ret = f2t_spool_copy(&p->sample_spool, o);
		f2t_out_puts(o, "\n]");
	}
	f2t_out_puts(o, ",\n\"stackFrames\":{");
	for (uint32_t id = 1; id <= n; id++) {
		const char *name, *cat;
		uint32_t parent;

		f2t_stacks_get(stacks, id, &name, &cat, &parent);
		f2t_out_puts(o, id > 1 ? ",\n\"" : "\n\"");
		f2t_json_put_u64(o, id);
		f2t_out_puts(o, "\":{\"name\":");
		f2t_json_put_string(o, name, strlen(name));
		f2t_out_puts(o, ",\"category\":");
		f2t_json_put_string(o, cat, strlen(cat));
		if (parent) {
			f2t_out_puts(o, ",\"parent\":\"");
			f2t_json_put_u64(o, parent);
			f2t_out_putc(o, '"');
		}
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, "\n}");
	return ret ? ret : o->err;
}
