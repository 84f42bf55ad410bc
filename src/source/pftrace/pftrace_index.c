// SPDX-License-Identifier: MIT
/*
 * The walk of a Perfetto trace (pftrace-local.h): every TracePacket, by the
 * field numbers of Perfetto's protos (perfetto/pf_fields.h, the writer's
 * table; the few it does not write are named here), into records of its
 * events, the tables their interned data resolves to, and what the
 * recording was (SystemInfo, ClockSnapshot, ProcessTree, ProcessStats,
 * TrackDescriptors).  Read: ftrace bundles (whole events and compact
 * sched), perf samples with their interned callstacks, track events;
 * anything else is skipped unread.  Damage in what is read stops the walk
 * with the offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/pf_fields.h"
#include "source/pftrace/pftrace-local.h"
#include "util/log.h"
#include "util/pbdec.h"
#include "util/sort.h"
#include "util/vec.h"

/* Fields pf_fields.h does not name (the writer writes none of them); from the same protos. */
enum {
	PFT_PKT_PROCESS_STATS = 9,
	PFT_PKT_INCREMENTAL_STATE_CLEARED = 41,
	PFT_BUNDLE_FTRACE_CLOCK = 5,
	PFT_DEFAULTS_TRACK_EVENT = 11,		/* TracePacketDefaults.track_event_defaults */
	PFT_TED_TRACK_UUID = 11,		/* TrackEventDefaults.track_uuid */
	PFT_TB_PERIOD = 1,			/* PerfEvents.Timebase.period */
	PFT_PS_SKIPPED_REASON = 18,		/* PerfSample.sample_skipped_reason */
	PFT_PSTATS_PROCESSES = 1,		/* ProcessStats */
	PFT_PSTATS_PID = 1,
	PFT_PSTATS_THREADS = 11,
	PFT_PSTATS_TID = 1,
	PFT_INTERNED_EVENT_NAMES = 2,		/* InternedData.event_names: EventName */
	PFT_ENAME_IID = 1,
	PFT_ENAME_NAME = 2,
	PFT_TD_STATIC_NAME = 10,
	PFT_TD_ATRACE_NAME = 13,
	PFT_TE_NAME_IID = 10,
	PFT_PD_CMDLINE = 2,
	PFT_CLOCK_IS_INCREMENTAL = 3,		/* ClockSnapshot.Clock */
	PFT_CLOCK_UNIT_MULTIPLIER_NS = 4,
};

/* The instant of the run's counts our writer ends a file with, and its category. */
#define STATS_NAME "ftrace2trace_stats"
#define STATS_CATEGORY "ftrace2trace"
/* The category of the off-CPU slices our writer draws from a capture's episodes. */
#define OFFCPU_CATEGORY "off-cpu"
enum { OURS_STATS = 1, OURS_OFFCPU = 2 };

static bool is(const struct pbd_field *f, const char *s)
{
	return f->len == strlen(s) && !memcmp(f->data, s, f->len);
}

/* A sequence's interned data, as ids of the whole file, and its defaults. */
enum { I_NAME, I_CATEGORY, I_FUNC, I_BUILD_ID, I_PATH, I_MAP, I_FRAME, I_STACK, I_KINDS };

struct pft_seq {
	struct f2t_idmap in[I_KINDS];	/* iid -> uint32_t id */
	uint32_t clock;			/* default timestamp clock, 0: none said */
	/*
	 * The clock this sequence defined for itself (a ClockSnapshot on it
	 * naming an id of 64 or more): reads SEQ_AT when the builtin clock
	 * BUILTIN reads BUILTIN_AT.  0: none.
	 */
	uint32_t seq_clock, builtin;
	uint64_t seq_at, builtin_at;
	bool has_track;
	uint64_t track;			/* default track uuid */
	uint32_t sample_event;		/* in strs */
	uint64_t sample_period;
};

struct walk {
	struct pft_index *ix;
	uint32_t order;
	uint32_t sample_event_default;	/* "perf_sample" */
	/* A compact bundle's columns, reused. */
	uint64_t *col[PF_CS_WAKING_COMM_INDEX + 1];
	size_t ncol[PF_CS_WAKING_COMM_INDEX + 1], colcap[PF_CS_WAKING_COMM_INDEX + 1];
	uint32_t *comms;
	size_t ncomms, commcap;
};

static int damaged(const struct pft_index *ix, const void *at, const char *what)
{
	size_t off = at ? (size_t)((const uint8_t *)at - ix->data) : 0;

	f2t_err("%s: offset %zu: a damaged Perfetto trace (%s)", ix->path, off, what);
	return -EINVAL;
}

static int64_t str_id(struct pft_index *ix, const void *s, size_t len)
{
	int64_t id = f2t_intern(&ix->strs, s, len, NULL);

	return id > UINT32_MAX ? -ENOMEM : id;
}

static struct pft_rec *new_rec(struct walk *w, enum pft_kind kind, uint8_t clock, uint64_t ts)
{
	struct pft_index *ix = w->ix;
	struct pft_rec *r;

