// SPDX-License-Identifier: MIT
/*
 * Event format files, checked against the shape the kernel writes before
 * libtraceevent parses them.  Its tokenizer hands back no token at all for
 * a byte it does not know or at the end of the text, and many of its
 * callers then compare that NULL token; it looks fields up by name and uses
 * what it found without checking; it recurses once per nesting level.  So:
 *
 *  - at most F2T_FORMAT_MAX bytes, printable ASCII, tabs and newlines only;
 *  - "name: NAME\nID: N\nformat:\n", N below 65536 (records carry a 16-bit
 *    type, and the decoder keeps a table indexed by it);
 *  - then field lines "\tfield:DECLARATION;\toffset:N;\tsize:N;[\tsigned:N;]\n",
 *    blank lines between them; a declaration is C words, spaces, '*' and
 *    balanced brackets, a type then the field's name, which only an
 *    array's brackets may follow; offset + size within
 *    the largest record a sub-buffer holds, so no read of a field can leave
 *    the record's page;
 *  - common_type and common_pid among them, within the 8 bytes every record
 *    has (they are read from every record before its type is known);
 *  - "print fmt: " and one line: a string, then comma-separated C
 *    expressions (constants, strings, casts, unary and binary operators,
 *    ?:, calls, [], GNU statement expressions; -> only after REC; braces
 *    only as the { VALUE, "NAME" } entries of __print_symbolic and
 *    __print_flags), nested at most MAX_DEPTH
 *    deep, in which every REC->NAME and every __get_*(NAME) names a field
 *    of the event, and '/' and '%' divide by a constant other than 0
 *    (libtraceevent divides without checking, when it folds constants and
 *    when it prints a record).
 *
 * Every format the kernel writes has that shape (a unit test checks the
 * running kernel's); anything else is refused with the offset of the first
 * byte that does not fit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "source/ringbuf/fmtcheck.h"
#include "util/log.h"

#define MAX_DEPTH 32		/* nesting of brackets and unary operators */
#define MAX_CHAIN 256		/* binary operators in one expression */
#define MAX_FIELDS 256

struct span {
	const char *s;
	size_t len;
};

enum tok { T_END, T_ITEM, T_STR, T_CHAR, T_OP, T_BAD };

struct chk {
	const char *p, *end;
	uint32_t max_size;
	const char *why, *at;
	struct field {
		struct span name;
		uint64_t offset, size;
	} fields[MAX_FIELDS];
	size_t nfields;
	uint64_t id;
	int depth;
	enum tok tok;		/* the print format's current token */
	struct span t;
};

static int fail(struct chk *c, const char *at, const char *why)
{
	if (!c->why) {
		c->why = why;
		c->at = at;
	}
	return -EINVAL;
}

