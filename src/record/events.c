// SPDX-License-Identifier: MIT
/*
 * Event selection.  The default set is what the scheduling view needs:
 * switches, wake-ups, task life cycle and names.  task_newtask is there for
 * its clone_flags, which tell a new thread from a new process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/events.h"
#include "util/log.h"
#include "util/sort.h"
#include "util/vec.h"

static const struct {
	const char *system, *event;
	bool required;
} defaults[] = {
	{ "sched", "sched_switch", true },
	{ "sched", "sched_waking", false },
	{ "sched", "sched_wakeup", false },
	{ "sched", "sched_wakeup_new", false },
	{ "sched", "sched_process_fork", false },
	{ "sched", "sched_process_exec", false },
	{ "sched", "sched_process_exit", false },
	{ "sched", "sched_process_free", false },
	{ "task", "task_rename", false },
	{ "task", "task_newtask", false },
};

#define MAX_SUGGEST 5

static int add(struct f2t_evlist *l, const char *sys, const char *ev,
	       bool required, bool optional)
{
	struct f2t_evsel *v;

	if (f2t_vec_reserve(&l->v, &l->cap, l->n + 1, 16))
		return -ENOMEM;
	v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	v->system = strdup(sys);
	v->event = ev ? strdup(ev) : NULL;
	if (!v->system || (ev && !v->event)) {
		free(v->system);
		free(v->event);
		return -ENOMEM;
	}
	v->required = required;
	v->optional = optional;
	l->n++;
	return 0;
}

static bool event_exists(const char *sys, const char *ev)
{
	char path[512];

	if (ev)
		snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
	else
		snprintf(path, sizeof(path), "events/%s/enable", sys);
	return tracefs_file_exists(NULL, path);
}

/* A name we can put into a tracefs path without escaping it. */
static bool sane_name(const char *s)
{
	return *s && *s != '.' && !strchr(s, '/') && strlen(s) < 200;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[128];

	if (la >= 127 || lb >= 127)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

struct match {
	char name[256];
	size_t dist;
};

static void consider(struct match *best, size_t *nbest, const char *name, size_t dist)
{
	size_t i;

	for (i = 0; i < *nbest; i++)
		if (!strcmp(best[i].name, name)) {
			if (dist < best[i].dist)
				best[i].dist = dist;
			return;
		}
	if (*nbest < MAX_SUGGEST)
		i = (*nbest)++;
	else {
		i = 0;
		for (size_t k = 1; k < *nbest; k++)
			if (best[k].dist > best[i].dist)
				i = k;
		if (best[i].dist <= dist)
			return;
	}
	snprintf(best[i].name, sizeof(best[i].name), "%s", name);
	best[i].dist = dist;
}

static int by_dist(const void *a, const void *b)
{
	const struct match *x = a, *y = b;

	return x->dist < y->dist ? -1 : x->dist > y->dist;
}

/* Prints the error for SPEC with the closest names in available_events. */
static void report_unknown(const char *spec, const char *sys, const char *ev)
{
	char *avail = tracefs_instance_file_read(NULL, "available_events", NULL);
	struct match best[MAX_SUGGEST];
	size_t nbest = 0, thr = strlen(ev ? ev : sys) / 3;
	char list[MAX_SUGGEST * 260] = "";

	if (thr < 2)
		thr = 2;
	for (char *line = avail, *next; line && *line; line = next) {
		char *colon, *e;
		size_t d;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		colon = strchr(line, ':');
		if (!colon)
			continue;
		e = colon + 1;
		if (ev) {
			*colon = '\0';
			/* a typo in the event, or the right event in the wrong system */
			d = edit_distance(ev, e) + (strcmp(sys, line) ? 1 : 0);
			*colon = ':';
			if (d <= thr || (strlen(ev) >= 4 && strstr(e, ev)))
				consider(best, &nbest, line, d);
		} else {
			*colon = '\0';
			d = edit_distance(sys, line);
			if (d <= thr)
				consider(best, &nbest, line, d);
			/* "sched_switch" alone: an event given without its system */
			else if (!strcmp(sys, e) || edit_distance(sys, e) <= thr) {
				*colon = ':';
				consider(best, &nbest, line, edit_distance(sys, e));
			}
			*colon = ':';
		}
	}
	free(avail);
	f2t_sort(best, nbest, sizeof(best[0]), by_dist);
	for (size_t i = 0; i < nbest; i++) {
		strcat(list, i ? ", " : "");
		strcat(list, best[i].name);
	}
	if (nbest)
		f2t_err("unknown event '%s' (did you mean: %s?)", spec, list);
	else
		f2t_err("unknown event '%s' (see %s/available_events)", spec,
			tracefs_tracing_dir());
}

static int add_spec(struct f2t_evlist *l, const char *spec)
{
	char buf[512], *sep, *sys = buf, *ev = NULL;

	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		goto bad;
	sep = strpbrk(buf, ":/");
	if (sep) {
		*sep = '\0';
		ev = sep + 1;
		if (!*ev || !strcmp(ev, "*"))
			ev = NULL;	/* "irq:" or "irq:*": the whole system */
	}
	if (!sane_name(sys) || (ev && !sane_name(ev)))
		goto bad;
	if (!event_exists(sys, ev)) {
		report_unknown(spec, sys, ev);
		return -EINVAL;
	}
	return add(l, sys, ev, false, false);
bad:
	f2t_err("bad event '%s': expected SYSTEM or SYSTEM:EVENT", spec);
	return -EINVAL;
}

int f2t_events_build(struct f2t_evlist *l, const char *const *specs, size_t nspecs)
{
	int err = 0;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]) && !err; i++)
		err = add(l, defaults[i].system, defaults[i].event, defaults[i].required, true);
	for (size_t i = 0; i < nspecs && !err; i++) {
		char *copy = strdup(specs[i]), *save = NULL;

		if (!copy) {
			err = -ENOMEM;
			break;
		}
		for (char *tok = strtok_r(copy, ",", &save); tok && !err;
		     tok = strtok_r(NULL, ",", &save))
			err = add_spec(l, tok);
		free(copy);
	}
	if (err)
		f2t_events_free(l);
	return err;
}

