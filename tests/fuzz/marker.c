// SPDX-License-Identifier: MIT
/* trace_marker text (atrace markers, clock sync) through the marker parser. */
#include "model/marker.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_marker m;

	f2t_marker_parse((const char *)data, size, &m);
	f2t_marker_kind_name(m.kind);
	return 0;
}