static bool is_word(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static bool span_is(struct span a, const char *s)
{
	return a.len == strlen(s) && !memcmp(a.s, s, a.len);
}

/* Consumes the text S if it is next. */
static bool eat(struct chk *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

/* A decimal number of at most 10 digits. */
static bool number(struct chk *c, uint64_t *v)
{
	const char *s = c->p;

	*v = 0;
	while (c->p < c->end && isdigit((unsigned char)*c->p) && c->p - s < 10)
		*v = *v * 10 + (uint64_t)(*c->p++ - '0');
	return c->p > s && !(c->p < c->end && isdigit((unsigned char)*c->p));
}

static const struct field *find_field(const struct chk *c, struct span name)
{
	for (size_t i = 0; i < c->nfields; i++)
		if (c->fields[i].name.len == name.len && !memcmp(c->fields[i].name.s, name.s, name.len))
			return &c->fields[i];
	return NULL;
}

static int header(struct chk *c)
{
	const char *s;
	uint64_t id;

	if (!eat(c, "name: "))
		return fail(c, c->p, "no \"name:\" line");
	for (s = c->p; c->p < c->end && is_word(*c->p);)
		c->p++;
	if (c->p == s || !eat(c, "\n"))
		return fail(c, s, "the event name is not a C identifier");
	if (!eat(c, "ID: "))
		return fail(c, c->p, "no \"ID:\" line");
	s = c->p;
	if (!number(c, &id) || id > 0xffff || !eat(c, "\n"))
		return fail(c, s, "the event ID is not a number below 65536");
	c->id = id;
	if (!eat(c, "format:\n"))
		return fail(c, c->p, "no \"format:\" line");
	return 0;
}

/*
 * "TYPE... NAME[LEN]" from S to E: the field's name is its last word
 * outside brackets, and only an array's brackets may follow it (libtraceevent
 * takes the last token for the name: "int x*" would name a field "*").
 */
static int declaration(struct chk *c, const char *s, const char *e, struct span *name)
{
	char open[MAX_DEPTH];
	int depth = 0, words = 0;
	const char *after = s;	/* just past the name */

	for (const char *q = s; q < e; q++) {
		if (is_word(*q)) {
			const char *w = q;

			while (q + 1 < e && is_word(q[1]))
				q++;
			if (!depth) {
				*name = (struct span){ w, (size_t)(q + 1 - w) };
				after = q + 1;
				words++;
			}
		} else if (*q == '(' || *q == '[') {
			if (depth == MAX_DEPTH)
				return fail(c, q, "field declaration nested too deep");
			open[depth++] = *q;
		} else if (*q == ')' || *q == ']') {
			if (!depth || open[--depth] != (*q == ')' ? '(' : '['))
				return fail(c, q, "unbalanced brackets in a field declaration");
		} else if (*q != ' ' && *q != '*' && !(*q == ',' && depth)) {
			return fail(c, q, "unexpected character in a field declaration");
		}
	}
	if (depth)
		return fail(c, e, "unbalanced brackets in a field declaration");
	if (words < 2)
		return fail(c, s, "a field declaration needs a type and a name");
	while (after < e && *after == ' ')
		after++;
	if (after < e && *after == '[') {
		for (depth = 0; after < e; after++) {
			depth += *after == '[' || *after == '(';
			depth -= *after == ']' || *after == ')';
			if (!depth)
				break;
		}
		for (after++; after < e && *after == ' ';)
			after++;
	}
	if (after < e)
		return fail(c, after, "text after the name in a field declaration");
	return 0;
}

/* One "\tfield:..." line, after its "\tfield:". */
static int field(struct chk *c)
{
	const char *s = c->p, *semi = memchr(c->p, ';', (size_t)(c->end - c->p));
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	struct field f;
	uint64_t sign;

	if (!semi || (nl && nl < semi))
		return fail(c, s, "a field declaration without its ';'");
	if (declaration(c, s, semi, &f.name))
		return -EINVAL;
	c->p = semi + 1;
	if (!eat(c, "\toffset:") || !number(c, &f.offset) || !eat(c, ";\tsize:") ||
	    !number(c, &f.size) || !eat(c, ";"))
		return fail(c, c->p, "a field without its offset and size");
	if (eat(c, "\tsigned:") && (!number(c, &sign) || sign > 1 || !eat(c, ";")))
		return fail(c, c->p, "a field's signed: is not 0 or 1");
	if (!eat(c, "\n"))
		return fail(c, c->p, "unexpected text after a field");
	if (f.offset > c->max_size || f.size > c->max_size - f.offset)
		return fail(c, s, "a field lies beyond the largest record a sub-buffer holds");
	if (c->nfields == MAX_FIELDS)
		return fail(c, s, "too many fields");
	c->fields[c->nfields++] = f;
	return 0;
}

/* The 8 bytes every record has must hold the type and the pid, read before anything else. */
static int common_fields(struct chk *c, const char *at)
{
	static const char *const names[] = { "common_type", "common_pid" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct field *f = find_field(c, (struct span){ names[i], strlen(names[i]) });

		if (!f)
			return fail(c, at, "no common_type or common_pid field");
		if (!f->size || f->size > 8 || f->offset + f->size > 8)
			return fail(c, at, "common_type or common_pid lies beyond a record's first 8 bytes");
	}
	return 0;
}

/* ---- the print format ---- */

static void next(struct chk *c)
{
	static const char *const pairs[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
					     "++", "--" };

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	c->t.s = c->p;
	if (c->p < c->end && (*c->p == '\n' || *c->p == '\t')) {
		/* Only inside strings, as in ext4's "reasons:\n%s" or maple_tree's "%s\tNode". */
		c->tok = T_BAD;
		fail(c, c->p, "the print format is not one line");
		return;
	}
	if (c->p >= c->end) {
		c->tok = T_END;
	} else if (is_word(*c->p)) {
		while (c->p < c->end && is_word(*c->p))
			c->p++;
		c->tok = T_ITEM;
	} else if (*c->p == '"' || *c->p == '\'') {
		char q = *c->p++;

		while (c->p < c->end && *c->p != q) {
			/*
			 * libtraceevent 1.7's parser dereferences NULL on a string
			 * with a tab or line break right before a bracket (found by
			 * fuzzing).  Kernels put tabs in strings (maple_tree's
			 * "%s\tNode"), never before a bracket.
			 */
			if ((*c->p == '\t' || *c->p == '\n') && c->p + 1 < c->end &&
			    (c->p[1] == '[' || c->p[1] == ']')) {
				c->tok = T_BAD;
				fail(c, c->p, "a tab or line break before a bracket in a string");
				return;
			}
			c->p += *c->p == '\\' && c->p + 1 < c->end ? 2 : 1;
		}
		if (c->p >= c->end) {
			c->tok = T_BAD;
			fail(c, c->t.s, "unterminated string in the print format");
			return;
		}
		c->p++;
		c->tok = q == '"' ? T_STR : T_CHAR;
	} else {
		c->tok = T_OP;
		c->p++;
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			if (c->p < c->end && c->p[-1] == pairs[i][0] && c->p[0] == pairs[i][1]) {
				c->p++;
				break;
			}
		}
	}
	c->t.len = (size_t)(c->p - c->t.s);
}

static bool is_op(const struct chk *c, const char *op)
{
	return c->tok == T_OP && span_is(c->t, op);
}

static bool is_binop(const struct chk *c)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=",
					   ">=", "==", "!=", "&", "|", "^", "&&", "||" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is_op(c, ops[i]))
			return true;
	return false;
}

