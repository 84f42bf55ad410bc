// SPDX-License-Identifier: MIT
/*
 * One line of ftrace text: "COMM-PID (TGID) [CPU] FLAGS SECONDS: NAME: BODY"
 * as the kernel prints it, the TGID and FLAGS columns optional.  The task
 * name may hold anything, dashes and spaces included, so a line is read
 * from its CPU column outwards: the first "[digits]" preceded by "-PID"
 * (and perhaps "(TGID)") is the CPU.
 */
#include <errno.h>
#include <string.h>

#include "source/text/text_parse.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline bool is_ident(char c, bool first)
{
	/* bit C of these: letters and '_', and the digits after the first */
	static const uint64_t word[2][2] = { { 0x03ff000000000000ull, 0x07fffffe87fffffeull },
					     { 0, 0x07fffffe87fffffeull } };
	unsigned char u = (unsigned char)c;

	return u < 128 && (word[first][u >> 6] >> (u & 63)) & 1;
}

static bool has_prefix(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/*
 * Eight bytes a step: 0x80 in each byte of X that is not 0, else 0.  Exact
 * (no carry from one byte into the next), so any of them may be the first.
 */
static inline uint64_t nonzero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

	return (((x & low7) + low7) | x) & ~low7;
}

/* The byte at P + 0..7 that holds the first 0x80 of MARKS, in memory order. */
static inline const char *first_marked(const char *p, uint64_t marks)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return p + __builtin_clzll(marks) / 8;
#else
	return p + __builtin_ctzll(marks) / 8;
#endif
}

