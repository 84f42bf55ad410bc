// SPDX-License-Identifier: MIT
/*
 * Printing FXT records, one per line, so they can be read by people and
 * picked apart with awk: "OFFSET KIND field=value ... args: name=type:value".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "fxt/dump.h"
#include "util/log.h"

static void put_bytes(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);	/* UTF-8 passes through */
	}
	fputc('"', f);
}

static void put_str(FILE *f, const char *label, const struct fxt_sv *s)
{
	fprintf(f, " %s=", label);
	put_bytes(f, s->s, s->len);
}

static void put_thr(FILE *f, const char *label, const struct fxt_thr *t)
{
	fprintf(f, " %s=%" PRIu64 "/%" PRIu64, label, t->pid, t->tid);
	if (t->ref)
		fprintf(f, "(#%u)", t->ref);
}

static void put_hex(FILE *f, const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

/* Words of a record that were not decoded, as hex (the first few). */
static void put_raw(FILE *f, const struct fxt_record *rec, uint64_t from)
{
	const uint64_t max = 8;

	fprintf(f, " header=0x%016" PRIx64 " words=%" PRIu64, rec->header, rec->nwords);
	if (from >= rec->nwords)
		return;
	fputs(" raw=[", f);
	for (uint64_t i = from; i < rec->nwords && i < from + max; i++)
		fprintf(f, "%s0x%016" PRIx64, i > from ? "," : "", fxt_load(rec->data + i * 8));
	if (rec->nwords - from > max)
		fputs(",...", f);
	fputc(']', f);
}

static void put_arg(FILE *f, const struct fxt_arg *a)
{
	fputc(' ', f);
	for (size_t i = 0; i < a->name.len; i++) {
		unsigned char c = (unsigned char)a->name.s[i];

		fputc(c > 0x20 && c != 0x7f && c != '=' ? c : '?', f);
	}
	fputc('=', f);
	switch (a->type) {
	case FXT_ARG_NULL:
		fputs("null", f);
		break;
	case FXT_ARG_INT32:
		fprintf(f, "int32:%" PRId32, a->i32);
		break;
	case FXT_ARG_UINT32:
		fprintf(f, "uint32:%" PRIu32, a->u32);
		break;
	case FXT_ARG_INT64:
		fprintf(f, "int64:%" PRId64, a->i64);
		break;
	case FXT_ARG_UINT64:
		fprintf(f, "uint64:%" PRIu64, a->u64);
		break;
	case FXT_ARG_DOUBLE:
		fprintf(f, "double:%.17g", a->d);
		break;
	case FXT_ARG_STRING:
		fputs("string:", f);
		put_bytes(f, a->str.s, a->str.len);
		break;
	case FXT_ARG_POINTER:
		fprintf(f, "pointer:0x%" PRIx64, a->ptr);
		break;
	case FXT_ARG_KOID:
		fprintf(f, "koid:%" PRIu64, a->koid);
		break;
	case FXT_ARG_BOOL:
		fputs(a->b ? "bool:true" : "bool:false", f);
		break;
	case FXT_ARG_BLOB:
		fprintf(f, "blob:%" PRIu32 ":", a->blob.len);
		put_hex(f, a->blob.data, a->blob.len < 32 ? a->blob.len : 32);
		if (a->blob.len > 32)
			fputs("...", f);
		break;
	default:
		fprintf(f, "type%u:%u_words", a->type, a->nwords);
		break;
	}
}

static void put_event(FILE *f, const struct fxt_record *rec)
{
	fprintf(f, " ts=%" PRIu64, rec->event.ts);
	put_thr(f, "thread", &rec->event.thread);
	put_str(f, "category", &rec->event.category);
	put_str(f, "name", &rec->event.name);
	if (rec->kind == FXT_K_EVENT)
		fprintf(f, " event_type=%u", rec->subtype);
	if (!rec->event.has_extra)
		return;
	switch (rec->kind) {
	case FXT_K_COUNTER:
		fprintf(f, " counter_id=%" PRIu64, rec->event.extra);
		break;
	case FXT_K_DURATION_COMPLETE:
		fprintf(f, " end_ts=%" PRIu64, rec->event.extra);
		break;
	default:
		fprintf(f, " id=%" PRIu64, rec->event.extra);
		break;
	}
}

static void put_object_type(FILE *f, unsigned int type)
{
	fprintf(f, " type=%s(%u)", type == FXT_OBJ_PROCESS ? "process" :
				   type == FXT_OBJ_THREAD ? "thread" : "object", type);
}

static void put_sched(FILE *f, const struct fxt_record *rec)
{
	const char *state = fxt_thread_state_name(rec->sched.out_state);

	fprintf(f, " ts=%" PRIu64 " cpu=%u", rec->sched.ts, rec->sched.cpu);
	switch (rec->kind) {
	case FXT_K_CONTEXT_SWITCH:
		fprintf(f, " out_state=%s(%u) out=%" PRIu64 " in=%" PRIu64, state,
			rec->sched.out_state, rec->sched.out_koid, rec->sched.in_koid);
		break;
	case FXT_K_THREAD_WAKEUP:
		fprintf(f, " koid=%" PRIu64, rec->sched.koid);
		break;
	default:	/* legacy */
		fprintf(f, " out_state=%s(%u)", state, rec->sched.out_state);
		put_thr(f, "out", &rec->sched.out);
		put_thr(f, "in", &rec->sched.in);
		fprintf(f, " out_prio=%u in_prio=%u", rec->sched.out_prio, rec->sched.in_prio);
		break;
	}
}

static void put_profiler(FILE *f, const struct fxt_record *rec)
{
	fprintf(f, " ts=%" PRIu64, rec->prof.ts);
	put_thr(f, "thread", &rec->prof.thread);
	switch (rec->kind) {
	case FXT_K_PROFILER_MODULE:
		fprintf(f, " module_id=%u", rec->prof.module_id);
		put_str(f, "name", &rec->prof.name);
		fputs(" build_id=", f);
		put_hex(f, rec->prof.build_id, rec->prof.build_id_len);
		break;
	case FXT_K_PROFILER_MMAP:
		fprintf(f, " module_id=%u flags=%u start=0x%" PRIx64 " range=0x%" PRIx64
			" vaddr=0x%" PRIx64, rec->prof.module_id, rec->prof.flags,
			rec->prof.start, rec->prof.range, rec->prof.vaddr);
		break;
	default:
		fprintf(f, " frames=%zu [", rec->prof.nframes);
		for (size_t i = 0; i < rec->prof.nframes; i++)
			fprintf(f, "%s0x%" PRIx64, i ? "," : "",
				fxt_load(rec->prof.frames + i * 8));
		fputc(']', f);
		break;
	}
}

static void put_fields(FILE *f, const struct fxt_record *rec)
{
	switch (rec->kind) {
	case FXT_K_MAGIC:
		break;
	case FXT_K_PROVIDER_INFO:
		fprintf(f, " id=%" PRIu32, rec->meta.provider_id);
		put_str(f, "name", &rec->meta.name);
		break;
	case FXT_K_PROVIDER_SECTION:
		fprintf(f, " id=%" PRIu32, rec->meta.provider_id);
		break;
	case FXT_K_PROVIDER_EVENT:
		fprintf(f, " id=%" PRIu32 " event=%u%s", rec->meta.provider_id,
			rec->meta.event_id,
			rec->meta.event_id == FXT_PROVIDER_EVENT_BUFFER_FILLED ?
			"(buffer_filled)" : "");
		break;
	case FXT_K_TRACE_INFO:
		fprintf(f, " info_type=%u", rec->meta.info_type);
		put_raw(f, rec, 1);
		break;
	case FXT_K_METADATA:
		fprintf(f, " metadata_type=%u", rec->subtype);
		put_raw(f, rec, 1);
		break;
	case FXT_K_INIT:
		fprintf(f, " ticks_per_second=%" PRIu64, rec->ticks_per_second);
		break;
	case FXT_K_STRING:
		fprintf(f, " index=%u", rec->string.index);
		put_str(f, "value", &rec->string.value);
		if (!rec->string.index)
			fputs(" (index 0: ignored)", f);
		break;
	case FXT_K_THREAD:
		fprintf(f, " index=%u pid=%" PRIu64 " tid=%" PRIu64, rec->thread.index,
			rec->thread.pid, rec->thread.tid);
		if (!rec->thread.index)
			fputs(" (index 0: ignored)", f);
		break;
	case FXT_K_INSTANT:
	case FXT_K_COUNTER:
	case FXT_K_DURATION_BEGIN:
	case FXT_K_DURATION_END:
	case FXT_K_DURATION_COMPLETE:
	case FXT_K_ASYNC_BEGIN:
	case FXT_K_ASYNC_INSTANT:
	case FXT_K_ASYNC_END:
	case FXT_K_FLOW_BEGIN:
	case FXT_K_FLOW_STEP:
	case FXT_K_FLOW_END:
	case FXT_K_EVENT:
		put_event(f, rec);
		break;
	case FXT_K_BLOB:
		put_str(f, "name", &rec->blob.name);
		fprintf(f, " blob_type=%u size=%" PRIu64, rec->blob.blob_type, rec->blob.len);
		break;
	case FXT_K_USERSPACE_OBJECT:
		fprintf(f, " ptr=0x%" PRIx64 " pid=%" PRIu64, rec->uobj.ptr, rec->uobj.process.pid);
		if (rec->uobj.process.ref)
			fprintf(f, "(#%u)", rec->uobj.process.ref);
		put_str(f, "name", &rec->uobj.name);
		break;
	case FXT_K_KERNEL_OBJECT:
		put_object_type(f, rec->kobj.obj_type);
		fprintf(f, " koid=%" PRIu64, rec->kobj.koid);
		put_str(f, "name", &rec->kobj.name);
		break;
	case FXT_K_LEGACY_CONTEXT_SWITCH:
	case FXT_K_CONTEXT_SWITCH:
	case FXT_K_THREAD_WAKEUP:
		put_sched(f, rec);
		break;
	case FXT_K_SCHEDULING:
		fprintf(f, " sched_type=%u", rec->subtype);
		put_raw(f, rec, 1);
		break;
	case FXT_K_LOG:
		fprintf(f, " ts=%" PRIu64, rec->log.ts);
		put_thr(f, "thread", &rec->log.thread);
		put_str(f, "message", &rec->log.msg);
		break;
	case FXT_K_PROFILER_MODULE:
	case FXT_K_PROFILER_MMAP:
	case FXT_K_PROFILER_BACKTRACE:
		put_profiler(f, rec);
		break;
	case FXT_K_PROFILER:
		fprintf(f, " subtype=%u", rec->subtype);
		put_raw(f, rec, 1);
		break;
	case FXT_K_LARGE_BLOB:
		fprintf(f, " format=%u", rec->blob.format);
		put_str(f, "category", &rec->blob.category);
		put_str(f, "name", &rec->blob.name);
		if (rec->blob.format == 0) {
			fprintf(f, " ts=%" PRIu64, rec->blob.ts);
			put_thr(f, "thread", &rec->blob.thread);
		}
		fprintf(f, " size=%" PRIu64, rec->blob.len);
		break;
	case FXT_K_LARGE:
		fprintf(f, " large_type=%u format=%u", rec->subtype, rec->blob.format);
		put_raw(f, rec, 1);
		break;
	default:
		fprintf(f, " type=%u", rec->type);
		put_raw(f, rec, 1);
		break;
	}
}

void fxt_print_record(FILE *f, const struct fxt_record *rec)
{
	fprintf(f, "%" PRIu64 " %s", rec->offset, fxt_kind_name(rec->kind));
	put_fields(f, rec);
	if (rec->nargs) {
		fputs(" args:", f);
		for (unsigned int i = 0; i < rec->nargs; i++)
			put_arg(f, &rec->args[i]);
	}
	/* The format lets writers append fields; say they are there. */
	if (rec->used_words < rec->nwords && rec->kind != FXT_K_UNKNOWN &&
	    rec->kind != FXT_K_LARGE && rec->kind != FXT_K_PROFILER &&
	    rec->kind != FXT_K_SCHEDULING && rec->kind != FXT_K_METADATA &&
	    rec->kind != FXT_K_TRACE_INFO)
		fprintf(f, " undecoded_words=%" PRIu64, rec->nwords - rec->used_words);
	fputc('\n', f);
}

void fxt_print_stats(FILE *f, const struct fxt_stats *st)
{
	uint64_t count = 0, bytes = 0;

	for (unsigned int k = 0; k < FXT_K_COUNT; k++) {
		fprintf(f, "%s %" PRIu64 " %" PRIu64 "\n", fxt_kind_name((enum fxt_kind)k),
			st->count[k], st->bytes[k]);
		count += st->count[k];
		bytes += st->bytes[k];
	}
	fprintf(f, "total %" PRIu64 " %" PRIu64 "\n", count, bytes);
}

int fxt_dump(FILE *f, const char *name, const void *data, size_t len, bool stats)
{
	struct fxt_stats st = { 0 };
	struct fxt_reader *r = fxt_reader_new(data, len);
	struct fxt_record *rec = malloc(sizeof(*rec));
	int ret;

	if (!r || !rec) {
		ret = -ENOMEM;
		f2t_err("%s: out of memory", name);
		goto out;
	}
	while ((ret = fxt_reader_next(r, rec)) > 0) {
		st.count[rec->kind]++;
		st.bytes[rec->kind] += rec->nwords * 8;
		if (stats)
			continue;
		fxt_print_record(f, rec);
		if (ferror(f)) {
			/* A full disk, a closed pipe: nothing more will get through. */
			ret = -(errno ? errno : EIO);
			goto out;
		}
	}
	if (ret < 0) {
		uint64_t off = 0;
		const char *why = fxt_reader_error(r, &off);

		fflush(f);	/* the good records first, then what stopped us */
		f2t_err("%s: offset %" PRIu64 ": %s", name, off, why ? why : "out of memory");
		goto out;
	}
	if (stats)
		fxt_print_stats(f, &st);
out:
	free(rec);
	fxt_reader_free(r);
	return ret;
}