	if (f2t_vec_reserve(&ix->recs, &ix->reccap, ix->nrecs + 1, 4096))
		return NULL;
	r = &ix->recs[ix->nrecs++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->clock = clock;
	r->ts = ts;
	r->order = w->order++;
	return r;
}

static void note_cpu(struct pft_index *ix, uint32_t cpu)
{
	if (!ix->any_cpu || cpu > ix->max_cpu)
		ix->max_cpu = cpu;
	ix->any_cpu = true;
}

/* ---- tasks ---- */

/* Seeds task @tid (name @name of @len bytes, NULL: none; tgid 0: unknown), first word wins. */
static int seed_task(struct pft_index *ix, int32_t tid, int32_t tgid, const void *name, size_t len)
{
	struct f2t_task *t;
	char comm[F2T_COMM_LEN];
	bool fresh = !f2t_tasks_find(ix->tasks, tid);

	if (tid <= 0)
		return 0;
	t = f2t_tasks_get(ix->tasks, tid);
	if (!t)
		return -ENOMEM;
	if (len > F2T_COMM_LEN - 1)
		len = F2T_COMM_LEN - 1;
	if (name)
		memcpy(comm, name, len);
	comm[name ? len : 0] = '\0';
	/* A name only where none was given yet: the first packet that names a thread names it. */
	if (fresh || !strcmp(t->comm, "<...>"))
		f2t_task_set(t, name && len ? comm : NULL, tgid);
	else if (tgid > 0 && t->tgid == t->tid && tgid != tid)
		f2t_task_set(t, NULL, tgid);
	return 0;
}

/* The name a process's cmdline gives its main thread: argv[0]'s last component. */
static void cmdline_comm(const struct pbd_field *f, const uint8_t **name, size_t *len)
{
	const uint8_t *s = f->data, *end = f->data + f->len, *nul = memchr(s, 0, f->len);

	if (nul)
		end = nul;
	for (const uint8_t *p = s; p < end; p++)
		if (*p == '/' && p + 1 < end)
			s = p + 1;
	*name = s;
	*len = (size_t)(end - s);
}

static int process_tree(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e;
	struct pbd_field f, g;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		int32_t id = 0, tgid = 0;
		const uint8_t *name = NULL;
		size_t len = 0;
		bool is_thread = f.num == PF_PTREE_THREADS;

		if (!pbd_is_len(&f) || (f.num != PF_PTREE_PROCESSES && !is_thread))
			continue;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			if (g.num == 1 && g.wire == PBD_VARINT)	/* pid, tid */
				id = (int32_t)g.v;
			else if (is_thread && g.num == PF_THREAD_TGID && g.wire == PBD_VARINT)
				tgid = (int32_t)g.v;
			else if (is_thread && g.num == PF_THREAD_NAME && pbd_is_len(&g))
				name = g.data, len = g.len;
			else if (!is_thread && g.num == PF_PROC_CMDLINE && pbd_is_len(&g) && !name)
				cmdline_comm(&g, &name, &len);
		}
		if (ret)
			return damaged(ix, e.p, "ProcessTree");
		ret = seed_task(ix, id, is_thread ? tgid : id, name, len);
		if (ret)
			return ret;
	}
	return ret ? damaged(ix, d.p, "ProcessTree") : 0;
}

/* ProcessStats: which process each thread is in (its memory figures are not read). */
static int process_stats(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e, t;
	struct pbd_field f, g, h;
	int ret;

	ix->process_stats++;
	while ((ret = pbd_next(&d, &f)) > 0) {
		int32_t pid = 0;

		if (f.num != PFT_PSTATS_PROCESSES || !pbd_is_len(&f))
			continue;
		/* The pid first: a message's fields may come in any order. */
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0)
			if (g.num == PFT_PSTATS_PID && g.wire == PBD_VARINT)
				pid = (int32_t)g.v;
		if (ret)
			return damaged(ix, e.p, "ProcessStats");
		e = pbd_sub(&f);
		while (pid > 0 && (ret = pbd_next(&e, &g)) > 0) {
			if (g.num != PFT_PSTATS_THREADS || !pbd_is_len(&g))
				continue;
			t = pbd_sub(&g);
			while ((ret = pbd_next(&t, &h)) > 0)
				if (h.num == PFT_PSTATS_TID && h.wire == PBD_VARINT &&
				    seed_task(ix, (int32_t)h.v, pid, NULL, 0))
					return -ENOMEM;
			if (ret)
				return damaged(ix, t.p, "ProcessStats");
		}
		if (ret)
			return damaged(ix, e.p, "ProcessStats");
	}
	return ret ? damaged(ix, d.p, "ProcessStats") : 0;
}

/* ---- what the recording was ---- */

static int system_info(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e;
	struct pbd_field f, g;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_SYSINFO_NUM_CPUS && f.wire == PBD_VARINT && f.v <= F2T_MAX_CPUS)
			ix->info.ncpus = (uint32_t)f.v;
		if (f.num != PF_SYSINFO_UTSNAME || !pbd_is_len(&f))
			continue;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			char **to = g.num == PF_UTS_RELEASE ? &ix->kernel :
				    g.num == PF_UTS_MACHINE ? &ix->machine : NULL;

			if (!to || !pbd_is_len(&g))
				continue;
			free(*to);
			*to = strndup((const char *)g.data, g.len);
			if (!*to)
				return -ENOMEM;
		}
		if (ret)
			return damaged(ix, e.p, "SystemInfo");
	}
	return ret ? damaged(ix, d.p, "SystemInfo") : 0;
}

/*
 * A ClockSnapshot on sequence S.  The first one gives every builtin clock's
 * value at one instant.  One on S may define a clock of S's own instead (an
 * id of 64 or more, as Perfetto's SDK and our writer do to make timestamps
 * short): kept with the first builtin clock of the same snapshot, which
 * relates it to the others.  Incremental clocks and other units are not
 * read: their packets stay counted as skipped.
 */
static int clock_snapshot(struct walk *w, struct pft_seq *s, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e;
	struct pbd_field f, g;
	uint64_t clock_at[PFT_CLOCK_MAX], own_at = 0, builtin_at = 0;
	bool clock_known[PFT_CLOCK_MAX] = { false };
	uint32_t own = 0, builtin = 0;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		uint64_t id = UINT64_MAX, ts = 0;
		bool plain = true;

		if (f.num != PF_CLOCKS || !pbd_is_len(&f))
			continue;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			if (g.num == PF_CLOCK_ID && g.wire == PBD_VARINT)
				id = g.v;
			else if (g.num == PF_CLOCK_TIMESTAMP && g.wire == PBD_VARINT)
				ts = g.v;
			else if ((g.num == PFT_CLOCK_IS_INCREMENTAL && g.v) ||
				 (g.num == PFT_CLOCK_UNIT_MULTIPLIER_NS && g.v != 1))
				plain = false;
		}
		if (ret)
			return damaged(ix, e.p, "ClockSnapshot");
		if (id > 0 && id < PFT_CLOCK_MAX) {
			clock_at[id] = ts;
			clock_known[id] = true;
			if (!builtin)
				builtin = (uint32_t)id, builtin_at = ts;
		} else if (id >= PFT_CLOCK_MAX && id <= UINT32_MAX && plain && !own) {
			own = (uint32_t)id, own_at = ts;
		}
	}
	if (ret)
		return damaged(ix, d.p, "ClockSnapshot");
	if (own && builtin) {
		s->seq_clock = own;
		s->seq_at = own_at;
		s->builtin = builtin;
		s->builtin_at = builtin_at;
	} else if (!ix->have_snapshot) {
		memcpy(ix->clock_at, clock_at, sizeof(clock_at));
		memcpy(ix->clock_known, clock_known, sizeof(clock_known));
		ix->have_snapshot = true;
	}
	return 0;
}

