// SPDX-License-Identifier: MIT
/*
 * The Perfetto trace input (source/pftrace/): any bytes the probe takes,
 * opened (the walk of every packet into the index, the bounded protobuf
 * decoder under it) and every event read with its text and fields, as a
 * conversion does.  Seeds: .pftrace files of our writer (the fixtures
 * converted) and of tests/integration/make_pftrace.py.
 */
#include <stdint.h>

#include "source/input.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;

	fz_init();
	if (f2t_pftrace_input.probe(data, head))
		fz_read_input(&f2t_pftrace_input, data, size);
	return 0;
}
