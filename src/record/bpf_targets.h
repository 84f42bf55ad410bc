/* SPDX-License-Identifier: MIT */
/*
 * The traced processes handed to a BPF program's `targets` map
 * (bpf/targets.bpf.h) before it is attached.  For the libbpf builds only:
 * included by the *_bpf.c loaders, never by their stubs.
 */
#ifndef F2T_BPF_TARGETS_H
#define F2T_BPF_TARGETS_H

#include <bpf/bpf.h>
#include <errno.h>
#include <sys/types.h>

#include "record/sampler.h"

/**
 * f2t_bpf_fill_targets() - the processes whose threads the program watches
 * @fd: the `targets` map
 * @scope: F2T_SCOPE_ALL fills nothing (the program's filter is off)
 * @child: F2T_SCOPE_COMMAND: the held child
 * @pids: F2T_SCOPE_PIDS: the -p processes
 *
 * Return: 0 or negative errno.
 */
static inline int f2t_bpf_fill_targets(int fd, enum f2t_sample_scope scope, pid_t child,
				       const pid_t *pids, size_t npids)
{
	__u8 one = 1;

	if (scope == F2T_SCOPE_COMMAND) {
		__u32 pid = (__u32)child;

		return bpf_map_update_elem(fd, &pid, &one, BPF_ANY) ? -errno : 0;
	}
	for (size_t i = 0; scope == F2T_SCOPE_PIDS && i < npids; i++) {
		__u32 pid = (__u32)pids[i];

		if (bpf_map_update_elem(fd, &pid, &one, BPF_ANY))
			return -errno;
	}
	return 0;
}

#endif
