// SPDX-License-Identifier: MIT
/*
 * Our own capture as an input: the recording's facts from its metadata and
 * side records, its events from two sources (the ring-buffer pages and the
 * perf rings) interleaved by time.  This file and the two sources are the only
 * code that knows the capture's record layout (capture/capture.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "source/capture/capsrc.h"
#include "source/input.h"
#include "source/perf/perfsrc.h"
#include "util/log.h"

struct capture_input {
	struct f2t_input in;
	struct f2t_capr *cap;
	/* The metadata values the recording points to, owned here. */
	char *host, *kernel, *kernel_version, *boot_id, *cpu_model, *machine, *cmdline, *clock;
	char *recorder, *tz, *pids;
	char *sync_start_id, *sync_end_id, *kernel_build_id, *sample_event, *sample_scope;
	struct f2t_cpu_stats *cpu_stats;
	struct f2t_pid_text *jit_maps, *proc_maps;
};

static bool capture_probe(const unsigned char *head, size_t len)
{
	return len >= 8 && !memcmp(head, F2T_CAP_MAGIC, 8);
}

static uint64_t meta_u64(const struct f2t_capr *cap, const char *key)
{
	char *v = f2t_capr_meta(cap, key);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;

	free(v);
	return n;
}

static void read_info(struct capture_input *c)
{
	const struct f2t_capr *cap = c->cap;
	struct f2t_trace_info *info = &c->in.rec.info;

	c->host = f2t_capr_meta(cap, "host");
	c->kernel = f2t_capr_meta(cap, "kernel");
	c->kernel_version = f2t_capr_meta(cap, "kernel_version");
	c->boot_id = f2t_capr_meta(cap, "boot_id");
	c->cpu_model = f2t_capr_meta(cap, "cpu_model");
	c->machine = f2t_capr_meta(cap, "machine");
	c->tz = f2t_capr_meta(cap, "tz_offset_min");
	c->cmdline = f2t_capr_meta(cap, "cmdline");
	c->clock = f2t_capr_meta(cap, "clock");
	c->recorder = f2t_capr_meta(cap, "recorder");
	c->pids = f2t_capr_meta(cap, "pids");
	info->pids = c->pids;
	info->host = c->host ? c->host : "";
	info->kernel = c->kernel ? c->kernel : "";
	info->machine = c->machine ? c->machine : "";
	info->kernel_version = c->kernel_version;
	info->boot_id = c->boot_id;
	info->cpu_model = c->cpu_model;
	if (c->tz) {
		long tz = strtol(c->tz, NULL, 10);

		/* Offsets run from UTC-12 to UTC+14; anything else is damage. */
		info->tz_known = tz >= -16 * 60 && tz <= 16 * 60;
		info->tz_offset_min = info->tz_known ? (int32_t)tz : 0;
	}
	info->cmdline = c->cmdline ? c->cmdline : "";
	info->clock = c->clock ? c->clock : "mono";
	info->recorder = c->recorder ? c->recorder : "";
	info->start_ns = meta_u64(cap, "start_ns");
	info->stop_ns = meta_u64(cap, "stop_ns");
	info->realtime_ns = meta_u64(cap, "start_realtime_ns");
	info->boottime_ns = meta_u64(cap, "start_boottime_ns");
	info->ncpus = (uint32_t)meta_u64(cap, "ncpus");
	info->page_size = (uint32_t)meta_u64(cap, "page_size");
	/* The recorder's clock sync markers (record/syncmark.h); none in older captures. */
	c->sync_start_id = f2t_capr_meta(cap, "sync_start_id");
	c->sync_end_id = f2t_capr_meta(cap, "sync_end_id");
	info->sync_start = (struct f2t_sync_point){
		.id = c->sync_start_id,
		.mono_ns = meta_u64(cap, "sync_start_mono_ns"),
		.realtime_ns = meta_u64(cap, "sync_start_realtime_ns"),
		.boottime_ns = meta_u64(cap, "sync_start_boottime_ns"),
	};
	info->sync_end = (struct f2t_sync_point){
		.id = c->sync_end_id,
		.mono_ns = meta_u64(cap, "sync_end_mono_ns"),
		.realtime_ns = meta_u64(cap, "sync_end_realtime_ns"),
		.boottime_ns = meta_u64(cap, "sync_end_boottime_ns"),
	};
	c->kernel_build_id = f2t_capr_kv(f2t_capr_find(cap, F2T_CAP_PERF_INFO, -1),
					  "kernel_build_id");
	c->in.rec.kernel_build_id = c->kernel_build_id;
}

