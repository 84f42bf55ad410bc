// SPDX-License-Identifier: MIT
/*
 * The ftrace text input (source/text_*.c): any bytes, opened as ftrace text
 * or as a systrace HTML file when the probes take them, and every event read
 * with its text and fields, as a conversion does.
 */
#include <stdint.h>

#include "source/input.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;

	fz_init();
	if (f2t_html_input.probe(data, head))
		fz_read_input(&f2t_html_input, data, size);
	else if (f2t_text_input.probe(data, head))
		fz_read_input(&f2t_text_input, data, size);
	return 0;
}
