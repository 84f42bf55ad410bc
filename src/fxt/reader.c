// SPDX-License-Identifier: MIT
/*
 * FXT reader.  Each record is decoded through a cursor bounded by the
 * record's own size, so no field can be read from outside the record, and
 * the record's size is checked against the file before that.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fxt/reader.h"
#include "util/vec.h"

#define NSTRINGS (FXT_MAX_STRING_INDEX + 1)
#define NTHREADS (FXT_MAX_THREAD_INDEX + 1)

struct str_entry {
	const char *s;
	uint32_t len;
	bool set;
};

/* What the spec says a reader keeps per provider. */
struct provider {
	uint32_t id;
	struct str_entry *strings;	/* NSTRINGS, allocated on first use */
	struct fxt_thr threads[NTHREADS];
	bool thread_set[NTHREADS];
};

struct fxt_reader {
	const unsigned char *data;
	size_t len;
	size_t pos;
	struct provider **providers;
	size_t nproviders, providers_cap;
	struct provider *cur;
	int err;
	uint64_t err_offset;
	char err_msg[200];
};

/* A window on the words of one record (or one argument). */
struct cur {
	const unsigned char *p;
	uint64_t n;		/* words in the window */
	uint64_t i;		/* next word */
};

static const char *const kind_names[FXT_K_COUNT] = {
	[FXT_K_MAGIC] = "magic",
	[FXT_K_PROVIDER_INFO] = "provider_info",
	[FXT_K_PROVIDER_SECTION] = "provider_section",
	[FXT_K_PROVIDER_EVENT] = "provider_event",
	[FXT_K_TRACE_INFO] = "trace_info",
	[FXT_K_METADATA] = "metadata",
	[FXT_K_INIT] = "initialization",
	[FXT_K_STRING] = "string",
	[FXT_K_THREAD] = "thread",
	[FXT_K_INSTANT] = "instant",
	[FXT_K_COUNTER] = "counter",
	[FXT_K_DURATION_BEGIN] = "duration_begin",
	[FXT_K_DURATION_END] = "duration_end",
	[FXT_K_DURATION_COMPLETE] = "duration_complete",
	[FXT_K_ASYNC_BEGIN] = "async_begin",
	[FXT_K_ASYNC_INSTANT] = "async_instant",
	[FXT_K_ASYNC_END] = "async_end",
	[FXT_K_FLOW_BEGIN] = "flow_begin",
	[FXT_K_FLOW_STEP] = "flow_step",
	[FXT_K_FLOW_END] = "flow_end",
	[FXT_K_EVENT] = "event",
	[FXT_K_BLOB] = "blob",
	[FXT_K_USERSPACE_OBJECT] = "userspace_object",
	[FXT_K_KERNEL_OBJECT] = "kernel_object",
	[FXT_K_LEGACY_CONTEXT_SWITCH] = "legacy_context_switch",
	[FXT_K_CONTEXT_SWITCH] = "context_switch",
	[FXT_K_THREAD_WAKEUP] = "thread_wakeup",
	[FXT_K_SCHEDULING] = "scheduling",
	[FXT_K_LOG] = "log",
	[FXT_K_PROFILER_MODULE] = "profiler_module",
	[FXT_K_PROFILER_MMAP] = "profiler_mmap",
	[FXT_K_PROFILER_BACKTRACE] = "profiler_backtrace",
	[FXT_K_PROFILER] = "profiler",
	[FXT_K_LARGE_BLOB] = "large_blob",
	[FXT_K_LARGE] = "large",
	[FXT_K_UNKNOWN] = "unknown",
};

const char *fxt_kind_name(enum fxt_kind kind)
{
	return (unsigned int)kind < FXT_K_COUNT ? kind_names[kind] : "?";
}

