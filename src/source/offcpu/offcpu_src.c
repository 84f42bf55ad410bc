// SPDX-License-Identifier: MIT
/*
 * Off-CPU episodes from the capture.  The ring buffer held them in the
 * order they were reserved, by the time each thread ran again, give or
 * take the microseconds between two CPUs' reservations (the switch runs
 * with interrupts off): a min-heap holding REORDER_NS of records puts them
 * in order.  Each stack is symbolized when its episode is taken, through
 * the symbolizer the perf source lends (perfsrc.c), whose replay of the
 * address spaces is then at the episode's moment.  The user stack's
 * innermost frames come from unwinding the episode's registers and stack
 * copy with the binaries' CFI (the C library's system-call wrappers have no
 * frame pointer, and the kernel's frame-pointer walk skips their caller);
 * the frame-pointer frames go on from where the unwinding stopped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/offcpu_rec.h"
#include "capture/perf_rec.h"
#include "source/offcpu/offcpu_src.h"
#include "symbols/symbolizer.h"
#include "symbols/unwind.h"
#include "util/log.h"
#include "util/vec.h"

#define REORDER_NS 10000000ull	/* 10 ms: far more than two CPUs' switches ever differ */
#define MAX_STACK_ID (1u << 24)	/* the kernel's stack ids are bucket numbers */

/* A record read, not handed out yet: where it is in the capture. */
struct held {
	uint64_t end_ns;
	const unsigned char *rec;
};

struct f2t_offcpu_feed {
	const struct f2t_capr *cap;
	struct f2t_symbolizer *sym;	/* lent */
	struct f2t_unwinder *unw;	/* lent; NULL: frame pointers only */
	size_t rec_size;		/* the fixed part of a record (v1: the whole) */
	uint64_t from_ns;		/* a flight recorder's window: episodes begun before are left out */
	/* The kernel [0] and user [1] stack maps. */
	struct stack_map {
		const unsigned char *stacks;
		uint32_t *at;		/* at[id] = offset + 1 of {id, n, ips} in stacks */
		uint32_t nids;
	} map[2];
	/* The OFFCPU_DATA records not read yet: record ri, byte pos. */
	size_t ri, pos;
	/* Records read, not handed out: a min-heap by end time. */
	struct held *heap;
	size_t nheap, capheap;
	uint64_t newest;		/* the latest end time read */
	/* The episode being taken: its stack copy, and its user frames unwound. */
	const unsigned char *ustack;
	uint64_t ips[F2T_UNWIND_MAX_FRAMES];
	bool calls[F2T_UNWIND_MAX_FRAMES];
	struct f2t_frame frames[2 * F2T_OFFCPU_MAX_DEPTH + F2T_UNWIND_MAX_FRAMES];
	struct f2t_frame wframes[2 * F2T_OFFCPU_MAX_DEPTH];
	struct f2t_stats st;
};

static const char state_letters[] = "SDTtXZPI";

/* Finds a stack map's stacks in the capture; checks every length. */
static int index_stacks(struct f2t_offcpu_feed *s, struct stack_map *m,
			const struct f2t_cap_rec *r)
{
	const unsigned char *p;
	uint64_t off = 0;

	if (!r)
		return 0;
	if (r->len > UINT32_MAX)
		goto bad;
	p = m->stacks = r->data;
	/* Two passes: the largest id, then the index. */
	for (int pass = 0; pass < 2; pass++) {
		for (off = 0; off < r->len;) {
			uint32_t id, n;

			if (r->len - off < 8)
				goto bad;
			memcpy(&id, p + off, 4);
			memcpy(&n, p + off + 4, 4);
			if (n > F2T_OFFCPU_MAX_DEPTH || (r->len - off - 8) / 8 < n ||
			    id >= MAX_STACK_ID)
				goto bad;
			if (pass == 0 && id >= m->nids)
				m->nids = id + 1;
			else if (pass == 1)
				m->at[id] = (uint32_t)off + 1;
			off += 8 + (uint64_t)n * 8;
		}
		if (pass == 0 && !(m->at = calloc(m->nids ? m->nids : 1, sizeof(uint32_t))))
			return -ENOMEM;
	}
	return 0;
bad:
	f2t_err("%s: offset %llu: off-CPU stack record is malformed", s->cap->path,
		(unsigned long long)(r->offset + off));
	return -EINVAL;
}

/*
 * Stack ID of the kernel [0] or user [1] map: its frame count and the
 * address of its first frame (u64s, unaligned); 0 when there is none.
 */
