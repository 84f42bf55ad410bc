// SPDX-License-Identifier: MIT
/*
 * ftrace text as an input: the kernel's trace file, `trace-cmd report`
 * output, an atrace dump, or the ftrace text inside a systrace HTML file.
 * The file is mapped and read twice: once, at open, for what the recording
 * is (the tasks and their processes as the lines name them, the CPUs, the
 * first and last times, the clock if the header says it), then line by
 * line as the source's events, in the file's order (the kernel and trace-cmd
 * write them by time).  Lines that are no event are counted, the first few
 * shown by line number; only a file where no line is one is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/input.h"
#include "source/text/text-local.h"
#include "util/log.h"

#define SHOWN_BAD_LINES 5
#define PREFETCH_AHEAD 4096
/*
 * The start of a file the first pass leaves mapped for the second: it would
 * fault each page in again (8 ms of 125 for 106 MB, measured); the pages
 * are the page cache's, mapped, not copies.
 */
#define KEEP_MAPPED (256u << 20)

struct text_input {
	struct f2t_input in;
	struct text_src *src;	/* until handed to in.events */
	char *clock, *path;
};

/* ---- what a file starts with ---- */

static const char *skip_space(const char *p, const char *end)
{
	if (end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))	/* a UTF-8 BOM */
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

static bool starts_with(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* Text of ours: a header, trace-cmd report's first line, or an event line first. */
static bool looks_like_ftrace(const char *p, const char *end)
{
	p = skip_space(p, end);
	if (starts_with(p, end, "# tracer:") || starts_with(p, end, "TRACE:") ||
	    starts_with(p, end, "cpus=") || starts_with(p, end, "version = "))
		return true;
	/* The first line that is not a comment must be an event. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct f2t_tline t;

		if (!nl)
			return false;	/* a partial line proves nothing */
		if (f2t_tline_head(p, (size_t)(nl - p), &t))
			return false;
		if (t.kind != F2T_TLINE_SKIP)
			return true;
		p = nl + 1;
	}
	return false;
}

static bool text_probe(const unsigned char *head, size_t len)
{
	return looks_like_ftrace((const char *)head, (const char *)head + len);
}

static bool html_probe(const unsigned char *head, size_t len)
{
	const char *p = skip_space((const char *)head, (const char *)head + len);
	size_t left = len - (size_t)(p - (const char *)head);

	return (left >= 14 && !strncasecmp(p, "<!DOCTYPE html", 14)) ||
	       (left >= 5 && !strncasecmp(p, "<html", 5));
}

/* ---- the source: one line after the other ---- */

/* Gives back the pages behind P from s->released on, in steps of 4 MiB: memory stays flat. */
static inline void release_before(struct text_src *s, const char *p)
{
	size_t upto = (size_t)(p - s->map);

	if (__builtin_expect(upto > s->released + (4u << 20), 0)) {
		upto &= ~((size_t)sysconf(_SC_PAGESIZE) - 1);
		madvise((char *)s->map + s->released, upto - s->released, MADV_DONTNEED);
		s->released = upto;
	}
}

/* The next line from s->pos: its start and length; false at the end. */
static bool next_line(struct text_src *s, const char **line, size_t *len)
{
	const char *nl;

	if (s->pos >= s->end)
		return false;
	/*
	 * The lines ahead, asked for before they are read: a pass over a file
	 * bigger than the caches waits for memory three times as long without
	 * (the hardware's prefetch does not cross pages; measured 42 vs 12 ms
	 * for a scan of 106 MB).
	 */
	if (s->fetched < s->pos)
		s->fetched = s->pos;
	for (; s->fetched < s->pos + PREFETCH_AHEAD && s->fetched < s->end; s->fetched += 64)
		__builtin_prefetch(s->fetched);
	nl = f2t_find_byte(s->pos, s->end, '\n');
	*line = s->pos;
	*len = (size_t)(nl - s->pos);
	s->pos = nl < s->end ? nl + 1 : s->end;
	s->lineno++;
	return true;
}

static void bad_line(struct text_src *s, const char *line, size_t len)
{
	if (++s->bad_lines <= SHOWN_BAD_LINES)
		f2t_warn("%s: line %llu: not an ftrace event line, skipped: %.*s%s", s->path,
			 (unsigned long long)s->lineno, (int)(len < 80 ? len : 80), line,
			 len > 80 ? "..." : "");
}

