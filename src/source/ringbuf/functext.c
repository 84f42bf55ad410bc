// SPDX-License-Identifier: MIT
/*
 * Function-tracer text, column for column as the kernel's tracers print
 * it (kernel/trace/trace_output.c, trace_functions_graph.c).
 */
#include "source/ringbuf/functext.h"

/* trace_find_mark(): a call longer than each bound gets its symbol. */
static char mark(uint64_t ns)
{
	static const struct { uint64_t over; char sym; } marks[] = {
		{ 1000000000ull, '$' }, { 100000000ull, '@' }, { 10000000ull, '*' },
		{ 1000000ull, '#' }, { 100000ull, '!' }, { 10000ull, '+' },
	};

	for (unsigned int i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over)
			return marks[i].sym;
	return ' ';
}

void f2t_functext_duration(struct textline *l, uint64_t ns)
{
	char tmp[24], *us = tl_digits(tmp, ns / 1000);
	size_t len = (size_t)(tmp + 24 - us);

	tl_mem(l, us, len);
	if (len < 7) {
		/* Three digits of nanoseconds, fewer when they would pass seven. */
		unsigned int rem = (unsigned int)(ns % 1000);
		char nsd[3] = { (char)('0' + rem / 100), (char)('0' + rem / 10 % 10),
				(char)('0' + rem % 10) };
		size_t keep = 7 - len < 3 ? 7 - len : 3;

		tl_putc(l, '.');
		tl_mem(l, nsd, keep);
		len += keep + 1;
	}
	tl_str(l, " us ");
	tl_pad(l, len, 8);
}

/*
 * A name from the recording's symbol table, cut to F2T_FUNCTEXT_MAX_NAME
 * bytes: the table is the file's, and a name of any length must not run
 * past the line, whose room is counted in F2T_FUNCTEXT_MAX_LEN.
 */
static void name(struct textline *l, const char *s)
{
	tl_mem(l, s, strnlen(s, F2T_FUNCTEXT_MAX_NAME));
}

/* NAME, or "NAME [MOD]" for a module's function, as %ps prints it. */
static void symbol(struct textline *l, const char *sym, const char *module)
{
	name(l, sym);
	if (module) {
		tl_putc(l, ' ');
		name(l, module);
	}
}

static void indent(struct textline *l, uint32_t depth)
{
	if (depth > F2T_FUNCTEXT_MAX_INDENT)
		depth = F2T_FUNCTEXT_MAX_INDENT;
	tl_pad(l, 0, 2 * (size_t)depth);
}

bool f2t_functext(struct textline *l, const struct f2t_event *ev)
{
	uint64_t ns;

	switch (ev->kind) {
	case F2T_EV_FUNCTION:
		/* seq_print_ip_sym(): the name without module; the parent
		 * only when there is one. */
		tl_str(l, "function: ");
		name(l, ev->func.name);
		if (ev->func.parent_ip) {
			tl_str(l, " <-");
			name(l, ev->func.parent);
		}
		return true;
	case F2T_EV_FUNCGRAPH_ENTRY:
		/* The mark and duration columns (14) are empty on an entry. */
		tl_str(l, "funcgraph_entry: ");
		tl_pad(l, 0, 14);
		tl_str(l, "|  ");
		indent(l, ev->graph.depth);
		symbol(l, ev->graph.name, ev->graph.module);
		tl_str(l, "() {");
		return true;
	case F2T_EV_FUNCGRAPH_EXIT:
		ns = ev->graph.rettime > ev->graph.calltime ?
			     ev->graph.rettime - ev->graph.calltime : 0;
		tl_str(l, "funcgraph_exit: ");
		tl_putc(l, mark(ns));
		tl_putc(l, ' ');
		f2t_functext_duration(l, ns);
		tl_str(l, "|  ");
		indent(l, ev->graph.depth);
		tl_str(l, "} /* ");
		symbol(l, ev->graph.name, ev->graph.module);
		tl_str(l, " */");
		return true;
	default:
		return false;
	}
}