static uint32_t find_stack(struct f2t_offcpu_feed *s, int32_t id, bool kernel,
			   const unsigned char **ips)
{
	const struct stack_map *m = &s->map[!kernel];
	const unsigned char *e;
	uint32_t k;

	if (id < 0)
		return 0;	/* none kept: no user stack, a collision (counted by the recorder) */
	if ((uint32_t)id >= m->nids || !m->at[id]) {
		s->st.offcpu_stacks_missing++;
		return 0;
	}
	e = m->stacks + m->at[id] - 1;
	memcpy(&k, e + 4, 4);
	*ips = e + 8;
	return k;
}

/* The frames of stack ID after the first N of OUT; returns the new count. */
static uint32_t add_stack(struct f2t_offcpu_feed *s, int32_t id, int32_t pid, bool kernel,
			  struct f2t_frame *out, uint32_t n)
{
	const unsigned char *ips = NULL;
	uint32_t k = find_stack(s, id, kernel, &ips);

	for (uint32_t i = 0; i < k; i++) {
		uint64_t ip = f2t_perf_u64(ips + (size_t)i * 8);

		/* Kernel entries are all return addresses; a user stack's first is where it was. */
		f2t_symbolize(s->sym, pid, ip, kernel, kernel || i > 0, &out[n++]);
	}
	return n;
}

/*
 * The user frames of episode R into OUT after N: those unwound from its
 * registers and stack copy, then the frame-pointer walk's from the first
 * return address it shares with them (the frame the unwinding stopped in,
 * at the copy's end or where CFI ran out); all of the walk's after the
 * unwound ones when they share none.  The walk's alone when there is
 * nothing to unwind.  Returns the new count.
 */
static uint32_t add_user_stack(struct f2t_offcpu_feed *s, const struct f2t_offcpu_rec *r,
			       struct f2t_frame *out, uint32_t n)
{
	unsigned char regs[24];
	const unsigned char *fp = NULL;
	uint32_t nfp = find_stack(s, r->ustack, false, &fp), from = 0, joined;
	size_t k = 0;

	if (s->unw && r->uip && r->ucopy) {
		/* perf's x86_64 order: bp, sp, ip. */
		struct f2t_unwind_sample smp = {
			.pid = (int32_t)r->tgid, .tid = (int32_t)r->tid,
			.abi = PERF_SAMPLE_REGS_ABI_64, .regs_mask = F2T_UNWIND_X86_64_IP_SP_BP,
			.episode = true, .regs = regs, .nregs = 3,
			.stack = s->ustack, .stack_len = r->ucopy,
		};

		memcpy(regs, &r->ufp, 8);
		memcpy(regs + 8, &r->usp, 8);
		memcpy(regs + 16, &r->uip, 8);
		k = f2t_unwind(s->unw, &smp, s->ips, s->calls, F2T_UNWIND_MAX_FRAMES);
	}
	if (k < 2)
		return add_stack(s, r->ustack, (int32_t)r->tgid, false, out, n);
	/* The walk's first frame is the leaf the unwinding starts from. */
	from = nfp ? 1 : 0;
	joined = 0;
	for (size_t i = k; i-- > 1 && !joined;)
		for (uint32_t j = 1; j < nfp; j++)
			if (f2t_perf_u64(fp + (size_t)j * 8) == s->ips[i]) {
				k = i + 1;
				from = j + 1;
				joined = 1;
				break;
			}
	for (size_t i = 0; i < k; i++)
		f2t_symbolize(s->sym, (int32_t)r->tgid, s->ips[i], false, s->calls[i], &out[n++]);
	for (uint32_t j = from; j < nfp; j++)
		f2t_symbolize(s->sym, (int32_t)r->tgid, f2t_perf_u64(fp + (size_t)j * 8), false, true,
			      &out[n++]);
	return n;
}

/*
 * The kernel frames of the tracing itself (the BPF program, the tracepoint's
 * iterator) come first in a stack taken at sched_switch or sched_waking:
 * everything up to the __traceiter_ frame is dropped, so a stack starts at
 * the scheduler.
 */
static uint32_t skip_tracing(const struct f2t_frame *f, uint32_t n)
{
	for (uint32_t i = 0; i < n && f[i].kernel; i++)
		if (f[i].func && !strncmp(f[i].func, "__traceiter_", 12))
			return i + 1;
	return 0;
}

/* The blocked thread's stacks (WAKER false) or its waker's, into OUT from *START. */
static uint32_t stack_of(struct f2t_offcpu_feed *s, const struct f2t_offcpu_rec *r, bool waker,
			 struct f2t_frame *out, const struct f2t_frame **start)
{
	int32_t pid = (int32_t)(waker ? r->waker_tgid : r->tgid);
	uint32_t n = add_stack(s, waker ? r->waker_kstack : r->kstack, pid, true, out, 0);
	uint32_t skip = skip_tracing(out, n);

