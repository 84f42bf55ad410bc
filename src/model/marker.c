// SPDX-License-Identifier: MIT
/*
 * The trace_marker text parser.  It runs once per print event, so it is a
 * single left-to-right pass over the text with no allocation; every field is
 * a view into the caller's buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "model/marker.h"

#define CLOCK_SYNC_PREFIX "trace_event_clock_sync:"
/* Longest counter value we try as a number; a double needs far fewer. */
#define MAX_NUMBER_LEN 64

/* Cursor over the '|'-separated fields of a marker. */
struct fields {
	const char *p, *end;
	bool more;		/* a field remains (possibly empty) */
};

static struct f2t_marker_str next_field(struct fields *f)
{
	struct f2t_marker_str r = { f->p, 0 };
	const char *bar;

	if (!f->more)
		return r;
	bar = memchr(f->p, '|', (size_t)(f->end - f->p));
	if (!bar) {
		r.len = (size_t)(f->end - f->p);
		f->p = f->end;
		f->more = false;
		return r;
	}
	r.len = (size_t)(bar - f->p);
	f->p = bar + 1;
	return r;
}

/* Everything not read yet, as one view (the optional tail of a marker). */
static struct f2t_marker_str rest(struct fields *f)
{
	struct f2t_marker_str r = { f->p, f->more ? (size_t)(f->end - f->p) : 0 };