/*
 * The identity our writer puts in a ChromeEventBundle's metadata
 * (perfetto/pf_identity.c), read back so that a .pftrace says what its
 * capture said; "unknown" is what it writes for a string not known.
 */
static int chrome_metadata(struct walk *w, const struct pbd_field *pf)
{
	static const struct { const char *key; size_t at; } strs[] = {
		{ "host", offsetof(struct pft_index, host) },
		{ "kernel_version", offsetof(struct pft_index, kernel_version) },
		{ "boot_id", offsetof(struct pft_index, boot_id) },
		{ "cpu_model", offsetof(struct pft_index, cpu_model) },
		{ "cmdline", offsetof(struct pft_index, cmdline) },
		{ "recorder", offsetof(struct pft_index, recorder) },
		{ "clock", offsetof(struct pft_index, clock) },
	};
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e;
	struct pbd_field f, g, name, str;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		bool has_int = false;
		uint64_t v = 0;

		if (f.num != PF_CHROME_METADATA || !pbd_is_len(&f))
			continue;
		name.len = str.len = 0;
		name.data = str.data = NULL;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			if (g.num == PF_CMETA_NAME && pbd_is_len(&g))
				name = g;
			else if (g.num == PF_CMETA_STRING && pbd_is_len(&g))
				str = g;
			else if (g.num == PF_CMETA_INT && g.wire == PBD_VARINT)
				has_int = true, v = g.v;
		}
		if (ret)
			return damaged(ix, e.p, "ChromeMetadata");
		if (has_int && is(&name, "start_ns"))
			ix->start_ns = (int64_t)v, ix->has_start = true;
		else if (has_int && is(&name, "start_realtime_ns"))
			ix->realtime_ns = (int64_t)v, ix->has_realtime = true;
		else if (has_int && is(&name, "tz_offset_min"))
			ix->tz_offset_min = (int64_t)v, ix->has_tz = true;
		if (!str.data || is(&str, "unknown"))
			continue;
		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
			char **to = (char **)((char *)ix + strs[i].at);

			if (!is(&name, strs[i].key))
				continue;
			free(*to);
			*to = strndup((const char *)str.data, str.len);
			if (!*to)
				return -ENOMEM;
		}
	}
	return ret ? damaged(ix, d.p, "ChromeEventBundle") : 0;
}

/* ---- sequences and their interned data ---- */

static void seq_clear(struct pft_seq *s)
{
	for (int i = 0; i < I_KINDS; i++)
		f2t_idmap_fini(&s->in[i]);
}

static int seq_reset(struct pft_seq *s)
{
	seq_clear(s);
	for (int i = 0; i < I_KINDS; i++)
		if (f2t_idmap_init(&s->in[i], sizeof(uint32_t)))
			return -ENOMEM;
	return 0;
}

static struct pft_seq *get_seq(struct walk *w, uint32_t id)
{
	bool fresh;
	struct pft_seq **sp = f2t_idmap_get(&w->ix->seqs, id, &fresh);

	if (!sp)
		return NULL;
	if (fresh) {
		*sp = calloc(1, sizeof(**sp));
		if (!*sp || seq_reset(*sp))
			return NULL;
		(*sp)->sample_event = w->sample_event_default;
	}
	return *sp;
}

/* The whole file's id of a sequence's @iid of @kind; -1 when not interned. */
static int64_t lookup(const struct pft_seq *s, int kind, uint64_t iid)
{
	const uint32_t *id = f2t_idmap_find(&s->in[kind], (int64_t)iid);

	return id ? (int64_t)*id : -1;
}

static int put(struct pft_seq *s, int kind, uint64_t iid, uint32_t id)
{
	uint32_t *e = f2t_idmap_get(&s->in[kind], (int64_t)iid, NULL);

	if (!e)
		return -ENOMEM;
	*e = id;
	return 0;
}

/* An InternedString or EventName: iid 1, the string 2. */
static int intern_string(struct walk *w, struct pft_seq *s, int kind, const struct pbd_field *f)
{
	struct pbd d = pbd_sub(f);
	struct pbd_field g;
	uint64_t iid = 0;
	const uint8_t *str = (const uint8_t *)"";
	size_t len = 0;
	int64_t id;
	int ret;

	while ((ret = pbd_next(&d, &g)) > 0) {
		if (g.num == PF_ISTR_IID && g.wire == PBD_VARINT)
			iid = g.v;
		else if (g.num == PF_ISTR_STR && pbd_is_len(&g))
			str = g.data, len = g.len;
	}
	if (ret)
		return damaged(w->ix, d.p, "an interned string");
	id = str_id(w->ix, str, len);
	return id < 0 ? (int)id : put(s, kind, iid, (uint32_t)id);
}

/* A string id of the sequence's @kind, or "" when it was never interned (counted). */
static uint32_t string_of(struct walk *w, const struct pft_seq *s, int kind, uint64_t iid)
{
	int64_t id = lookup(s, kind, iid);

	if (id >= 0)
		return (uint32_t)id;
	w->ix->st.bad_records++;
	return (uint32_t)f2t_intern_find(&w->ix->strs, "", 0);
}

static int intern_mapping(struct walk *w, struct pft_seq *s, const struct pbd_field *f)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(f), it;
	struct pbd_field g;
	struct pft_map *m;
	uint64_t iid = 0, v;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m || f2t_vec_reserve(&ix->maps, &ix->mapcap, ix->nmaps + 1, 64)) {
		free(m);
		return -ENOMEM;
	}
	ix->maps[ix->nmaps++] = m;
	m->path = m->build_id = (uint32_t)f2t_intern_find(&ix->strs, "", 0);
	while ((ret = pbd_next(&d, &g)) > 0) {
		switch (g.num) {
		case PF_MAP_IID: iid = g.v; break;
		case PF_MAP_BUILD_ID: m->build_id = string_of(w, s, I_BUILD_ID, g.v); break;
		case PF_MAP_START: m->start = g.v; break;
		case PF_MAP_END: m->end = g.v; break;
		case PF_MAP_PATH_STRING_IDS:
			/* The path's components; the last one names it well enough. */
			it = pbd_sub(&g);
			for (bool first = true; (ret = pbd_repeated(&g, &it, first, &v)) > 0; first = false)
				m->path = string_of(w, s, I_PATH, v);
			if (ret)
				return damaged(ix, g.data, "a Mapping's path");
			break;
		default:
			break;
		}
	}
	if (ret)
		return damaged(ix, d.p, "a Mapping");
	return put(s, I_MAP, iid, (uint32_t)ix->nmaps);
}

