// SPDX-License-Identifier: MIT
/* A JIT's /tmp/perf-PID.map ("START SIZE NAME" lines), looked up at each start. */
#include "symbols/jitmap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_jitmap *j = f2t_jitmap_parse((const char *)data, size);
	uint64_t addr[64], off;
	size_t n = fz_line_addrs(data, size, addr, 64);

	for (size_t i = 0; j && i < n; i++)
		for (int d = -1; d <= 1; d++)
			f2t_jitmap_lookup(j, addr[i] + (uint64_t)d, &off);
	f2t_jitmap_free(j);
	return 0;
}
