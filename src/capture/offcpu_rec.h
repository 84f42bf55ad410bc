/* SPDX-License-Identifier: MIT */
/*
 * What the off-CPU BPF programs (bpf/offcpu.bpf.c), the recorder and the
 * decoder agree on: the record the kernel side writes for each blocked
 * episode, the stack-map dump and the counters.  Included by the BPF
 * program too, so it uses the kernel's __u32/__u64 only.
 *
 * Capture records (capture/capture.h):
 *   OFFCPU_INFO   arg 0, at start: "key=value\n" text:
 *                   record_size=88  bytes of an episode record's fixed part
 *                                   (56: a capture from before the user
 *                                   registers and stack copy, whose records
 *                                   end at @cpu and have no tail)
 *                   ustack_copy=N   user stack bytes copied per episode, at most
 *                   ustack_fit=0|1  1: less, to the frame pointer's frame
 *                   arch=MACHINE    uname's machine: what the registers are
 *                   min_ns=N        episodes shorter than this were not kept
 *                   scope=all|command|pids
 *                   max_depth=127   frames per stack at most
 *                 arg 1, at stop: the counters (F2T_OFFCPU_COUNTERS below),
 *                   "name=N\n" each, in their order: episodes=N ...
 *   OFFCPU_DATA   whole records, back to back, by end time (each read of
 *                 the CPUs' rings merged so; give or take the microseconds
 *                 between an episode's end and its write): a struct f2t_offcpu_rec,
 *                 then its @ucopy bytes of user stack, zero padded to a
 *                 multiple of 8
 *   OFFCPU_STACKS a stack map at stop (arg 0: kernel stacks, arg 1: user
 *                 stacks): per stack {u32 id; u32 nframes; u64 ip[nframes]},
 *                 back to back, innermost frame first
 */
#ifndef F2T_OFFCPU_REC_H
#define F2T_OFFCPU_REC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Task states as sched_switch's prev_state field gives them (a bit per
 * letter of "SDTtXZPI"): what the kernel's own trace prints, so the two
 * can be compared.
 */
#define F2T_OFFCPU_S 0x01	/* interruptible sleep */
#define F2T_OFFCPU_D 0x02	/* uninterruptible */
#define F2T_OFFCPU_T 0x04	/* stopped */
#define F2T_OFFCPU_t 0x08	/* traced */
#define F2T_OFFCPU_P 0x40	/* parked */
#define F2T_OFFCPU_I 0x80	/* idle kernel thread */

/* Frames per stack the kernel keeps at most (its PERF_MAX_STACK_DEPTH). */
#define F2T_OFFCPU_MAX_DEPTH 127

/*
 * User stack bytes an episode copies at most (a power of two).  By
 * default, up to the innermost frame-pointer frame's return address when
 * the frame pointer is near (the C library's wrappers, which keep no frame,
 * lie below it: read(), nanosleep() and fdatasync() need 32 to 64 bytes to
 * reach their caller's return address, a pthread join 192), at least
 * F2T_OFFCPU_USTACK_MIN, and F2T_OFFCPU_USTACK_COPY when the frame pointer
 * is not near (code without frame pointers); --call-graph dwarf copies its
 * own size, up to the maximum.  bench-offcpu.sh prices each.
 */
#define F2T_OFFCPU_USTACK_MAX 8192
#define F2T_OFFCPU_USTACK_COPY 512
#define F2T_OFFCPU_USTACK_MIN 128

/*
 * One blocked episode.  Stack ids index the kernel or the user stack map;
 * a negative one says why there is none: -EFAULT no user stack (a kernel
 * thread); -EEXIST a hash collision in the user stack map, -ENOSPC the
 * kernel-stack table full (the stack is lost); -ENOENT no waker;
 * -ENODATA the waker's stacks not taken (the thread had been blocked less
 * than min_ns when woken), or an empty stack.
 * waker_tid 0: no sched_waking was seen (woken by a signal from a task
 * outside the trace, or by the idle task in an interrupt).
 */
