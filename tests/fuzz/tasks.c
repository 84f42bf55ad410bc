// SPDX-License-Identifier: MIT
/* The /proc task snapshot of a capture ("TID TGID COMM" lines). */
#include <stddef.h>

#include "model/tasks.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_tasks *t = f2t_tasks_new();
	int line = 0;

	if (!t)
		return 0;
	f2t_tasks_load_snapshot(t, (const char *)data, size, &line);
	f2t_tasks_free(t);
	return 0;
}
