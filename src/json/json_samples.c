// SPDX-License-Identifier: MIT
/*
 * Samples as {"cpu":C,"tid":T,"ts":US,"name":EVENT,"sf":ID,"weight":1}:
 * weight 1 because every sample of one run stands for the same period
 * (cpu-clock turns a frequency into a fixed period).  Frames as
 * "ID":{"name":FUNCTION,"category":MODULE,"parent":"PARENT_ID"}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stacks.h"
#include "json/json_fmt.h"
#include "json/json_samples.h"
#include "util/spool.h"

struct f2t_jsamples {
	struct f2t_stacks *stacks;
	struct f2t_spool spool;		/* opened at the first sample */
	char *near;
	uint64_t n;
};

struct f2t_jsamples *f2t_jsamples_new(const char *near)
{
	struct f2t_jsamples *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->spool.fd = -1;
	j->stacks = f2t_stacks_new();
	j->near = near ? strdup(near) : NULL;
	if (!j->stacks || (near && !j->near)) {
		f2t_jsamples_free(j);
		return NULL;
	}
	return j;
}

void f2t_jsamples_free(struct f2t_jsamples *j)
{
	if (!j)
		return;
	f2t_spool_close(&j->spool);
	f2t_stacks_free(j->stacks);
	free(j->near);
	free(j);
}

static void put_u64(struct f2t_out *o, uint64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(o, buf, f2t_json_u64(buf, v));
}

int f2t_jsamples_event(struct f2t_jsamples *j, const struct f2t_event *ev)
{
	char buf[F2T_JSON_NUM_MAX];
	struct f2t_out *o;
	int64_t sf;
	int ret;

	if (ev->kind != F2T_EV_SAMPLE)
		return 0;
	if (!j->spool.out) {
		ret = f2t_spool_open(&j->spool, j->near);
		if (ret)
			return ret;
	}
	sf = f2t_stacks_add(j->stacks, ev->sample.frames, ev->sample.nframes);
	if (sf < 0)
		return (int)sf;
	o = j->spool.out;
	f2t_out_puts(o, j->n ? ",\n{\"cpu\":" : "{\"cpu\":");
	put_u64(o, ev->cpu);
	f2t_out_puts(o, ",\"tid\":");
	put_u64(o, ev->pid > 0 ? (uint64_t)ev->pid : 0);
	f2t_out_puts(o, ",\"ts\":");
	f2t_out_write(o, buf, f2t_json_ts(buf, ev->ts));
	f2t_out_puts(o, ",\"name\":");
	f2t_json_put_string(o, ev->sample.event, strlen(ev->sample.event));
	f2t_out_puts(o, ",\"sf\":");
	put_u64(o, (uint64_t)sf);
	f2t_out_puts(o, ",\"weight\":1}");
	j->n++;
	return o->err;
}

int f2t_jsamples_write(struct f2t_jsamples *j, struct f2t_out *o)
{
	uint32_t n = f2t_stacks_count(j->stacks);
	int ret;

	if (!j->n)
		return 0;
	f2t_out_puts(o, ",\n\"samples\":[\n");
	ret = f2t_spool_copy(&j->spool, o);
	f2t_out_puts(o, "\n],\n\"stackFrames\":{");
	for (uint32_t id = 1; id <= n; id++) {
		const char *name, *cat;
		uint32_t parent;

		f2t_stacks_get(j->stacks, id, &name, &cat, &parent);
		f2t_out_puts(o, id > 1 ? ",\n\"" : "\n\"");
		put_u64(o, id);
		f2t_out_puts(o, "\":{\"name\":");
		f2t_json_put_string(o, name, strlen(name));
		f2t_out_puts(o, ",\"category\":");
		f2t_json_put_string(o, cat, strlen(cat));
		if (parent) {
			f2t_out_puts(o, ",\"parent\":\"");
			put_u64(o, parent);
			f2t_out_putc(o, '"');
		}
		f2t_out_putc(o, '}');
	}
	f2t_out_puts(o, "\n}");
	return ret ? ret : o->err;
}

uint64_t f2t_jsamples_count(const struct f2t_jsamples *j)
{
	return j->n;
}

uint32_t f2t_jsamples_frames(const struct f2t_jsamples *j)
{
	return f2t_stacks_count(j->stacks);
}
