// SPDX-License-Identifier: MIT
/*
 * One raw ring-buffer record -> one f2t_event, and the kernel's own text for
 * it.  Which fields to read is decided once per event type, from the
 * recording's format files, in f2t_rawdec_init().
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ringbuf/rawdec.h"
#include "source/ringbuf/functext.h"
#include "source/ktext.h"
#include "source/source.h"
#include "source/textline.h"
#include "util/log.h"

#define CLONE_THREAD_FLAG 0x00010000ull

struct known {
	const char *system, *name;
	enum f2t_event_kind kind;
	bool newtask;
	const char *fields[H_MAX_FIELDS];
};

#define SWITCH_FMT "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d"
#define WAKE_FMT "comm=%s pid=%d prio=%d target_cpu=%03d"

/* Field order here is the order f2t_rawdec_decode() reads them in. */
static const struct known known_events[] = {
	{ "sched", "sched_switch", F2T_EV_SWITCH, false,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "sched", "sched_waking", F2T_EV_WAKING, false, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup", F2T_EV_WAKEUP, false, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup_new", F2T_EV_WAKEUP_NEW, false, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_process_fork", F2T_EV_FORK, false,
	  { "parent_comm", "parent_pid", "child_comm", "child_pid" } },
	{ "sched", "sched_process_exec", F2T_EV_EXEC, false, { "filename", "pid", "old_pid" } },
	{ "sched", "sched_process_exit", F2T_EV_EXIT, false, { "comm", "pid", "prio" } },
	{ "sched", "sched_process_free", F2T_EV_FREE, false, { "comm", "pid", "prio" } },
	{ "task", "task_rename", F2T_EV_RENAME, false, { "pid", "oldcomm", "newcomm" } },
	{ "task", "task_newtask", F2T_EV_OTHER, true, { "pid", "comm", "clone_flags" } },
	{ "ftrace", "print", F2T_EV_PRINT, false, { "ip", "buf" } },
	{ "ftrace", "function", F2T_EV_FUNCTION, false, { "ip", "parent_ip" } },
	{ "ftrace", "funcgraph_entry", F2T_EV_FUNCGRAPH_ENTRY, false, { "func", "depth" } },
	{ "ftrace", "funcgraph_exit", F2T_EV_FUNCGRAPH_EXIT, false,
	  { "func", "depth", "overrun", "calltime", "rettime" } },
	{ "irq", "irq_handler_entry", F2T_EV_IRQ_ENTRY, false, { "irq", "name" } },
	{ "irq", "irq_handler_exit", F2T_EV_IRQ_EXIT, false, { "irq", "ret" } },
	{ "irq", "softirq_entry", F2T_EV_SOFTIRQ_ENTRY, false, { "vec" } },
	{ "irq", "softirq_exit", F2T_EV_SOFTIRQ_EXIT, false, { "vec" } },
	{ "power", "cpu_idle", F2T_EV_CPU_IDLE, false, { "state", "cpu_id" } },
	{ "power", "cpu_frequency", F2T_EV_CPU_FREQ, false, { "state", "cpu_id" } },
};

/*
 * Where the last of EVENT's fields ends.  A record shorter than that would
 * have libtraceevent read past it, or (a "char buf[]" field, size 0, past
 * the record) allocate the negative length that is left: both found by
 * fuzzing with damaged format files.
 */
static int fields_end(const struct tep_event *event)
{
	const struct tep_format_field *lists[] = { event->format.common_fields,
						   event->format.fields };
	int end = 0;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (const struct tep_format_field *f = lists[i]; f; f = f->next)
			if (f->offset >= 0 && f->size >= 0 && f->offset + f->size > end)
				end = f->offset + f->size;
	return end;
}

static int bind_known(struct handler *h, const struct known *k)
{
	for (int i = 0; i < H_MAX_FIELDS && k->fields[i]; i++) {
		struct tep_format_field *f = tep_find_field(h->event, k->fields[i]);

		if (!f)
			return -ENOENT;
		h->f[i] = f;
	}
	h->kind = k->kind;
	h->newtask = k->newtask;
	switch (k->kind) {
	case F2T_EV_SWITCH:
		h->known_text = h->event->print_fmt.format &&
				!strcmp(h->event->print_fmt.format, SWITCH_FMT);
		break;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		h->known_text = h->event->print_fmt.format &&
				!strcmp(h->event->print_fmt.format, WAKE_FMT);
		break;
	default:
		break;
	}
	return 0;
}

/* Is F a char[16] array in the record itself? */
static bool comm_field(const struct tep_format_field *f)
{
	return !(f->flags & TEP_FIELD_IS_DYNAMIC) && (f->flags & TEP_FIELD_IS_ARRAY) &&
	       f->size == F2T_COMM_LEN && f->offset >= 0 && f->offset < UINT16_MAX;
}

