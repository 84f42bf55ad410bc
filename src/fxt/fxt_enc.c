// SPDX-License-Identifier: MIT
/*
 * FXT record encoders.  Field positions are the spec's (the Fuchsia trace
 * format, https://fuchsia.dev/fuchsia-src/reference/tracing/trace-format);
 * every encoder computes the record size first so a record that cannot be
 * encoded leaves DST untouched.
 */
#include <errno.h>
#include <string.h>

#include "fxt/fxt_enc.h"

size_t fxt_put_stream(uint64_t *dst, const void *p, size_t len)
{
	size_t n = fxt_stream_words(len);

	if (n == 0)
		return 0;
	dst[n - 1] = 0;		/* the padding must be zeros */
	memcpy(dst, p, len);
	return n;
}

static inline size_t thread_words(struct fxt_thread t)
{
	return t.ref ? 0 : 2;
}

static inline size_t put_thread(uint64_t *dst, struct fxt_thread t)
{
	if (t.ref)
		return 0;
	dst[0] = t.pid;
	dst[1] = t.tid;
	return 2;
}

int fxt_magic(uint64_t *dst)
{
	/* type 0 | size 1 | metadata type 4 (trace info) | info type 0 | magic. */
	dst[0] = fxt_rec_hdr(FXT_REC_METADATA, 1) | (uint64_t)FXT_META_TRACE_INFO << 16 |
		 0x16547846ull << 24;
	return 1;
}

int fxt_provider_info(uint64_t *dst, uint32_t id, const char *name, size_t len)
{
	size_t size;

	if (len > 0xff)
		len = 0xff;
	size = 1 + fxt_stream_words(len);
	dst[0] = fxt_rec_hdr(FXT_REC_METADATA, size) | (uint64_t)FXT_META_PROVIDER_INFO << 16 |
		 (uint64_t)id << 20 | (uint64_t)len << 52;
	fxt_put_stream(dst + 1, name, len);
	return (int)size;
}

int fxt_provider_section(uint64_t *dst, uint32_t id)
{
	dst[0] = fxt_rec_hdr(FXT_REC_METADATA, 1) | (uint64_t)FXT_META_PROVIDER_SECTION << 16 |
		 (uint64_t)id << 20;
	return 1;
}

int fxt_provider_event(uint64_t *dst, uint32_t id, unsigned int event)
{
	if (event > 0xf)
		return -EINVAL;
	dst[0] = fxt_rec_hdr(FXT_REC_METADATA, 1) | (uint64_t)FXT_META_PROVIDER_EVENT << 16 |
		 (uint64_t)id << 20 | (uint64_t)event << 52;
	return 1;
}

int fxt_init(uint64_t *dst, uint64_t ticks_per_second)
{
	dst[0] = fxt_rec_hdr(FXT_REC_INIT, 2);
	dst[1] = ticks_per_second;
	return 2;
}

int fxt_string(uint64_t *dst, uint16_t index, const char *s, size_t len)
{
	size_t size;

	if (index == 0 || index > FXT_MAX_STRING_INDEX)
		return -EINVAL;
	if (len > FXT_MAX_STRING_LEN)
		return -E2BIG;
	size = 1 + fxt_stream_words(len);
	dst[0] = fxt_rec_hdr(FXT_REC_STRING, size) | (uint64_t)index << 16 | (uint64_t)len << 32;
	fxt_put_stream(dst + 1, s, len);
	return (int)size;
}

int fxt_thread_record(uint64_t *dst, uint8_t index, uint64_t pid, uint64_t tid)
{
	if (index == 0)
		return -EINVAL;
	dst[0] = fxt_rec_hdr(FXT_REC_THREAD, 3) | (uint64_t)index << 16;
	dst[1] = pid;
	dst[2] = tid;
	return 3;
}

int fxt_kernel_object(uint64_t *dst, uint8_t obj_type, uint64_t koid,
		      struct fxt_str name, const struct fxt_args *args)
{
	size_t size = 2 + fxt_str_words(name) + fxt_args_words(args);
	size_t n = 2;

	if (size > FXT_MAX_RECORD_WORDS || fxt_args_count(args) > FXT_MAX_ARGS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_KERNEL_OBJECT, size) | (uint64_t)obj_type << 16 |
		 (uint64_t)name.ref << 24 | fxt_args_count(args) << 40;
	dst[1] = koid;
	n += fxt_put_str(dst + n, name);
	fxt_put_args(dst + n, args);
	return (int)size;
}