static int intern_frame(struct walk *w, struct pft_seq *s, const struct pbd_field *f)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(f);
	struct pbd_field g;
	struct pft_frame fr = { .func = UINT32_MAX };
	uint64_t iid = 0;
	int64_t map;
	int ret;

	while ((ret = pbd_next(&d, &g)) > 0) {
		if (g.wire != PBD_VARINT)
			continue;
		if (g.num == PF_FRAME_IID)
			iid = g.v;
		else if (g.num == PF_FRAME_FUNCTION_NAME_ID)
			fr.func = string_of(w, s, I_FUNC, g.v);
		else if (g.num == PF_FRAME_MAPPING_ID) {
			map = lookup(s, I_MAP, g.v);
			if (map < 0)
				ix->st.bad_records++;
			fr.map = map < 0 ? 0 : (uint32_t)map;
		} else if (g.num == PF_FRAME_REL_PC)
			fr.rel_pc = g.v;
	}
	if (ret)
		return damaged(ix, d.p, "a Frame");
	if (f2t_vec_reserve(&ix->frames, &ix->framecap, ix->nframes + 1, 1024))
		return -ENOMEM;
	ix->frames[ix->nframes++] = fr;
	return put(s, I_FRAME, iid, (uint32_t)ix->nframes);
}

static int intern_callstack(struct walk *w, struct pft_seq *s, const struct pbd_field *f)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(f), it;
	struct pbd_field g;
	uint64_t iid = 0, v;
	size_t first = ix->nstack_frames;
	int ret;

	if (f2t_vec_reserve(&ix->stacks, &ix->stackcap, ix->nstacks + 1, 256))
		return -ENOMEM;
	while ((ret = pbd_next(&d, &g)) > 0) {
		if (g.num == PF_CALLSTACK_IID && g.wire == PBD_VARINT) {
			iid = g.v;
			continue;
		}
		if (g.num != PF_CALLSTACK_FRAME_IDS)
			continue;
		it = pbd_sub(&g);
		for (bool one = true; (ret = pbd_repeated(&g, &it, one, &v)) > 0; one = false) {
			int64_t fr = lookup(s, I_FRAME, v);

			if (fr < 0) {
				ix->st.bad_records++;
				continue;
			}
			if (f2t_vec_reserve(&ix->stack_frames, &ix->stack_framecap,
					    ix->nstack_frames + 1, 1024))
				return -ENOMEM;
			ix->stack_frames[ix->nstack_frames++] = (uint32_t)fr;
		}
		if (ret)
			return damaged(ix, g.data, "a Callstack's frames");
	}
	if (ret)
		return damaged(ix, d.p, "a Callstack");
	/* Perfetto lists a callstack's frames outermost first; ours go innermost first. */
	for (size_t a = first, b = ix->nstack_frames; a + 1 < b; a++, b--) {
		uint32_t t = ix->stack_frames[a];

		ix->stack_frames[a] = ix->stack_frames[b - 1];
		ix->stack_frames[b - 1] = t;
	}
	ix->stacks[ix->nstacks].first = (uint32_t)first;
	ix->stacks[ix->nstacks].n = (uint32_t)(ix->nstack_frames - first);
	ix->nstacks++;
	return put(s, I_STACK, iid, (uint32_t)(ix->nstacks - 1));
}

/*
 * InternedData: in four rounds, strings before the mappings that name
 * them, mappings before frames, frames before callstacks, whatever order
 * the fields come in.
 */
static int interned(struct walk *w, struct pft_seq *s, const struct pbd_field *pf)
{
	for (int round = 0; round < 4; round++) {
		struct pbd d = pbd_sub(pf);
		struct pbd_field f;
		int ret;

		while ((ret = pbd_next(&d, &f)) > 0) {
			if (!pbd_is_len(&f))
				continue;
			ret = 0;
			switch (round * 100 + (int)(f.num < 100 ? f.num : 99)) {
			case PFT_INTERNED_EVENT_NAMES: ret = intern_string(w, s, I_NAME, &f); break;
			case PF_INTERNED_EVENT_CATEGORIES: ret = intern_string(w, s, I_CATEGORY, &f); break;
			case PF_INTERNED_FUNCTION_NAMES: ret = intern_string(w, s, I_FUNC, &f); break;
			case PF_INTERNED_BUILD_IDS: ret = intern_string(w, s, I_BUILD_ID, &f); break;
			case PF_INTERNED_MAPPING_PATHS: ret = intern_string(w, s, I_PATH, &f); break;
			case 100 + PF_INTERNED_MAPPINGS: ret = intern_mapping(w, s, &f); break;
			case 200 + PF_INTERNED_FRAMES: ret = intern_frame(w, s, &f); break;
			case 300 + PF_INTERNED_CALLSTACKS: ret = intern_callstack(w, s, &f); break;
			default: break;
			}
			if (ret)
				return ret;
		}
		if (ret)
			return damaged(w->ix, d.p, "InternedData");
	}
	return 0;
}