const char *fxt_thread_state_name(unsigned int state)
{
	static const char *const names[] = {
		"new", "running", "suspended", "blocked", "dying", "dead",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "unknown";
}

static inline uint64_t bits(uint64_t w, unsigned int lo, unsigned int n)
{
	return (w >> lo) & ((n >= 64) ? ~0ull : ((1ull << n) - 1));
}

static int fail(struct fxt_reader *r, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct fxt_reader *r, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err_msg, sizeof(r->err_msg), fmt, ap);
	va_end(ap);
	r->err_offset = offset;
	r->err = -EINVAL;
	return -EINVAL;
}

static struct provider *provider_get(struct fxt_reader *r, uint32_t id)
{
	struct provider *p;

	for (size_t i = 0; i < r->nproviders; i++)
		if (r->providers[i]->id == id)
			return r->providers[i];
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (f2t_vec_reserve(&r->providers, &r->providers_cap, r->nproviders + 1, 16)) {
		free(p);
		return NULL;
	}
	p->id = id;
	r->providers[r->nproviders++] = p;
	return p;
}

struct fxt_reader *fxt_reader_new(const void *data, size_t len)
{
	struct fxt_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->data = data;
	r->len = len;
	/* Records before any provider metadata belong to an anonymous provider 0. */
	r->cur = provider_get(r, 0);
	if (!r->cur) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void fxt_reader_free(struct fxt_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nproviders; i++) {
		free(r->providers[i]->strings);
		free(r->providers[i]);
	}
	free(r->providers);
	free(r);
}

const char *fxt_reader_error(const struct fxt_reader *r, uint64_t *offset)
{
	if (!r->err)
		return NULL;
	if (offset)
		*offset = r->err_offset;
	return r->err == -ENOMEM ? "out of memory" : r->err_msg;
}

/* Decoding context for one record. */
struct dec {
	struct fxt_reader *r;
	struct fxt_record *rec;
	struct cur c;
};

static int short_record(struct dec *d, const char *what)
{
	return fail(d->r, d->rec->offset,
		    "%s record of %llu words is too short for its %s",
		    fxt_kind_name(d->rec->kind), (unsigned long long)d->rec->nwords, what);
}

static int take(struct dec *d, struct cur *c, uint64_t *v, const char *what)
{
	if (c->i >= c->n)
		return short_record(d, what);
	*v = fxt_load(c->p + c->i * 8);
	c->i++;
	return 0;
}

static int take_stream(struct dec *d, struct cur *c, uint64_t len,
		       const unsigned char **p, const char *what)
{
	/* Compare bytes, not rounded-up words: LEN may be near 2^64. */
	if (len > (c->n - c->i) * 8)
		return short_record(d, what);
	*p = c->p + c->i * 8;
	c->i += (len + 7) / 8;
	return 0;
}

static int string_ref(struct dec *d, struct cur *c, uint16_t ref, struct fxt_sv *sv,
		      const char *what)
{
	const struct provider *pv = d->r->cur;
	const unsigned char *p;
	int ret;

	sv->ref = ref;
	if (ref == 0) {
		sv->s = "";
		sv->len = 0;
		return 0;
	}
	if (ref & FXT_STR_INLINE) {
		sv->len = ref & 0x7fffu;
		ret = take_stream(d, c, sv->len, &p, what);
		sv->s = (const char *)p;
		return ret;
	}
	if (!pv->strings || !pv->strings[ref].set)
		return fail(d->r, d->rec->offset, "%s refers to string index %u, which no string record registered",
			    what, ref);
	sv->s = pv->strings[ref].s;
	sv->len = pv->strings[ref].len;
	return 0;
}

/* Thread ref: 0 means two inline koid words; only_pid for userspace objects. */
static int thread_ref(struct dec *d, struct cur *c, uint8_t ref, struct fxt_thr *t,
		      bool only_pid)
{
	const struct provider *pv = d->r->cur;
	int ret;

	t->ref = ref;
	if (ref == 0) {
		t->tid = 0;
		ret = take(d, c, &t->pid, "process koid");
		if (!ret && !only_pid)
			ret = take(d, c, &t->tid, "thread koid");
		return ret;
	}
	if (!pv->thread_set[ref])
		return fail(d->r, d->rec->offset, "refers to thread index %u, which no thread record registered",
			    ref);
	*t = pv->threads[ref];
	t->ref = ref;
	return 0;
}