static inline uint64_t word_at(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

#define EVERY_BYTE(c) (0x0101010101010101ull * (unsigned char)(c))

/*
 * The first byte C in [Q, END), or END: for the short searches inside a line
 * (a value's end, a buffer name's colon).  f2t_find_byte()'s sixteen-byte
 * steps cost 7% more of a conversion there (measured), so both stay.
 */
static inline const char *find_byte(const char *q, const char *end, char c)
{
	for (; end - q >= 8; q += 8) {
		uint64_t hit = ~nonzero_bytes(word_at(q) ^ EVERY_BYTE(c)) & EVERY_BYTE(0x80);

		if (hit)
			return first_marked(q, hit);
	}
	while (q < end && *q != c)
		q++;
	return q;
}

/* Past the spaces and tabs from P. */
static inline const char *skip_blanks(const char *p, const char *end)
{
	for (; end - p >= 8; p += 8) {
		uint64_t x = word_at(p);
		uint64_t other = nonzero_bytes(x ^ EVERY_BYTE(' ')) & nonzero_bytes(x ^ EVERY_BYTE('\t'));

		if (other)
			return first_marked(p, other);
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Digits at *P (at most MAX, and no digit after them) into *V; moves *P past them. */
static inline bool digits(const char **p, const char *end, long max, uint64_t *v)
{
	const char *q = *p, *stop = end - q > max ? q + max : end;
	uint64_t n = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Fewer than eight, where eight bytes can be read: counted and summed a word at a time. */
	if (end - q >= 8) {
		uint64_t w = word_at(q), other;
		long k;

		/* 0x80 in the bytes that are no digit (exact for the first of them) */
		other = ((w + EVERY_BYTE(0x46)) | (w - EVERY_BYTE('0'))) & EVERY_BYTE(0x80);
		k = other ? __builtin_ctzll(other) / 8 : 8;
		if (k < 8) {
			if (!k || k > max)
				return false;
			/* the digits at the top, the first the most significant */
			w = (w - EVERY_BYTE('0')) << (8 * (8 - k));
			w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffull;
			w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffull;
			w = (w * 10000 + (w >> 32)) & 0xffffffffull;
			*v = w;
			*p = q + k;
			return true;
		}
	}
#endif
	while (q < stop && is_digit(*q))
		n = n * 10 + (uint64_t)(*q++ - '0');
	if (q == *p || (q < end && is_digit(*q)))
		return false;
	*v = n;
	*p = q;
	return true;
}

/*
 * "SECONDS.FRACTION:" (or a plain count: clocks that are not in ns) at P.
 * SECS, when not NULL, holds the last "SECONDS." read and its value: lines
 * come by time, so most repeat it, and its digits need not be read again.
 */
static inline bool timestamp(const char **p, const char *end, uint64_t *ns,
			     struct f2t_tline_secs *secs)
{
	static const uint32_t scale[10] = { 0, 100000000, 10000000, 1000000, 100000,
					    10000, 1000, 100, 10, 1 };
	const char *q = *p, *frac;
	uint64_t sec, f;

	if (secs && secs->len && end - q >= 8 &&
	    (word_at(q) & secs->mask) == secs->text) {
		sec = secs->value;
		q += secs->len - 1;	/* at its '.' */
	} else {
		if (!digits(&q, end, 12, &sec))
			return false;
		if (secs && q < end && *q == '.' && q - *p < 8 && end - *p >= 8) {
			secs->len = (uint8_t)(q + 1 - *p);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			secs->mask = ~0ull << (64 - 8 * secs->len);
#else
			secs->mask = ~0ull >> (64 - 8 * secs->len);
#endif
			secs->text = word_at(*p) & secs->mask;
			secs->value = sec;
		}
	}
	if (q < end && *q == '.') {
		frac = ++q;
		if (!digits(&q, end, 9, &f))
			return false;
		sec = sec * 1000000000ull + f * scale[q - frac];
	}
	if (q >= end || *q != ':')
		return false;
	*ns = sec;
	*p = q + 1;
	return true;
}

/*
 * Is the '[' at B the CPU column?  It must hold digits and be preceded by
 * "-PID" and perhaps "(TGID)"; fills in what it finds.  Returns its ']', or
 * NULL.
 */
static inline const char *cpu_column(const char *start, const char *b, const char *end,
				     struct f2t_tline *t)
{
	const char *p = b + 1, *q = b;
	uint64_t v;

	if (!digits(&p, end, 5, &v) || p >= end || *p != ']')
		return NULL;
	t->cpu = (uint32_t)v;
	while (q > start && q[-1] == ' ')
		q--;
	if (q == b)
		return NULL;
	t->tgid = -1;
	if (q > start && q[-1] == ')') {	/* "(  1234)" or "(-------)" */
		const char *close = --q;
		uint64_t tgid = 0;
		bool dash = false;

		while (q > start && q[-1] != '(' && close - q < 12)
			q--;
		if (q == start || q[-1] != '(')
			return NULL;
		for (const char *c = q; c < close; c++) {
			if (is_digit(*c))
				tgid = tgid * 10 + (uint64_t)(*c - '0');
			else if (*c == '-')
				dash = true;
			else if (*c != ' ')
				return NULL;
		}
		if (!dash)
			t->tgid = (int32_t)tgid;
		q--;
		while (q > start && q[-1] == ' ')
			q--;
	}
	/* PID, then the '-' that ends the name */
	{
		const char *pe = q;
		uint64_t pid = 0, mul = 1;

		while (q > start && is_digit(q[-1]) && pe - q < 10)
			q--;
		if (q == pe || q == start || q[-1] != '-')
			return NULL;
		for (const char *c = pe; c > q; c--, mul *= 10)
			pid += (uint64_t)(c[-1] - '0') * mul;
		t->pid = (int32_t)pid;
		t->comm = (struct f2t_span){ start, (size_t)(q - 1 - start) };
	}
	return p;
}

/* "inst:   comm-pid": trace-cmd report names the buffer of each line when there are several. */
static void drop_buffer_name(struct f2t_span *comm)
{
	const char *end = comm->s + comm->len, *colon = find_byte(comm->s, end, ':'), *p;

	if (colon + 1 >= end || colon[1] != ' ')
		return;
	for (p = colon + 1; p < end && *p == ' '; p++)
		;
	if (p < end) {
		comm->len = (size_t)(end - p);
		comm->s = p;
	}
}

/*
 * "CPU:N [LOST M EVENTS]" (the kernel), "CPU:N [M EVENTS DROPPED]"
 * (trace-cmd, with the buffer's name first when there are several).
 */
/* The first "CPU:" in [P, END), or NULL: at a colon, which lines have few of (memmem costs more). */
static const char *find_cpu_colon(const char *p, const char *end)
{
	for (const char *c = p; (c = find_byte(c, end, ':')) < end; c++)
		if (c - p >= 3 && c[-3] == 'C' && c[-2] == 'P' && c[-1] == 'U')
			return c - 3;
	return NULL;
}

static bool lost_line(const char *p, const char *end, struct f2t_tline *t)
{
	const char *at = find_cpu_colon(p, end);
	uint64_t v;

	if (!at || (at != p && (at[-1] != ' ' || !memchr(p, ':', (size_t)(at - p)))))
		return false;
	p = at;
	p += 4;
	if (!digits(&p, end, 5, &v) || !has_prefix(p, end, " ["))
		return false;
	t->cpu = (uint32_t)v;
	p += 2;
	if (has_prefix(p, end, "LOST "))
		p += 5;
	t->lost = 0;
	if (p < end && is_digit(*p) && !digits(&p, end, 19, &t->lost))
		return false;
	if (!memmem(p, (size_t)(end - p), "EVENTS", 6))
		return false;
	t->kind = F2T_TLINE_LOST;
	return true;
}

/* Lines trace-cmd report and atrace write besides events. */
static bool notes(const char *p, const char *end)
{
	static const char *const prefixes[] = { "cpus=", "version = ", "TRACE:" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (has_prefix(p, end, prefixes[i]))
			return true;
	return has_prefix(p, end, "CPU ") && memmem(p, (size_t)(end - p), " is empty", 9);
}

/*
 * The columns up to the CPU's: 0 with *CLOSE at the column's ']' and the
 * task's columns in T; 0 with *CLOSE NULL for a line that is no event
 * (T's kind says which); -EINVAL.  *BLANKS: where the line's text starts.
 */
static int head_columns(const char *line, const char *end, struct f2t_tline *t,
			const char **blanks, const char **close)
{
	const char *p = skip_blanks(line, end), *b;

	*blanks = p;
	*close = NULL;
	if (p == end || *p == '#')
		return 0;	/* F2T_TLINE_SKIP */
	/* Cheap tests first: most lines are events. */
	if ((*p == 'C' || *p == 'T' || *p == 'c' || *p == 'v') && notes(p, end))
		return 0;
	if (end[-1] == ']' && lost_line(p, end, t))
		return 0;
	/* The CPU column: the first "[digits]" preceded by "-PID". */
	for (b = p; (b = f2t_find_byte(b, end, '[')) < end; b++)
		if (b > p && (*close = cpu_column(p, b, end, t)))
			break;
	if (b == end)
		return -EINVAL;
	drop_buffer_name(&t->comm);
	return 0;
}

/* What follows the CPU column's ']' at CLOSE: latency flags, timestamp, body. */
static int head_rest(const char *close, const char *end, struct f2t_tline *t,
		     struct f2t_tline_secs *secs)
{
	const char *p = close + 1;

	if (p >= end || *p != ' ')
		return -EINVAL;
	while (p < end && *p == ' ')
		p++;
	/* Latency flags, unless the timestamp comes right away. */
	if (!timestamp(&p, end, &t->ts, secs)) {
		const char *f = p;

		while (p < end && *p != ' ')
			p++;
		t->flags = (struct f2t_span){ f, (size_t)(p - f) };
		while (p < end && *p == ' ')
			p++;
		if (t->flags.len > 8 || !timestamp(&p, end, &t->ts, secs))
			return -EINVAL;
	}
	if (p < end && *p != ' ')
		return -EINVAL;
	p += p < end;
	t->kind = F2T_TLINE_EVENT;
	t->body = (struct f2t_span){ p, (size_t)(end - p) };
	return 0;
}

static const char *line_end(const char *line, size_t len)
{
	return len && line[len - 1] == '\r' ? line + len - 1 : line + len;
}

int f2t_tline_head(const char *line, size_t len, struct f2t_tline *t)
{
	static const struct f2t_tline blank;
	const char *end = line_end(line, len), *blanks, *close;
	int ret;

	*t = blank;	/* a copy, where gcc makes a memset a slow rep stos */
	ret = head_columns(line, end, t, &blanks, &close);
	return ret || !close ? ret : head_rest(close, end, t, NULL);
}

/* ---- the columns of recent lines ---- */

/* Are the N (>= 8) bytes at A and B the same?  Words, the last one overlapping. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i + 8 < n; i += 8)
		if (word_at(a + i) != word_at(b + i))
			return false;
	return word_at(a + n - 8) == word_at(b + n - 8);
}

/*
 * The slot for a line whose first '[' is at B: from the 24 bytes before it
 * ("-PID  (  TGID) ", the name's end) when the line has them, else 16, and the
 * 4 after (the CPU), so the same task on two CPUs, or two tasks of one
 * name, take different slots.
 */
static inline unsigned int slot_of(const char *line, const char *b)
{
	uint32_t cpu;
	uint64_t h;

	memcpy(&cpu, b + 1, 4);
	h = (word_at(b - 16) * 0x9e3779b97f4a7c15ull) ^ (word_at(b - 8) * 0xc2b2ae3d27d4eb4full) ^
	    cpu * 0x165667b19e3779f9ull;
	if (b - line >= 24)
		h ^= word_at(b - 24) * 0x27d4eb2f165667c5ull;
	return (unsigned int)(h >> 56) % F2T_TLINE_CACHE_SLOTS;
}

/* The columns of a line as read, into the cache: one entry per task, the latest. */
static void remember(struct f2t_tline_cache *c, struct f2t_tline_cache_entry *e, const char *line,
		     const char *blanks, const char *close, const struct f2t_tline *t)
{
	size_t len = (size_t)(close + 1 - line);

	/*
	 * A task's other columns are gone: a hit must mean its latest
	 * (f2t_tline_parse_cached()).  The entry pid_slot names is the only one
	 * of its pids; one of another pid that shares the place goes too.
	 */
	if (t->pid > 0) {
		uint8_t *at = &c->pid_slot[(uint32_t)t->pid % F2T_TLINE_CACHE_PIDS];
		struct f2t_tline_cache_entry *old = &c->slot[*at];

		if (old->len && old->pid > 0 &&
		    (uint32_t)old->pid % F2T_TLINE_CACHE_PIDS == (uint32_t)t->pid % F2T_TLINE_CACHE_PIDS)
			old->len = 0;
	}
	/*
	 * Not a line starting "CPU ": the hit path does not ask notes() again,
	 * whose answer for those depends on the rest of the line.  Its other
	 * prefixes are decided by the key (an event's key holds its ']' where
	 * "version = " has none).
	 */
	if (!e || len > F2T_TLINE_CACHE_KEY || has_prefix(blanks, close, "CPU "))
		return;
	*e = (struct f2t_tline_cache_entry){
		.len = (uint8_t)len,
		.blanks = (uint8_t)(blanks - line),
		.comm = (uint8_t)(t->comm.s - line),
		.comm_len = (uint8_t)t->comm.len,
		.pid = t->pid,
		.tgid = t->tgid,
		.cpu = t->cpu,
	};
	memcpy(e->key, line, len);
	if (t->pid > 0)
		c->pid_slot[(uint32_t)t->pid % F2T_TLINE_CACHE_PIDS] = (uint8_t)(e - c->slot);
}

/* f2t_tline_head() with the columns from C; with WHOLE false f2t_tline_task_cached(). */
static int head_cached(struct f2t_tline_cache *c, const char *line, size_t len,
		       struct f2t_tline *t, bool whole)
{
	static const struct f2t_tline blank;
	const char *end = line_end(line, len), *b = f2t_find_byte(line, end, '['), *blanks, *close;
	struct f2t_tline_cache_entry *e = NULL;
	int ret;

	*t = blank;
	if (b - line >= 16 && end - b >= 5) {
		e = &c->slot[slot_of(line, b)];
		if (e->len && end - line > e->len && same_bytes(line, e->key, e->len)) {
			/* The same bytes up to the CPU column's ']': the same columns. */
			blanks = line + e->blanks;
			if (whole && end[-1] == ']' && lost_line(blanks, end, t))
				return 0;
			t->comm = (struct f2t_span){ line + e->comm, e->comm_len };
			t->pid = e->pid;
			t->tgid = e->tgid;
			t->cpu = e->cpu;
			ret = whole ? head_rest(line + e->len - 1, end, t, &c->secs) : 0;
			return ret ? ret : 1;
		}
	}
	ret = head_columns(line, end, t, &blanks, &close);
	if (ret || !close)
		return ret;
	ret = head_rest(close, end, t, &c->secs);
	if (!ret)
		remember(c, e, line, blanks, close, t);
	return ret;
}

int f2t_tline_task_cached(struct f2t_tline_cache *c, const char *line, size_t len,
			  struct f2t_tline *t)
{
	return head_cached(c, line, len, t, false);
}

/* "NAME: BODY" out of a head's body. */
static void split_name(struct f2t_tline *t)
{
	const char *p = t->body.s, *name = p, *end = p + t->body.len;

	/* "NAME: BODY", or the function tracer's "FUNC <-PARENT" with no name. */
	while (p < end && *p != ':' && *p != ' ')
		p++;
	if (p < end && *p == ':' && p > name && (p + 1 == end || p[1] == ' ')) {
		t->name = (struct f2t_span){ name, (size_t)(p - name) };
		p += 1 + (p + 1 < end);
		/* trace-cmd report pads "NAME:" to 21 columns; the kernel does not. */
		while (p < end && *p == ' ' && p - name < 22)
			p++;
	} else {
		t->name = (struct f2t_span){ "function", 8 };
		p = name;
	}
	t->body = (struct f2t_span){ p, (size_t)(end - p) };
}

int f2t_tline_parse(const char *line, size_t len, struct f2t_tline *t)
{
	int ret = f2t_tline_head(line, len, t);

	if (!ret && t->kind == F2T_TLINE_EVENT)
		split_name(t);
	return ret;
}

int f2t_tline_parse_cached(struct f2t_tline_cache *c, const char *line, size_t len,
			   struct f2t_tline *t)
{
	int ret = head_cached(c, line, len, t, true);

	if (ret >= 0 && t->kind == F2T_TLINE_EVENT)
		split_name(t);
	return ret;
}

/* Does " word=" or " ==> " start at P (a space)? */
static inline bool value_ends(const char *p, const char *end)
{
	const char *q = p + 1;

	if (q < end && *q == '=')
		return end - p >= 5 && p[2] == '=' && p[3] == '>' && p[4] == ' ';
	if (q >= end || !is_ident(*q, true))
		return false;
	while (q < end && is_ident(*q, false))
		q++;
	return q < end && *q == '=';
}

static inline struct f2t_span value_at(const char *v, const char *end)
{
	const char *q = v;

	while ((q = find_byte(q, end, ' ')) < end && !value_ends(q, end))
		q++;
	return (struct f2t_span){ v, (size_t)(q - v) };
}

bool f2t_tline_field(struct f2t_span body, const char *key, struct f2t_span *val)
{
	const char *p = body.s, *end = body.s + body.len;
	size_t klen = strlen(key);

	while (p < end && (p = memmem(p, (size_t)(end - p), key, klen))) {
		const char *v = p + klen;

		if ((p == body.s || p[-1] == ' ') && v < end && *v == '=') {
			*val = value_at(v + 1, end);
			return true;
		}
		p++;
	}
	return false;
}

/* Is KEY (KLEN bytes, then '=') at P? */
static inline bool key_at(const char *p, const char *end, const char *key, size_t klen)
{
	if ((size_t)(end - p) <= klen || p[klen] != '=')
		return false;
	return klen && !memcmp(p, key, klen);
}

/*
 * May the lookup of KEY go on past a " ==> " at P?  Only while the fields
 * from the start were found one after the other, where no " KEY=" can hide
 * (a value ends at " word="), and KEY is none of them and all word bytes:
 * then what lies past it is what a search would find first.
 */
static bool past_arrow(const struct f2t_fields *f, const char *p, const char *end,
		       const char *key, size_t klen)
{
	if (f->nkeys < 0 || end - p < 4 || memcmp(p, "==> ", 4) || !klen || !is_ident(key[0], true))
		return false;
	for (size_t i = 1; i < klen; i++)
		if (!is_ident(key[i], false))
			return false;
	for (int i = 0; i < f->nkeys; i++)
		if (f->keys[i].len == klen && !memcmp(f->keys[i].s, key, klen))
			return false;
	return true;
}

/*
 * Where KEY's value starts, when KEY is where the last field ended (or past a
 * " ==> " there); NULL when it is not, and the order is broken.
 */
static inline const char *in_order(struct f2t_fields *f, const char *key, size_t klen)
{
	const char *p = f->at, *end = f->body.s + f->body.len;

	while (p < end && *p == ' ')
		p++;
	if (!key_at(p, end, key, klen)) {
		if (!past_arrow(f, p, end, key, klen)) {
			f->nkeys = -1;
			return NULL;
		}
		for (p += 4; p < end && *p == ' '; p++)
			;
		if (!key_at(p, end, key, klen)) {
			f->nkeys = -1;
			return NULL;
		}
	}
	if (f->nkeys >= F2T_FIELDS_KEYS)
		f->nkeys = -1;	/* too many to remember */
	else if (f->nkeys >= 0)
		f->keys[f->nkeys++] = (struct f2t_span){ key, klen };
	return p + klen + 1;
}

bool f2t_fields_get_len(struct f2t_fields *f, const char *key, size_t klen, struct f2t_span *val)
{
	const char *v = in_order(f, key, klen);

	if (v)
		*val = value_at(v, f->body.s + f->body.len);
	else if (!f2t_tline_field(f->body, key, val))
		return false;
	f->at = val->s + val->len;
	return true;
}

bool f2t_fields_int_len(struct f2t_fields *f, const char *key, size_t klen, long long *n)
{
	const char *v = in_order(f, key, klen), *end = f->body.s + f->body.len, *q = v;
	uint64_t x;
	struct f2t_span val;

	/* Plain digits, as most numbers are: read once, not by value_at() then f2t_span_int(). */
	if (v) {
		if (digits(&q, end, 19, &x) && (q == end || (*q == ' ' && value_ends(q, end)))) {
			f->at = q;
			*n = (long long)x;
			return true;
		}
		val = value_at(v, end);
	} else if (!f2t_tline_field(f->body, key, &val)) {
		return false;
	}
	f->at = val.s + val.len;
	return f2t_span_int(val, n);
}

bool f2t_tline_next_field(struct f2t_span *body, struct f2t_span *key, struct f2t_span *val)
{
	const char *p = body->s, *end = body->s + body->len;

	while (p < end) {
		const char *k;

		while (p < end && *p == ' ')
			p++;
		k = p;
		while (p < end && is_ident(*p, p == k))
			p++;
		if (p > k && p < end && *p == '=') {
			*key = (struct f2t_span){ k, (size_t)(p - k) };
			*val = value_at(p + 1, end);
			p = val->s + val->len;
			*body = (struct f2t_span){ p, (size_t)(end - p) };
			return true;
		}
		while (p < end && *p != ' ')	/* not a pair: the next word */
			p++;
	}
	*body = (struct f2t_span){ end, 0 };
	return false;
}

bool f2t_span_int(struct f2t_span s, long long *v)
{
	const char *p = s.s, *end = s.s + s.len;
	bool neg = false, hex;
	unsigned long long n = 0;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	if (hex)
		p += 2;
	if (p == end || end - p > (hex ? 16 : 19))
		return false;
	for (; p < end; p++) {
		int d;

		if (is_digit(*p))
			d = *p - '0';
		else if (hex && ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f'))
			d = (*p | 0x20) - 'a' + 10;
		else
			return false;
		n = n * (hex ? 16 : 10) + (unsigned long long)d;
	}
	*v = neg ? -(long long)n : (long long)n;
	return true;
}