static int text_next(struct f2t_source *src, struct f2t_event *ev)
{
	static const struct f2t_event blank;
	struct text_src *s = (struct text_src *)src;
	const char *line;
	size_t len;

	while (next_line(s, &line, &len)) {
		struct f2t_tline *t = &s->cur;
		int ret;

		/* The buffers hold the longest line of the first pass, the file as it was then. */
		if (__builtin_expect(len > s->longest, 0)) {
			if (f2t_inmap_check())
				return -EIO;	/* cut short: said so */
			f2t_err("%s: line %llu: changed while being read (longer than any line was)",
				s->path, (unsigned long long)s->lineno);
			return -EIO;
		}
		if (f2t_tline_parse_cached(&s->heads, line, len, t) < 0) {
			bad_line(s, line, len);
			continue;
		}
		if (t->kind == F2T_TLINE_SKIP)
			continue;
		*ev = blank;	/* a copy, where gcc makes a memset a slow rep stos */
		ev->src = &s->base;
		ev->cpu = t->cpu;
		if (t->kind == F2T_TLINE_LOST) {
			/* Between the events around it: at the one before. */
			ev->kind = F2T_EV_LOST;
			ev->ts = s->last_ts;
			ev->pid = -1;
			ev->lost.count = t->lost;
			s->lost_events += t->lost;
			s->lost_notes++;
			return 1;
		}
		ev->ts = s->last_ts = t->ts;
		ev->pid = t->pid;
		ev->raw = t;
		s->records++;
		ret = f2t_text_event(s, t, ev);
		if (ret > 0) {
			release_before(s, line);
			return 1;
		}
		if (ret < 0)
			bad_line(s, line, len);
	}
	if (s->bad_lines > SHOWN_BAD_LINES)
		f2t_warn("%s: %llu lines in all were not ftrace event lines (skipped, counted as bad records)",
			 s->path, (unsigned long long)s->bad_lines);
	return 0;
}

static const char *text_text(struct f2t_source *src, const struct f2t_event *ev,
			     const struct f2t_task *task, size_t *len)
{
	return f2t_text_line((struct text_src *)src, ev, task, len);
}

static int text_fields(struct f2t_source *src, const struct f2t_event *ev, f2t_field_fn fn,
		       void *ctx)
{
	return f2t_text_fields((struct text_src *)src, ev, fn, ctx);
}

static void text_counts(const struct f2t_source *src, struct f2t_stats *st)
{
	const struct text_src *s = (const struct text_src *)src;

	st->records += s->records;
	st->bad_records += s->bad_lines;
	st->lost_marked += s->lost_events;
	st->lost_pages += s->lost_notes;
	if (s->ncpus > st->ncpus)
		st->ncpus = s->ncpus;
}

static void text_progress(const struct f2t_source *src, uint64_t *done, uint64_t *total)
{
	const struct text_src *s = (const struct text_src *)src;

	*done = (uint64_t)(s->pos - s->begin);
	*total = (uint64_t)(s->end - s->begin);
}

static void text_close(struct f2t_source *src)
{
	struct text_src *s = (struct text_src *)src;

	f2t_inmap_close(&s->inmap);
	free(s->scratch);
	free(s->line);
	free(s);
}

static const struct f2t_source_ops text_ops = {
	.next = text_next,
	.text = text_text,
	.fields = text_fields,
	.counts = text_counts,
	.progress = text_progress,
	.close = text_close,
};

/* ---- the first pass: what the recording is ---- */

struct scan {
	bool events;		/* any event line */
	uint64_t first_bad;
	size_t longest;
	uint32_t ncpus;
	uint64_t first_ts, last_ts;
	const char *clock;	/* from the header, or NULL */
	size_t clock_len;
};

/* "# trace_clock: NAME" (ours), "# clock_type=LINUX_CLOCK_MONOTONIC" (catapult's). */
static void header_line(struct scan *sc, const char *line, size_t len)
{
	const char *end = line + len, *p;

	if ((p = memmem(line, len, "trace_clock: ", 13))) {
		sc->clock = p + 13;
		for (p = sc->clock; p < end && *p != ' '; p++)
			;
		sc->clock_len = (size_t)(p - sc->clock);
	} else if (memmem(line, len, "clock_type=LINUX_CLOCK_MONOTONIC", 32)) {
		sc->clock = "mono";
		sc->clock_len = 4;
	}
	/* "#P:2", the kernel's count of CPUs; the line may end the file, unterminated. */
	if ((p = memmem(line, len, "#P:", 3))) {
		uint32_t n = 0;

		for (p += 3; p < end && *p >= '0' && *p <= '9' && n <= F2T_MAX_CPUS; p++)
			n = n * 10 + (uint32_t)(*p - '0');
		if (n > sc->ncpus && n <= F2T_MAX_CPUS)
			sc->ncpus = n;
	}
}