static int decode_arg(struct dec *d, struct fxt_arg *a, unsigned int i)
{
	struct cur ac;
	uint64_t h, v = 0;
	const unsigned char *p;
	char what[48];
	int ret;

	snprintf(what, sizeof(what), "argument %u", i + 1);
	if (d->c.i >= d->c.n)
		return fail(d->r, d->rec->offset, "%s record says it has %u arguments but ends after %u",
			    fxt_kind_name(d->rec->kind), d->rec->nargs, i);
	h = fxt_load(d->c.p + d->c.i * 8);
	a->offset = d->rec->offset + d->c.i * 8;
	a->type = (uint8_t)bits(h, 0, 4);
	a->nwords = (uint16_t)bits(h, 4, 12);
	if (a->nwords == 0)
		return fail(d->r, d->rec->offset, "%s has size 0", what);
	if (a->nwords > d->c.n - d->c.i)
		return fail(d->r, d->rec->offset, "%s (%u words) runs past the end of the record",
			    what, a->nwords);
	ac = (struct cur){ .p = d->c.p + d->c.i * 8, .n = a->nwords, .i = 1 };
	d->c.i += a->nwords;

	ret = string_ref(d, &ac, (uint16_t)bits(h, 16, 16), &a->name, what);
	if (ret)
		return ret;
	switch (a->type) {
	case FXT_ARG_NULL:
		break;
	case FXT_ARG_INT32:
		a->i32 = (int32_t)(uint32_t)bits(h, 32, 32);
		break;
	case FXT_ARG_UINT32:
		a->u32 = (uint32_t)bits(h, 32, 32);
		break;
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		ret = take(d, &ac, &v, what);
		if (a->type == FXT_ARG_DOUBLE)
			memcpy(&a->d, &v, sizeof(v));
		else
			a->u64 = v;	/* same bits for every 64-bit member */
		break;
	case FXT_ARG_STRING:
		ret = string_ref(d, &ac, (uint16_t)bits(h, 32, 16), &a->str, what);
		break;
	case FXT_ARG_BOOL:
		a->b = bits(h, 32, 1);
		break;
	case FXT_ARG_BLOB:
		a->blob.len = (uint32_t)bits(h, 32, 32);
		ret = take_stream(d, &ac, a->blob.len, &p, what);
		a->blob.data = p;
		break;
	default:
		break;		/* unknown argument type: skipped by its size */
	}
	return ret;
}

static int decode_args(struct dec *d, unsigned int n)
{
	d->rec->nargs = (uint8_t)n;
	for (unsigned int i = 0; i < n; i++) {
		int ret = decode_arg(d, &d->rec->args[i], i);

		if (ret)
			return ret;
	}
	return 0;
}

static int dec_metadata(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	struct fxt_reader *r = d->r;
	uint64_t h = rec->header;
	const unsigned char *p;
	int ret;

	rec->subtype = (uint8_t)bits(h, 16, 4);
	switch (rec->subtype) {
	case FXT_META_PROVIDER_INFO:
		rec->kind = FXT_K_PROVIDER_INFO;
		rec->meta.provider_id = (uint32_t)bits(h, 20, 32);
		rec->meta.name.len = bits(h, 52, 8);
		rec->meta.name.ref = 0;
		ret = take_stream(d, &d->c, rec->meta.name.len, &p, "provider name");
		if (ret)
			return ret;
		rec->meta.name.s = (const char *)p;
		r->cur = provider_get(r, rec->meta.provider_id);
		return r->cur ? 0 : -ENOMEM;
	case FXT_META_PROVIDER_SECTION:
		rec->kind = FXT_K_PROVIDER_SECTION;
		rec->meta.provider_id = (uint32_t)bits(h, 20, 32);
		r->cur = provider_get(r, rec->meta.provider_id);
		return r->cur ? 0 : -ENOMEM;
	case FXT_META_PROVIDER_EVENT:
		rec->kind = FXT_K_PROVIDER_EVENT;
		rec->meta.provider_id = (uint32_t)bits(h, 20, 32);
		rec->meta.event_id = (uint8_t)bits(h, 52, 4);
		return 0;
	case FXT_META_TRACE_INFO:
		rec->meta.info_type = (uint8_t)bits(h, 20, 4);
		if (rec->meta.info_type != 0) {
			rec->kind = FXT_K_TRACE_INFO;
			return 0;
		}
		rec->kind = FXT_K_MAGIC;
		if (h != FXT_MAGIC)
			return fail(r, rec->offset, "bad magic record 0x%016llx (expected 0x%016llx)",
				    (unsigned long long)h, FXT_MAGIC);
		return 0;
	default:
		rec->kind = FXT_K_METADATA;
		return 0;
	}
}