/* Is F a 32-bit number in the record? */
static bool int_field(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) &&
	       f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED) && f->offset >= 0 &&
	       f->offset < UINT16_MAX;
}

/* The fast layout of a switch or wakeup whose fields are all as kernels have them. */
static void bind_layout(struct handler *h)
{
	struct sched_layout *l = &h->fast;
	struct tep_format_field *const *f = h->f;

	*l = (struct sched_layout){ 0 };
	if (h->kind == F2T_EV_SWITCH) {
		const struct tep_format_field *st = f[3];

		if (!comm_field(f[0]) || !comm_field(f[4]) || !int_field(f[1]) || !int_field(f[2]) ||
		    !int_field(f[5]) || !int_field(f[6]) ||
		    (st->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
		    (st->size != 4 && st->size != 8) || st->offset < 0 || st->offset >= UINT16_MAX)
			return;
		*l = (struct sched_layout){
			.on = true,
			.comm = { (uint16_t)f[0]->offset, (uint16_t)f[4]->offset },
			.num = { (uint16_t)f[1]->offset, (uint16_t)f[2]->offset,
				 (uint16_t)f[5]->offset, (uint16_t)f[6]->offset },
			.state = (uint16_t)st->offset,
			.state_size = (uint8_t)st->size,
			.state_signed = st->flags & TEP_FIELD_IS_SIGNED,
		};
	} else if (h->kind == F2T_EV_WAKING || h->kind == F2T_EV_WAKEUP ||
		   h->kind == F2T_EV_WAKEUP_NEW) {
		if (!comm_field(f[0]) || !int_field(f[1]) || !int_field(f[2]) || !int_field(f[3]))
			return;
		*l = (struct sched_layout){
			.on = true,
			.comm = { (uint16_t)f[0]->offset },
			.num = { (uint16_t)f[1]->offset, (uint16_t)f[2]->offset,
				 (uint16_t)f[3]->offset },
		};
	}
}

/*
 * Does %s of ARG make libtraceevent look a printk format up?  It does for a
 * field that is no array and as wide as a kernel pointer (whatever its
 * declared type), and for either branch of a ?: that does.
 */
static bool str_looks_up(const struct tep_event *event, const struct tep_print_arg *arg)
{
	const struct tep_format_field *f;

	if (!arg)
		return false;
	if (arg->type == TEP_PRINT_OP)
		return !strcmp(arg->op.op, "?") && arg->op.right &&
		       arg->op.right->type == TEP_PRINT_OP &&
		       (str_looks_up(event, arg->op.right->op.left) ||
			str_looks_up(event, arg->op.right->op.right));
	if (arg->type != TEP_PRINT_FIELD)
		return false;
	f = tep_find_any_field((struct tep_event *)event, arg->field.name);
	return f && !(f->flags & TEP_FIELD_IS_ARRAY) && f->size == tep_get_long_size(event->tep);
}

/*
 * Whether libtraceevent needs kallsyms or printk formats to print EVENT:
 * a %ps-like conversion, a %s of what it takes for a pointer (a kernel
 * string), a pointer field, or ftrace's own trace_printk records.  Parsing
 * kallsyms costs tens of milliseconds and megabytes, so a recording of
 * scheduling events alone never pays it.
 *
 * The conversions are paired with the arguments as libtraceevent pairs
 * them: flags, width, precision and length letters before the conversion
 * ("%10ps" looks a function up too), a '*' taking an argument, d i o u x X
 * p s taking one each and any other letter none.
 */
static bool needs_symbols(const struct tep_event *event)
{
	const struct tep_print_arg *arg = event->print_fmt.args;
	const char *p = event->print_fmt.format;

	if (!strcmp(event->system, "ftrace"))
		return true;
	while (p && (p = strchr(p, '%'))) {
		if (*++p == '%') {
			p++;
			continue;
		}
		for (; *p && strchr("#hlLzZ.0123456789-*", *p); p++)
			if (*p == '*' && arg)
				arg = arg->next;
		if (*p == 'p' && p[1] && strchr("sSfFB", p[1]))
			return true;
		if (*p == 's' && str_looks_up(event, arg))
			return true;
		if (*p && strchr("diouxXps", *p) && arg)
			arg = arg->next;
	}
	for (const struct tep_format_field *f = event->format.fields; f; f = f->next)
		if (f->flags & TEP_FIELD_IS_POINTER)
			return true;
	return false;
}

/*
 * Does EVENT's print format take a width or precision from the record
 * other than as kernels do ("%*pbl", "%.*s")?  libtraceevent pads to
 * whatever the field holds: a damaged format's "%0*d" of a field holding
 * a billion made one line of a gigabyte (found by fuzzing).
 */
static bool record_width(const struct tep_event *event)
{
	const char *p = event->print_fmt.format;

	while (p && (p = strchr(p, '%'))) {
		bool width = false, precision = false;

		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		p += strspn(p, "-+ #0");
		if (*p == '*') {
			width = true;
			p++;
		}
		p += strspn(p, "0123456789");
		if (*p == '.') {
			p++;
			if (*p == '*') {
				precision = true;
				p++;
			}
			p += strspn(p, "0123456789");
		}
		if ((width && *p != 'p') || (precision && (*p != 's' || width)))
			return true;
	}
	return false;
}

static int bind_events(struct f2t_rawdec *s, uint32_t subbuf_size)
{
	struct tep_event **events = tep_list_events(s->tep, TEP_EVENT_SORT_ID);
	int maxid = -1;

	if (!events || !events[0]) {
		f2t_err("%s: the recording holds no event formats", s->path);
		return -EINVAL;
	}
	for (int i = 0; events[i]; i++)
		if (events[i]->id > maxid)
			maxid = events[i]->id;
	s->handlers = calloc((size_t)maxid + 1, sizeof(*s->handlers));
	s->scratch_cap = 2 * (size_t)subbuf_size + 64;
	s->scratch = malloc(s->scratch_cap);
	/* A line: header, then at most a page of fields or marker text, or a
	 * function tracer's text, whose names are cut (functext.h). */
	s->line_cap = 4 * (size_t)subbuf_size + 256 + F2T_FUNCTEXT_MAX_LEN;
	s->line = malloc(s->line_cap);
	if (!s->handlers || !s->scratch || !s->line)
		return -ENOMEM;
	s->nhandlers = maxid + 1;
	s->common_type = tep_find_common_field(events[0], "common_type");
	s->common_pid = tep_find_common_field(events[0], "common_pid");
	if (!s->common_type || !s->common_pid) {
		f2t_err("%s: event formats lack common_type/common_pid", s->path);
		return -EINVAL;
	}
	s->common_usual = s->common_type->offset == 0 && s->common_type->size == 2 &&
			  !(s->common_type->flags & TEP_FIELD_IS_SIGNED) &&
			  s->common_pid->offset == 4 && s->common_pid->size == 4 &&
			  (s->common_pid->flags & TEP_FIELD_IS_SIGNED);
	for (int i = 0; events[i]; i++) {
		struct handler *h = &s->handlers[events[i]->id];

		/* Whole: a damaged file may give two events one id, the last one wins. */
		*h = (struct handler){ .event = events[i], .kind = F2T_EV_OTHER };
		h->needs_symbols = needs_symbols(events[i]);
		h->record_width = record_width(events[i]);
		h->min_size = s->common_pid->offset + s->common_pid->size;
		for (size_t k = 0; k < sizeof(known_events) / sizeof(known_events[0]); k++) {
			const struct known *kn = &known_events[k];

			if (strcmp(kn->system, events[i]->system) || strcmp(kn->name, events[i]->name))
				continue;
			if (bind_known(h, kn) < 0) {
				/* A kernel whose format differs: keep it as a plain event. */
				f2t_warn("%s: %s:%s lacks a field we need; passed through as a plain event",
					 s->path, kn->system, kn->name);
				memset(h->f, 0, sizeof(h->f));
				h->kind = F2T_EV_OTHER;
				h->newtask = false;
			}
			bind_layout(h);
		}
		/*
		 * The decoder reads some fields and libtraceevent prints them
		 * all: a record must hold every one, and the first event's
		 * common_pid the decoder reads for every record.
		 */
		if (h->min_size < fields_end(events[i]))
			h->min_size = fields_end(events[i]);
	}
	return 0;
}

int f2t_rawdec_init(struct f2t_rawdec *d, struct tep_handle *tep, uint32_t subbuf_size,
		    const struct f2t_recording *rec, const char *path)
{
	d->tep = tep;
	d->recording = rec;
	d->path = path;
	d->tep_symbols = &d->own_tep_symbols;
	trace_seq_init(&d->seq);
	d->reserve = malloc(F2T_RAWDEC_HEADROOM);
	if (!d->reserve)
		return -ENOMEM;
	d->reserve_size = F2T_RAWDEC_HEADROOM;
	return bind_events(d, subbuf_size);
}

void f2t_rawdec_guard(struct f2t_rawdec *d, size_t takes)
{
	void *probe;

	if (d->reserve && d->reserve_size < takes) {
		/* Freed first: should the larger one fail, the call has the smaller one's room. */
		free(d->reserve);
		d->reserve = malloc(takes);
		d->reserve_size = takes;
	}
	probe = d->reserve ? malloc(F2T_RAWDEC_HEADROOM) : NULL;
	if (probe) {
		free(probe);
		return;
	}
	free(d->reserve);
	d->reserve = NULL;
	d->oom = true;
}

void f2t_rawdec_share_tep(struct f2t_rawdec *d, bool *loaded)
{
	d->tep_symbols = loaded;
}

void f2t_rawdec_fini(struct f2t_rawdec *d)
{
	free(d->handlers);
	free(d->scratch);
	free(d->line);
	free(d->reserve);
	f2t_rawdec_ksyms_free(d);
	trace_seq_destroy(&d->seq);
}

void f2t_rawdec_counts(const struct f2t_rawdec *d, struct f2t_stats *st)
{
	st->records += d->stats.records;
	st->unknown_events += d->stats.unknown_events;
	st->bad_records += d->stats.bad_records;
}

static inline long long num(const struct tep_format_field *f, const void *data)
{
	const unsigned char *p = (const unsigned char *)data + f->offset;
	bool sign = f->flags & TEP_FIELD_IS_SIGNED;

	switch (f->size) {
	case 1: { uint8_t v; memcpy(&v, p, 1); return sign ? (int8_t)v : v; }
	case 2: { uint16_t v; memcpy(&v, p, 2); return sign ? (int16_t)v : v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return sign ? (long long)(int32_t)v : (long long)v; }
	case 8: { uint64_t v; memcpy(&v, p, 8); return (long long)v; }
	default: return 0;
	}
}

/*
 * Whether [P, P + LEN) holds a NUL.  A field that ends in one, as every
 * comm the kernel copies does, is answered by its last byte: no scan of
 * the string per event (a scan of the two comms of each switch was a
 * tenth of decoding).
 */
static inline bool has_nul(const char *p, size_t len)
{
	return len && (p[len - 1] == '\0' || memchr(p, '\0', len - 1));
}

/*
 * The handler of the record at DATA, or NULL for an event the formats do
 * not describe.  One reading for the decoder, the text and the fields: a
 * damaged format's wide common_type read as an index unchecked crashed the
 * text (fuzzing).
 */
static const struct handler *handler_of(const struct f2t_rawdec *s, const void *data)
{
	uint16_t type;
	int id;

	if (s->common_usual) {
		memcpy(&type, data, 2);
		id = type;
	} else {
		id = (int)num(s->common_type, data);
	}

	if (id < 0 || id >= s->nhandlers || !s->handlers[id].event)
		return NULL;
	return &s->handlers[id];
}

/* A NUL-terminated view of a string field; NULL if it lies outside the record. */
static const char *str(struct f2t_rawdec *s, const struct tep_format_field *f,
		       const unsigned char *data, int size, size_t *lenp)
{
	const char *p;
	size_t len;
	char *copy;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc, off;

		memcpy(&loc, data + f->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint32_t)(f->offset + f->size);
		if ((size_t)off + len > (size_t)size)
			return NULL;
		p = (const char *)data + off;
	} else if (f->size == 0) {	/* char buf[]: to the end of the record */
		p = (const char *)data + f->offset;
		len = (size_t)(size - f->offset);
	} else {
		p = (const char *)data + f->offset;
		len = (size_t)f->size;
	}
	if (has_nul(p, len)) {
		if (lenp)
			*lenp = strlen(p);
		return p;
	}
	if (s->scratch_len + len + 1 > s->scratch_cap)
		return NULL;
	copy = s->scratch + s->scratch_len;
	memcpy(copy, p, len);
	copy[len] = '\0';
	s->scratch_len += len + 1;
	if (lenp)
		*lenp = len;
	return copy;
}

