// SPDX-License-Identifier: MIT
/*
 * Perf records from the capture, in time order through the perf walk
 * (perfwalk.h), which applies the records that change address spaces as
 * they pass, so a sample is symbolized against the mappings of its own
 * moment.  The off-CPU episodes (offcpu_src.h) are handed out between the
 * samples as their times come, named through the same replay and
 * symbolizer: each episode once every record up to its time is applied
 * and none after, as a sample is.  Every length is checked before it is
 * used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"
#include "capture/perf_rec.h"
#include "source/offcpu/offcpu_src.h"
#include "source/perf/perfsrc.h"
#include "source/perf/perfwalk.h"
#include "source/perf/sample_filter.h"
#include "symbols/unwind.h"
#include "symbols/symbolizer.h"
#include "util/log.h"

#define MAX_FRAMES 512

struct f2t_perfsrc {
	struct f2t_source base;
	const struct f2t_capr *cap;
	uint64_t sample_type, regs_mask;
	unsigned int nregs;
	char event[32];
	struct f2t_maps *maps;
	struct f2t_symbolizer *sym;
	struct f2t_unwinder *unw;	/* --call-graph dwarf, or off-CPU stack copies */
	struct f2t_sample_filter *filter;	/* per-CPU events: whose samples to keep */
	char *dwarf_arch;		/* dwarf: the recording machine's, for unw */
	struct f2t_perfwalk *walk;	/* NULL: no perf records (episodes alone) */
	struct f2t_offcpu_feed *offcpu;	/* NULL: no off-CPU episodes */
	uint64_t from_ns;		/* a flight recorder's window: earlier samples left out */
	struct f2t_frame frames[MAX_FRAMES];
	uint64_t ips[MAX_FRAMES];
	bool calls[MAX_FRAMES];
	struct f2t_stats st;
};