static bool is_unop(const struct chk *c)
{
	return is_op(c, "-") || is_op(c, "+") || is_op(c, "!") || is_op(c, "~") || is_op(c, "*") ||
	       is_op(c, "&");
}

static int expr(struct chk *c);

/* One more level of nesting: brackets, prefix operators, ?: */
static int enter(struct chk *c)
{
	if (++c->depth > MAX_DEPTH)
		return fail(c, c->t.s, "print format nested too deep");
	return 0;
}

static int expect(struct chk *c, const char *op)
{
	if (!is_op(c, op))
		return fail(c, c->t.s, "unbalanced brackets in the print format");
	next(c);
	return 0;
}

/* Expressions up to CLOSE, comma-separated; the opening bracket is consumed. */
static int list(struct chk *c, const char *close)
{
	if (is_op(c, close)) {
		next(c);
		return 0;
	}
	for (;;) {
		if (expr(c))
			return -EINVAL;
		if (is_op(c, close)) {
			next(c);
			return 0;
		}
		if (!is_op(c, ","))
			return fail(c, c->t.s, "expected ',' or a closing bracket in the print format");
		next(c);
	}
}

/*
 * The arguments of __print_symbolic(VALUE, { V, "NAME" }, ...) and
 * __print_flags(VALUE, "DELIM", { V, "NAME" }, ...): braces only there,
 * each empty or holding two values, as libtraceevent reads them.
 */
