// SPDX-License-Identifier: MIT
/*
 * /proc/PID/maps text as a capture's MAPS record holds it: parsed for a
 * process, which then forks and execs, looked up at each line's start and
 * next to it.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_maps *m = f2t_maps_new();
	char *text = malloc(size + 1);
	const char *p;
	uint64_t gen;
	size_t n;
	int lines = 0;

	if (!m || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (f2t_maps_parse_proc(m, 100, (const char *)data, size) < 0 || f2t_maps_fork(m, 100, 101))
		goto out;
	for (p = text; p && lines < 64; lines++) {
		uint64_t addr = strtoull(p, NULL, 16);

		for (int d = -1; d <= 1; d++) {
			f2t_maps_find(m, 100, addr + (uint64_t)d);
			f2t_maps_find(m, 101, addr + (uint64_t)d);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	f2t_maps_list(m, 101, &n, &gen);
	f2t_maps_exec(m, 100);
	f2t_maps_list(m, 100, &n, &gen);
out:
	free(text);
	f2t_maps_free(m, NULL);
	return 0;
}