static int dec_string(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	struct provider *pv = d->r->cur;
	const unsigned char *p;
	int ret;

	rec->kind = FXT_K_STRING;
	rec->string.index = (uint16_t)bits(rec->header, 16, 15);
	rec->string.value.len = bits(rec->header, 32, 15);
	rec->string.value.ref = 0;
	ret = take_stream(d, &d->c, rec->string.value.len, &p, "string");
	if (ret)
		return ret;
	rec->string.value.s = (const char *)p;
	if (rec->string.index == 0)
		return 0;	/* the spec says to ignore it */
	if (!pv->strings) {
		pv->strings = calloc(NSTRINGS, sizeof(*pv->strings));
		if (!pv->strings)
			return -ENOMEM;
	}
	pv->strings[rec->string.index] = (struct str_entry){
		.s = rec->string.value.s,
		.len = (uint32_t)rec->string.value.len,
		.set = true,
	};
	return 0;
}

static int dec_thread(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	struct provider *pv = d->r->cur;
	int ret;

	rec->kind = FXT_K_THREAD;
	rec->thread.index = (uint8_t)bits(rec->header, 16, 8);
	ret = take(d, &d->c, &rec->thread.pid, "process koid");
	if (!ret)
		ret = take(d, &d->c, &rec->thread.tid, "thread koid");
	if (ret || rec->thread.index == 0)
		return ret;
	pv->threads[rec->thread.index] = (struct fxt_thr){
		.ref = rec->thread.index, .pid = rec->thread.pid, .tid = rec->thread.tid,
	};
	pv->thread_set[rec->thread.index] = true;
	return 0;
}

static int dec_event(struct dec *d)
{
	static const enum fxt_kind kinds[] = {
		FXT_K_INSTANT, FXT_K_COUNTER, FXT_K_DURATION_BEGIN, FXT_K_DURATION_END,
		FXT_K_DURATION_COMPLETE, FXT_K_ASYNC_BEGIN, FXT_K_ASYNC_INSTANT,
		FXT_K_ASYNC_END, FXT_K_FLOW_BEGIN, FXT_K_FLOW_STEP, FXT_K_FLOW_END,
	};
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	int ret;

	rec->subtype = (uint8_t)bits(h, 16, 4);
	rec->kind = rec->subtype < sizeof(kinds) / sizeof(kinds[0]) ? kinds[rec->subtype]
								    : FXT_K_EVENT;
	ret = take(d, &d->c, &rec->event.ts, "timestamp");
	if (!ret)
		ret = thread_ref(d, &d->c, (uint8_t)bits(h, 24, 8), &rec->event.thread, false);
	if (!ret)
		ret = string_ref(d, &d->c, (uint16_t)bits(h, 32, 16), &rec->event.category,
				 "category");
	if (!ret)
		ret = string_ref(d, &d->c, (uint16_t)bits(h, 48, 16), &rec->event.name, "name");
	if (!ret)
		ret = decode_args(d, (unsigned int)bits(h, 20, 4));
	if (ret)
		return ret;
	switch (rec->subtype) {
	case FXT_EV_INSTANT:
	case FXT_EV_DURATION_BEGIN:
	case FXT_EV_DURATION_END:
		return 0;
	case FXT_EV_COUNTER:
		rec->event.has_extra = true;
		return take(d, &d->c, &rec->event.extra, "counter id");
	case FXT_EV_DURATION_COMPLETE:
		rec->event.has_extra = true;
		return take(d, &d->c, &rec->event.extra, "end time");
	default:
		if (rec->kind == FXT_K_EVENT)
			return 0;	/* unknown: the rest stays undecoded */
		rec->event.has_extra = true;
		return take(d, &d->c, &rec->event.extra, "correlation id");
	}
}

