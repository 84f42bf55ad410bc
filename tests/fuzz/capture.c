// SPDX-License-Identifier: MIT
/*
 * A capture made of fuzzed records, framed by the harness so that mutations
 * land in record bodies rather than in lengths and padding.  The input is a
 * list of records, each {u8 type, u16 len, u32 arg (little-endian), len
 * bytes}; type 0 is the END record (which may be left out, or be followed
 * by more), any other value is one of the capture's record types.  Every
 * kind of record, ring-buffer pages and perf records included, goes through
 * f2t_convert().
 */
#include <string.h>

#include "capture/capture.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;
	size_t off = 0;

	fz_cap_begin(&c);
	while (size - off >= 7) {
		uint32_t type, arg;
		uint16_t len;

		memcpy(&len, data + off + 1, 2);
		memcpy(&arg, data + off + 3, 4);
		if (len > size - off - 7)
			len = (uint16_t)(size - off - 7);
		type = data[off] ? 1 + (data[off] - 1u) % F2T_CAP_TYPE_MAX : F2T_CAP_END;
		fz_cap_add(&c, type, arg, data + off + 7, len);
		off += 7 + (size_t)len;
	}
	fz_convert(c.b, c.len);
	return 0;
}
