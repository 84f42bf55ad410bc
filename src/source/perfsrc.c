// SPDX-License-Identifier: MIT
/*
 * Perf records from the capture: one cursor per CPU walks that CPU's
 * PERF_DATA records in file order; a min-heap on timestamps merges them.
 * Records that change address spaces (MMAP2, FORK, COMM exec) are applied
 * when they come out of the merge, so a sample is symbolized against the
 * mappings of its own moment.  Every length is checked before it is used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"
#include "capture/perf_rec.h"
#include "source/perfsrc.h"
#include "symbols/unwind.h"
#include "symbols/symbolizer.h"
#include "util/log.h"
#include "util/minheap.h"

#define MAX_FRAMES 512

struct cursor {
	uint32_t cpu;
	const size_t *recs;	/* indices of this CPU's PERF_DATA records */
	size_t nrecs, ri;
	uint64_t pos;		/* offset of the current perf record in recs[ri] */
	const unsigned char *rec;	/* the current perf record, NULL at the end */
	uint16_t size, type, misc;
	uint64_t ts;
};

struct f2t_perfsrc {
	const struct f2t_capr *cap;
	uint64_t sample_type, regs_mask;
	unsigned int nregs;
	char event[32];
	struct f2t_maps *maps;
	struct f2t_symbolizer *sym;
	struct f2t_unwinder *unw;	/* --call-graph dwarf only */
	char *dwarf_arch;		/* dwarf: the recording machine's, for unw */
	struct f2t_cap_cpus split;	/* PERF_DATA records by CPU */
	struct cursor *cursors;
	uint32_t ncursors;
	struct f2t_minheap heap;	/* cursors by their next record's time */
	struct cursor *last;
	struct f2t_frame frames[MAX_FRAMES];
	uint64_t ips[MAX_FRAMES];
	bool calls[MAX_FRAMES];
	struct f2t_stats st;
};

static char *info_get(const struct f2t_cap_rec *r, const char *key)
{
	const char *p = r->data, *end = p + r->len;
	size_t klen = strlen(key);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && p[klen] == '=' && !memcmp(p, key, klen))
			return strndup(p + klen + 1, (size_t)(nl - p - klen - 1));
		p = nl + 1;
	}
	return NULL;
}

static uint64_t info_u64(const struct f2t_cap_rec *r, const char *key)
{
	char *v = info_get(r, key);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;

	free(v);
	return n;
}

static int read_info(struct f2t_perfsrc *s, const struct f2t_cap_rec *r, char *err,
		     size_t errlen)
{
	char *ev = info_get(r, "event"), *cg = info_get(r, "callgraph");
	uint64_t known = F2T_SAMPLE_TYPE_DWARF;
	int ret = 0;

	snprintf(s->event, sizeof(s->event), "%s", ev ? ev : "cpu-clock");
	s->sample_type = info_u64(r, "sample_type");
	s->regs_mask = info_u64(r, "regs_user");
	s->nregs = (unsigned int)__builtin_popcountll(s->regs_mask);
	/* We parse what we asked for, nothing else: anything more is not ours. */
	if ((s->sample_type & ~known) || !(s->sample_type & PERF_SAMPLE_TIME) ||
	    !(s->sample_type & PERF_SAMPLE_TID)) {
		snprintf(err, errlen, "%s: offset %llu: sample_type %llu is not one this build decodes",
			 s->cap->path, (unsigned long long)r->offset,
			 (unsigned long long)s->sample_type);
		ret = -EINVAL;
	}
	/* The unwinder is made once the symbolizer is there (it asks it for build-ids). */
	if (!ret && cg && !strcmp(cg, "dwarf")) {
		s->dwarf_arch = info_get(r, "arch");
		if (!s->dwarf_arch)
			s->dwarf_arch = strdup("");
		if (!s->dwarf_arch)
			ret = -ENOMEM;
	}
	free(ev);
	free(cg);
	return ret;
}