/*
 * The record's text by its event's print format, into s->seq.  The symbol
 * tables go in before libtraceevent's first lookup in them: it sizes each
 * table's sorted map at that lookup and never again, so symbols added later
 * count in the map's length without being in it, and a lookup then reads
 * past its end and prints from whatever pointer lies there (found by
 * fuzzing: a sched_switch format with a %ps, printed here for its state
 * letters before its text was).
 */
static void print_info(struct f2t_rawdec *s, const struct handler *h)
{
	if (h->needs_symbols)
		f2t_rawdec_tep_symbols(s);
	trace_seq_reset(&s->seq);
	f2t_rawdec_guard(s, F2T_RAWDEC_HEADROOM);
	tep_print_event(s->tep, &s->seq, &s->rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s->seq);
}

/*
 * The letters the kernel prints for a prev_state value ("S", "R+", "D|K"...).
 * The value-to-letter table changes between kernels, so ask the kernel's own
 * print format once per distinct value and remember the answer.
 */
static void state_ask(struct f2t_rawdec *s, const struct handler *h, struct state_memo *m,
		      long long value, char *out)
{
	const char *p, *e;
	size_t n;

	print_info(s, h);
	memset(out, 0, F2T_STATE_LEN);
	p = strstr(s->seq.buffer, "prev_state=");
	if (!p) {
		out[0] = '?';
		return;
	}
	p += strlen("prev_state=");
	e = strchr(p, ' ');
	n = e ? (size_t)(e - p) : strlen(p);
	if (n >= F2T_STATE_LEN)
		n = F2T_STATE_LEN - 1;
	memcpy(out, p, n);
	m->used = true;
	m->value = value;
	memcpy(m->letters, out, F2T_STATE_LEN);
}