int f2t_events_enable(struct f2t_evlist *l, struct tracefs_instance *ti)
{
	int err = 0;

	for (size_t i = 0; i < l->n; i++) {
		struct f2t_evsel *s = &l->v[i];
		const char *what = s->event ? s->event : "*";

		if (s->optional && !event_exists(s->system, s->event)) {
			if (s->required) {
				f2t_err("this kernel has no %s:%s tracepoint; cannot record "
					"scheduling", s->system, what);
				err = -ENOENT;
				goto out;
			}
			f2t_warn("this kernel has no %s:%s tracepoint; the trace will lack it",
				 s->system, what);
			continue;
		}
		if (tracefs_event_enable(ti, s->system, s->event) < 0) {
			err = -(errno ? errno : EIO);
			if (s->optional && !s->required && !f2t_resource_error(err)) {
				f2t_warn("cannot enable %s:%s: %s", s->system, what, strerror(-err));
				err = 0;
				continue;
			}
			f2t_err("cannot enable %s:%s: %s", s->system, what, strerror(-err));
			goto out;
		}
		s->enabled = true;
	}
out:
	return err;
}

static const char *const function_events[] = { "function", "funcgraph_entry", "funcgraph_exit" };

struct fmtset {
	char **names;		/* "system/event", to write each format once */
	size_t n, cap;
};

static int write_one(struct fmtset *done, struct f2t_capw *w, const char *sys, const char *ev)
{
	char key[512];
	char *fmt;
	int len = 0, err;

	snprintf(key, sizeof(key), "%s/%s", sys, ev);
	for (size_t i = 0; i < done->n; i++)
		if (!strcmp(done->names[i], key))
			return 0;
	if (f2t_vec_reserve(&done->names, &done->cap, done->n + 1, 16))
		return -ENOMEM;
	done->names[done->n] = strdup(key);
	if (!done->names[done->n])
		return -ENOMEM;
	done->n++;

	fmt = tracefs_event_file_read(NULL, sys, ev, "format", &len);
	if (!fmt || len <= 0) {
		/* An event can vanish (module unload); the rest of the trace stands. */
		f2t_warn("cannot read the format of %s:%s", sys, ev);
		free(fmt);
		return 0;
	}
	err = f2t_capw_add2(w, F2T_CAP_EVENT_FORMAT, 0, sys, strlen(sys) + 1, fmt, (size_t)len);
	free(fmt);
	return err;
}

int f2t_events_write_formats(const struct f2t_evlist *l, struct f2t_capw *w)
{
	struct fmtset done = { 0 };
	int err;

	/* trace_marker writes arrive as ftrace:print */
	err = write_one(&done, w, "ftrace", "print");
	/* What the function tracers write, for a --function(-graph) run. */
	for (size_t i = 0; i < sizeof(function_events) / sizeof(function_events[0]) && !err; i++)
		if (tracefs_event_file_exists(NULL, "ftrace", function_events[i], "format"))
			err = write_one(&done, w, "ftrace", function_events[i]);
	for (size_t i = 0; i < l->n && !err; i++) {
		const struct f2t_evsel *s = &l->v[i];
		char **evs;

		if (!s->enabled)
			continue;
		if (s->event) {
			err = write_one(&done, w, s->system, s->event);
			continue;
		}
		evs = tracefs_system_events(NULL, s->system);
		for (size_t k = 0; evs && evs[k] && !err; k++)
			err = write_one(&done, w, s->system, evs[k]);
		tracefs_list_free(evs);
	}
	for (size_t i = 0; i < done.n; i++)
		free(done.names[i]);
	free(done.names);
	return err;
}

void f2t_events_free(struct f2t_evlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].system);
		free(l->v[i].event);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