static int value_names(struct chk *c)
{
	if (expr(c))
		return -EINVAL;
	while (is_op(c, ",")) {
		next(c);
		if (c->tok == T_STR) {
			while (c->tok == T_STR)
				next(c);
			continue;
		}
		if (expect(c, "{"))
			return -EINVAL;
		if (is_op(c, "}")) {	/* "{ }": an empty table, as kvm writes */
			next(c);
			continue;
		}
		/* The name: a string, or ((void *)0) where the table ends. */
		if (expr(c) || expect(c, ",") || expr(c) || expect(c, "}"))
			return -EINVAL;
	}
	return expect(c, ")");
}

/* NAME(...), after NAME and its '(' were consumed. */
static int call(struct chk *c, struct span name)
{
	/* __get_str(NAME), __get_dynamic_array(NAME), ...: NAME is a field. */
	if (name.len > 6 && !memcmp(name.s, "__get_", 6)) {
		if (c->tok != T_ITEM || !find_field(c, c->t))
			return fail(c, c->t.s, "a __get_ helper names no field of the event");
		next(c);
		return expect(c, ")");
	}
	if (span_is(name, "__print_symbolic") || span_is(name, "__print_flags") ||
	    span_is(name, "__print_symbolic_u64") || span_is(name, "__print_flags_u64"))
		return value_names(c);
	if (span_is(name, "sizeof")) {
		while (c->tok == T_ITEM || is_op(c, "*"))
			next(c);
		return expect(c, ")");
	}
	return list(c, ")");
}

/* Is the next thing after the current token CH? */
static bool next_char_is(const struct chk *c, char ch)
{
	const char *q = c->p;

	while (q < c->end && *q == ' ')
		q++;
	return q < c->end && *q == ch;
}

/* REC-> and the field's name, REC already consumed. */
static int rec_field(struct chk *c)
{
	if (!is_op(c, "->"))
		return fail(c, c->t.s, "REC without -> in the print format");
	next(c);
	if (c->tok != T_ITEM || !find_field(c, c->t))
		return fail(c, c->t.s, "REC-> names no field of the event");
	next(c);
	return 0;
}

/*
 * A GNU statement expression "({ ...; value; })", after its "({": C
 * statements, kept to well-formed tokens in balanced brackets, every REC->
 * naming a field.
 */
static int statements(struct chk *c)
{
	char open[MAX_DEPTH] = { '{' };
	int depth = 1;

	while (depth) {
		if (c->tok == T_END || c->tok == T_BAD)
			return fail(c, c->t.s, "unbalanced brackets in the print format");
		if (c->tok == T_ITEM && span_is(c->t, "REC")) {
			next(c);
			if (rec_field(c))
				return -EINVAL;
			continue;
		}
		if (is_op(c, "(") || is_op(c, "[") || is_op(c, "{")) {
			if (depth == MAX_DEPTH)
				return fail(c, c->t.s, "print format nested too deep");
			open[depth++] = c->t.s[0];
		} else if (is_op(c, ")") || is_op(c, "]") || is_op(c, "}")) {
			if (open[--depth] != (c->t.s[0] == ')' ? '(' : c->t.s[0] == ']' ? '[' : '{'))
				return fail(c, c->t.s, "unbalanced brackets in the print format");
		}
		next(c);
	}
	return expect(c, ")");
}

static int primary(struct chk *c)
{
	struct span w = c->t;
	int ret;

	switch (c->tok) {
	case T_STR:
		while (c->tok == T_STR)
			next(c);
		return 0;
	case T_CHAR:
		next(c);
		return 0;
	case T_ITEM:
		next(c);
		if (span_is(w, "REC"))
			return rec_field(c);
		if (!is_op(c, "("))
			return 0;	/* a number, or a constant's name */
		if (enter(c))
			return -EINVAL;
		next(c);
		ret = call(c, w);
		c->depth--;
		return ret;
	case T_OP:
		if (!is_op(c, "("))
			break;
		if (enter(c))
			return -EINVAL;
		next(c);
		if (is_op(c, "{")) {
			next(c);
			ret = statements(c);
		} else if (c->tok == T_ITEM && span_is(c->t, "REC") && next_char_is(c, ')')) {
			next(c);	/* "(REC)->field" */
			next(c);
			ret = rec_field(c);
		} else {
			ret = expr(c) ? -EINVAL : expect(c, ")");
		}
		c->depth--;
		return ret;
	default:
		break;
	}
	return fail(c, c->t.s, "expected a value in the print format");
}