/* The memo first, inline: a switch a record; the print format once per value (state_ask()). */
static inline void state_letters(struct f2t_rawdec *s, const struct handler *h, long long value,
				 char *out)
{
	/*
	 * The values are bit masks: by value % slots, R (0), I (0x80) and
	 * R+ (0x100) shared a slot and took turns asking the print format
	 * (3 821 times in a 47 000-switch trace); the high bits of a product
	 * spread them.
	 */
	struct state_memo *m = &s->states[((unsigned long long)value * 0x9e3779b97f4a7c15ull) >>
					  (64 - STATE_MEMO_BITS)];

	if (m->used && m->value == value)
		memcpy(out, m->letters, F2T_STATE_LEN);
	else
		state_ask(s, h, m, value, out);
}

/*
 * A softirq's name ("TIMER", "NET_RX"...) from the kernel's own print
 * format, which maps vec to name, asked once per vec: the table is the
 * kernel's to change.
 */
static const char *softirq_name(struct f2t_rawdec *s, const struct handler *h, uint32_t vec)
{
	char *memo;
	const char *p;
	size_t n;

	if (vec >= sizeof(s->softirq_names) / sizeof(s->softirq_names[0]))
		return "softirq";
	memo = s->softirq_names[vec];
	if (memo[0])
		return memo;
	print_info(s, h);
	p = strstr(s->seq.buffer, "action=");
	n = p ? strcspn(p + strlen("action="), "] ") : 0;
	if (n && n < sizeof(s->softirq_names[0]))
		memcpy(memo, p + strlen("action="), n);
	else
		snprintf(memo, sizeof(s->softirq_names[0]), F2T_SOFTIRQ_UNNAMED, vec);
	return memo;
}