static int read_info(struct f2t_perfsrc *s, const struct f2t_cap_rec *r)
{
	char *ev = f2t_capr_kv(r, "event"), *cg = f2t_capr_kv(r, "callgraph");
	char *scope = f2t_capr_kv(r, "scope"), *roots = f2t_capr_kv(r, "roots");
	uint64_t known = F2T_SAMPLE_TYPE_DWARF;
	int ret = 0;

	snprintf(s->event, sizeof(s->event), "%s", ev ? ev : "cpu-clock");
	s->sample_type = f2t_capr_kv_u64(r, "sample_type");
	s->regs_mask = f2t_capr_kv_u64(r, "regs_user");
	s->nregs = (unsigned int)__builtin_popcountll(s->regs_mask);
	/* We parse what we asked for, nothing else: anything more is not ours. */
	if ((s->sample_type & ~known) || !(s->sample_type & PERF_SAMPLE_TIME) ||
	    !(s->sample_type & PERF_SAMPLE_TID)) {
		f2t_err("%s: offset %llu: sample_type %llu is not one this build decodes",
			 s->cap->path, (unsigned long long)r->offset,
			 (unsigned long long)s->sample_type);
		ret = -EINVAL;
	}
	if (!ret && !(s->filter = f2t_sample_filter_new(scope, roots)) && errno) {
		ret = -errno;
		if (ret == -EINVAL)
			f2t_err("%s: offset %llu: sample scope '%s' with roots '%s' is malformed",
				s->cap->path, (unsigned long long)r->offset, scope, roots);
	}
	/* The unwinder is made once the symbolizer is there (it asks it for build-ids). */
	if (!ret && cg && !strcmp(cg, "dwarf")) {
		s->dwarf_arch = f2t_capr_kv(r, "arch");
		if (!s->dwarf_arch)
			s->dwarf_arch = strdup("");
		if (!s->dwarf_arch)
			ret = -ENOMEM;
	}
	free(ev);
	free(cg);
	free(scope);
	free(roots);
	return ret;
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
static int decode_sample(struct f2t_perfsrc *s, const struct f2t_perf_rec *c,
			 struct f2t_event *ev)
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
	} else if ((t & PERF_SAMPLE_IP) && (kernel || !regs || !s->dwarf_arch || !s->unw)) {
		/* A user-mode dwarf sample's IP is the unwinder's first frame. */
		f2t_symbolize(s->sym, (int32_t)pid, ip, kernel, false, &s->frames[n++]);
	}
	if (regs && s->dwarf_arch && s->unw && n < MAX_FRAMES) {
		/* dwarf: the user part of the stack is ours to unwind. */
		struct f2t_unwind_sample smp = {
			.pid = (int32_t)pid, .tid = (int32_t)tid, .abi = regs_abi,
			.regs_mask = s->regs_mask, .regs = regs, .nregs = s->nregs, .stack = stack, .stack_len = (size_t)dyn_size,
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

/* Decodes or counts the record at C.  Returns 1 for a sample in EV, 0 otherwise. */
static int handle(struct f2t_perfsrc *s, const struct f2t_perf_rec *c, struct f2t_event *ev)
{
	const unsigned char *p = c->rec + 8;
	size_t body = c->size - 8u;
	bool bad = c->malformed;
	int ret;

	s->st.perf_records++;
	/*
	 * Before a flight recorder's window: its past, as the ring buffers
	 * overwrote theirs, samples and the counts of samples lost or
	 * throttled alike.
	 */
	if (c->ts < s->from_ns &&
	    (c->type == PERF_RECORD_SAMPLE || c->type == PERF_RECORD_LOST ||
	     c->type == PERF_RECORD_LOST_SAMPLES || c->type == PERF_RECORD_THROTTLE))
		return 0;
	ret = f2t_sample_filter_skip(s->filter, c->rec, c->size, s->sample_type);
	if (ret)
		return ret < 0 ? ret : 0;	/* another process's sample */
	switch (c->type) {
	case PERF_RECORD_SAMPLE:
		if (decode_sample(s, c, ev))
			return 1;
		bad = true;
		break;
	case PERF_RECORD_LOST:
		if (body < 16)
			bad = true;
		else
			s->st.samples_lost += f2t_perf_u64(p + 8);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (body < 8)
			bad = true;
		else
			s->st.samples_lost += f2t_perf_u64(p);
		break;
	case PERF_RECORD_THROTTLE:
		s->st.sample_throttles++;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_COMM:	/* applied by the walk */
	case PERF_RECORD_EXIT:
	case PERF_RECORD_UNTHROTTLE:
		break;
	default:
		s->st.unknown_events++;
		break;
	}
	s->st.perf_bad_records += bad;
	return 0;
}

/*
 * Is the next off-CPU episode due before the next perf record?  Only when
 * it ends before that record's time: a sample and an episode of the same
 * time go out sample first, and the record is applied before the episode
 * is named.  1, 0, or a negative errno (reported).
 */
static int episode_due(struct f2t_perfsrc *s)
{
	uint64_t te, tr;
	int ret;

	if (!s->offcpu)
		return 0;
	ret = f2t_offcpu_feed_peek(s->offcpu, &te);
	if (ret <= 0 || !s->walk)
		return ret;
	ret = f2t_perfwalk_peek(s->walk, &tr);	/* reports its errors */
	return ret < 0 ? ret : !ret || te < tr;
}

static int perfsrc_next(struct f2t_source *src, struct f2t_event *ev)
{
	struct f2t_perfsrc *s = (struct f2t_perfsrc *)src;

	for (;;) {
		const struct f2t_perf_rec *c;
		int ret = episode_due(s);

		if (ret < 0)
			return ret;
		memset(ev, 0, sizeof(*ev));
		ev->src = &s->base;
		if (ret) {
			f2t_offcpu_feed_take(s->offcpu, ev);
			return 1;
		}
		ret = s->walk ? f2t_perfwalk_next(s->walk, &c) : 0;	/* reports its errors */
		if (ret <= 0)
			return ret;
		ret = handle(s, c, ev);
		if (ret < 0)
			f2t_err("%s: out of memory", s->cap->path);
		if (ret)
			return ret;
	}
}

static void perfsrc_counts(const struct f2t_source *src, struct f2t_stats *st)
{
	const struct f2t_perfsrc *s = (const struct f2t_perfsrc *)src;

	f2t_stats_add(st, &s->st);
	st->samples_out_of_scope += f2t_sample_filter_left_out(s->filter);
	if (s->offcpu)
		f2t_offcpu_feed_counts(s->offcpu, st);
	if (s->unw) {
		struct f2t_unwind_stats us;

		f2t_unwinder_stats(s->unw, &us);
		st->unwind_samples += us.samples;
		st->unwind_leaf_only += us.leaf_only;
		st->offcpu_unwound += us.episodes;
		st->offcpu_unwound_leaf_only += us.episodes_leaf_only;
	}
}

static void perfsrc_close(struct f2t_source *src)
{
	struct f2t_perfsrc *s = (struct f2t_perfsrc *)src;

	f2t_offcpu_feed_free(s->offcpu);
	f2t_perfwalk_free(s->walk);
	f2t_sample_filter_free(s->filter);
	if (s->unw) {
		struct f2t_unwind_stats us;

		f2t_unwinder_stats(s->unw, &us);
		f2t_info("dwarf unwinding: %llu libdwfl sessions for %llu samples and %llu off-CPU episodes (%llu rebuilt for changed mappings, %llu after an eviction)",
			 (unsigned long long)us.sessions, (unsigned long long)us.samples,
			 (unsigned long long)us.episodes,
			 (unsigned long long)us.rebuilt, (unsigned long long)us.evicted);
	}
	f2t_unwinder_free(s->unw);
	free(s->dwarf_arch);
	f2t_symbolizer_free(s->sym);
	f2t_maps_free(s->maps, f2t_symbolizer_free_module_syms);
	free(s);
}

static const struct f2t_source_ops perfsrc_ops = {
	.next = perfsrc_next,
	.counts = perfsrc_counts,
	.close = perfsrc_close,
};

struct f2t_source *f2t_perfsrc_open(const struct f2t_capr *cap, const struct f2t_recording *rec,
				    const char *debug_root)
{
	const struct f2t_cap_rec *info = f2t_capr_find(cap, F2T_CAP_PERF_INFO, -1);
	struct f2t_perfsrc *s;
	int ret;

	if (!info && !f2t_capr_find(cap, F2T_CAP_OFFCPU_INFO, 0)) {
		errno = ENOENT;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ret = -ENOMEM;
		goto out;
	}
	s->base.ops = &perfsrc_ops;
	s->cap = cap;
	s->from_ns = f2t_capr_kv_u64(f2t_capr_find(cap, F2T_CAP_META, -1), "flight_from_ns");
	s->maps = f2t_maps_new();
	if (!s->maps) {
		ret = -ENOMEM;
		goto out;
	}
	ret = info ? read_info(s, info) : 0;
	if (ret)
		goto out;
	s->sym = f2t_symbolizer_new(rec, s->maps, debug_root);
	if (!s->sym) {
		ret = -errno;
		goto out;
	}
	if (s->dwarf_arch && (s->regs_mask & F2T_UNWIND_X86_64_IP))
		s->unw = f2t_unwinder_new(s->dwarf_arch, s->maps, s->sym, debug_root);
	if (!s->unw) {
		/* Off-CPU episodes keep registers and a stack copy to unwind too. */
		char *arch = f2t_offcpu_unwind_arch(cap);

		s->unw = arch ? f2t_unwinder_new(arch, s->maps, s->sym, debug_root) : NULL;
		free(arch);
	}
	ret = f2t_perfwalk_load_proc_maps(s->maps, rec);
	if (!ret && info) {
		s->walk = f2t_perfwalk_open(cap, s->sample_type, s->maps);
		ret = s->walk ? 0 : -errno;
	}
	if (!ret) {
		s->offcpu = f2t_offcpu_feed_open(cap, s->sym, s->unw);
		ret = s->offcpu || errno == ENOENT ? 0 : -errno;
	}
out:
	if (ret) {
		if (ret == -ENOMEM)
			f2t_err("%s: out of memory", cap->path);
		if (s)
			perfsrc_close(&s->base);
		errno = -ret;
		return NULL;
	}
	return &s->base;
}
