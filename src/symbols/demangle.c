// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

/* libstdc++'s abi::__cxa_demangle has C linkage. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *f2t_demangle(const char *name)
{
	int status = 0;
	char *out;

	/* Only Itanium-mangled names; "_Z" also starts a few C names, which fail cleanly. */
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}
