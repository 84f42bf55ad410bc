// SPDX-License-Identifier: MIT
/* A JIT's /tmp/perf-PID.map ("START SIZE NAME" lines), looked up at each start. */
#include <stdlib.h>
#include <string.h>

#include "symbols/jitmap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_jitmap *j = f2t_jitmap_parse((const char *)data, size);
	char *text = malloc(size + 1);
	const char *p;
	int lines = 0;

	if (!j || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; p && lines < 64; lines++) {
		uint64_t addr = strtoull(p, NULL, 16), off;

		for (int d = -1; d <= 1; d++)
			f2t_jitmap_lookup(j, addr + (uint64_t)d, &off);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
out:
	free(text);
	f2t_jitmap_free(j);
	return 0;
}