static inline int32_t int_at(const unsigned char *d, uint16_t off)
{
	int32_t v;

	memcpy(&v, d + off, 4);
	return v;
}

/* A comm of the fast layout: in place when it ends in a NUL, as the kernel's do. */
static inline const char *comm_at(struct f2t_rawdec *s, const struct tep_format_field *f,
				  const unsigned char *d, int size, uint16_t off)
{
	const char *p = (const char *)d + off;

	return p[F2T_COMM_LEN - 1] == '\0' ? p : str(s, f, d, size, NULL);
}

/* A switch or a wakeup of the fast layout (struct sched_layout). */
static int decode_fast(struct f2t_rawdec *s, const struct handler *h, const unsigned char *d,
		       int size, struct f2t_event *ev)
{
	const struct sched_layout *l = &h->fast;

	if (h->kind == F2T_EV_SWITCH) {
		long long state;

		if (l->state_size == 8) {
			memcpy(&state, d + l->state, 8);
		} else {
			uint32_t v;

			memcpy(&v, d + l->state, 4);
			state = l->state_signed ? (long long)(int32_t)v : (long long)v;
		}
		ev->sw.prev_comm = comm_at(s, h->f[0], d, size, l->comm[0]);
		ev->sw.prev_pid = int_at(d, l->num[0]);
		ev->sw.prev_prio = int_at(d, l->num[1]);
		ev->sw.prev_state_raw = state;
		state_letters(s, h, state, ev->sw.prev_state);
		ev->sw.next_comm = comm_at(s, h->f[4], d, size, l->comm[1]);
		ev->sw.next_pid = int_at(d, l->num[2]);
		ev->sw.next_prio = int_at(d, l->num[3]);
		return ev->sw.prev_comm && ev->sw.next_comm;
	}
	ev->wake.comm = comm_at(s, h->f[0], d, size, l->comm[0]);
	ev->wake.pid = int_at(d, l->num[0]);
	ev->wake.prio = int_at(d, l->num[1]);
	ev->wake.target_cpu = int_at(d, l->num[2]);
	return ev->wake.comm != NULL;
}