static int defaults(struct walk *w, struct pft_seq *s, const struct pbd_field *pf)
{
	struct pbd d = pbd_sub(pf), e, t;
	struct pbd_field f, g, h;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_DEFAULTS_TIMESTAMP_CLOCK_ID && f.wire == PBD_VARINT)
			s->clock = f.v > UINT32_MAX ? UINT32_MAX : (uint32_t)f.v;
		if (!pbd_is_len(&f) ||
		    (f.num != PFT_DEFAULTS_TRACK_EVENT && f.num != PF_DEFAULTS_PERF_SAMPLE))
			continue;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			if (f.num == PFT_DEFAULTS_TRACK_EVENT) {
				if (g.num == PFT_TED_TRACK_UUID && g.wire == PBD_VARINT)
					s->has_track = true, s->track = g.v;
				continue;
			}
			if (g.num != PF_PSDEF_TIMEBASE || !pbd_is_len(&g))
				continue;
			t = pbd_sub(&g);
			while ((ret = pbd_next(&t, &h)) > 0) {
				int64_t id;

				if (h.num == PF_TB_NAME && pbd_is_len(&h)) {
					id = str_id(w->ix, h.data, h.len);
					if (id < 0)
						return (int)id;
					s->sample_event = (uint32_t)id;
				} else if (h.num == PFT_TB_PERIOD && h.wire == PBD_VARINT) {
					s->sample_period = h.v;
				}
			}
			if (ret)
				return damaged(w->ix, t.p, "PerfEvents.Timebase");
		}
		if (ret)
			return damaged(w->ix, e.p, "TracePacketDefaults");
	}
	return ret ? damaged(w->ix, d.p, "TracePacketDefaults") : 0;
}

/* ---- events ---- */

/* An FtraceEvent: its timestamp now, the rest when it is handed out. */
static int ftrace_event(struct walk *w, uint32_t cpu, const struct pbd_field *f)
{
	struct pbd d = pbd_sub(f);
	struct pbd_field g;
	struct pft_rec *r;
	uint64_t ts = 0;
	int ret;

	while ((ret = pbd_next(&d, &g)) > 0)
		if (g.num == PF_FEV_TIMESTAMP && g.wire == PBD_VARINT)
			ts = g.v;
	if (ret)
		return damaged(w->ix, d.p, "an FtraceEvent");
	if (f->len > UINT32_MAX)
		return damaged(w->ix, f->data, "an FtraceEvent of over 4 GB");
	r = new_rec(w, PFT_FTRACE, PFT_CLOCK_FTRACE, ts);
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->ev.off = (uint64_t)(f->data - w->ix->data);
	r->ev.len = (uint32_t)f->len;
	return 0;
}

/* One column of a compact bundle, its packed values in w->col[@num]. */
static int column(struct walk *w, const struct pbd_field *f)
{
	struct pbd it = pbd_sub(f);
	uint64_t v;
	int ret;

	for (bool first = true; (ret = pbd_repeated(f, &it, first, &v)) > 0; first = false) {
		if (f2t_vec_reserve(&w->col[f->num], &w->colcap[f->num], w->ncol[f->num] + 1, 256))
			return -ENOMEM;
		w->col[f->num][w->ncol[f->num]++] = v;
	}
	return ret ? damaged(w->ix, f->data, "a compact sched column") : 0;
}

/* The records of the compact events of one kind, from its five columns starting at @ts_col. */
static int compact_events(struct walk *w, uint32_t cpu, uint32_t ts_col, const uint32_t *cols,
			  const void *at)
{
	size_t n = w->ncol[ts_col];
	uint64_t ts = 0;

	for (int i = 0; i < 4; i++)
		if (w->ncol[cols[i]] != n)
			return damaged(w->ix, at, "compact sched columns of different lengths");
	for (size_t i = 0; i < n; i++) {
		uint64_t comm = w->col[cols[3]][i];
		struct pft_rec *r;

		if (comm >= w->ncomms)
			return damaged(w->ix, at, "a compact sched comm index past its table");
		ts += w->col[ts_col][i];	/* deltas, the first from 0 */
		r = new_rec(w, ts_col == PF_CS_SWITCH_TIMESTAMP ? PFT_CSWITCH : PFT_CWAKING,
			    PFT_CLOCK_FTRACE, ts);
		if (!r)
			return -ENOMEM;
		r->cpu = cpu;
		r->cs.comm = w->comms[comm];
		if (ts_col == PF_CS_SWITCH_TIMESTAMP) {
			r->cs.state = (int64_t)w->col[cols[0]][i];
			r->cs.pid = (int32_t)w->col[cols[1]][i];
			r->cs.prio = (int32_t)w->col[cols[2]][i];
		} else {
			r->cs.pid = (int32_t)w->col[cols[0]][i];
			r->cs.target_cpu = (int32_t)w->col[cols[1]][i];
			r->cs.prio = (int32_t)w->col[cols[2]][i];
		}
	}
	return 0;
}

static int compact_sched(struct walk *w, uint32_t cpu, const struct pbd_field *pf)
{
	static const uint32_t sw[] = { PF_CS_SWITCH_PREV_STATE, PF_CS_SWITCH_NEXT_PID,
				       PF_CS_SWITCH_NEXT_PRIO, PF_CS_SWITCH_NEXT_COMM_INDEX };
	static const uint32_t wk[] = { PF_CS_WAKING_PID, PF_CS_WAKING_TARGET_CPU,
				       PF_CS_WAKING_PRIO, PF_CS_WAKING_COMM_INDEX };
	struct pbd d = pbd_sub(pf);
	struct pbd_field f;
	int ret;

	memset(w->ncol, 0, sizeof(w->ncol));
	w->ncomms = 0;
	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_CS_INTERN_TABLE && pbd_is_len(&f)) {
			int64_t id = str_id(w->ix, f.data, strnlen((const char *)f.data, f.len));

			if (id < 0 || f2t_vec_reserve(&w->comms, &w->commcap, w->ncomms + 1, 64))
				return -ENOMEM;
			w->comms[w->ncomms++] = (uint32_t)id;
		} else if (f.num >= PF_CS_SWITCH_TIMESTAMP && f.num <= PF_CS_WAKING_COMM_INDEX &&
			   f.num != PF_CS_INTERN_TABLE) {
			ret = column(w, &f);
			if (ret)
				return ret;
		}
	}
	if (ret)
		return damaged(w->ix, d.p, "compact sched");
	return compact_events(w, cpu, PF_CS_SWITCH_TIMESTAMP, sw, pf->data) ?:
	       compact_events(w, cpu, PF_CS_WAKING_TIMESTAMP, wk, pf->data);
}