	if (waker)
		n = add_stack(s, r->waker_ustack, pid, false, out, n);
	else
		n = add_user_stack(s, r, out, n);
	*start = out + skip;
	return n - skip;
}

/* ---- the reorder heap ---- */

static void heap_up(struct held *h, size_t i)
{
	while (i && h[i].end_ns < h[(i - 1) / 2].end_ns) {
		struct held t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_down(struct held *h, size_t n)
{
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, m = i;
		struct held t;

		if (l < n && h[l].end_ns < h[m].end_ns)
			m = l;
		if (l + 1 < n && h[l + 1].end_ns < h[m].end_ns)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * The bytes of the record at P, LEFT bytes from the end of its OFFCPU_DATA
 * record; 0 when it does not fit (a damaged capture).
 */
static size_t record_bytes(const struct f2t_offcpu_feed *s, const unsigned char *p, uint64_t left)
{
	uint32_t ucopy;

	if (left < s->rec_size)
		return 0;
	if (s->rec_size < sizeof(struct f2t_offcpu_rec))
		return s->rec_size;	/* a capture from before the stack copy */
	memcpy(&ucopy, p + offsetof(struct f2t_offcpu_rec, ucopy), 4);
	if (ucopy > F2T_OFFCPU_USTACK_MAX || ucopy % 8 || left < F2T_OFFCPU_REC_BYTES(ucopy))
		return 0;
	return F2T_OFFCPU_REC_BYTES(ucopy);
}

/* Reads the next record into the heap: 1, 0 when none is left, negative errno. */
static int read_one(struct f2t_offcpu_feed *s)
{
	const struct f2t_capr *cap = s->cap;

	while (s->ri < cap->nrecs) {
		const struct f2t_cap_rec *r = &cap->recs[s->ri];
		const unsigned char *p = (const unsigned char *)r->data + s->pos;
		size_t len;
		uint64_t start, end;
		uint32_t cpu;

		if (r->type != F2T_CAP_OFFCPU_DATA || s->pos >= r->len) {
			s->ri++;
			s->pos = 0;
			continue;
		}
		len = record_bytes(s, p, r->len - s->pos);
		if (!len) {
			f2t_err("%s: offset %llu: off-CPU data of %llu bytes is not whole records",
				cap->path, (unsigned long long)r->offset, (unsigned long long)r->len);
			return -EINVAL;
		}
		if (f2t_vec_reserve(&s->heap, &s->capheap, s->nheap + 1, 1024))
			return -ENOMEM;
		memcpy(&start, p + offsetof(struct f2t_offcpu_rec, start_ns), 8);
		memcpy(&end, p + offsetof(struct f2t_offcpu_rec, end_ns), 8);
		memcpy(&cpu, p + offsetof(struct f2t_offcpu_rec, cpu), 4);
		if (cpu >= F2T_MAX_CPUS) {
			f2t_err("%s: offset %llu: an off-CPU episode ended on CPU %u, beyond the %d CPUs this tool handles (a damaged capture)",
				cap->path, (unsigned long long)(r->offset + s->pos), cpu, F2T_MAX_CPUS);
			return -EINVAL;
		}
		s->pos += len;
		/* Begun before a flight recorder's window: its switch out is the overwritten past. */
		if (start < s->from_ns)
			continue;
		s->heap[s->nheap] = (struct held){ end, p };
		if (end > s->newest)
			s->newest = end;
		heap_up(s->heap, s->nheap++);
		return 1;
	}
	return 0;
}

static char state_letter(uint32_t state)
{
	for (int i = 0; i < 8; i++)
		if (state == 1u << i)
			return state_letters[i];
	return '?';
}

int f2t_offcpu_feed_peek(struct f2t_offcpu_feed *s, uint64_t *ts)
{
	int ret;

	/* Enough read that nothing earlier can still come. */
	while (!s->nheap || s->newest - s->heap[0].end_ns < REORDER_NS) {
		ret = read_one(s);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
	}
	if (!s->nheap)
		return 0;
	*ts = s->heap[0].end_ns;
	return 1;
}

void f2t_offcpu_feed_take(struct f2t_offcpu_feed *s, struct f2t_event *ev)
{
	struct f2t_offcpu_rec r = { 0 };
	const unsigned char *p = s->heap[0].rec;

	/* A capture from before the stack copy has the fields up to cpu. */
	memcpy(&r, p, s->rec_size);
	s->ustack = p + s->rec_size;
	s->heap[0] = s->heap[--s->nheap];
	heap_down(s->heap, s->nheap);
	ev->kind = F2T_EV_OFFCPU;
	ev->ts = r.end_ns;
	ev->cpu = r.cpu;
	ev->pid = (int32_t)r.tid;
	ev->offcpu.tgid = (int32_t)r.tgid;
	ev->offcpu.start = r.start_ns <= r.end_ns ? r.start_ns : r.end_ns;
	ev->offcpu.state = state_letter(r.state);
	ev->offcpu.waker_tid = (int32_t)r.waker_tid;
	ev->offcpu.waker_tgid = (int32_t)r.waker_tgid;
	ev->offcpu.nframes = stack_of(s, &r, false, s->frames, &ev->offcpu.frames);
	ev->offcpu.waker_nframes = stack_of(s, &r, true, s->wframes, &ev->offcpu.waker_frames);
}

void f2t_offcpu_feed_counts(const struct f2t_offcpu_feed *s, struct f2t_stats *st)
{
	f2t_stats_add(st, &s->st);
}

void f2t_offcpu_feed_free(struct f2t_offcpu_feed *s)
{
	if (!s)
		return;
	free(s->map[0].at);
	free(s->map[1].at);
	free(s->heap);
	free(s);
}

/* The layout and the kernel side's counts, from the OFFCPU_INFO records. */
/* A kernel counter from the OFFCPU_INFO text at stop (0 if absent). */
static uint64_t counter(const struct f2t_cap_rec *end, enum f2t_offcpu_counter c)
{
	return f2t_capr_kv_u64(end, f2t_offcpu_counter_name(c));
}

static int read_info(struct f2t_offcpu_feed *s, const struct f2t_cap_rec *info)
{
	const struct f2t_cap_rec *end = f2t_capr_find(s->cap, F2T_CAP_OFFCPU_INFO, 1);
	uint64_t size = f2t_capr_kv_u64(info, "record_size");

	if (size != sizeof(struct f2t_offcpu_rec) && size != F2T_OFFCPU_REC_V1_BYTES) {
		f2t_err("%s: offset %llu: off-CPU records of %llu bytes are not ones this build "
			"decodes", s->cap->path, (unsigned long long)info->offset,
			(unsigned long long)size);
		return -EINVAL;
	}
	s->rec_size = (size_t)size;
	s->st.offcpu_dropped = counter(end, F2T_OFFCPU_DROPPED_RING) +
			       counter(end, F2T_OFFCPU_DROPPED_MAP);
	s->st.offcpu_stacks_lost = counter(end, F2T_OFFCPU_STACK_COLLISIONS);
	s->st.offcpu_stacks_rechecked = counter(end, F2T_OFFCPU_STACKS_RECHECKED);
	s->st.offcpu_stacks_stale = counter(end, F2T_OFFCPU_STACKS_STALE);
	return 0;
}

char *f2t_offcpu_unwind_arch(const struct f2t_capr *cap)
{
	const struct f2t_cap_rec *info = f2t_capr_find(cap, F2T_CAP_OFFCPU_INFO, 0);

	if (!info || f2t_capr_kv_u64(info, "record_size") != sizeof(struct f2t_offcpu_rec))
		return NULL;
	return f2t_capr_kv(info, "arch");
}

struct f2t_offcpu_feed *f2t_offcpu_feed_open(const struct f2t_capr *cap,
					     struct f2t_symbolizer *sym, struct f2t_unwinder *unw)
{
	const struct f2t_cap_rec *info = f2t_capr_find(cap, F2T_CAP_OFFCPU_INFO, 0);
	struct f2t_offcpu_feed *s;
	int ret;

	if (!info) {
		errno = ENOENT;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ret = -ENOMEM;
		goto out;
	}
	s->cap = cap;
	s->sym = sym;
	s->unw = unw;
	s->from_ns = f2t_capr_kv_u64(f2t_capr_find(cap, F2T_CAP_META, -1), "flight_from_ns");
	ret = read_info(s, info);
	for (int i = 0; !ret && i < 2; i++)
		ret = index_stacks(s, &s->map[i], f2t_capr_find(cap, F2T_CAP_OFFCPU_STACKS, i));
out:
	if (ret) {
		if (ret == -ENOMEM)
			f2t_err("%s: out of memory", cap->path);
		f2t_offcpu_feed_free(s);
		errno = -ret;
		return NULL;
	}
	return s;
}
