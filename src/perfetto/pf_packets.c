// SPDX-License-Identifier: MIT
/* Packets at a trace's start and end (pf_packets.h). */
#include <string.h>

#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"

/* The packet's fields from @h, first in its body; with no @b, only their size. */
static size_t head(struct pb_buf *b, const struct pf_head *h)
{
	const struct { bool has; uint32_t field; uint64_t v; } f[] = {
		{ h->has_ts, PF_PKT_TIMESTAMP, h->ts },
		{ h->clock, PF_PKT_TIMESTAMP_CLOCK_ID, h->clock },
		{ h->seq, PF_PKT_TRUSTED_SEQUENCE_ID, h->seq },
		{ h->flags, PF_PKT_SEQUENCE_FLAGS, h->flags },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!f[i].has)
			continue;
		if (b)
			pb_uint(b, f[i].field, f[i].v);
		n += pb_uint_size(f[i].field, f[i].v);
	}
	return n;
}

size_t pf_packet_open(struct pb_buf *b, const struct pf_head *h)
{
	size_t body = pb_open(b, PF_TRACE_PACKET);

	head(b, h);
	return body;
}

void pf_packet_open_sized(struct pb_buf *b, const struct pf_head *h, size_t len)
{
	pb_open_sized(b, PF_TRACE_PACKET, head(NULL, h) + len);
	head(b, h);
}

void pf_system_info(struct pb_buf *b, const struct f2t_trace_info *info)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){ 0 });
	size_t si = pb_open(b, PF_PKT_SYSTEM_INFO);
	size_t uts = pb_open(b, PF_SYSINFO_UTSNAME);

	pb_str(b, PF_UTS_SYSNAME, "Linux");
	if (info->kernel_version && *info->kernel_version)
		pb_str(b, PF_UTS_VERSION, info->kernel_version);
	if (info->kernel && *info->kernel)
		pb_str(b, PF_UTS_RELEASE, info->kernel);
	if (info->machine && *info->machine)
		pb_str(b, PF_UTS_MACHINE, info->machine);
	pb_close(b, uts);
	if (info->recorder && *info->recorder)
		pb_str(b, PF_SYSINFO_TRACING_SERVICE_VERSION, info->recorder);
	if (info->page_size)
		pb_uint(b, PF_SYSINFO_PAGE_SIZE, info->page_size);
	if (info->ncpus)
		pb_uint(b, PF_SYSINFO_NUM_CPUS, info->ncpus);
	if (info->tz_known)
		pb_int(b, PF_SYSINFO_TIMEZONE_OFF_MINS, info->tz_offset_min);
	pb_close(b, si);
	pb_close(b, pkt);
}

static void clock(struct pb_buf *b, uint32_t id, uint64_t ts)
{
	size_t c = pb_open(b, PF_CLOCKS);

	pb_uint(b, PF_CLOCK_ID, id);
	pb_uint(b, PF_CLOCK_TIMESTAMP, ts);
	pb_close(b, c);
}

void pf_clock_snapshot(struct pb_buf *b, const struct pf_clocks *c)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){ 0 });
	size_t cs = pb_open(b, PF_PKT_CLOCK_SNAPSHOT);

	clock(b, PF_CLOCK_BOOTTIME, c->boottime);
	clock(b, PF_CLOCK_MONOTONIC, c->monotonic);
	if (c->realtime)
		clock(b, PF_CLOCK_REALTIME, c->realtime);
	pb_close(b, cs);
	pb_close(b, pkt);
}

void pf_seq_clock(struct pb_buf *b, uint32_t seq, uint64_t base)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){ .seq = seq });
	size_t cs = pb_open(b, PF_PKT_CLOCK_SNAPSHOT);

	clock(b, PF_CLOCK_SEQ, 0);
	clock(b, PF_CLOCK_MONOTONIC, base);
	pb_close(b, cs);
	pb_close(b, pkt);
}

