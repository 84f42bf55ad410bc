// SPDX-License-Identifier: MIT
/*
 * The decode floor of a capture: what reading its ring-buffer records costs
 * with the kernel's own library and nothing else.  libtraceevent's kbuffer
 * walks each CPU's sub-buffers and every event's numeric fields (pids,
 * prios, states, CPUs: each field the format file gives that is neither a
 * string nor an array) are read with tep_read_number() at the offsets the
 * format files give, looked up once per event type.  No per-CPU merge by
 * time, no strings, no task table, no output: every conversion does more,
 * so this is the floor conversion is held against (scripts/bench-convert.sh).
 * The capture's records are found with our reader (a mapping and an index);
 * its formats parsed by f2t_capsrc_formats(), as a conversion does.
 *
 * With --source, the same walk through our own source instead (the
 * capture's records decoded into events and merged by time, as a
 * conversion reads them, and nothing after): how much of a conversion's
 * time its input takes.
 *
 * usage: bench-floor [--source] CAPTURE
 * prints: EVENTS events, FIELDS numeric fields read, checksum SUM
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "capture/capture.h"
#include "source/input.h"
#include "source/capture/capsrc.h"

/* An event type's numeric fields, found once. */
struct numeric {
	int n;
	struct tep_format_field **f;
};

static struct numeric *types[65536];

static struct numeric *numeric_of(struct tep_handle *tep, unsigned short id)
{
	struct tep_event *e;
	struct tep_format_field *f;
	struct numeric *t = types[id];

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	e = tep_find_event(tep, id);
	for (f = e ? e->format.fields : NULL; f; f = f->next)
		if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
		    f->size <= 8)
			t->n++;
	t->f = calloc(t->n ? t->n : 1, sizeof(*t->f));
	if (!t->f)
		return NULL;
	t->n = 0;
	for (f = e ? e->format.fields : NULL; f; f = f->next)
		if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
		    f->size <= 8)
			t->f[t->n++] = f;
	types[id] = t;
	return t;
}

/* Our source's events, with the numeric fields of the scheduling ones. */
static int source_walk(const char *path)
{
	unsigned long long events = 0, sum = 0;
	struct f2t_input *in = f2t_input_open(path);
	struct f2t_event ev;
	int ret;

	if (!in)
		return 1;
	while ((ret = f2t_source_next(in->events, &ev)) > 0) {
		switch (ev.kind) {
		case F2T_EV_SWITCH:
			sum += (unsigned long long)(ev.sw.prev_pid + ev.sw.prev_prio + ev.sw.next_pid +
						    ev.sw.next_prio + ev.sw.prev_state_raw);
			break;
		case F2T_EV_WAKING:
		case F2T_EV_WAKEUP:
		case F2T_EV_WAKEUP_NEW:
			sum += (unsigned long long)(ev.wake.pid + ev.wake.prio + ev.wake.target_cpu);
			break;
		default:
			break;
		}
		sum += ev.ts + (unsigned long long)ev.pid;
		events++;
	}
	printf("%llu events, checksum %llu\n", events, sum);
	f2t_input_close(in);
	return ret < 0;
}

int main(int argc, char **argv)
{
	unsigned long long events = 0, fields = 0, sum = 0;
	struct f2t_capr *cap;
	struct tep_handle *tep;
	struct kbuffer *kb;
	int subbuf;

	if (argc == 3 && !strcmp(argv[1], "--source"))
		return source_walk(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: bench-floor [--source] CAPTURE\n");
		return 2;
	}
	cap = f2t_capr_open(argv[1]);
	tep = cap ? f2t_capsrc_formats(cap) : NULL;
	kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	if (!tep || !kb)
		return 1;
	subbuf = tep_get_page_size(tep);
	for (size_t i = 0; i < cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &cap->recs[i];

		if (r->type != F2T_CAP_CPU_DATA)
			continue;
		for (uint64_t off = 0; off + (uint64_t)subbuf <= r->len; off += (uint64_t)subbuf) {
			unsigned long long ts;
			void *data;

			if (kbuffer_load_subbuffer(kb, (char *)r->data + off) < 0)
				continue;
			for (data = kbuffer_read_event(kb, &ts); data;
			     data = kbuffer_next_event(kb, &ts)) {
				struct numeric *t = numeric_of(tep, *(unsigned short *)data);

				if (!t)
					return 1;
				for (int k = 0; k < t->n; k++)
					sum += tep_read_number(tep, (char *)data + t->f[k]->offset,
							       t->f[k]->size);
				fields += (unsigned long long)t->n;
				sum += ts;
				events++;
			}
		}
	}
	printf("%llu events, %llu numeric fields read, checksum %llu\n", events, fields, sum);
	kbuffer_free(kb);
	tep_free(tep);
	f2t_capr_close(cap);
	return 0;
}
