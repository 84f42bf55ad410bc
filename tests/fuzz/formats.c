// SPDX-License-Identifier: MIT
/*
 * One event format file, as a capture's EVENT_FORMAT record holds it
 * ("SYSTEM\0" then the format text), fuzzed; around it a fixed capture whose
 * ring-buffer pages hold real events.  When the fuzzed format keeps the ID
 * of one of them, its records are decoded with the fuzzed field layout and
 * printed with the fuzzed print format.
 */
#include "capture/capture.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;

	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_HEADER_PAGE, -1, -1);
	fz_cap_add(&c, F2T_CAP_EVENT_FORMAT, 0, data, size);
	fz_cap_add_base(&c, F2T_CAP_TASKS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_KALLSYMS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_CPU_DATA, -1, -1);
	fz_cap_end(&c);
	fz_convert(c.b, c.len);
	return 0;
}
