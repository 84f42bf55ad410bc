// SPDX-License-Identifier: MIT
/* An HTTP request head, as `ftrace2trace open` receives it, through the parser. */
#include <string.h>

#include "serve/httpreq.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_http_req req;
	int n;

	/* Byte by byte growing, as recv() hands it over, then whole. */
	for (size_t len = 1; len < size && len < 64; len++)
		f2t_http_parse((const char *)data, len, &req);
	n = f2t_http_parse((const char *)data, size, &req);
	if (n > 0 && ((size_t)n > size || (size_t)n > F2T_HTTP_HEAD_MAX))
		__builtin_trap();
	if (n > 0) {
		/* The fields point into the head. */
		if (req.target.len > (size_t)n ||
		    (req.host.p && (req.host.p < (const char *)data ||
				    req.host.p + req.host.len > (const char *)data + n)))
			__builtin_trap();
		f2t_http_str_is(req.origin, "https://ui.perfetto.dev");
	}
	return 0;
}