int fxt_userspace_object(uint64_t *dst, struct fxt_thread process, uint64_t ptr,
			 struct fxt_str name, const struct fxt_args *args)
{
	size_t size = 2 + (process.ref ? 0 : 1) + fxt_str_words(name) + fxt_args_words(args);
	size_t n = 2;

	if (size > FXT_MAX_RECORD_WORDS || fxt_args_count(args) > FXT_MAX_ARGS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_USERSPACE_OBJECT, size) | (uint64_t)process.ref << 16 |
		 (uint64_t)name.ref << 24 | fxt_args_count(args) << 40;
	dst[1] = ptr;
	if (!process.ref)
		dst[n++] = process.pid;
	n += fxt_put_str(dst + n, name);
	fxt_put_args(dst + n, args);
	return (int)size;
}

int fxt_legacy_context_switch(uint64_t *dst, uint8_t cpu, uint8_t out_state,
			      struct fxt_thread out, struct fxt_thread in,
			      uint8_t out_prio, uint8_t in_prio, uint64_t ts)
{
	size_t size = 2 + thread_words(out) + thread_words(in);
	size_t n = 2;

	dst[0] = fxt_rec_hdr(FXT_REC_SCHEDULING, size) | (uint64_t)cpu << 16 |
		 (uint64_t)(out_state & 0xf) << 24 | (uint64_t)out.ref << 28 |
		 (uint64_t)in.ref << 36 | (uint64_t)out_prio << 44 |
		 (uint64_t)in_prio << 52 | (uint64_t)FXT_SCHED_LEGACY_SWITCH << 60;
	dst[1] = ts;
	n += put_thread(dst + n, out);
	put_thread(dst + n, in);
	return (int)size;
}

/* Every event record: the common part, then one optional type-specific word. */
static int event(uint64_t *dst, unsigned int type, const struct fxt_event_head *e,
		 const uint64_t *extra)
{
	size_t size = 2 + thread_words(e->thread) + fxt_str_words(e->category) +
		      fxt_str_words(e->name) + fxt_args_words(e->args) + (extra ? 1 : 0);
	size_t n = 2;

	if (size > FXT_MAX_RECORD_WORDS || fxt_args_count(e->args) > FXT_MAX_ARGS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_EVENT, size) | (uint64_t)type << 16 |
		 fxt_args_count(e->args) << 20 | (uint64_t)e->thread.ref << 24 |
		 (uint64_t)e->category.ref << 32 | (uint64_t)e->name.ref << 48;
	dst[1] = e->ts;
	n += put_thread(dst + n, e->thread);
	n += fxt_put_str(dst + n, e->category);
	n += fxt_put_str(dst + n, e->name);
	n += fxt_put_args(dst + n, e->args);
	if (extra)
		dst[n] = *extra;
	return (int)size;
}

int fxt_instant(uint64_t *dst, const struct fxt_event_head *e)
{
	return event(dst, FXT_EV_INSTANT, e, NULL);
}

int fxt_counter(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_COUNTER, e, &id);
}

int fxt_duration_begin(uint64_t *dst, const struct fxt_event_head *e)
{
	return event(dst, FXT_EV_DURATION_BEGIN, e, NULL);
}

int fxt_duration_end(uint64_t *dst, const struct fxt_event_head *e)
{
	return event(dst, FXT_EV_DURATION_END, e, NULL);
}

int fxt_duration_complete(uint64_t *dst, const struct fxt_event_head *e, uint64_t end_ts)
{
	return event(dst, FXT_EV_DURATION_COMPLETE, e, &end_ts);
}

int fxt_async_begin(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_ASYNC_BEGIN, e, &id);
}

int fxt_async_instant(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_ASYNC_INSTANT, e, &id);
}

int fxt_async_end(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_ASYNC_END, e, &id);
}

int fxt_flow_begin(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_FLOW_BEGIN, e, &id);
}

int fxt_flow_step(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_FLOW_STEP, e, &id);
}

int fxt_flow_end(uint64_t *dst, const struct fxt_event_head *e, uint64_t id)
{
	return event(dst, FXT_EV_FLOW_END, e, &id);
}