static int postfix(struct chk *c)
{
	bool literal = c->tok == T_STR || c->tok == T_CHAR;

	if (primary(c))
		return -EINVAL;
	for (;;) {
		if (is_op(c, "[")) {
			/* No kernel indexes a literal; libtraceevent's parser crashes on ""[x]. */
			if (literal)
				return fail(c, c->t.s, "a string indexed in the print format");
			if (enter(c))
				return -EINVAL;
			next(c);
			if (expr(c) || expect(c, "]"))
				return -EINVAL;
			c->depth--;
		} else {
			return 0;
		}
	}
}

/* At '(': is it "(TYPE)" before an operand, a cast? */
static bool at_cast(const struct chk *c)
{
	const char *q = c->p;
	bool word = false;

	for (;;) {
		while (q < c->end && *q == ' ')
			q++;
		if (q < c->end && is_word(*q)) {
			const char *w = q;

			while (q < c->end && is_word(*q))
				q++;
			if (!word && q - w == 3 && !memcmp(w, "REC", 3))
				return false;
			word = true;
		} else if (q < c->end && *q == '*') {
			q++;
		} else {
			break;
		}
	}
	if (!word || q >= c->end || *q != ')')
		return false;
	for (q++; q < c->end && *q == ' '; q++)
		;
	return q < c->end && (is_word(*q) || strchr("(\"'-+!~*&", *q));
}

static int unary(struct chk *c)
{
	int ret;

	if (!is_unop(c) && !(is_op(c, "(") && at_cast(c)))
		return postfix(c);
	if (enter(c))
		return -EINVAL;
	if (is_unop(c)) {
		next(c);
		ret = unary(c);
	} else {
		do	/* the cast's type */
			next(c);
		while (c->tok == T_ITEM || is_op(c, "*"));
		ret = expect(c, ")");
		if (!ret)
			ret = unary(c);
	}
	c->depth--;
	return ret;
}

/*
 * What may follow '/' or '%': a literal that is not 0 (hex, or decimal
 * without a leading 0, which libtraceevent would read as octal), or
 * sizeof(TYPE).  libtraceevent divides without looking, when it folds
 * constants and when it prints a record; the kernel only divides by such.
 */
static bool nonzero_constant(const struct chk *c)
{
	const char *q = c->t.s, *e = c->t.s + c->t.len;
	bool hex = c->t.len > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
	bool nonzero = false;

	if (c->tok != T_ITEM)
		return false;
	if (span_is(c->t, "sizeof"))
		return true;
	if (hex)
		q += 2;
	else if (*q == '0')
		return false;
	for (; q < e && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++)
		nonzero |= *q != '0';
	while (q < e && strchr("uUlL", *q))
		q++;
	return nonzero && q == e;
}

static int expr(struct chk *c)
{
	int ret, chain = 0;

	ret = unary(c);
	while (!ret && is_binop(c)) {
		bool divide = is_op(c, "/") || is_op(c, "%");

		if (++chain > MAX_CHAIN)
			return fail(c, c->t.s, "too many operators in one print format argument");
		next(c);
		if (divide && !nonzero_constant(c))
			return fail(c, c->t.s, "a division by something other than a constant in the print format");
		ret = unary(c);
	}
	if (!ret && is_op(c, "?")) {
		ret = enter(c);
		if (!ret) {
			next(c);
			ret = expr(c);
		}
		if (!ret)
			ret = expect(c, ":");
		if (!ret)
			ret = expr(c);
		c->depth--;
	}
	return ret;
}

