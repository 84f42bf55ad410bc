// SPDX-License-Identifier: MIT
/*
 * Perf records (samples with callchains or user stacks, MMAP, MMAP2, COMM,
 * FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE, ...): a fixed capture with a
 * real PERF_INFO, process maps, build-ids, a JIT map and kernel symbols
 * around one fuzzed ring of perf records.  The input's first byte picks
 * frame-pointer (even) or DWARF (odd) sampling, whose samples carry user
 * registers and stack for the unwinder; the rest is CPU 0's ring.
 */
#include "capture/capture.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;

	if (!size)
		return 0;
	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_HEADER_PAGE, -1, -1);
	/* One format (the ring-buffer side needs some): ftrace:print. */
	fz_cap_add_base(&c, F2T_CAP_EVENT_FORMAT, 1, 0);
	fz_cap_add_base(&c, F2T_CAP_TASKS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_KALLSYMS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_PERF_INFO, data[0] & 1, 0);
	fz_cap_add_base(&c, F2T_CAP_MAPS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_BUILD_IDS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_JIT_MAP, -1, -1);
	fz_cap_add(&c, F2T_CAP_PERF_DATA, 0, data + 1, size - 1);
	fz_cap_end(&c);
	fz_convert(c.b, c.len);
	return 0;
}
