/* SPDX-License-Identifier: MIT */
/*
 * Addresses to names, at conversion: kernel addresses through the saved
 * kallsyms, user addresses through the process's mappings (symbols/maps.h)
 * and the mapped ELF files (symbols/elfsyms.h), JIT code through the saved
 * /tmp/perf-PID.map files.  Each file is read once; a file whose build-id
 * differs from the recorded one is not trusted, and its frames keep their
 * module and offset only.
 */
#ifndef F2T_SYMBOLIZER_H
#define F2T_SYMBOLIZER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/recording.h"
#include "symbols/maps.h"

struct f2t_symbolizer;

struct f2t_sym_stats {
	uint64_t frames;	/* resolved or not */
	uint64_t named;		/* with a function name */
	uint64_t unmapped;	/* user address in no known mapping */
	uint32_t files;		/* ELF files read */
	uint32_t stale_files;	/* build-id differs from the recording's: not used */
	uint32_t missing_files;	/* could not be opened here */
};

/**
 * f2t_symbolizer_new() - a symbolizer over @maps, from what @rec holds
 * @rec: the recording's kallsyms, build-ids, JIT maps and kernel; must
 *	 outlive the symbolizer
 * @debug_root: where separate debug files live (NULL: F2T_DEBUG_ROOT)
 *
 * The build-ids of modules already in @maps, and of those created later,
 * are completed from the recording's build-id list as they are asked for.
 *
 * Return: the symbolizer, or NULL with errno set.
 */
struct f2t_symbolizer *f2t_symbolizer_new(const struct f2t_recording *rec, struct f2t_maps *maps,
					  const char *debug_root);
void f2t_symbolizer_free(struct f2t_symbolizer *s);

/* Frees what the symbolizer hung on a module (for f2t_maps_free()). */
void f2t_symbolizer_free_module_syms(void *syms);

/**
 * f2t_symbolize() - resolve one address into @f
 * @pid: the process (user addresses)
 * @ip: the address
 * @kernel: a kernel address
 * @call: a return address (look up @ip - 1, the call instruction, so a
 *        call at a function's very end is not blamed on the next one)
 *
 * Always fills @f (name or module+offset); never fails.
 */
void f2t_symbolize(struct f2t_symbolizer *s, int32_t pid, uint64_t ip, bool kernel, bool call,
		   struct f2t_frame *f);

/**
 * f2t_symbolizer_build_id() - the build-id recorded for @mod
 *
 * Completed from the recording's build-id list when the mapping record
 * carried none.
 *
 * Return: @mod's build-id, of length 0 when none was recorded.
 */
const struct f2t_build_id *f2t_symbolizer_build_id(struct f2t_symbolizer *s,
						   struct f2t_module *mod);

/**
 * f2t_symbolizer_vdso() - the recorded processes' vDSO image, if we have it
 * @len: out: its size
 *
 * Return: this process's vDSO when this machine runs the recorded kernel
 * (then it is the same code), else NULL.
 */
const void *f2t_symbolizer_vdso(const struct f2t_symbolizer *s, size_t *len);

void f2t_symbolizer_stats(const struct f2t_symbolizer *s, struct f2t_sym_stats *st);

#endif