static int dec_blob(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	int ret;

	rec->kind = FXT_K_BLOB;
	rec->blob.blob_type = (uint8_t)bits(h, 48, 8);
	rec->blob.len = bits(h, 32, 15);
	ret = string_ref(d, &d->c, (uint16_t)bits(h, 16, 16), &rec->blob.name, "blob name");
	if (!ret)
		ret = take_stream(d, &d->c, rec->blob.len, &rec->blob.payload, "payload");
	return ret;
}

static int dec_uobj(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	int ret;

	rec->kind = FXT_K_USERSPACE_OBJECT;
	ret = take(d, &d->c, &rec->uobj.ptr, "pointer");
	if (!ret)
		ret = thread_ref(d, &d->c, (uint8_t)bits(h, 16, 8), &rec->uobj.process, true);
	if (!ret)
		ret = string_ref(d, &d->c, (uint16_t)bits(h, 24, 16), &rec->uobj.name, "name");
	if (!ret)
		ret = decode_args(d, (unsigned int)bits(h, 40, 4));
	return ret;
}

static int dec_kobj(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	int ret;

	rec->kind = FXT_K_KERNEL_OBJECT;
	rec->kobj.obj_type = (uint8_t)bits(h, 16, 8);
	ret = take(d, &d->c, &rec->kobj.koid, "koid");
	if (!ret)
		ret = string_ref(d, &d->c, (uint16_t)bits(h, 24, 16), &rec->kobj.name, "name");
	if (!ret)
		ret = decode_args(d, (unsigned int)bits(h, 40, 4));
	return ret;
}

static int dec_sched(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	int ret;

	rec->subtype = (uint8_t)bits(h, 60, 4);
	switch (rec->subtype) {
	case FXT_SCHED_CONTEXT_SWITCH:
		rec->kind = FXT_K_CONTEXT_SWITCH;
		rec->sched.cpu = (uint16_t)bits(h, 20, 16);
		rec->sched.out_state = (uint8_t)bits(h, 36, 4);
		ret = take(d, &d->c, &rec->sched.ts, "timestamp");
		if (!ret)
			ret = take(d, &d->c, &rec->sched.out_koid, "outgoing thread");
		if (!ret)
			ret = take(d, &d->c, &rec->sched.in_koid, "incoming thread");
		if (!ret)
			ret = decode_args(d, (unsigned int)bits(h, 16, 4));
		return ret;
	case FXT_SCHED_THREAD_WAKEUP:
		rec->kind = FXT_K_THREAD_WAKEUP;
		rec->sched.cpu = (uint16_t)bits(h, 20, 16);
		ret = take(d, &d->c, &rec->sched.ts, "timestamp");
		if (!ret)
			ret = take(d, &d->c, &rec->sched.koid, "waking thread");
		if (!ret)
			ret = decode_args(d, (unsigned int)bits(h, 16, 4));
		return ret;
	case FXT_SCHED_LEGACY_SWITCH:
		rec->kind = FXT_K_LEGACY_CONTEXT_SWITCH;
		rec->sched.cpu = (uint16_t)bits(h, 16, 8);
		rec->sched.out_state = (uint8_t)bits(h, 24, 4);
		rec->sched.out_prio = (uint8_t)bits(h, 44, 8);
		rec->sched.in_prio = (uint8_t)bits(h, 52, 8);
		ret = take(d, &d->c, &rec->sched.ts, "timestamp");
		if (!ret)
			ret = thread_ref(d, &d->c, (uint8_t)bits(h, 28, 8), &rec->sched.out, false);
		if (!ret)
			ret = thread_ref(d, &d->c, (uint8_t)bits(h, 36, 8), &rec->sched.in, false);
		return ret;
	default:
		rec->kind = FXT_K_SCHEDULING;
		return 0;
	}
}

