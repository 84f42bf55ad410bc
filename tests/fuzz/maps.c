// SPDX-License-Identifier: MIT
/*
 * /proc/PID/maps text as a capture's MAPS record holds it: parsed for a
 * process, which then forks and execs, looked up at each line's start and
 * next to it.
 */
#include "symbols/maps.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_maps *m = f2t_maps_new();
	uint64_t addr[64], gen;
	size_t n = fz_line_addrs(data, size, addr, 64), len;

	if (!m || f2t_maps_parse_proc(m, 100, (const char *)data, size) < 0 ||
	    f2t_maps_fork(m, 100, 101))
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (int d = -1; d <= 1; d++) {
			f2t_maps_find(m, 100, addr[i] + (uint64_t)d);
			f2t_maps_find(m, 101, addr[i] + (uint64_t)d);
		}
	}
	f2t_maps_list(m, 101, &len, &gen);
	f2t_maps_exec(m, 100);
	f2t_maps_list(m, 100, &len, &gen);
out:
	f2t_maps_free(m, NULL);
	return 0;
}