/* A line's task into the tables: at the start (first seen) and the end (last seen). */
static int note_task(struct f2t_recording *rec, const struct f2t_tline *t, struct f2t_tline *last)
{
	char comm[F2T_COMM_LEN];
	size_t n = t->comm.len < F2T_COMM_LEN - 1 ? t->comm.len : F2T_COMM_LEN - 1;
	struct f2t_task *task;
	bool known;

	/* Most lines are the same task as the line before. */
	if (t->pid <= 0 || (t->pid == last->pid && t->tgid == last->tgid &&
			    t->comm.len == last->comm.len && !memcmp(t->comm.s, last->comm.s, n)))
		return 0;
	*last = *t;
	memcpy(comm, t->comm.s, n);
	comm[n] = '\0';
	if (!strcmp(comm, "<...>"))	/* the kernel had no name for it */
		return 0;
	known = f2t_tasks_find(rec->tasks, t->pid) != NULL;
	if (!known) {
		task = f2t_tasks_get(rec->tasks, t->pid);
		if (!task)
			return -ENOMEM;
		f2t_task_set(task, comm, t->tgid > 0 ? t->tgid : 0);
	}
	task = f2t_tasks_get(rec->tasks_end, t->pid);
	if (!task)
		return -ENOMEM;
	f2t_task_set(task, comm, t->tgid > 0 ? t->tgid : 0);
	return 0;
}

/*
 * The last event's time: the file read backwards from its end, to the first
 * line that is one (the first pass does not read the rest of a known task's
 * lines).
 */
static uint64_t last_ts(const struct text_src *s)
{
	const char *end = s->end;

	while (end > s->begin) {
		const char *nl = memrchr(s->begin, '\n', (size_t)(end - s->begin));
		const char *line = nl ? nl + 1 : s->begin;
		struct f2t_tline t;

		if (!f2t_tline_head(line, (size_t)(end - line), &t) && t.kind == F2T_TLINE_EVENT)
			return t.ts;
		end = nl ? nl : s->begin;
	}
	return 0;
}

static int scan(struct text_src *s, struct f2t_recording *rec, struct scan *sc)
{
	struct f2t_tline last = { .pid = -1 };
	const char *line;
	size_t len;
	int ret = 0;

	memset(sc, 0, sizeof(*sc));
	s->lineno = s->first_lineno - 1;
	s->released = KEEP_MAPPED;
	while (!ret && next_line(s, &line, &len)) {
		struct f2t_tline t;
		int known;

		if (len > sc->longest)
			sc->longest = len;
		release_before(s, line);
		/*
		 * The task's latest columns, noted and their CPU counted, by a
		 * line of theirs read before; whether this one is an event too
		 * matters only for the last one, found at the end.
		 */
		known = f2t_tline_task_cached(&s->heads, line, len, &t);
		if (known > 0)
			continue;
		if (known < 0) {
			if (!sc->first_bad)
				sc->first_bad = s->lineno;
			continue;
		}
		if (t.kind == F2T_TLINE_SKIP && len && line[0] == '#')
			header_line(sc, line, len);
		if (t.kind != F2T_TLINE_EVENT)
			continue;
		if (!sc->events)
			sc->first_ts = t.ts;
		sc->events = true;
		if (t.cpu + 1 > sc->ncpus)
			sc->ncpus = t.cpu + 1;
		ret = note_task(rec, &t, &last);
	}
	if (sc->events)
		sc->last_ts = last_ts(s);
	/* The events are read from the start again. */
	s->pos = s->fetched = s->begin;
	s->lineno = s->first_lineno - 1;
	s->released = 0;
	return ret;
}

/* ---- opening ---- */

/*
 * The ftrace text inside a systrace HTML file: the first
 * <script class="trace-data"> block that reads as ftrace text (others hold
 * JSON).
 */
static int html_text(struct text_src *s)
{
	static const char tag[] = "class=\"trace-data\"";
	const char *p = s->map, *end = s->map + s->map_len;

	while ((p = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1))) {
		const char *open = memchr(p, '>', (size_t)(end - p)), *close;

		if (!open)
			break;
		open++;
		close = memmem(open, (size_t)(end - open), "</script>", 9);
		if (!close)
			close = end;
		if (looks_like_ftrace(open, close)) {
			s->begin = open;
			s->end = close;
			for (const char *c = s->map; (c = memchr(c, '\n', (size_t)(open - c))); c++)
				s->first_lineno++;
			return 0;
		}
		p = close;
	}
	f2t_err("%s: an HTML file with no ftrace text in it (no <script class=\"trace-data\"> block of ftrace text)",
		s->path);
	return -EINVAL;
}

static int map_file(struct text_src *s, int fd)
{
	struct stat st;
	int ret = 0;

	s->inmap.slot = -1;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (st.st_size > 0) {
		ret = f2t_inmap_open(&s->inmap, fd, (size_t)st.st_size, s->path);
		if (!ret) {
			s->map = (const char *)s->inmap.data;
			s->map_len = s->inmap.len;
			madvise((void *)s->map, s->map_len, MADV_SEQUENTIAL);
			/* One call for the pages the passes keep, not a fault every 16 (3% of a conversion). */
			madvise((void *)s->map, s->map_len < KEEP_MAPPED ? s->map_len : KEEP_MAPPED,
				MADV_POPULATE_READ);
		}
	}
	if (ret)
		f2t_err("%s: %s", s->path, strerror(-ret));
	s->begin = s->pos = s->map ? s->map : "";	/* an empty file has no mapping */
	s->end = s->begin + s->map_len;
	s->first_lineno = 1;
	return ret;
}

