// SPDX-License-Identifier: MIT
/*
 * The global "samples" array and its "stackFrames" dictionary (the Trace
 * Event Format's own place for CPU samples; chrome://tracing shows them,
 * Perfetto does not read them).  Samples and the model's stack tree nodes
 * are spooled as they come, so memory stays flat, and written after
 * traceEvents and systemTraceEvents:
 *   {"cpu":C,"tid":T,"ts":US,"name":EVENT,"sf":ID,"weight":1}
 *   "ID":{"name":FUNCTION,"category":MODULE,"parent":"PARENT_ID"}
 * weight 1 because every sample of one run stands for the same period
 * (cpu-clock turns a frequency into a fixed period).  Every sample's "sf" is
 * in stackFrames: catapult refuses a trace otherwise.
 */
#include <string.h>

#include "json/json_fmt.h"
#include "json/json_writer-local.h"

/* Spool @sp, opened next to the output at its first entry.  Return: 0 or negative errno. */
static int spool(struct f2t_writer *w, struct f2t_spool *sp)
{
	return sp->out ? 0 : f2t_spool_open(sp, w->out);
}

int json_sample(struct f2t_writer *w, const struct f2t_item *it)
{
	struct json_priv *p = w->priv;
	const struct f2t_event *ev = it->ev;
	struct f2t_out *o;
	int ret = spool(w, &p->sample_spool);

	if (ret)
		return ret;
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
	f2t_json_put_u64(o, it->stack.node);
	f2t_out_puts(o, ",\"weight\":1}");
	p->samples++;
	return o->err;
}

int json_stack_node(struct f2t_writer *w, const struct f2t_item *it)
{
	struct json_priv *p = w->priv;
	const struct f2t_stack_node_def *d = it->def.node;
	struct f2t_out *o;
	int ret = spool(w, &p->node_spool);

	if (ret)
		return ret;
	o = p->node_spool.out;
	f2t_out_puts(o, p->nodes ? ",\n\"" : "\n\"");
	f2t_json_put_u64(o, d->id);
	f2t_out_puts(o, "\":{\"name\":");
	f2t_json_put_string(o, d->name.s, d->name.len);
	f2t_out_puts(o, ",\"category\":");
	f2t_json_put_string(o, d->module.s, d->module.len);
	if (d->parent) {
		f2t_out_puts(o, ",\"parent\":\"");
		f2t_json_put_u64(o, d->parent);
		f2t_out_putc(o, '"');
	}
	f2t_out_putc(o, '}');
	p->nodes++;
	return o->err;
}

int json_write_samples(struct f2t_writer *w)
{
	struct json_priv *p = w->priv;
	struct f2t_out *o = w->out;
	int ret = 0;

	if (p->samples) {
		f2t_out_puts(o, ",\n\"samples\":[\n");
		ret = f2t_spool_copy(&p->sample_spool, o);
		f2t_out_puts(o, "\n]");
	}
	if (p->nodes) {
		f2t_out_puts(o, ",\n\"stackFrames\":{");
		if (!ret)
			ret = f2t_spool_copy(&p->node_spool, o);
		f2t_out_puts(o, "\n}");
	}
	return ret ? ret : o->err;
}
