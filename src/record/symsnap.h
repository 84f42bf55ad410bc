/* SPDX-License-Identifier: MIT */
/*
 * What symbolization at conversion needs from the recording machine and
 * cannot get from perf records: kernel symbols, the mappings of processes
 * that existed before sampling started (MMAP2 records only come for new
 * mappings), the build-ids of those mapped files, and JIT symbol maps.
 */
#ifndef F2T_SYMSNAP_H
#define F2T_SYMSNAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "record/traced.h"

struct f2t_symsnap {
	char **paths;		/* distinct files in the MAPS records */
	size_t npaths, cap;
};

/**
 * f2t_symsnap_kallsyms() - the kernel's text symbols as a KALLSYMS record
 *
 * Only text symbols (t, T, w, W) are kept: samples land in code only.
 * Warns when the kernel hides the addresses (kptr_restrict).
 *
 * Return: 0 or negative errno (capture write failure).
 */
int f2t_symsnap_kallsyms(struct f2t_capw *w);

/**
 * f2t_symsnap_maps() - executable mappings of processes, one MAPS record each
 * @s: remembers the mapped files for f2t_symsnap_build_ids()
 * @pids: the processes, or NULL for every process
 * @npids: how many
 *
 * Return: 0 or negative errno.
 */
int f2t_symsnap_maps(struct f2t_symsnap *s, struct f2t_capw *w, const pid_t *pids,
		     size_t npids);

/**
 * f2t_symsnap_build_ids() - a BUILD_IDS record for the files of the MAPS records
 *
 * Meant for after the stop: it opens every file.
 *
 * Return: 0 or negative errno.
 */
int f2t_symsnap_build_ids(struct f2t_symsnap *s, struct f2t_capw *w);

/**
 * f2t_symsnap_jit() - the traced processes' /tmp/perf-PID.map as JIT_MAP records
 * @w: the capture
 * @traced: whose maps to read
 *
 * /tmp is everyone's: a map is read only when it is a regular file with a
 * single link (not a symlink, a FIFO or a hard link to another file) owned
 * by the process's user: one of its uids while it runs, the user it ran as
 * (in @traced) once it is gone.  Others are skipped, said with -v.
 *
 * Return: 0 or negative errno.
 */
int f2t_symsnap_jit(struct f2t_capw *w, const struct f2t_traced *traced);

void f2t_symsnap_free(struct f2t_symsnap *s);

#endif
