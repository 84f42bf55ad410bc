// SPDX-License-Identifier: MIT
/*
 * The trace.dat input (source/tracedat/): any bytes that start like a
 * trace.dat, walked by our layout walk and opened by libtracecmd, its
 * pages read by ours (mapped as an exact-size copy, fuzz_common.c), and
 * every event read with its text and fields, as a conversion does.  The
 * input's crash guard turns a crash inside libtracecmd while it opens the
 * file into exit status 1, which libFuzzer reports as a finding: the
 * refusals (tracedat_refusals.c) are where such files get refused.
 */
#include <stdint.h>

#include "source/input.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;

	fz_init();
	if (f2t_tracedat_input.probe(data, head))
		fz_read_input(&f2t_tracedat_input, data, size);
	return 0;
}