/* PerfEvents.Counter for the software and hardware events perf numbers 0.. */
static uint32_t perf_counter(const struct f2t_sampling *s)
{
	static const uint32_t sw[] = { PF_SW_CPU_CLOCK, PF_SW_TASK_CLOCK, PF_SW_PAGE_FAULTS,
				       PF_SW_CONTEXT_SWITCHES, PF_SW_CPU_MIGRATIONS,
				       PF_SW_PAGE_FAULTS_MIN, PF_SW_PAGE_FAULTS_MAJ };
	static const uint32_t hw[] = { PF_HW_CPU_CYCLES, PF_HW_INSTRUCTIONS };

	/* perf_event_attr.type: PERF_TYPE_HARDWARE 0, PERF_TYPE_SOFTWARE 1. */
	if (s->type == 1 && s->config < sizeof(sw) / sizeof(sw[0]))
		return sw[s->config];
	if (s->type == 0 && s->config < sizeof(hw) / sizeof(hw[0]))
		return hw[s->config];
	return 0;
}

static void timebase(struct pb_buf *b, const struct f2t_sampling *s)
{
	size_t psd = pb_open(b, PF_DEFAULTS_PERF_SAMPLE);
	size_t tb = pb_open(b, PF_PSDEF_TIMEBASE);
	uint32_t counter = perf_counter(s);

	if (s->freq)
		pb_uint(b, PF_TB_FREQUENCY, s->freq);
	if (counter) {
		pb_uint(b, PF_TB_COUNTER, counter);
	} else {
		size_t raw = pb_open(b, PF_TB_RAW_EVENT);

		pb_uint(b, PF_RAW_TYPE, s->type);
		pb_uint(b, PF_RAW_CONFIG, s->config);
		pb_close(b, raw);
	}
	pb_str(b, PF_TB_NAME, s->event);
	pb_uint(b, PF_TB_TIMESTAMP_CLOCK, PF_PERF_CLOCK_MONOTONIC);
	pb_close(b, tb);
	pb_close(b, psd);
}

void pf_seq_defaults(struct pb_buf *b, uint32_t seq, uint32_t clock,
		     const struct f2t_sampling *perf)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){
		.seq = seq, .flags = PF_SEQ_INCREMENTAL_STATE_CLEARED });
	size_t d = pb_open(b, PF_PKT_TRACE_PACKET_DEFAULTS);

	if (clock)
		pb_uint(b, PF_DEFAULTS_TIMESTAMP_CLOCK_ID, clock);
	if (perf && perf->event)
		timebase(b, perf);
	pb_close(b, d);
	pb_close(b, pkt);
}

static void tree_thread(struct pb_buf *b, const struct f2t_task *t)
{
	size_t th = pb_open(b, PF_PTREE_THREADS);

	pb_uint(b, PF_THREAD_TID, (uint32_t)t->tid);
	pb_bytes(b, PF_THREAD_NAME, t->comm, strnlen(t->comm, F2T_COMM_LEN));
	/* A task whose process is not known is its own process, as /proc would say. */
	pb_uint(b, PF_THREAD_TGID, (uint32_t)(t->tgid > 0 ? t->tgid : t->tid));
	pb_close(b, th);
}

static void tree_process(struct pb_buf *b, const struct f2t_task *t)
{
	size_t pr = pb_open(b, PF_PTREE_PROCESSES);

	pb_uint(b, PF_PROC_PID, (uint32_t)t->tid);
	pb_bytes(b, PF_PROC_CMDLINE, t->comm, strnlen(t->comm, F2T_COMM_LEN));
	pb_uint(b, PF_PROC_CMDLINE_IS_COMM, 1);
	pb_close(b, pr);
}