static int dec_log(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	const unsigned char *p;
	int ret;

	rec->kind = FXT_K_LOG;
	rec->log.msg.len = bits(h, 16, 15);
	rec->log.msg.ref = 0;
	ret = take(d, &d->c, &rec->log.ts, "timestamp");
	if (!ret)
		ret = thread_ref(d, &d->c, (uint8_t)bits(h, 32, 8), &rec->log.thread, false);
	if (!ret)
		ret = take_stream(d, &d->c, rec->log.msg.len, &p, "message");
	if (!ret)
		rec->log.msg.s = (const char *)p;
	return ret;
}

static int dec_profiler(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header;
	const unsigned char *p;
	int ret;

	rec->subtype = (uint8_t)bits(h, 16, 4);
	if (rec->subtype > FXT_PROF_BACKTRACE) {
		rec->kind = FXT_K_PROFILER;
		return 0;
	}
	rec->kind = (enum fxt_kind)(FXT_K_PROFILER_MODULE + rec->subtype);
	ret = take(d, &d->c, &rec->prof.ts, "timestamp");
	if (!ret)
		ret = thread_ref(d, &d->c, (uint8_t)bits(h, 20, 8), &rec->prof.thread, false);
	if (ret)
		return ret;
	switch (rec->subtype) {
	case FXT_PROF_MODULE:
		rec->prof.module_id = (uint16_t)bits(h, 28, 16);
		rec->prof.name.len = bits(h, 44, 8);
		rec->prof.name.ref = 0;
		rec->prof.build_id_len = bits(h, 52, 8);
		ret = take_stream(d, &d->c, rec->prof.name.len, &p, "module name");
		rec->prof.name.s = (const char *)p;
		if (!ret)
			ret = take_stream(d, &d->c, rec->prof.build_id_len, &rec->prof.build_id,
					  "build id");
		return ret;
	case FXT_PROF_MMAP:
		rec->prof.module_id = (uint16_t)bits(h, 28, 16);
		rec->prof.flags = (uint8_t)bits(h, 44, 3);
		ret = take(d, &d->c, &rec->prof.start, "start address");
		if (!ret)
			ret = take(d, &d->c, &rec->prof.range, "address range");
		if (!ret)
			ret = take(d, &d->c, &rec->prof.vaddr, "vaddr");
		return ret;
	default:
		rec->prof.nframes = bits(h, 28, 8);
		return take_stream(d, &d->c, rec->prof.nframes * 8, &rec->prof.frames,
				   "backtrace");
	}
}

static int dec_large(struct dec *d)
{
	struct fxt_record *rec = d->rec;
	uint64_t h = rec->header, fmt_word, nargs = 0;
	int ret;

	rec->subtype = (uint8_t)bits(h, 36, 4);
	rec->blob.format = (uint8_t)bits(h, 40, 4);
	if (rec->subtype != 0 || rec->blob.format > 1) {
		rec->kind = FXT_K_LARGE;
		return 0;
	}
	rec->kind = FXT_K_LARGE_BLOB;
	ret = take(d, &d->c, &fmt_word, "format header");
	if (ret)
		return ret;
	ret = string_ref(d, &d->c, (uint16_t)bits(fmt_word, 0, 16), &rec->blob.category,
			 "category");
	if (!ret)
		ret = string_ref(d, &d->c, (uint16_t)bits(fmt_word, 16, 16), &rec->blob.name,
				 "name");
	if (!ret && rec->blob.format == 0) {
		nargs = bits(fmt_word, 32, 4);
		ret = take(d, &d->c, &rec->blob.ts, "timestamp");
		if (!ret)
			ret = thread_ref(d, &d->c, (uint8_t)bits(fmt_word, 36, 8),
					 &rec->blob.thread, false);
		if (!ret)
			ret = decode_args(d, (unsigned int)nargs);
	}
	if (!ret)
		ret = take(d, &d->c, &rec->blob.len, "blob size");
	if (!ret)
		ret = take_stream(d, &d->c, rec->blob.len, &rec->blob.payload, "payload");
	return ret;
}

