// SPDX-License-Identifier: MIT
/*
 * The ftrace text input (source/text_*.c): any bytes, opened as ftrace text
 * or as a systrace HTML file when the probes take them, and every event read
 * with its text and fields, as a conversion does.  And each line read with
 * and without the cache of columns (the input's lines in turn through one
 * cache): the two must agree on everything.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/input.h"
#include "source/text/text_parse.h"
#include "fuzz.h"

static bool same_span(struct f2t_span a, struct f2t_span b)
{
	return a.s == b.s && a.len == b.len;
}

static void cache_agrees(const char *p, const char *end)
{
	static struct f2t_tline_cache cache;

	memset(&cache, 0, sizeof(cache));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		struct f2t_tline a, b;
		int ra = f2t_tline_parse(p, len, &a), rb = f2t_tline_parse_cached(&cache, p, len, &b);

		if ((rb < 0 ? rb : 0) != ra)
			abort();
		if (!ra && (a.kind != b.kind || !same_span(a.comm, b.comm) || a.pid != b.pid ||
			    a.tgid != b.tgid || a.cpu != b.cpu || !same_span(a.flags, b.flags) ||
			    a.ts != b.ts || !same_span(a.name, b.name) || !same_span(a.body, b.body) ||
			    a.lost != b.lost))
			abort();
		p += len + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;

	fz_init();
	cache_agrees((const char *)data, (const char *)data + size);
	if (f2t_html_input.probe(data, head))
		fz_read_input(&f2t_html_input, data, size);
	else if (f2t_text_input.probe(data, head))
		fz_read_input(&f2t_text_input, data, size);
	return 0;
}
