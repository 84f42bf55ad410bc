// SPDX-License-Identifier: MIT
/*
 * A whole capture file, bytes as given: the reader's framing (header,
 * record lengths, END), then every record and every output through
 * f2t_convert().
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_convert(data, size);
	return 0;
}