static int decode(struct dec *d)
{
	switch (d->rec->type) {
	case FXT_REC_METADATA:
		return dec_metadata(d);
	case FXT_REC_INIT:
		d->rec->kind = FXT_K_INIT;
		return take(d, &d->c, &d->rec->ticks_per_second, "tick multiplier");
	case FXT_REC_STRING:
		return dec_string(d);
	case FXT_REC_THREAD:
		return dec_thread(d);
	case FXT_REC_EVENT:
		return dec_event(d);
	case FXT_REC_BLOB:
		return dec_blob(d);
	case FXT_REC_USERSPACE_OBJECT:
		return dec_uobj(d);
	case FXT_REC_KERNEL_OBJECT:
		return dec_kobj(d);
	case FXT_REC_SCHEDULING:
		return dec_sched(d);
	case FXT_REC_LOG:
		return dec_log(d);
	case FXT_REC_PROFILER:
		return dec_profiler(d);
	case FXT_REC_LARGE:
		return dec_large(d);
	default:
		d->rec->kind = FXT_K_UNKNOWN;
		return 0;
	}
}

/* The file must open with the magic record, in our byte order. */
static int check_start(struct fxt_reader *r)
{
	uint64_t w;

	if (r->len == 0)
		return fail(r, 0, "empty file (no FXT magic record)");
	if (r->len < 8)
		return fail(r, 0, "not an FXT file (%zu bytes, no magic record)", r->len);
	w = fxt_load(r->data);
	if (w == FXT_MAGIC)
		return 0;
	if (w == __builtin_bswap64(FXT_MAGIC))
		return fail(r, 0, "FXT file in the other byte order (big-endian); not supported");
	return fail(r, 0, "not an FXT file (first word 0x%016llx is not the magic record)",
		    (unsigned long long)w);
}

int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec)
{
	struct dec d = { .r = r, .rec = rec };
	uint64_t h, size, left;
	int ret;

	if (r->err)
		return r->err;
	if (r->pos == 0 && check_start(r))
		return r->err;
	if (r->pos >= r->len)
		return 0;
	left = r->len - r->pos;
	if (left < 8)
		return fail(r, r->pos, "truncated record: %llu bytes left, less than a header",
			    (unsigned long long)left);
	memset(rec, 0, offsetof(struct fxt_record, args));
	h = fxt_load(r->data + r->pos);
	rec->offset = r->pos;
	rec->header = h;
	rec->type = (uint8_t)bits(h, 0, 4);
	size = rec->type == FXT_REC_LARGE ? bits(h, 4, 32) : bits(h, 4, 12);
	if (size == 0)
		return fail(r, r->pos, "record of type %u has size 0", rec->type);
	if (size > left / 8)
		return fail(r, r->pos, "record of type %u and %llu bytes runs past the end of the file (%llu bytes left)",
			    rec->type, (unsigned long long)size * 8, (unsigned long long)left);
	rec->data = r->data + r->pos;
	rec->nwords = size;
	d.c = (struct cur){ .p = rec->data, .n = size, .i = 1 };
	ret = decode(&d);
	if (ret == -ENOMEM)
		r->err = ret;
	if (ret)
		return ret;
	rec->used_words = d.c.i;
	rec->provider = r->cur->id;	/* provider metadata switches it */
	r->pos += size * 8;
	return 1;
}