int fxt_blob(uint64_t *dst, struct fxt_str name, uint8_t blob_type,
	     const void *data, size_t len)
{
	size_t size = 1 + fxt_str_words(name) + fxt_stream_words(len);
	size_t n = 1;

	if (len > 0x7fff || size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_BLOB, size) | (uint64_t)name.ref << 16 |
		 (uint64_t)len << 32 | (uint64_t)blob_type << 48;
	n += fxt_put_str(dst + n, name);
	fxt_put_stream(dst + n, data, len);
	return (int)size;
}

int fxt_log(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
	    const char *msg, size_t len)
{
	size_t size = 2 + thread_words(thread) + fxt_stream_words(len);
	size_t n = 2;

	if (len > 0x7fff || size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_LOG, size) | (uint64_t)len << 16 | (uint64_t)thread.ref << 32;
	dst[1] = ts;
	n += put_thread(dst + n, thread);
	fxt_put_stream(dst + n, msg, len);
	return (int)size;
}

int fxt_profiler_module(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
			uint16_t module_id, const char *name, size_t name_len,
			const void *build_id, size_t build_id_len)
{
	size_t size, n = 2;

	if (name_len > 0xff || build_id_len > 0xff)
		return -E2BIG;
	size = 2 + thread_words(thread) + fxt_stream_words(name_len) +
	       fxt_stream_words(build_id_len);
	dst[0] = fxt_rec_hdr(FXT_REC_PROFILER, size) | (uint64_t)FXT_PROF_MODULE << 16 |
		 (uint64_t)thread.ref << 20 | (uint64_t)module_id << 28 |
		 (uint64_t)name_len << 44 | (uint64_t)build_id_len << 52;
	dst[1] = ts;
	n += put_thread(dst + n, thread);
	n += fxt_put_stream(dst + n, name, name_len);
	fxt_put_stream(dst + n, build_id, build_id_len);
	return (int)size;
}

int fxt_profiler_mmap(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
		      uint16_t module_id, uint8_t flags, uint64_t start,
		      uint64_t range, uint64_t vaddr)
{
	size_t size = 5 + thread_words(thread);
	size_t n = 2;

	dst[0] = fxt_rec_hdr(FXT_REC_PROFILER, size) | (uint64_t)FXT_PROF_MMAP << 16 |
		 (uint64_t)thread.ref << 20 | (uint64_t)module_id << 28 |
		 (uint64_t)(flags & 7) << 44;
	dst[1] = ts;
	n += put_thread(dst + n, thread);
	dst[n++] = start;
	dst[n++] = range;
	dst[n] = vaddr;
	return (int)size;
}

int fxt_profiler_backtrace(uint64_t *dst, uint64_t ts, struct fxt_thread thread,
			   const uint64_t *frames, size_t nframes)
{
	size_t size = 2 + thread_words(thread) + nframes;
	size_t n = 2;

	if (nframes > 0xff || size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_rec_hdr(FXT_REC_PROFILER, size) | (uint64_t)FXT_PROF_BACKTRACE << 16 |
		 (uint64_t)thread.ref << 20 | (uint64_t)nframes << 28;
	dst[1] = ts;
	n += put_thread(dst + n, thread);
	if (nframes)
		memcpy(dst + n, frames, nframes * sizeof(*frames));
	return (int)size;
}

int fxt_arg_double(uint64_t *dst, struct fxt_str name, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return fxt_arg_word(dst, FXT_ARG_DOUBLE, name, bits);
}

int fxt_arg_string(uint64_t *dst, struct fxt_str name, struct fxt_str v)
{
	size_t size = 1 + fxt_str_words(name) + fxt_str_words(v);
	size_t n = 1;

	if (size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_arg_hdr(FXT_ARG_STRING, size, name, v.ref);
	n += fxt_put_str(dst + n, name);
	fxt_put_str(dst + n, v);
	return (int)size;
}

int fxt_arg_blob(uint64_t *dst, struct fxt_str name, const void *data, size_t len)
{
	size_t size = 1 + fxt_str_words(name) + fxt_stream_words(len);
	size_t n = 1;

	if (len > UINT32_MAX || size > FXT_MAX_RECORD_WORDS)
		return -E2BIG;
	dst[0] = fxt_arg_hdr(FXT_ARG_BLOB, size, name, (uint32_t)len);
	n += fxt_put_str(dst + n, name);
	fxt_put_stream(dst + n, data, len);
	return (int)size;
}
