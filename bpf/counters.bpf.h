/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The off-CPU programs' counters (enum f2t_offcpu_counter): one array per
 * CPU, summed by the recorder at the end.
 */
#ifndef F2T_COUNTERS_BPF_H
#define F2T_COUNTERS_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, F2T_OFFCPU_NCOUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&counters, &what);

	if (n)
		(*n)++;
}

#endif