int f2t_rawdec_decode(struct f2t_rawdec *s, void *data, int size,
		      unsigned long long ts, uint32_t cpu, struct f2t_event *ev)
{
	const unsigned char *d = data;
	const struct handler *h;
	struct tep_format_field *const *f;

	if (s->oom) {
		f2t_err("%s: out of memory", s->path);
		return -ENOMEM;
	}
	s->rec.ts = ts;
	s->rec.cpu = (int)cpu;
	s->rec.data = data;
	s->rec.size = size;
	s->rec.record_size = size;
	s->scratch_len = 0;
	ev->raw = &s->rec;

	s->stats.records++;
	h = handler_of(s, d);
	if (!h) {
		s->stats.unknown_events++;
		return 0;
	}
	if (size < h->min_size) {
		s->stats.bad_records++;
		return 0;
	}
	f = h->f;
	ev->pid = s->common_usual ? int_at(d, 4) : (int32_t)num(s->common_pid, d);
	ev->kind = h->kind;
	/* In place, or copied with its NUL (str()): 16 bytes either way. */
	ev->comm_words = h->fast.on;
	if (h->fast.on) {
		if (decode_fast(s, h, d, size, ev))
			return 1;
		goto bad;
	}

	if (h->newtask) {
		int32_t pid = (int32_t)num(f[0], d);

		s->newtask[(uint32_t)pid % NEWTASK_SLOTS].pid = pid;
		s->newtask[(uint32_t)pid % NEWTASK_SLOTS].clone_flags = (uint64_t)num(f[2], d);
		return 0;
	}
	/* A switch's and a wakeup's fields are all set below; others' start cleared. */
	if (h->kind != F2T_EV_SWITCH && h->kind != F2T_EV_WAKING && h->kind != F2T_EV_WAKEUP &&
	    h->kind != F2T_EV_WAKEUP_NEW)
		memset(&ev->sw, 0, offsetof(struct f2t_event, src) - offsetof(struct f2t_event, sw));

	switch (h->kind) {
	case F2T_EV_SWITCH:
		ev->sw.prev_comm = str(s, f[0], d, size, NULL);
		ev->sw.prev_pid = (int32_t)num(f[1], d);
		ev->sw.prev_prio = (int32_t)num(f[2], d);
		ev->sw.prev_state_raw = num(f[3], d);
		state_letters(s, h, ev->sw.prev_state_raw, ev->sw.prev_state);
		ev->sw.next_comm = str(s, f[4], d, size, NULL);
		ev->sw.next_pid = (int32_t)num(f[5], d);
		ev->sw.next_prio = (int32_t)num(f[6], d);
		if (!ev->sw.prev_comm || !ev->sw.next_comm)
			goto bad;
		break;
	case F2T_EV_WAKING:
	case F2T_EV_WAKEUP:
	case F2T_EV_WAKEUP_NEW:
		ev->wake.comm = str(s, f[0], d, size, NULL);
		ev->wake.pid = (int32_t)num(f[1], d);
		ev->wake.prio = (int32_t)num(f[2], d);
		ev->wake.target_cpu = (int32_t)num(f[3], d);
		if (!ev->wake.comm)
			goto bad;
		break;
	case F2T_EV_FORK: {
		uint32_t slot;

		ev->fork.parent_comm = str(s, f[0], d, size, NULL);
		ev->fork.parent_pid = (int32_t)num(f[1], d);
		ev->fork.child_comm = str(s, f[2], d, size, NULL);
		ev->fork.child_pid = (int32_t)num(f[3], d);
		if (!ev->fork.parent_comm || !ev->fork.child_comm)
			goto bad;
		slot = (uint32_t)ev->fork.child_pid % NEWTASK_SLOTS;
		ev->fork.clone_thread = -1;
		ev->fork.clone_flags = 0;
		if (s->newtask[slot].pid == ev->fork.child_pid) {
			ev->fork.clone_flags = s->newtask[slot].clone_flags;
			ev->fork.clone_thread = (ev->fork.clone_flags & CLONE_THREAD_FLAG) ? 1 : 0;
			s->newtask[slot].pid = 0;
		}
		break;
	}
	case F2T_EV_EXEC:
		ev->exec.filename = str(s, f[0], d, size, NULL);
		ev->exec.pid = (int32_t)num(f[1], d);
		ev->exec.old_pid = (int32_t)num(f[2], d);
		if (!ev->exec.filename)
			goto bad;
		break;
	case F2T_EV_EXIT:
	case F2T_EV_FREE:
		ev->exit.comm = str(s, f[0], d, size, NULL);
		ev->exit.pid = (int32_t)num(f[1], d);
		ev->exit.prio = (int32_t)num(f[2], d);
		if (!ev->exit.comm)
			goto bad;
		break;
	case F2T_EV_RENAME:
		ev->rename.pid = (int32_t)num(f[0], d);
		ev->rename.oldcomm = str(s, f[1], d, size, NULL);
		ev->rename.newcomm = str(s, f[2], d, size, NULL);
		if (!ev->rename.oldcomm || !ev->rename.newcomm)
			goto bad;
		break;
	case F2T_EV_PRINT: {
		size_t len;
		const char *b = str(s, f[1], d, size, &len);

		if (!b)
			goto bad;
		while (len && (b[len - 1] == '\n' || b[len - 1] == '\0'))
			len--;
		ev->print.buf = b;
		ev->print.len = len;
		break;
	}
	case F2T_EV_FUNCTION:
		ev->func.ip = (uint64_t)num(f[0], d);
		ev->func.parent_ip = (uint64_t)num(f[1], d);
		ev->func.name = f2t_rawdec_ksym(s, ev->func.ip, &ev->func.module);
		ev->func.parent = f2t_rawdec_ksym(s, ev->func.parent_ip, &ev->func.parent_module);
		break;
	case F2T_EV_FUNCGRAPH_EXIT:
		ev->graph.overrun = (uint32_t)num(f[2], d);
		ev->graph.calltime = (uint64_t)num(f[3], d);
		ev->graph.rettime = (uint64_t)num(f[4], d);
		/* fall through */
	case F2T_EV_FUNCGRAPH_ENTRY:
		ev->graph.func = (uint64_t)num(f[0], d);
		ev->graph.depth = (uint32_t)num(f[1], d);
		ev->graph.name = f2t_rawdec_ksym(s, ev->graph.func, &ev->graph.module);
		break;
	case F2T_EV_IRQ_ENTRY:
		ev->irq.irq = (int32_t)num(f[0], d);
		ev->irq.name = str(s, f[1], d, size, NULL);
		if (!ev->irq.name)
			goto bad;
		break;
	case F2T_EV_IRQ_EXIT:
		ev->irq.irq = (int32_t)num(f[0], d);
		ev->irq.ret = (int32_t)num(f[1], d);
		break;
	case F2T_EV_SOFTIRQ_ENTRY:
	case F2T_EV_SOFTIRQ_EXIT:
		ev->softirq.vec = (uint32_t)num(f[0], d);
		ev->softirq.name = softirq_name(s, h, ev->softirq.vec);
		break;
	case F2T_EV_CPU_IDLE:
	case F2T_EV_CPU_FREQ:
		ev->power.state = (uint32_t)num(f[0], d);
		ev->power.cpu_id = (uint32_t)num(f[1], d);
		break;
	default:
		ev->other.system = h->event->system;
		ev->other.name = h->event->name;
		break;
	}
	return 1;
bad:
	s->stats.bad_records++;
	return 0;
}

