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

/*
 * How long the stop may spend reading the files of other processes
 * (build-ids, JIT maps): the files left when it is over are skipped, with
 * a warning.  Each open neither blocks nor follows a swapped-in link
 * (util/openreg.h); this bounds the reading of many or slow ones.
 */
#define F2T_SYMSNAP_STOP_NS (5 * 1000000000ULL)

/* A file of the MAPS records, as /proc/PID/maps named it the first time. */
struct f2t_symsnap_file {
	char *path;
	pid_t pid;		/* a process that mapped it ... */
	uint64_t start, end;	/* ... there */
	uint64_t ino;		/* the inode it was */
};

struct f2t_symsnap {
	struct f2t_symsnap_file *files;	/* distinct paths */
	size_t nfiles, cap;
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
 * @s: the files
 * @w: the capture
 * @deadline: CLOCK_MONOTONIC ns after which the files left are skipped
 *
 * Meant for after the stop: it opens every file.  Each is read through
 * /proc/PID/map_files while its process still maps it (the very file that
 * was mapped, whatever its name now names), else through its name when
 * that is still the same inode and not a symlink; only regular files
 * (util/openreg.h).  Others are skipped: a build-id vouches for nothing
 * unless it is the mapped file's.
 *
 * Return: 0 or negative errno.
 */
int f2t_symsnap_build_ids(struct f2t_symsnap *s, struct f2t_capw *w, uint64_t deadline);

/**
 * f2t_symsnap_jit() - the traced processes' /tmp/perf-PID.map as JIT_MAP records
 * @w: the capture
 * @traced: whose maps to read
 * @deadline: CLOCK_MONOTONIC ns after which the maps left are skipped
 *
 * /tmp is everyone's: a map is read only when it is a regular file with a
 * single link (not a symlink, a FIFO or a hard link to another file) owned
 * by the process's user: one of its uids while it runs, the user it ran as
 * (in @traced) once it is gone.  Others are skipped, said with -v.
 *
 * Return: 0 or negative errno.
 */
int f2t_symsnap_jit(struct f2t_capw *w, const struct f2t_traced *traced, uint64_t deadline);

void f2t_symsnap_free(struct f2t_symsnap *s);

#endif