static int ftrace_bundle(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf);
	struct pbd_field f;
	uint32_t cpu = 0;
	bool lost = false;
	size_t first = ix->nrecs;
	int ret;

	/* The CPU and the clock first: the fields may come in any order. */
	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_BUNDLE_CPU && f.wire == PBD_VARINT) {
			if (f.v >= F2T_MAX_CPUS)
				return damaged(ix, f.data ? f.data : pf->data, "a bundle's CPU number too high");
			cpu = (uint32_t)f.v;
		} else if (f.num == PF_BUNDLE_LOST_EVENTS && f.wire == PBD_VARINT) {
			lost = f.v != 0;
		} else if (f.num == PFT_BUNDLE_FTRACE_CLOCK && f.wire == PBD_VARINT && f.v > 0) {
			ix->ftrace_clock_other = true;
		}
	}
	if (ret)
		return damaged(ix, d.p, "an FtraceEventBundle");
	note_cpu(ix, cpu);
	d = pbd_sub(pf);
	while (pbd_next(&d, &f) > 0) {
		if (f.num == PF_BUNDLE_EVENT && pbd_is_len(&f))
			ret = ftrace_event(w, cpu, &f);
		else if (f.num == PF_BUNDLE_COMPACT_SCHED && pbd_is_len(&f))
			ret = compact_sched(w, cpu, &f);
		if (ret)
			return ret;
	}
	if (lost) {
		/* Where it was lost: before the bundle's first event. */
		uint64_t ts = UINT64_MAX;
		struct pft_rec *r;

		for (size_t i = first; i < ix->nrecs; i++)
			if (ix->recs[i].ts < ts)
				ts = ix->recs[i].ts;
		r = new_rec(w, PFT_LOST, PFT_CLOCK_FTRACE, ts == UINT64_MAX ? 0 : ts);
		if (!r)
			return -ENOMEM;
		r->cpu = cpu;
	}
	return 0;
}

static int perf_sample(struct walk *w, struct pft_seq *s, const struct pbd_field *pf,
		       uint64_t ts, uint8_t clock)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf);
	struct pbd_field f;
	uint32_t cpu = 0;
	int32_t pid = 0, tid = 0;
	int64_t stack = -1;
	bool skipped = false, lost = false;
	struct pft_rec *r;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.wire != PBD_VARINT)
			continue;
		switch (f.num) {
		case PF_PS_CPU: cpu = f.v < F2T_MAX_CPUS ? (uint32_t)f.v : 0; break;
		case PF_PS_PID: pid = (int32_t)f.v; break;
		case PF_PS_TID: tid = (int32_t)f.v; break;
		case PF_PS_CALLSTACK_IID:
			stack = lookup(s, I_STACK, f.v);
			if (stack < 0)
				ix->st.bad_records++;
			break;
		case PF_PS_KERNEL_RECORDS_LOST: ix->st.samples_lost += f.v; lost = true; break;
		case PFT_PS_SKIPPED_REASON: skipped = true; break;
		default: break;
		}
	}
	if (ret)
		return damaged(ix, d.p, "a PerfSample");
	if (lost)
		return 0;
	if (skipped) {
		ix->st.samples_lost++;
		return 0;
	}
	r = new_rec(w, PFT_SAMPLE, clock, ts);
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->smp.pid = pid;
	r->smp.tid = tid;
	r->smp.stack = stack < 0 ? UINT32_MAX : (uint32_t)stack;
	r->smp.event = s->sample_event;
	r->smp.period = s->sample_period;
	return 0;
}

static int track_descriptor(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf), e;
	struct pbd_field f, g;
	struct pft_track t = { 0 }, *slot;
	uint64_t uuid = 0;
	const uint8_t *name = (const uint8_t *)"", *tname = NULL;
	size_t len = 0, tlen = 0;
	int64_t id;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_TD_UUID && f.wire == PBD_VARINT)
			uuid = f.v;
		else if ((f.num == PF_TD_NAME || f.num == PFT_TD_STATIC_NAME ||
			  f.num == PFT_TD_ATRACE_NAME) && pbd_is_len(&f))
			name = f.data, len = f.len;
		if ((f.num != PF_TD_PROCESS && f.num != PF_TD_THREAD) || !pbd_is_len(&f))
			continue;
		e = pbd_sub(&f);
		while ((ret = pbd_next(&e, &g)) > 0) {
			if (g.num == PF_PD_PID && g.wire == PBD_VARINT)	/* both: pid 1 */
				t.pid = (int32_t)g.v;
			else if (f.num == PF_TD_THREAD && g.num == PF_THD_TID && g.wire == PBD_VARINT)
				t.tid = (int32_t)g.v;
			else if (f.num == PF_TD_THREAD && g.num == PF_THD_THREAD_NAME && pbd_is_len(&g))
				tname = g.data, tlen = g.len;
			else if (f.num == PF_TD_PROCESS && g.num == PF_PD_PROCESS_NAME && pbd_is_len(&g))
				tname = g.data, tlen = g.len;
			else if (f.num == PF_TD_PROCESS && g.num == PFT_PD_CMDLINE && pbd_is_len(&g) &&
				 !tname)
				cmdline_comm(&g, &tname, &tlen);
		}
		if (ret)
			return damaged(ix, e.p, "a track's process or thread");
	}
	if (ret)
		return damaged(ix, d.p, "a TrackDescriptor");
	id = str_id(ix, name, len);
	if (id < 0)
		return (int)id;
	t.name = (uint32_t)id;
	if (t.tid > 0 || t.pid > 0) {
		ret = seed_task(ix, t.tid > 0 ? t.tid : t.pid, t.pid, tname, tlen);
		if (ret)
			return ret;
	}
	slot = f2t_idmap_get(&ix->tracks, (int64_t)uuid, NULL);
	if (!slot)
		return -ENOMEM;
	/* Described again: the slices open on it stay open. */
	t.depth = slot->depth;
	t.offcpu = slot->offcpu;
	*slot = t;
	return 0;
}

/* Is this slice end that of one of our off-CPU slices?  Its begin was OURS. */
static bool offcpu_nesting(struct pft_index *ix, uint64_t uuid, uint64_t type, unsigned int ours)
{
	struct pft_track *t = f2t_idmap_find(&ix->tracks, (int64_t)uuid);
	uint64_t bit;

	if (!t)
		return false;
	if (type == PF_TE_SLICE_BEGIN) {
		bit = t->depth < 64 ? 1ull << t->depth : 0;
		t->offcpu = (ours & OURS_OFFCPU) ? t->offcpu | bit : t->offcpu & ~bit;
		t->depth += t->depth < UINT32_MAX;
		return false;
	}
	if (type != PF_TE_SLICE_END || !t->depth)
		return false;
	t->depth--;
	return t->depth < 64 && (t->offcpu >> t->depth & 1);
}