/*
 * The five latency columns ("d..2.", "dNs3.", "D..3.", "Ll.1."...) exactly
 * as the kernel's trace_print_lat_fmt() prints them today.  libtraceevent's
 * TEP_PRINT_LATENCY predates BH-disabled ('D', 'b'), NMI ('z', 'Z') and
 * lazy rescheduling, and prints 'N' for every need-resched, so it would not
 * match the kernel's text.  Flag bit 0x02 meant "irq flags unsupported" on
 * old kernels of a few architectures; it is read as NEED_RESCHED_LAZY,
 * which it has been since Linux 6.13.
 */
/*
 * The five latency columns ("d..2."), as the kernel prints them today:
 * libtraceevent 1.7 knows neither lazy resched nor BH-off.
 */
static void lat_flags(struct f2t_rawdec *s, struct textline *l)
{
	enum { IRQS_OFF = 0x01, RESCHED_LAZY = 0x02, RESCHED = 0x04, HARDIRQ = 0x08,
	       SOFTIRQ = 0x10, PREEMPT_RESCHED = 0x20, NMI = 0x40, BH_OFF = 0x80 };
	static const char resched[8] = {
		/* index: RESCHED | LAZY << 1 | PREEMPT_RESCHED << 2 */
		'.', 'n', 'l', 'b', 'p', 'N', 'L', 'B',
	};
	static const char hex[] = "0123456789abcdef";
	int fl = tep_data_flags(s->tep, &s->rec);
	int pc = tep_data_preempt_count(s->tep, &s->rec);

	if (fl < 0)
		fl = 0;
	if (pc < 0)
		pc = 0;
	tl_putc(l, (fl & IRQS_OFF) ? ((fl & BH_OFF) ? 'D' : 'd') : (fl & BH_OFF) ? 'b' : '.');
	tl_putc(l, resched[(fl & RESCHED ? 1 : 0) | (fl & RESCHED_LAZY ? 2 : 0) |
			   (fl & PREEMPT_RESCHED ? 4 : 0)]);
	tl_putc(l, (fl & NMI) ? ((fl & HARDIRQ) ? 'Z' : 'z') :
		   (fl & HARDIRQ) ? ((fl & SOFTIRQ) ? 'H' : 'h') : (fl & SOFTIRQ) ? 's' : '.');
	tl_putc(l, (pc & 0xf) ? hex[pc & 0xf] : '.');
	tl_putc(l, (pc & 0xf0) ? hex[(pc >> 4) & 0xf] : '.');
}

