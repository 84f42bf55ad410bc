// SPDX-License-Identifier: MIT
/*
 * A JSON trace through `merge`, merged with itself: both passes (scan for
 * sections and clock_sync events, then the copy with shifted timestamps),
 * the output to /dev/null.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "merge/merge.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	const char *inputs[2] = { path, path };
	struct f2t_merge_opts o = {
		.output = "-", .inputs = inputs, .ninputs = 2, .quiet = true,
	};

	fz_init();
	if (fd < 0) {
		if ((fd = memfd_create("fuzz-trace.json", MFD_CLOEXEC)) < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size))
		abort();
	f2t_merge(&o);
	return 0;
}
