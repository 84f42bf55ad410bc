/* SPDX-License-Identifier: MIT */
/*
 * JIT symbols: the /tmp/perf-PID.map text a JIT writes ("START SIZE NAME"
 * lines, hex numbers), as the recorder saved it.
 */
#ifndef F2T_JITMAP_H
#define F2T_JITMAP_H

#include <stddef.h>
#include <stdint.h>

struct f2t_jitmap;

/* Parses TEXT (copied).  Bad lines are skipped.  NULL + errno on ENOMEM. */
struct f2t_jitmap *f2t_jitmap_parse(const char *text, size_t len);
void f2t_jitmap_free(struct f2t_jitmap *j);
/* The name of the code at @addr, or NULL.  @off: @addr minus its start. */
const char *f2t_jitmap_lookup(const struct f2t_jitmap *j, uint64_t addr, uint64_t *off);

#endif