/* OURS_* for an interned category of our writer's, 0 for any other. */
static unsigned int ours_category(struct walk *w, const struct pft_seq *s, uint64_t iid)
{
	int64_t id = (int64_t)string_of(w, s, I_CATEGORY, iid);

	if (id == f2t_intern_find(&w->ix->strs, STATS_CATEGORY, strlen(STATS_CATEGORY)))
		return OURS_STATS;
	if (id == f2t_intern_find(&w->ix->strs, OFFCPU_CATEGORY, strlen(OFFCPU_CATEGORY)))
		return OURS_OFFCPU;
	return 0;
}

static int track_event(struct walk *w, struct pft_seq *s, const struct pbd_field *pf,
		       uint64_t ts, uint8_t clock)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf);
	struct pbd_field f;
	uint64_t type = 0, track = s->track;
	bool has_track = s->has_track, counter = false;
	int64_t name = f2t_intern_find(&ix->strs, "", 0), value = 0;
	bool is_double = false;
	unsigned int ours = 0;
	struct pft_rec *r;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		if (f.num == PF_TE_TYPE && f.wire == PBD_VARINT)
			type = f.v;
		else if (f.num == PF_TE_TRACK_UUID && f.wire == PBD_VARINT)
			track = f.v, has_track = true;
		else if (f.num == PF_TE_NAME && pbd_is_len(&f))
			name = str_id(ix, f.data, f.len);
		else if (f.num == PF_TE_CATEGORIES && pbd_is_len(&f))
			ours |= is(&f, STATS_CATEGORY) ? OURS_STATS : is(&f, OFFCPU_CATEGORY) ? OURS_OFFCPU : 0;
		else if (f.num == PF_TE_CATEGORY_IIDS && f.wire == PBD_VARINT)
			ours |= ours_category(w, s, f.v);
		else if (f.num == PFT_TE_NAME_IID && f.wire == PBD_VARINT)
			name = string_of(w, s, I_NAME, f.v);
		else if (f.num == PF_TE_COUNTER_VALUE && f.wire == PBD_VARINT)
			value = (int64_t)f.v, counter = true;
		else if (f.num == PF_TE_DOUBLE_COUNTER_VALUE && f.wire == PBD_FIXED64) {
			double x;

			memcpy(&x, &f.v, sizeof(x));
			/* Milli-units in an int64: a counter marker takes a decimal. */
			value = x > 9.2e15 ? INT64_MAX : x < -9.2e15 ? INT64_MIN : (int64_t)(x * 1000);
			counter = is_double = true;
		}
		if (name < 0)
			return (int)name;
	}
	if (ret)
		return damaged(ix, d.p, "a TrackEvent");
	/*
	 * Our own writer's counts of the run that wrote the file (pf_track.h):
	 * no event of it.  Its off-CPU slices (model/offcpu_items.c) are drawn
	 * while their thread is off CPU: as markers they would say it ran.
	 */
	if ((ours & OURS_STATS) && type == PF_TE_INSTANT &&
	    f2t_intern_find(&ix->strs, STATS_NAME, strlen(STATS_NAME)) == name)
		return 0;
	if (has_track && offcpu_nesting(ix, track, type, ours))
		return 0;
	if (ours & OURS_OFFCPU) {
		ix->skipped_offcpu++;
		return 0;
	}
	if (!has_track || type < PF_TE_SLICE_BEGIN || type > PF_TE_COUNTER ||
	    (type == PF_TE_COUNTER && !counter)) {
		/* Legacy events, state tracks, events with no track of their own. */
		ix->skipped_tracks++;
		return 0;
	}
	r = new_rec(w, PFT_TRACK, clock, ts);
	if (!r)
		return -ENOMEM;
	r->te.track = track;
	r->te.name = (uint32_t)name;
	r->te.type = (uint8_t)type;
	r->te.value = value;
	r->te.is_double = is_double;
	return 0;
}

/* ---- packets ---- */

static int packet(struct walk *w, const struct pbd_field *pf)
{
	struct pft_index *ix = w->ix;
	struct pbd d = pbd_sub(pf);
	struct pbd_field f, data = { 0 }, in = { 0 }, defs = { 0 };
	uint64_t ts = 0, clock_id = 0, seq_id = 0;
	bool cleared = false;
	struct pft_seq *s;
	uint8_t clock;
	int ret;

	while ((ret = pbd_next(&d, &f)) > 0) {
		switch (f.num) {
		case PF_PKT_TIMESTAMP: ts = f.v; break;
		case PF_PKT_TIMESTAMP_CLOCK_ID: clock_id = f.v; break;
		case PF_PKT_TRUSTED_SEQUENCE_ID: seq_id = f.v; break;
		case PF_PKT_SEQUENCE_FLAGS:
			cleared |= (f.v & PF_SEQ_INCREMENTAL_STATE_CLEARED) != 0;
			break;
		case PFT_PKT_INCREMENTAL_STATE_CLEARED: cleared |= f.v != 0; break;
		case PF_PKT_INTERNED_DATA: in = f; break;
		case PF_PKT_TRACE_PACKET_DEFAULTS: defs = f; break;
		case PF_PKT_FTRACE_EVENTS:
		case PF_PKT_PROCESS_TREE:
		case PF_PKT_CLOCK_SNAPSHOT:
		case PFT_PKT_PROCESS_STATS:
		case PF_PKT_TRACK_EVENT:
		case PF_PKT_SYSTEM_INFO:
		case PF_PKT_CHROME_EVENTS:
		case PF_PKT_TRACK_DESCRIPTOR:
		case PF_PKT_PERF_SAMPLE:
			data = f;
			break;
		default:
			break;
		}
	}
	if (ret)
		return damaged(ix, d.p, "a TracePacket");
	if ((data.num && !pbd_is_len(&data)) || (in.num && !pbd_is_len(&in)) ||
	    (defs.num && !pbd_is_len(&defs)))
		return damaged(ix, pf->data, "a packet's message that is not one");
	s = get_seq(w, seq_id > UINT32_MAX ? UINT32_MAX : (uint32_t)seq_id);
	if (!s)
		return -ENOMEM;
	if (cleared && seq_reset(s))
		return -ENOMEM;
	ret = defs.num ? defaults(w, s, &defs) : 0;
	if (!ret && in.num)
		ret = interned(w, s, &in);
	if (ret || !data.num)
		return ret;
	if (!clock_id)
		clock_id = s->clock ? s->clock : PF_CLOCK_BOOTTIME;
	if ((data.num == PF_PKT_TRACK_EVENT || data.num == PF_PKT_PERF_SAMPLE) &&
	    clock_id >= PFT_CLOCK_MAX) {
		/* The sequence's own clock, on the builtin one it was given with. */
		if (clock_id != s->seq_clock) {
			ix->skipped_clock++;
			return 0;
		}
		ts = ts - s->seq_at + s->builtin_at;
		clock_id = s->builtin;
	}
	clock = (uint8_t)clock_id;
	switch (data.num) {
	case PF_PKT_FTRACE_EVENTS: return ftrace_bundle(w, &data);
	case PF_PKT_PROCESS_TREE: return process_tree(w, &data);
	case PFT_PKT_PROCESS_STATS: return process_stats(w, &data);
	case PF_PKT_CLOCK_SNAPSHOT: return clock_snapshot(w, s, &data);
	case PF_PKT_SYSTEM_INFO: return system_info(w, &data);
	case PF_PKT_CHROME_EVENTS: return chrome_metadata(w, &data);
	case PF_PKT_TRACK_DESCRIPTOR: return track_descriptor(w, &data);
	case PF_PKT_PERF_SAMPLE: return perf_sample(w, s, &data, ts, clock);
	case PF_PKT_TRACK_EVENT: return track_event(w, s, &data, ts, clock);
	default: return 0;
	}
}