struct f2t_offcpu_rec {
	__u64 start_ns;		/* switched out, CLOCK_MONOTONIC */
	__u64 end_ns;		/* switched back in */
	__u32 tid, tgid;
	__u32 waker_tid, waker_tgid;
	__s32 kstack, ustack;
	__s32 waker_kstack, waker_ustack;
	__u32 state;		/* F2T_OFFCPU_S, _D, ... */
	__u32 cpu;		/* where it was switched back in */
	/*
	 * The thread's user registers at the switch out (0 for a kernel
	 * thread), for unwinding its innermost user frames with their CFI:
	 * instruction, stack and frame pointers (x86_64: ip, sp, bp).
	 */
	__u64 uip, usp, ufp;
	__u32 ucopy;		/* user stack bytes that follow, copied from usp up */
	__u32 zero;
};

/* The bytes of a record with its stack copy, in OFFCPU_DATA. */
#define F2T_OFFCPU_REC_BYTES(ucopy) (sizeof(struct f2t_offcpu_rec) + (((ucopy) + 7) & ~7u))

/* The most bytes a record with its stack copy takes. */
#define F2T_OFFCPU_REC_MAX F2T_OFFCPU_REC_BYTES(F2T_OFFCPU_USTACK_MAX)

/*
 * The rings the switch-in program hands records to while recording, one
 * per CPU: the elements of a BPF_F_MMAPABLE array the recorder maps, each
 * F2T_OFFCPU_RING_HDR bytes of positions, then the ring's bytes (a power of
 * two).  The positions are byte counts since the start, never wrapped: the
 * head (at offset 0) the program's, the tail (F2T_OFFCPU_RING_TAIL) the
 * recorder's.  A record lies whole in the ring: where fewer than
 * F2T_OFFCPU_REC_MAX bytes are left before its end, the program writes a
 * start_ns of 0 there and goes on at its start.  One writer per ring (the
 * program, on its CPU with interrupts off) and one reader: no lock.
 */
#define F2T_OFFCPU_RING_HDR 128
#define F2T_OFFCPU_RING_TAIL 64

/* The record size of captures from before the registers and stack copy. */
#define F2T_OFFCPU_REC_V1_BYTES 56

/*
 * The per-CPU counters, listed once: X(ID, "name") for each, in the order
 * of the counter array and of the OFFCPU_INFO text at stop.
 */
#define F2T_OFFCPU_COUNTERS(X)							\
	X(EPISODES, "episodes")			/* records written */		\
	X(DROPPED_RING, "dropped_ring")		/* its CPU's ring full: record lost */ \
	X(DROPPED_MAP, "dropped_map")		/* no task storage: episode lost */ \
	X(STACK_COLLISIONS, "stack_collisions")	/* stack not kept (user: hash	\
						   collision; kernel: table full) */ \
	X(STACKS_SHORTENED, "stacks_shortened")	/* user stack kept without its	\
						   innermost frame */		\
	X(STACKS_REUSED, "stacks_reused")	/* a site's two stacks given again, \
						   not walked */		\
	X(STACKS_RECHECKED, "stacks_rechecked")	/* walked where they could have	\
						   been reused */		\
	X(STACKS_STALE, "stacks_stale")		/* ... and found different from	\
						   the site's */

/* Indices of the per-CPU counter array. */
enum f2t_offcpu_counter {
#define F2T_OFFCPU_ID(id, name) F2T_OFFCPU_##id,
	F2T_OFFCPU_COUNTERS(F2T_OFFCPU_ID)
#undef F2T_OFFCPU_ID
	F2T_OFFCPU_NCOUNTERS
};

/* The counter's name in the OFFCPU_INFO text. */
static inline const char *f2t_offcpu_counter_name(enum f2t_offcpu_counter c)
{
#define F2T_OFFCPU_NAME(id, name) name,
	static const char *const names[] = { F2T_OFFCPU_COUNTERS(F2T_OFFCPU_NAME) };
#undef F2T_OFFCPU_NAME

	return names[c];
}

#endif
