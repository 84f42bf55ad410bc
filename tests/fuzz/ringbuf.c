// SPDX-License-Identifier: MIT
/*
 * Ring-buffer sub-buffers: a fixed, valid capture (the kernel's header_page
 * and the format files of the sched, task, ftrace, irq and power events we
 * decode, a task snapshot, kernel symbols) around fuzzed CPU_DATA.  The
 * input is cut into 4096-byte sub-buffers (the last one zero-padded),
 * which go to CPU 0 and CPU 1 in turn, so the page decoder, the per-CPU
 * merge, every event decoder and every output see them.
 */
#include <string.h>

#include "capture/capture.h"
#include "fuzz.h"

#define SUBBUF 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;
	static unsigned char page[SUBBUF];

	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_HEADER_PAGE, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_EVENT_FORMAT, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_TASKS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_KALLSYMS, -1, -1);
	for (size_t off = 0, k = 0; off < size; off += SUBBUF, k++) {
		size_t n = size - off < SUBBUF ? size - off : SUBBUF;

		memset(page, 0, sizeof(page));
		memcpy(page, data + off, n);
		fz_cap_add(&c, F2T_CAP_CPU_DATA, (uint32_t)(k & 1), page, SUBBUF);
	}
	fz_cap_end(&c);
	fz_convert(c.b, c.len);
	return 0;
}