/* A field as " NAME=VALUE", for an event whose print format did not parse. */
static int seq_field(void *ctx, const char *name, int is_str, long long num, const char *str)
{
	if (is_str)
		trace_seq_printf(ctx, " %s=%s", name, str);
	else
		trace_seq_printf(ctx, " %s=%lld", name, num);
	return 0;
}

const char *f2t_rawdec_text(struct f2t_rawdec *s, const struct f2t_event *ev,
			    const struct f2t_task *task, size_t *len)
{
	struct textline l;
	const struct handler *h;

	h = ev->raw == &s->rec ? handler_of(s, s->rec.data) : NULL;
	if (ev->kind == F2T_EV_LOST || !h) {
		errno = ENOENT;
		return NULL;
	}
	l = (struct textline){ .buf = s->line };
	/* A record says only its pid: its name and process are the task table's, given. */
	f2t_ktext_task(&l, ev->pid == 0 ? "<idle>" : task ? task->comm : "<...>", ev->pid,
		       task ? task->tgid : ev->pid, ev->cpu);
	lat_flags(s, &l);
	f2t_ktext_time(&l, ev->ts);

	if (ev->kind == F2T_EV_PRINT) {
		/* What the kernel prints for a trace_marker write. */
		tl_str(&l, "tracing_mark_write: ");
		tl_mem(&l, ev->print.buf, ev->print.len);
	} else if (f2t_functext(&l, ev)) {
		/* Function tracer records: the tracer's own text (functext.h). */
	} else if (h->known_text) {
		tl_str(&l, h->event->name);
		tl_str(&l, ": ");
		if (ev->kind == F2T_EV_SWITCH)
			f2t_ktext_switch(&l, ev);
		else
			f2t_ktext_wake(&l, ev);
	} else {
		if (h->needs_symbols)
			f2t_rawdec_tep_symbols(s);
		trace_seq_reset(&s->seq);
		if (h->event->flags & TEP_EVENT_FL_FAILED) {
			/* libtraceevent's own fallback reads a string field up to a NUL, wherever. */
			trace_seq_printf(&s->seq, "%s: [FAILED TO PARSE]", h->event->name);
			f2t_rawdec_fields(s, ev, seq_field, &s->seq);
		} else if (h->record_width) {
			trace_seq_printf(&s->seq, "%s: [not printed: a width from the record]",
					 h->event->name);
			f2t_rawdec_fields(s, ev, seq_field, &s->seq);
		} else {
			f2t_rawdec_guard(s, F2T_RAWDEC_HEADROOM);
			tep_print_event(s->tep, &s->seq, &s->rec, "%s: %s", TEP_PRINT_NAME,
					TEP_PRINT_INFO);
		}
		trace_seq_terminate(&s->seq);
		/* Room was made for a whole page's worth of text after the header. */
		tl_mem(&l, s->seq.buffer, s->seq.len < s->line_cap - l.len - 1 ?
					      s->seq.len : s->line_cap - l.len - 1);
	}
	l.buf[l.len] = '\0';
	if (len)
		*len = l.len;
	return l.buf;
}

int f2t_rawdec_fields(struct f2t_rawdec *s, const struct f2t_event *ev, f2t_field_fn fn,
		      void *ctx)
{
	const struct handler *h = ev->raw == &s->rec ? handler_of(s, s->rec.data) : NULL;
	const struct tep_event *event;

	if (!h)
		return -ENOENT;
	event = h->event;
	for (struct tep_format_field *f = event->format.fields; f; f = f->next) {
		bool is_str = (f->flags & TEP_FIELD_IS_STRING) ||
			      ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
		int ret;

		if (f->offset + ((f->flags & TEP_FIELD_IS_DYNAMIC) ? 4 : f->size) > s->rec.size)
			continue;
		if (is_str) {
			const char *v = str(s, f, s->rec.data, s->rec.size, NULL);

			ret = fn(ctx, f->name, 1, 0, v ? v : "");
		} else if (f->flags & TEP_FIELD_IS_ARRAY) {
			continue;
		} else {
			ret = fn(ctx, f->name, 0, num(f, s->rec.data), NULL);
		}
		if (ret)
			return ret;
	}
	return 0;
}