/* ---- one clock, one order ---- */

/*
 * Every record on CLOCK_MONOTONIC where the first snapshot relates its
 * clock to it (ftrace's own is the boot clock, as Perfetto's recorder sets
 * it up); with no snapshot, every clock is taken as one.  Return: the
 * clock's name.
 */
static const char *one_clock(struct pft_index *ix)
{
	bool mono = ix->have_snapshot && ix->clock_known[PF_CLOCK_MONOTONIC];
	uint64_t unrelated = 0;

	for (size_t i = 0; i < ix->nrecs; i++) {
		struct pft_rec *r = &ix->recs[i];
		unsigned int c = r->clock == PFT_CLOCK_FTRACE ? PF_CLOCK_BOOTTIME : r->clock;

		if (!mono)
			continue;
		if (!ix->clock_known[c]) {
			unrelated++;
			continue;
		}
		r->ts = r->ts - ix->clock_at[c] + ix->clock_at[PF_CLOCK_MONOTONIC];
	}
	if (unrelated)
		f2t_warn("%s: %llu events on clocks the trace's clock snapshot does not relate to CLOCK_MONOTONIC: taken as it",
			 ix->path, (unsigned long long)unrelated);
	return mono ? "mono" : "boot";
}

static int by_time(const void *a, const void *b)
{
	const struct pft_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int pft_index_build(struct pft_index *ix)
{
	struct pbd d = pbd_init(ix->data, ix->len);
	struct walk w = { .ix = ix };
	struct pbd_field f;
	int64_t id;
	int ret;

	ix->tasks = f2t_tasks_new();
	if (!ix->tasks || f2t_idmap_init(&ix->tracks, sizeof(struct pft_track)) ||
	    f2t_idmap_init(&ix->seqs, sizeof(struct pft_seq *)))
		return -ENOMEM;
	/* "" first: the id of what has no name. */
	id = str_id(ix, "", 0);
	if (id < 0)
		return (int)id;
	id = str_id(ix, "perf_sample", strlen("perf_sample"));
	if (id < 0)
		return (int)id;
	w.sample_event_default = (uint32_t)id;
	for (;;) {
		ret = pbd_next(&d, &f);
		if (ret <= 0) {
			if (ret)
				ret = damaged(ix, d.p, "a packet's length past the end of the file, or a damaged tag");
			break;
		}
		if (f.num != PF_TRACE_PACKET)
			continue;
		if (!pbd_is_len(&f)) {
			ret = damaged(ix, d.p, "a packet that is not a message");
			break;
		}
		ret = packet(&w, &f);
		if (ret)
			break;
	}
	for (size_t i = 0; i < ix->seqs.n; i++) {
		struct pft_seq **sp = f2t_idmap_at(&ix->seqs, i, NULL);

		if (*sp)
			seq_clear(*sp);
		free(*sp);
	}
	f2t_idmap_fini(&ix->seqs);
	for (size_t i = 0; i <= PF_CS_WAKING_COMM_INDEX; i++)
		free(w.col[i]);
	free(w.comms);
	if (ret)
		return ret;
	ix->info.clock = one_clock(ix);
	f2t_sort(ix->recs, ix->nrecs, sizeof(*ix->recs), by_time);
	return 0;
}

void pft_index_fini(struct pft_index *ix)
{
	free(ix->recs);
	f2t_intern_fini(&ix->strs);
	for (size_t i = 0; i < ix->nmaps; i++)
		free(ix->maps[i]);
	free(ix->maps);
	free(ix->frames);
	free(ix->stack_frames);
	free(ix->stacks);
	f2t_idmap_fini(&ix->tracks);
	f2t_tasks_free(ix->tasks);
	free(ix->kernel);
	free(ix->machine);
	free(ix->host);
	free(ix->kernel_version);
	free(ix->boot_id);
	free(ix->cpu_model);
	free(ix->cmdline);
	free(ix->recorder);
	free(ix->clock);
}

void pft_state_letters(int64_t state, char *out)
{
	/* The kernel's __print_flags table for TASK_REPORT's bits, then "+" for TASK_REPORT_MAX. */
	static const char letters[] = "SDTtXZPI";
	size_t n = 0;

	memset(out, 0, F2T_STATE_LEN);
	for (int bit = 0; bit < 8 && n < F2T_STATE_LEN - 3; bit++) {
		if (!(state & (1 << bit)))
			continue;
		if (n)
			out[n++] = '|';
		out[n++] = letters[bit];
	}
	if (!n)
		out[n++] = 'R';
	if ((state & 0x100) && n < F2T_STATE_LEN - 1)
		out[n] = '+';
}