static int print_fmt(struct chk *c)
{
	if (c->end > c->p && c->end[-1] == '\n')
		c->end--;
	next(c);
	if (c->tok != T_STR)
		return fail(c, c->t.s, "the print format does not start with a string");
	while (c->tok == T_STR)
		next(c);
	while (is_op(c, ",")) {
		next(c);
		if (expr(c))
			return -EINVAL;
	}
	if (c->tok != T_END)
		return fail(c, c->t.s, "unexpected text in the print format");
	return 0;
}

int f2t_format_check(const char *text, size_t len, uint32_t max_size, uint32_t *id,
		     const char **why, size_t *at)
{
	struct chk c = { .p = text, .end = text + len, .max_size = max_size };
	int ret = 0;

	if (len > F2T_FORMAT_MAX) {
		ret = fail(&c, text + F2T_FORMAT_MAX, "longer than any format file");
		goto out;
	}
	for (const char *q = text; q < c.end; q++) {
		if ((*q < ' ' || *q > '~') && *q != '\t' && *q != '\n') {
			ret = fail(&c, q, "a byte that is not printable ASCII");
			goto out;
		}
	}
	ret = header(&c);
	while (!ret) {
		if (c.p == c.end)
			ret = fail(&c, c.p, "no print format");
		else if (eat(&c, "\n"))
			continue;
		if (eat(&c, "\tfield:"))
			ret = field(&c);
		else if (eat(&c, "print fmt: "))
			break;
		else
			ret = fail(&c, c.p, "a line that is neither a field nor the print format");
	}
	if (!ret)
		ret = common_fields(&c, c.p);
	if (!ret)
		ret = print_fmt(&c);
out:
	if (ret) {
		*why = c.why;
		*at = (size_t)(c.at - text);
	} else if (id) {
		*id = (uint32_t)c.id;
	}
	return ret;
}

int f2t_format_check_record(const char *path, const struct f2t_cap_rec *r, uint32_t subbuf_size,
			    struct tep_handle *tep)
{
	const char *sys = r->data, *nul = memchr(sys, '\0', r->len), *why = NULL;
	size_t at = 0, slen = nul ? (size_t)(nul - sys) : 0;
	uint32_t id;

	for (size_t i = 0; nul && i < slen; i++)
		if (!is_word(sys[i]))
			nul = NULL;
	if (!nul || !slen || slen > 64) {
		f2t_err("%s: offset %llu: an event format's system name is not a C identifier",
			 path, (unsigned long long)r->offset);
		return -EINVAL;
	}
	/* A record's data starts after the sub-buffer's 16-byte header. */
	if (f2t_format_check(nul + 1, r->len - slen - 1, subbuf_size - 16, &id, &why, &at)) {
		f2t_err("%s: offset %llu: malformed format of an event of system %s: %s",
			 path, (unsigned long long)(r->offset + slen + 1 + at), sys, why);
		return -EINVAL;
	}
	/* One format per ID: the decoder keeps one handler per ID. */
	if (tep_find_event(tep, (int)id)) {
		f2t_err("%s: offset %llu: a second event format with ID %u",
			 path, (unsigned long long)r->offset, id);
		return -EINVAL;
	}
	return 0;
}

/*
 * Is the printk formats line [S, E) one libtraceevent reads inside it?
 * tep_parse_printk_formats() takes what follows the first ':' (after any
 * leading ones), skips one character (the space), strips a leading quote,
 * and looks two characters before the end of the rest for a trailing "\n":
 * without a ':', with nothing after it, or with fewer than three characters
 * left, it reads outside the line (or the whole text).
 */
static bool printk_line_ok(const char *s, const char *e)
{
	const char *colon, *fmt;

	while (s < e && *s == ':')
		s++;
	colon = memchr(s, ':', (size_t)(e - s));
	if (!colon || e - colon < 2)
		return false;
	fmt = colon + 2;
	fmt += fmt < e && *fmt == '"';
	return e - fmt >= 3;
}

int f2t_printk_formats_check(const char *text, size_t *at)
{
	for (const char *s = text, *e, *end = text + strlen(text); s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (e > s && !printk_line_ok(s, e)) {
			*at = (size_t)(s - text);
			return -EINVAL;
		}
	}
	return 0;
}