/* What was sampled and how often, from the PERF_INFO record (capture/perf_rec.h). */
static void read_sampling(struct capture_input *c)
{
	const struct f2t_cap_rec *r = f2t_capr_find(c->cap, F2T_CAP_PERF_INFO, -1);
	struct f2t_sampling *s = &c->in.rec.sampling;

	c->sample_event = f2t_capr_kv(r, "event");
	if (!c->sample_event)
		return;
	s->event = c->sample_event;
	s->type = (uint32_t)f2t_capr_kv_u64(r, "type");
	s->config = f2t_capr_kv_u64(r, "config");
	s->freq = (uint32_t)f2t_capr_kv_u64(r, "freq");
	c->sample_scope = f2t_capr_kv(r, "scope");
	s->scope = c->sample_scope;
}

static uint64_t stat_value(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));

		if ((size_t)(text + len - p) > klen && !memcmp(p, key, klen)) {
			/* The record is not NUL-terminated: parse a bounded copy. */
			char num[24] = "";
			size_t n = (size_t)(text + len - p) - klen;

			memcpy(num, p + klen, n < sizeof(num) - 1 ? n : sizeof(num) - 1);
			return strtoull(num, NULL, 10);
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The kernel's own count of what its ring buffer overwrote, refused, handed out. */
static int read_cpu_stats(struct capture_input *c)
{
	struct f2t_recording *rec = &c->in.rec;
	bool flight = meta_u64(c->cap, "flight_from_ns") != 0;
	size_t n = 0;

	for (size_t i = 0; i < c->cap->nrecs; i++)
		n += c->cap->recs[i].type == F2T_CAP_CPU_STATS;
	if (!n)
		return 0;
	c->cpu_stats = calloc(n, sizeof(*c->cpu_stats));
	if (!c->cpu_stats)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &c->cap->recs[i];
		struct f2t_cpu_stats *s = &c->cpu_stats[rec->ncpu_stats];

		if (r->type != F2T_CAP_CPU_STATS)
			continue;
		*s = (struct f2t_cpu_stats){
			.cpu = r->arg,
			.entries = stat_value(r->data, r->len, "entries: "),
			.overrun = stat_value(r->data, r->len, "overrun: "),
			.commit_overrun = stat_value(r->data, r->len, "commit overrun: "),
			.bytes = stat_value(r->data, r->len, "bytes: "),
			.dropped = stat_value(r->data, r->len, "dropped events: "),
			.read = stat_value(r->data, r->len, "read events: "),
		};
		/* A flight recorder's rings overwrote the past on purpose: no loss. */
		rec->kernel_overrun += (flight ? 0 : s->overrun) + s->commit_overrun;
		rec->kernel_dropped += s->dropped;
		/* A flight recorder's drain drops the pages before its window: no match to expect. */
		if (!flight)
			rec->kernel_read += s->read;
		rec->ncpu_stats++;
	}
	rec->cpu_stats = c->cpu_stats;
	return 0;
}

/* A task snapshot (0: at start, 1: at stop) into a new table; none is an empty one. */
static int load_tasks(struct capture_input *c, uint32_t which, struct f2t_tasks **out)
{
	const struct f2t_cap_rec *r = f2t_capr_find(c->cap, F2T_CAP_TASKS, which);
	int line = 0, n;

	*out = f2t_tasks_new();
	if (!*out)
		return -ENOMEM;
	if (!r)
		return 0;
	n = f2t_tasks_load_snapshot(*out, r->data, r->len, &line);
	if (n == -EINVAL)
		f2t_err("%s: offset %llu: task snapshot line %d is malformed",
			c->cap->path, (unsigned long long)r->offset, line);
	return n < 0 ? n : 0;
}

static struct f2t_text text_of(const struct f2t_capr *cap, uint32_t type)
{
	const struct f2t_cap_rec *r = f2t_capr_find(cap, type, -1);

	return r ? (struct f2t_text){ r->data, r->len } : (struct f2t_text){ NULL, 0 };
}

/* Every record of TYPE as a per-process text (arg = pid). */
static int pid_texts(const struct f2t_capr *cap, uint32_t type, struct f2t_pid_text **out,
		     size_t *n)
{
	size_t k = 0;

	*n = 0;
	for (size_t i = 0; i < cap->nrecs; i++)
		k += cap->recs[i].type == type;
	if (!k)
		return 0;
	*out = calloc(k, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &cap->recs[i];

		if (r->type == type)
			(*out)[(*n)++] = (struct f2t_pid_text){ (int32_t)r->arg, r->data, r->len };
	}
	return 0;
}