/* What the first pass found, into the recording; the clock said when it is not mono. */
static int fill_recording(struct text_input *ti, const struct scan *sc)
{
	struct f2t_trace_info *info = &ti->in.rec.info;

	ti->clock = sc->clock ? strndup(sc->clock, sc->clock_len) : strdup("local");
	if (!ti->clock)
		return -ENOMEM;
	info->host = info->kernel = info->cmdline = "";
	info->recorder = ti->in.kind;
	info->clock = ti->clock;
	info->start_ns = sc->first_ts;
	info->stop_ns = sc->last_ts;
	info->ncpus = sc->ncpus;
	if (!sc->clock)
		f2t_warn("%s: the text does not say its trace clock: taken as 'local', the kernel's default, which is not CLOCK_MONOTONIC (other traces will not line up with it in a merge)",
			 ti->path);
	else if (strcmp(ti->clock, "mono"))
		f2t_warn("%s: trace clock '%s', not CLOCK_MONOTONIC: other traces will not line up with it in a merge",
			 ti->path, ti->clock);
	return 0;
}

static void text_input_close(struct f2t_input *in)
{
	struct text_input *ti = (struct text_input *)in;

	f2t_source_close(in->events);
	if (ti->src)
		text_close(&ti->src->base);
	f2t_tasks_free(in->rec.tasks);
	f2t_tasks_free(in->rec.tasks_end);
	free(ti->clock);
	free(ti->path);
	free(ti);
}

static int open_text(const char *path, int fd, bool html, const char *kind,
		     struct f2t_input **out)
{
	struct text_input *ti = calloc(1, sizeof(*ti));
	struct text_src *s = calloc(1, sizeof(*s));
	unsigned long said = f2t_errors();
	struct scan sc;
	int ret;

	if (!ti || !s) {
		free(ti);
		free(s);
		f2t_err("%s: out of memory", path);
		return -ENOMEM;
	}
	ti->in.kind = kind;
	ti->in.close = text_input_close;
	ti->src = s;
	ti->path = strdup(path);
	ti->in.rec.path = ti->path;
	ti->in.rec.tasks = f2t_tasks_new();
	ti->in.rec.tasks_end = f2t_tasks_new();
	s->base.ops = &text_ops;
	s->path = ti->path;
	if (!ti->path || !ti->in.rec.tasks || !ti->in.rec.tasks_end) {
		ret = -ENOMEM;
		goto out;
	}
	ret = map_file(s, fd);
	if (!ret && html)
		ret = html_text(s);
	if (ret)
		goto out;
	ret = scan(s, &ti->in.rec, &sc) ?: f2t_inmap_check();
	if (ret)
		goto out;
	if (!sc.events && sc.first_bad) {
		f2t_err("%s: line %llu: not ftrace text (no line of it is an ftrace event)", path,
			(unsigned long long)sc.first_bad);
		ret = -EINVAL;
		goto out;
	}
	/* Room for a line's strings twice over, and for its text rebuilt. */
	s->longest = sc.longest;
	s->scratch_cap = 3 * sc.longest + 512;
	s->line_cap = 2 * sc.longest + 1024;
	s->scratch = malloc(s->scratch_cap);
	s->line = malloc(s->line_cap);
	if (!s->scratch || !s->line) {
		ret = -ENOMEM;
		goto out;
	}
	s->ncpus = sc.ncpus;
	ret = fill_recording(ti, &sc);
	if (ret)
		goto out;
	ti->in.events = &s->base;
	ti->src = NULL;
out:
	if (ret == -ENOMEM && f2t_errors() == said)
		f2t_err("%s: out of memory", path);
	if (ret) {
		text_input_close(&ti->in);
		return ret;
	}
	*out = &ti->in;
	return 0;
}

static int text_open(const char *path, int fd, struct f2t_input **out)
{
	return open_text(path, fd, false, f2t_text_input.name, out);
}

static int html_open(const char *path, int fd, struct f2t_input **out)
{
	return open_text(path, fd, true, f2t_html_input.name, out);
}

const struct f2t_input_kind f2t_text_input = {
	.name = "ftrace text",
	.probe = text_probe,
	.open = text_open,
};

const struct f2t_input_kind f2t_html_input = {
	.name = "systrace HTML",
	.probe = html_probe,
	.open = html_open,
};
