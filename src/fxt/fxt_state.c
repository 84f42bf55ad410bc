// SPDX-License-Identifier: MIT
#include <string.h>

#include "fxt/fxt_enc.h"
#include "fxt/fxt_state.h"

int fxt_linux_state(const char *s, bool *canonical)
{
	*canonical = false;
	if (!s)
		return FXT_THREAD_BLOCKED;
	switch (s[0]) {
	case 'R':
		*canonical = !strcmp(s, "R") || !strcmp(s, "R+");
		return FXT_THREAD_RUNNING;
	case 'S':
		*canonical = !strcmp(s, "S");
		return FXT_THREAD_BLOCKED;
	case 'D':
	case 'I':
		return FXT_THREAD_BLOCKED;
	case 'T':
		*canonical = !strcmp(s, "T");
		return FXT_THREAD_SUSPENDED;
	case 't':
		return FXT_THREAD_SUSPENDED;
	case 'Z':
		*canonical = !strcmp(s, "Z");
		return FXT_THREAD_DYING;
	case 'X':
		*canonical = !strcmp(s, "X");
		return FXT_THREAD_DEAD;
	case 'x':
		return FXT_THREAD_DEAD;
	default:
		return FXT_THREAD_BLOCKED;
	}
}