static void capture_close(struct f2t_input *in)
{
	struct capture_input *c = (struct capture_input *)in;

	f2t_source_close(in->events);
	f2t_tasks_free(in->rec.tasks);
	f2t_tasks_free(in->rec.tasks_end);
	free(c->host);
	free(c->kernel);
	free(c->machine);
	free(c->kernel_version);
	free(c->boot_id);
	free(c->cpu_model);
	free(c->tz);
	free(c->cmdline);
	free(c->clock);
	free(c->recorder);
	free(c->pids);
	free(c->sync_start_id);
	free(c->sync_end_id);
	free(c->kernel_build_id);
	free(c->sample_event);
	free(c->sample_scope);
	free(c->cpu_stats);
	free(c->jit_maps);
	free(c->proc_maps);
	f2t_capr_close(c->cap);
	free(c);
}

/* The recording's facts from the capture's records. */
static int read_recording(struct capture_input *c)
{
	struct f2t_recording *rec = &c->in.rec;
	int ret;

	rec->path = c->cap->path;
	read_info(c);
	read_sampling(c);
	ret = read_cpu_stats(c);
	rec->kallsyms = text_of(c->cap, F2T_CAP_KALLSYMS);
	rec->printk_formats = text_of(c->cap, F2T_CAP_PRINTK_FORMATS);
	rec->build_ids = text_of(c->cap, F2T_CAP_BUILD_IDS);
	if (!ret)
		ret = load_tasks(c, 0, &rec->tasks);
	if (!ret)
		ret = load_tasks(c, 1, &rec->tasks_end);
	if (!ret)
		ret = pid_texts(c->cap, F2T_CAP_JIT_MAP, &c->jit_maps, &rec->njit_maps);
	if (!ret)
		ret = pid_texts(c->cap, F2T_CAP_MAPS, &c->proc_maps, &rec->nproc_maps);
	rec->jit_maps = c->jit_maps;
	rec->proc_maps = c->proc_maps;
	if (ret == -ENOMEM)
		f2t_err("%s: out of memory", c->cap->path);
	return ret;
}

/* A source the capture may not have: ENOENT is none, not an error. */
static int add_optional(struct f2t_source **srcs, unsigned int *n, struct f2t_source *s)
{
	if (s)
		srcs[(*n)++] = s;
	return s || errno == ENOENT ? 0 : -errno;
}

/* Ring-buffer events first on equal timestamps: the order convert has always used. */
static int open_sources(struct capture_input *c)
{
	struct f2t_source *srcs[2];
	unsigned int n = 0;
	int ret;

	srcs[n] = f2t_capsrc_open(c->cap, &c->in.rec);
	if (!srcs[n])
		return -errno;
	n++;
	/* Samples and off-CPU episodes: one replay of the address spaces names both. */
	ret = add_optional(srcs, &n, f2t_perfsrc_open(c->cap, &c->in.rec, NULL));
	if (ret) {
		while (n)
			f2t_source_close(srcs[--n]);
		return ret;
	}
	c->in.events = f2t_source_interleave(srcs, n);
	if (!c->in.events) {
		/* A source failing its first event has said why. */
		if (errno == ENOMEM)
			f2t_err("%s: out of memory", c->cap->path);
		return -errno;
	}
	return 0;
}

static int capture_open(const char *path, int fd, struct f2t_input **out)
{
	struct capture_input *c = calloc(1, sizeof(*c));
	int ret;

	if (!c) {
		f2t_err("%s: out of memory", path);
		return -ENOMEM;
	}
	c->in.kind = f2t_capture_input.name;
	c->in.close = capture_close;
	c->cap = f2t_capr_open_fd(path, fd);
	if (!c->cap) {
		ret = -errno;
		goto out;
	}
	if (!c->cap->complete)
		f2t_warn("%s: capture has no end record (recorder killed?); converting what is there",
			 path);
	ret = read_recording(c);
	if (!ret)
		ret = open_sources(c);
out:
	if (ret) {
		capture_close(&c->in);
		return ret;
	}
	*out = &c->in;
	return 0;
}

const struct f2t_input_kind f2t_capture_input = {
	.name = "ftrace2trace capture",
	.probe = capture_probe,
	.open = capture_open,
};
