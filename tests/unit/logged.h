/* SPDX-License-Identifier: MIT */
/*
 * For tests of code that reports problems itself: what it said, read back
 * from memory instead of stderr.  logged_start() in a test's setup,
 * logged_stop() in its teardown, logged() to read what was said so far.
 */
#ifndef F2T_TEST_LOGGED_H
#define F2T_TEST_LOGGED_H

#include <stdio.h>
#include <stdlib.h>

#include "util/log.h"

static char *logged_buf;
static size_t logged_len;
static FILE *logged_mem;

static inline void logged_stop(void)
{
	if (logged_mem)
		fclose(logged_mem);
	logged_mem = NULL;
	f2t_log_set_output(NULL);
	free(logged_buf);
	logged_buf = NULL;
}

static inline void logged_start(void)
{
	logged_stop();
	logged_mem = open_memstream(&logged_buf, &logged_len);
	f2t_log_set_output(logged_mem);
}

static inline const char *logged(void)
{
	if (!logged_mem)
		return "";
	fflush(logged_mem);
	return logged_buf ? logged_buf : "";
}

#endif