/* The DebugAnnotation's fields of @a; with no @b, only their size. */
static size_t annotation_body(struct pb_buf *b, const struct f2t_arg *a, uint64_t name_iid,
			      uint64_t str_iid)
{
	size_t n, len;

	if (name_iid) {
		n = pb_uint_size(PF_DA_NAME_IID, name_iid);
		if (b)
			pb_uint(b, PF_DA_NAME_IID, name_iid);
	} else {
		len = strlen(a->name);
		n = pb_len_size(PF_DA_NAME, len);
		if (b)
			pb_bytes(b, PF_DA_NAME, a->name, len);
	}
	switch (a->type) {
	case F2T_ARG_I32:
	case F2T_ARG_I64:
		n += pb_uint_size(PF_DA_INT, (uint64_t)a->i);
		if (b)
			pb_int(b, PF_DA_INT, a->i);
		break;
	case F2T_ARG_U32:
	case F2T_ARG_U64:
		n += pb_uint_size(PF_DA_UINT, a->u);
		if (b)
			pb_uint(b, PF_DA_UINT, a->u);
		break;
	case F2T_ARG_DOUBLE:
		n += pb_varint_len((uint64_t)PF_DA_DOUBLE << 3) + 8;
		if (b)
			pb_double(b, PF_DA_DOUBLE, a->d);
		break;
	case F2T_ARG_BOOL:
		n += pb_uint_size(PF_DA_BOOL, a->b);
		if (b)
			pb_uint(b, PF_DA_BOOL, a->b);
		break;
	case F2T_ARG_STR:
		if (str_iid) {
			n += pb_uint_size(PF_DA_STRING_IID, str_iid);
			if (b)
				pb_uint(b, PF_DA_STRING_IID, str_iid);
			break;
		}
		len = a->str.s ? a->str.len : 0;
		n += pb_len_size(PF_DA_STRING, len);
		if (b)
			pb_bytes(b, PF_DA_STRING, a->str.s, len);
		break;
	}
	return n;
}

size_t pf_annotation_size(const struct f2t_arg *a, uint64_t name_iid, uint64_t str_iid)
{
	return pb_len_size(PF_TE_DEBUG_ANNOTATIONS, annotation_body(NULL, a, name_iid, str_iid));
}

/*
 * Sized before it is written: a long string value (a symbol's name can be
 * 64 KB) is then not moved to make room for the length.
 */
void pf_annotation(struct pb_buf *b, const struct f2t_arg *a, uint64_t name_iid,
		   uint64_t str_iid)
{
	pb_open_sized(b, PF_TE_DEBUG_ANNOTATIONS, annotation_body(NULL, a, name_iid, str_iid));
	annotation_body(b, a, name_iid, str_iid);
}

void pf_process_tree(struct pb_buf *b, uint64_t ts, const struct f2t_tasks *tasks,
		     const int32_t *tids, size_t n)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){
		.has_ts = true, .ts = ts, .seq = PF_SEQ_TRACKS, .flags = PF_SEQ_NEEDS_INCREMENTAL_STATE });
	size_t tree = pb_open(b, PF_PKT_PROCESS_TREE);

	for (size_t i = 0; i < n; i++) {
		const struct f2t_task *t = tids[i] > 0 ? f2t_tasks_find(tasks, tids[i]) : NULL;

		if (t && (t->tgid <= 0 || t->tgid == t->tid))
			tree_process(b, t);
	}
	for (size_t i = 0; i < n; i++) {
		const struct f2t_task *t = tids[i] > 0 ? f2t_tasks_find(tasks, tids[i]) : NULL;

		if (t)
			tree_thread(b, t);
	}
	pb_close(b, tree);
	pb_close(b, pkt);
}

void pf_ftrace_stats(struct pb_buf *b, uint64_t ts, bool start,
		     const struct f2t_cpu_stats *cpus, size_t n)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){
		.has_ts = true, .ts = ts, .seq = PF_SEQ_TRACKS, .flags = PF_SEQ_NEEDS_INCREMENTAL_STATE });
	size_t st = pb_open(b, PF_PKT_FTRACE_STATS);

	pb_uint(b, PF_FSTATS_PHASE, start ? PF_FSTATS_START : PF_FSTATS_END);
	for (size_t i = 0; i < n; i++) {
		const struct f2t_cpu_stats *c = &cpus[i];
		size_t cs = pb_open(b, PF_FSTATS_CPU_STATS);

		pb_uint(b, PF_FCPU_CPU, c->cpu);
		pb_uint(b, PF_FCPU_ENTRIES, start ? 0 : c->entries);
		pb_uint(b, PF_FCPU_OVERRUN, start ? 0 : c->overrun);
		pb_uint(b, PF_FCPU_COMMIT_OVERRUN, start ? 0 : c->commit_overrun);
		pb_uint(b, PF_FCPU_BYTES_READ, start ? 0 : c->bytes);
		pb_uint(b, PF_FCPU_DROPPED_EVENTS, start ? 0 : c->dropped);
		pb_uint(b, PF_FCPU_READ_EVENTS, start ? 0 : c->read);
		pb_close(b, cs);
	}
	pb_close(b, st);
	pb_close(b, pkt);
}