static int load_maps(struct f2t_perfsrc *s)
{
	for (size_t i = 0; i < s->cap->nrecs; i++) {
		const struct f2t_cap_rec *r = &s->cap->recs[i];

		if (r->type == F2T_CAP_MAPS &&
		    f2t_maps_parse_proc(s->maps, (int32_t)r->arg, r->data, r->len) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- cursors ---- */

/* Timestamp of the record at C (the previous one's when it carries none). */
static uint64_t record_time(const struct f2t_perfsrc *s, const struct cursor *c)
{
	if (c->type == PERF_RECORD_SAMPLE) {
		size_t at = 8 + ((s->sample_type & PERF_SAMPLE_IP) ? 8 : 0) + 8;

		return at + 8 <= c->size ? f2t_perf_u64(c->rec + at) : c->ts;
	}
	/* sample_id_all trailer: pid, tid, time, cpu */
	if (c->size >= 8 + F2T_PERF_ID_TRAILER)
		return f2t_perf_u64(c->rec + c->size - F2T_PERF_ID_TRAILER + 8);
	return c->ts;
}

/* Loads the record at the cursor's position, moving to the next capture record as needed. */
static int cursor_load(struct f2t_perfsrc *s, struct cursor *c, char *err, size_t errlen)
{
	for (;;) {
		const struct f2t_cap_rec *r;
		struct perf_event_header h;

		if (c->ri >= c->nrecs) {
			c->rec = NULL;
			return 0;
		}
		r = &s->cap->recs[c->recs[c->ri]];
		if (c->pos >= r->len) {
			c->ri++;
			c->pos = 0;
			continue;
		}
		if (r->len - c->pos < sizeof(h)) {
			snprintf(err, errlen, "%s: offset %llu: cpu %u: perf record header cut short",
				 s->cap->path, (unsigned long long)(r->offset + c->pos), c->cpu);
			return -EINVAL;
		}
		memcpy(&h, (const unsigned char *)r->data + c->pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > r->len - c->pos) {
			snprintf(err, errlen, "%s: offset %llu: cpu %u: perf record of %u bytes does not fit",
				 s->cap->path, (unsigned long long)(r->offset + c->pos), c->cpu,
				 h.size);
			return -EINVAL;
		}
		c->rec = (const unsigned char *)r->data + c->pos;
		c->size = h.size;
		c->type = (uint16_t)h.type;
		c->misc = h.misc;
		c->pos += h.size;
		c->ts = record_time(s, c);
		return 1;
	}
}

static bool before(const void *pa, const void *pb)
{
	const struct cursor *a = pa, *b = pb;

	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}


static int setup_cursors(struct f2t_perfsrc *s, char *err, size_t errlen)
{
	int ret;

	ret = f2t_capr_split_by_cpu(s->cap, F2T_CAP_PERF_DATA, F2T_MAX_CPUS, &s->split, err, errlen);
	if (ret)
		return ret;
	s->ncursors = s->split.ncpus;
	s->cursors = calloc(s->ncursors ? s->ncursors : 1, sizeof(*s->cursors));
	if (!s->cursors || f2t_minheap_init(&s->heap, s->ncursors, before))
		return -ENOMEM;
	for (uint32_t i = 0; i < s->ncursors; i++) {
		s->cursors[i].cpu = i;
		s->cursors[i].recs = s->split.cpu[i].recs;
		s->cursors[i].nrecs = s->split.cpu[i].n;
		ret = cursor_load(s, &s->cursors[i], err, errlen);
		if (ret < 0)
			return ret;
		if (ret)
			f2t_minheap_push(&s->heap, &s->cursors[i]);
	}
	f2t_minheap_build(&s->heap);
	return 0;
}

/* ---- records ---- */

/* MMAP (1) and MMAP2 (10): a new executable mapping. */
static int apply_mmap(struct f2t_perfsrc *s, const struct cursor *c)
{
	const unsigned char *p = c->rec + 8, *end = c->rec + c->size;
	size_t fixed = c->type == PERF_RECORD_MMAP2 ? 8 + 24 + 24 + 8 : 8 + 24;
	struct f2t_build_id bid = { 0 };
	const unsigned char *name;
	struct f2t_module *mod;
	size_t nlen;

	if ((size_t)(end - p) < fixed + 1)
		return 1;	/* malformed: counted by the caller */
	if (c->type == PERF_RECORD_MMAP2 && (c->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		uint8_t n = p[32];

		if (n <= 20) {
			bid.len = n;
			memcpy(bid.b, p + 36, n);
		}
	}
	name = p + fixed;
	/* The name is NUL-padded; the sample_id trailer follows it. */
	if ((size_t)(end - name) > F2T_PERF_ID_TRAILER)
		end -= F2T_PERF_ID_TRAILER;
	nlen = strnlen((const char *)name, (size_t)(end - name));
	mod = f2t_maps_module(s->maps, (const char *)name, nlen, &bid);
	if (!mod)
		return -ENOMEM;
	return f2t_maps_add(s->maps, (int32_t)f2t_perf_u32(p), f2t_perf_u64(p + 8),
			    f2t_perf_u64(p + 16), f2t_perf_u64(p + 24), mod);
}

/* Frames of one callchain: context markers switch kernel/user. */
static uint32_t frames_of_chain(struct f2t_perfsrc *s, int32_t pid, const uint64_t *ips,
				uint64_t nr, bool kernel_first, uint32_t n)
{
	bool kernel = kernel_first, skip = false, first = true;

	for (uint64_t i = 0; i < nr && n < MAX_FRAMES; i++) {
		uint64_t ip = ips[i];

		if (ip >= F2T_PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			/* Hypervisor and guest frames: nothing here can name them. */
			skip = !kernel && ip != (uint64_t)PERF_CONTEXT_USER;
			first = true;
			continue;
		}
		if (skip)
			continue;
		f2t_symbolize(s->sym, pid, ip, kernel, !first, &s->frames[n++]);
		first = false;
	}
	return n;
}

/* A SAMPLE record into EV.  Returns 1, or 0 for a malformed one (counted). */
static int decode_sample(struct f2t_perfsrc *s, const struct cursor *c, struct f2t_event *ev)
{
	const unsigned char *p = c->rec + 8, *end = c->rec + c->size;
	uint64_t t = s->sample_type, ip = 0, nr = 0, period = 0;
	uint32_t pid = 0, tid = 0, cpu = c->cpu, n = 0;
	const unsigned char *chain = NULL, *regs = NULL, *stack = NULL;
	uint64_t regs_abi = 0, stack_size = 0, dyn_size = 0;
	bool kernel = (c->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;

#define NEED(bytes) do { if ((size_t)(end - p) < (size_t)(bytes)) return 0; } while (0)
	if (t & PERF_SAMPLE_IP) {
		NEED(8);
		ip = f2t_perf_u64(p);
		p += 8;
	}
	NEED(16);	/* TID and TIME are always there (checked at open) */
	pid = f2t_perf_u32(p);
	tid = f2t_perf_u32(p + 4);
	p += 16;
	if (t & PERF_SAMPLE_CPU) {
		NEED(8);
		cpu = f2t_perf_u32(p);
		p += 8;
	}
	if (t & PERF_SAMPLE_PERIOD) {
		NEED(8);
		period = f2t_perf_u64(p);
		p += 8;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		NEED(8);
		nr = f2t_perf_u64(p);
		p += 8;
		if (nr > (size_t)(end - p) / 8)
			return 0;
		chain = p;
		p += nr * 8;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		NEED(8);
		regs_abi = f2t_perf_u64(p);
		p += 8;
		if (regs_abi) {
			NEED((size_t)s->nregs * 8);
			regs = p;
			p += (size_t)s->nregs * 8;
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		NEED(8);
		stack_size = f2t_perf_u64(p);
		p += 8;
		if (stack_size) {
			/* stack_size + 8 could wrap around */
			if (stack_size > (uint64_t)(end - p) || (uint64_t)(end - p) - stack_size < 8)
				return 0;
			stack = p;
			dyn_size = f2t_perf_u64(p + stack_size);
			if (dyn_size > stack_size)
				dyn_size = stack_size;
		}
	}
#undef NEED
	if (chain && nr) {
		/* Copied out: the record's bytes need not be 8-aligned. */
		uint64_t k = nr < MAX_FRAMES ? nr : MAX_FRAMES;

		memcpy(s->ips, chain, k * 8);
		n = frames_of_chain(s, (int32_t)pid, s->ips, k, kernel, 0);
	} else if ((t & PERF_SAMPLE_IP) && (kernel || !regs || !s->unw)) {
		/* A user-mode dwarf sample's IP is the unwinder's first frame. */
		f2t_symbolize(s->sym, (int32_t)pid, ip, kernel, false, &s->frames[n++]);
	}
	if (regs && s->unw && n < MAX_FRAMES) {
		/* dwarf: the user part of the stack is ours to unwind. */
		struct f2t_unwind_sample smp = {
			.pid = (int32_t)pid, .tid = (int32_t)tid, .abi = regs_abi,
			.regs = regs, .nregs = s->nregs, .stack = stack, .stack_len = (size_t)dyn_size,
		};
		size_t k = f2t_unwind(s->unw, &smp, s->ips, s->calls, MAX_FRAMES - n);

		for (size_t i = 0; i < k; i++)
			f2t_symbolize(s->sym, (int32_t)pid, s->ips[i], false, s->calls[i],
				      &s->frames[n++]);
	}
	for (uint32_t i = 0; i < n; i++)
		s->st.frames_named += s->frames[i].func != NULL;
	s->st.frames += n;
	ev->ts = c->ts;
	ev->cpu = cpu;
	ev->pid = (int32_t)tid;
	ev->kind = F2T_EV_SAMPLE;
	ev->sample.tgid = (int32_t)pid;
	ev->sample.period = period;
	ev->sample.event = s->event;
	ev->sample.nframes = n;
	ev->sample.frames = s->frames;
	return 1;
}

/* Applies or decodes the record at C.  Returns 1 for a sample in EV, 0 otherwise. */
static int handle(struct f2t_perfsrc *s, const struct cursor *c, struct f2t_event *ev)
{
	const unsigned char *p = c->rec + 8;
	size_t body = c->size - 8u;
	int ret = 0;

	s->st.perf_records++;
	switch (c->type) {
	case PERF_RECORD_SAMPLE:
		ret = decode_sample(s, c, ev);
		if (!ret)
			s->st.perf_bad_records++;
		return ret;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ret = apply_mmap(s, c);
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a new process starts as a copy of its parent */
		if (body < 16)
			ret = 1;
		else if (f2t_perf_u32(p) != f2t_perf_u32(p + 4))
			ret = f2t_maps_fork(s->maps, (int32_t)f2t_perf_u32(p + 4),
					    (int32_t)f2t_perf_u32(p));
		break;
	case PERF_RECORD_COMM:
		/* pid, tid, comm: after an exec, the old mappings are gone */
		if (body < 8)
			ret = 1;
		else if (c->misc & PERF_RECORD_MISC_COMM_EXEC)
			f2t_maps_exec(s->maps, (int32_t)f2t_perf_u32(p));
		break;
	case PERF_RECORD_LOST:
		if (body < 16)
			ret = 1;
		else
			s->st.samples_lost += f2t_perf_u64(p + 8);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (body < 8)
			ret = 1;
		else
			s->st.samples_lost += f2t_perf_u64(p);
		break;
	case PERF_RECORD_THROTTLE:
		s->st.sample_throttles++;
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_UNTHROTTLE:
		break;
	default:
		s->st.unknown_events++;
		break;
	}
	if (ret < 0)
		return ret;
	if (ret > 0)
		s->st.perf_bad_records++;
	return 0;
}

struct f2t_perfsrc *f2t_perfsrc_open(const struct f2t_capr *cap, const char *debug_root,
				     char *err, size_t errlen)
{
	const struct f2t_cap_rec *info = f2t_capr_find(cap, F2T_CAP_PERF_INFO, -1);
	struct f2t_perfsrc *s;
	int ret;

	if (!info) {
		errno = ENOENT;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cap = cap;
	s->maps = f2t_maps_new();
	if (!s->maps) {
		ret = -ENOMEM;
		goto out;
	}
	ret = read_info(s, info, err, errlen);
	if (ret)
		goto out;
	s->sym = f2t_symbolizer_new(cap, s->maps, debug_root);
	if (!s->sym) {
		ret = -errno;
		goto out;
	}
	if (s->dwarf_arch)
		s->unw = f2t_unwinder_new(s->dwarf_arch, s->regs_mask, s->maps, s->sym, debug_root);
	ret = load_maps(s);
	if (!ret)
		ret = setup_cursors(s, err, errlen);
out:
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", cap->path);
		f2t_perfsrc_close(s);
		errno = -ret;
		return NULL;
	}
	return s;
}

int f2t_perfsrc_next(struct f2t_perfsrc *s, struct f2t_event *ev, char *err, size_t errlen)
{
	for (;;) {
		struct cursor *c;
		int ret;

		if (s->last) {
			ret = cursor_load(s, s->last, err, errlen);
			s->last = NULL;
			if (ret < 0)
				return ret;
			f2t_minheap_update_top(&s->heap, ret > 0);
		}
		c = s->last = f2t_minheap_top(&s->heap);
		if (!c)
			return 0;
		memset(ev, 0, sizeof(*ev));
		ret = handle(s, c, ev);
		if (ret < 0) {
			snprintf(err, errlen, "%s: out of memory", s->cap->path);
			return ret;
		}
		if (ret)
			return 1;
	}
}

void f2t_perfsrc_stats(const struct f2t_perfsrc *s, struct f2t_stats *st)
{
	st->samples_lost += s->st.samples_lost;
	st->sample_throttles += s->st.sample_throttles;
	st->perf_records += s->st.perf_records;
	st->perf_bad_records += s->st.perf_bad_records;
	st->frames += s->st.frames;
	st->frames_named += s->st.frames_named;
	st->unknown_events += s->st.unknown_events;
	if (s->unw) {
		struct f2t_unwind_stats us;

		f2t_unwinder_stats(s->unw, &us);
		st->unwind_samples += us.samples;
		st->unwind_leaf_only += us.leaf_only;
	}
}

void f2t_perfsrc_close(struct f2t_perfsrc *s)
{
	if (!s)
		return;
	free(s->cursors);
	f2t_cap_cpus_free(&s->split);
	f2t_minheap_free(&s->heap);
	if (s->unw) {
		struct f2t_unwind_stats us;

		f2t_unwinder_stats(s->unw, &us);
		f2t_info("dwarf unwinding: %llu libdwfl sessions for %llu samples (%llu rebuilt for changed mappings, %llu after an eviction)",
			 (unsigned long long)us.sessions, (unsigned long long)us.samples,
			 (unsigned long long)us.rebuilt, (unsigned long long)us.evicted);
	}
	f2t_unwinder_free(s->unw);
	free(s->dwarf_arch);
	f2t_symbolizer_free(s->sym);
	f2t_maps_free(s->maps, f2t_symbolizer_free_module_syms);
	free(s);
}