	f->p = f->end;
	f->more = false;
	return r;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits only, no sign, no spaces: what atrace writes for a pid. */
static bool parse_pid(struct f2t_marker_str s, int32_t *out)
{
	int64_t v = 0;

	if (!s.len || s.len > 10)
		return false;
	for (size_t i = 0; i < s.len; i++) {
		if (!is_digit(s.s[i]))
			return false;
		v = v * 10 + (s.s[i] - '0');
	}
	if (v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

/* [-]digits, the whole field, within int64. */
static bool parse_i64(struct f2t_marker_str s, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v = 0, limit;

	if (s.len && s.s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == s.len)
		return false;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < s.len; i++) {
		unsigned d;

		if (!is_digit(s.s[i]))
			return false;
		d = (unsigned)(s.s[i] - '0');
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	/* Negate in unsigned arithmetic: -(INT64_MIN) does not fit an int64. */
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/*
 * [-]digits[.digits][(e|E)[+-]digits], the whole field.  Checked by hand
 * first because strtod() would also take "inf", "nan", hex and leading
 * spaces, none of which a counter writer means.
 */
static bool parse_double(struct f2t_marker_str s, double *out)
{
	char tmp[MAX_NUMBER_LEN + 1];
	size_t i = 0, digits = 0;
	char *end;

	if (!s.len || s.len > MAX_NUMBER_LEN)
		return false;
	if (s.s[i] == '-' || s.s[i] == '+')
		i++;
	for (; i < s.len && is_digit(s.s[i]); i++)
		digits++;
	if (i < s.len && s.s[i] == '.')
		for (i++; i < s.len && is_digit(s.s[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (i < s.len && (s.s[i] == 'e' || s.s[i] == 'E')) {
		size_t exp_digits = 0;

		i++;
		if (i < s.len && (s.s[i] == '-' || s.s[i] == '+'))
			i++;
		for (; i < s.len && is_digit(s.s[i]); i++)
			exp_digits++;
		if (!exp_digits)
			return false;
	}
	if (i != s.len)
		return false;
	memcpy(tmp, s.s, s.len);
	tmp[s.len] = '\0';
	*out = strtod(tmp, &end);
	return end == tmp + s.len;
}

static bool parse_value(struct f2t_marker_str s, struct f2t_marker *m)
{
	if (parse_i64(s, &m->ivalue)) {
		m->value_is_double = false;
		m->dvalue = (double)m->ivalue;
		return true;
	}
	if (parse_double(s, &m->dvalue)) {
		m->value_is_double = true;
		m->ivalue = 0;
		return true;
	}
	return false;
}

/* SECONDS[.FRACTION] into ns; digits past the ninth decimal are dropped. */
static bool parse_seconds(struct f2t_marker_str s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, int_digits = 0, frac_digits = 0;

	for (; i < s.len && is_digit(s.s[i]); i++, int_digits++) {
		if (sec > (UINT64_MAX / 1000000000ull - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(s.s[i] - '0');
	}
	if (!int_digits)
		return false;
	if (i < s.len && s.s[i] == '.') {
		for (i++; i < s.len && is_digit(s.s[i]); i++, frac_digits++)
			if (frac_digits < 9)
				frac = frac * 10 + (uint64_t)(s.s[i] - '0');
	}
	if (i != s.len)
		return false;
	for (size_t d = frac_digits; d < 9; d++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return true;
}

static bool is_id_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == '-';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * After "trace_event_clock_sync:": " name=ID" or " parent_ts=SECONDS",
 * optionally followed by blank-separated words, which Trace Viewer accepts
 * and we keep in m->args.  The id charset is Trace Viewer's ([\w-]).
 */
static bool parse_clock_sync(const char *p, const char *end, struct f2t_marker *m)
{
	const char *v, *ve;

	while (p < end && is_space(*p))
		p++;
	if ((size_t)(end - p) >= 5 && !memcmp(p, "name=", 5)) {
		v = p + 5;
		for (ve = v; ve < end && is_id_char(*ve); ve++)
			;
		if (ve == v) {
			m->reason = "clock sync without an id";
			return false;
		}
		m->sync_id = (struct f2t_marker_str){ v, (size_t)(ve - v) };
	} else if ((size_t)(end - p) >= 10 && !memcmp(p, "parent_ts=", 10)) {
		v = p + 10;
		for (ve = v; ve < end && !is_space(*ve); ve++)
			;
		m->parent_ts = (struct f2t_marker_str){ v, (size_t)(ve - v) };
		if (!parse_seconds(m->parent_ts, &m->parent_ts_ns)) {
			m->reason = "clock sync parent_ts is not a number of seconds";
			return false;
		}
		m->has_parent_ts = true;
	} else {
		m->reason = "clock sync without name= or parent_ts=";
		return false;
	}
	if (ve < end && !is_space(*ve)) {
		m->reason = "clock sync id holds characters other than letters, digits, '_', '-'";
		return false;
	}
	while (ve < end && is_space(*ve))
		ve++;
	m->args = (struct f2t_marker_str){ ve, (size_t)(end - ve) };
	return true;
}

/* Fills M from the fields after "X|"; false (with m->reason) if malformed. */
static bool parse_atrace(char phase, struct fields *f, struct f2t_marker *m)
{
	struct f2t_marker_str pid = next_field(f), a, b;

	if (phase == 'E') {
		/* "E" and "E|" carry no pid (Flutter writes a bare "E"). */
		m->kind = F2T_MARKER_END;
		if (pid.len && !parse_pid(pid, &m->pid)) {
			m->reason = "pid is not a number";
			return false;
		}
		m->args = rest(f);
		return true;
	}
	if (!parse_pid(pid, &m->pid)) {
		m->reason = pid.len ? "pid is not a number" : "no pid";
		return false;
	}
	switch (phase) {
	case 'B':
	case 'I':
		m->kind = phase == 'B' ? F2T_MARKER_BEGIN : F2T_MARKER_INSTANT;
		m->name = next_field(f);
		break;
	case 'C':
		m->kind = F2T_MARKER_COUNTER;
		m->name = next_field(f);
		if (!f->more) {
			m->reason = "counter without a value";
			return false;
		}
		if (!parse_value(next_field(f), m)) {
			m->reason = "counter value is not a number";
			return false;
		}
		break;
	case 'S':
	case 'F':
		m->kind = phase == 'S' ? F2T_MARKER_ASYNC_BEGIN : F2T_MARKER_ASYNC_END;
		m->name = next_field(f);
		if (!f->more) {
			m->reason = "async slice without a cookie";
			return false;
		}
		if (!parse_i64(next_field(f), &m->cookie)) {
			m->reason = "cookie is not a number";
			return false;
		}
		break;
	case 'N':
		m->kind = F2T_MARKER_TRACK_INSTANT;
		m->track = next_field(f);
		if (!f->more) {
			m->reason = "track instant without a name";
			return false;
		}
		m->name = next_field(f);
		break;
	case 'G':
		m->kind = F2T_MARKER_TRACK_BEGIN;
		m->track = next_field(f);
		m->name = next_field(f);
		if (!f->more) {
			m->reason = "track slice without a cookie";
			return false;
		}
		if (!parse_i64(next_field(f), &m->cookie)) {
			m->reason = "cookie is not a number";
			return false;
		}
		break;
	case 'H':
		/* H|pid|track|name|cookie, or H|pid|track|cookie without the name. */
		m->kind = F2T_MARKER_TRACK_END;
		m->track = next_field(f);
		a = next_field(f);
		if (!f->more) {
			b = a;
			a.len = 0;
		} else {
			b = next_field(f);
		}
		m->name = a;
		if (!parse_i64(b, &m->cookie)) {
			m->reason = b.len ? "cookie is not a number" : "track slice without a cookie";
			return false;
		}
		break;
	default:
		return false;	/* not reached: the caller checks the phase */
	}
	if ((m->kind == F2T_MARKER_TRACK_INSTANT || m->kind == F2T_MARKER_TRACK_BEGIN ||
	     m->kind == F2T_MARKER_TRACK_END) && !m->track.len) {
		m->reason = "empty track name";
		return false;
	}
	if (!m->name.len && m->kind != F2T_MARKER_TRACK_END) {
		m->reason = "empty name";
		return false;
	}
	m->args = rest(f);
	return true;
}

enum f2t_marker_kind f2t_marker_parse(const char *buf, size_t len, struct f2t_marker *m)
{
	const char *nul = len ? memchr(buf, '\0', len) : NULL;
	const size_t sync_len = sizeof(CLOCK_SYNC_PREFIX) - 1;
	struct fields f;
	size_t cut;
	bool ok;

	*m = (struct f2t_marker){ .pid = -1 };
	if (nul)
		len = (size_t)(nul - buf);
	cut = len;
	while (len && buf[len - 1] == '\n')
		len--;

	if (len >= 1 && strchr("BECSFIGHN", buf[0]) && (len == 1 || buf[1] == '|')) {
		f = (struct fields){ buf + 2, buf + len, len >= 2 };
		ok = parse_atrace(buf[0], &f, m);
	} else if (len >= sync_len && !memcmp(buf, CLOCK_SYNC_PREFIX, sync_len)) {
		m->kind = F2T_MARKER_CLOCK_SYNC;
		ok = parse_clock_sync(buf + sync_len, buf + len, m);
	} else {
		ok = false;	/* plain text, not malformed */
	}
	if (!ok) {
		bool malformed = m->reason != NULL;
		const char *reason = m->reason;

		*m = (struct f2t_marker){ .kind = F2T_MARKER_TEXT, .pid = -1,
					  .malformed = malformed, .reason = reason,
					  .name = { buf, len } };
	}
	m->text_len = cut;
	return m->kind;
}

const char *f2t_marker_kind_name(enum f2t_marker_kind kind)
{
	static const char *const names[F2T_MARKER_KIND_COUNT] = {
		[F2T_MARKER_TEXT] = "text",
		[F2T_MARKER_BEGIN] = "begin",
		[F2T_MARKER_END] = "end",
		[F2T_MARKER_COUNTER] = "counter",
		[F2T_MARKER_ASYNC_BEGIN] = "async begin",
		[F2T_MARKER_ASYNC_END] = "async end",
		[F2T_MARKER_INSTANT] = "instant",
		[F2T_MARKER_TRACK_INSTANT] = "track instant",
		[F2T_MARKER_TRACK_BEGIN] = "track begin",
		[F2T_MARKER_TRACK_END] = "track end",
		[F2T_MARKER_CLOCK_SYNC] = "clock sync",
	};

	return (unsigned)kind < F2T_MARKER_KIND_COUNT ? names[kind] : "?";
}
