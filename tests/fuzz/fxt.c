// SPDX-License-Identifier: MIT
/* An FXT file through the reader and `dump`'s printer, records and --stats. */
#include <stdio.h>
#include <stdlib.h>

#include "fxt/dump.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;

	fz_init();
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	fxt_dump(null, "fuzz.fxt", data, size, false);
	fxt_dump(null, "fuzz.fxt", data, size, true);
	return 0;
}
