/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The off-CPU programs' stacks: the tables the recorder dumps at the end
 * (kernel stacks by id, user stacks in a stack map), and stacks_of(), the
 * current task's two stack ids, walked or reused.
 *
 * A walk costs more than all the rest of an episode together
 * (bench-offcpu.sh on our VM: about 0.5 us for the kernel stack, 0.2 us for
 * the user one, 0.1 us for everything else), and a thread that blocks again
 * where it blocked before has the same stacks.  So each place a thread
 * blocked or woke another from (a "site") keeps its stack ids, and they are
 * reused after a check that costs a tenth of a walk:
 *  - the same thread, system call, user ip, sp and frame pointer at the
 *    kernel entry, and two innermost frames of the user stack (next frame
 *    pointer and return address): the key of the sites map;
 *  - every kernel return address the walk found on the kernel stack, at the
 *    same place again, counted from the tracepoint's arguments.  The
 *    unwinder follows the return addresses from one place to the next, so
 *    the same ones in the same places make the same walk.  Inside a system
 *    call every frame is at a fixed distance from the arguments; only the
 *    entry's own frame moves (randomize_kstack_offset), and it follows from
 *    the frames inside.
 * User frames further out are not checked: calls from two places at one
 * depth through the same two innermost functions would share a stack.
 * So one reuse in recheck_every, at random, walks anyway and counts a stack
 * that came out different (stacks_stale): a recording says how often it
 * happened.  A
 * stack the check cannot cover (one from an interrupt, one whose frames are
 * not all found) is walked every time.  So is the stack of a user task that
 * is not in a system call: an interrupt from user mode runs on the task's
 * stack, where a waking it does looks like a site, but the user registers
 * are wherever the interrupted program was, and any program (a fuzzer on a
 * loaded machine) calls one leaf from many places at one depth: those were
 * the stale reuses record_offcpu_reuse.sh saw under CPU load.  A system
 * call's user registers are at its wrapper, called from few places.
 * The copy of the top of the user stack (offcpu.bpf.c) is taken at every
 * switch out, reused or not: it holds the return address into the
 * wrapper's caller, below the frame pointer's frame, which the check does
 * not cover (read() called from two functions with the same frame pointer
 * and callers); bench-offcpu.sh prices it.  Taken first, it holds the two
 * user frames of the check too, for most system calls: each read of user
 * memory costs about 0.1 us, and a waking (no copy) still reads them.  A
 * thread's last site of each kind is kept with the thread (struct
 * site_cache), so one that blocks again where it blocked last does not
 * look it up in the sites map.
 */
#ifndef F2T_STACKS_BPF_H
#define F2T_STACKS_BPF_H

#include "counters.bpf.h"

const volatile __u32 kstacks_max = 16384;	/* the kstacks table's entries */
const volatile __u32 recheck_every = 64;	/* one reuse in this many is walked, to check it */

typedef __u64 frames_t[F2T_OFFCPU_MAX_DEPTH];

/*
 * Kernel stacks: a table of distinct stacks (id = index, frames zero
 * padded, as a stack map holds them) and their hashes.  Unlike a stack map
 * it loses no stack to a collision, and walks each stack once (a stack map
 * refuses a stack whose bucket holds another, and the retry without the
 * innermost frames walked it again).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, frames_t);
} kstacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, __u32);
} kstack_ids SEC(".maps");

/* kstacks entries handed out so far (a few past kstacks_max once full). */
__u32 kstacks_used;

/*
 * User stacks: a stack map, whose bucket is the stack's hash; a stack whose
 * bucket holds another is refused (replacing it would change what earlier
 * ids name).
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, F2T_OFFCPU_MAX_DEPTH * sizeof(__u64));
} ustacks SEC(".maps");

/*
 * The id of the kernel stack in F (LEN bytes, the rest zero): the id it
 * got when first seen, or the next free one.  Two stacks with the same
 * 64-bit hash would share an id; with thousands of stacks that is a chance
 * in 10^12.  When two CPUs add the same new stack at once, one id is spent
 * for nothing.  -ENOSPC (counted) once the table is full.
 */
static __always_inline __s32 kernel_stack_id(frames_t *f, long len)
{
	__u64 h = 0xcbf29ce484222325ull;	/* FNV-1a over the frames */
	__u32 id, *known;

	if (len <= 0)
		return (__s32)(len < 0 ? len : -61 /* ENODATA */);
	for (int i = 0; i < F2T_OFFCPU_MAX_DEPTH && i < len / 8; i++)
		h = (h ^ (*f)[i]) * 0x100000001b3ull;
	known = bpf_map_lookup_elem(&kstack_ids, &h);
	if (known)
		return (__s32)*known;
	/* Checked before and after: once full, the count stops growing (it must never wrap). */
	id = kstacks_used < kstacks_max ? __sync_fetch_and_add(&kstacks_used, 1) : kstacks_max;
	if (id >= kstacks_max || bpf_map_update_elem(&kstacks, &id, f, BPF_ANY)) {
		count(F2T_OFFCPU_STACK_COLLISIONS);
		return -28;	/* ENOSPC */
	}
	/*
	 * Another CPU may have added the same stack meanwhile: its id is the
	 * stack's from now on (a site keeping ours would look stale to a walk
	 * that finds theirs), and ours is spent for nothing.
	 */
	if (bpf_map_update_elem(&kstack_ids, &h, &id, BPF_NOEXIST)) {
		known = bpf_map_lookup_elem(&kstack_ids, &h);
		if (known)
			return (__s32)*known;
	}
	return (__s32)id;
}

/*
 * The current task's kernel stack, walked into F (*LEN bytes; frames of the
 * tracing itself first: the decoder drops them).
 */
static __always_inline __s32 kernel_stack(void *ctx, frames_t *f, long *len)
{
	*len = bpf_get_stack(ctx, f, sizeof(*f), 0);
	return kernel_stack_id(f, *len);
}

/*
 * A user stack id.  When the stack's bucket holds another stack (EEXIST),
 * the stack without its innermost frame hashes elsewhere: it is retried
 * once so (counted as shortened).  A stack still refused is counted as lost.
 */
static __always_inline __s32 user_stack(void *ctx)
{
	long id = bpf_get_stackid(ctx, &ustacks, BPF_F_USER_STACK);

	if (id == -17) {
		id = bpf_get_stackid(ctx, &ustacks, BPF_F_USER_STACK | 1);
		count(id == -17 ? F2T_OFFCPU_STACK_COLLISIONS : F2T_OFFCPU_STACKS_SHORTENED);
	}
	return (__s32)id;
}

#define SITE_KFRAMES 32		/* kernel frames a site checks, at most */
#define RAW_WORDS 512		/* kernel stack read above the tracepoint's arguments */

struct site_key {
	__u32 tid;
	__u32 waker;			/* a waking's stacks (not a switch out's) */
	__u64 nr, ip, sp, fp;		/* system call and user registers at the kernel entry */
	__u64 ufp[2], uret[2];		/* two user frames: next frame pointer, return address */
};

struct site {
	__s32 kstack, ustack;
	__u32 nk;			/* kernel frames checked */
	__u16 kpos[SITE_KFRAMES];	/* where, in words above the tracepoint's arguments */
	__u64 kval[SITE_KFRAMES];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, struct site_key);
	__type(value, struct site);
} sites SEC(".maps");

/*
 * A thread's last site of a kind (its switches out, its wakings), kept with
 * the thread (offcpu.bpf.c's task storage): a thread blocking again where
 * it blocked last finds its site there, without the sites map's lookup
 * (hashing the key costs a fifth of a reused site's check).  A copy: kept
 * equal to the map's entry, which only this thread's stacks_of() changes.
 */
struct site_cache {
	struct site_key key;
	struct site site;
};

static __always_inline bool same_key(const struct site_key *a, const struct site_key *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	for (int i = 0; i < sizeof(*a) / 8; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* Room per CPU: a kernel stack walked, the kernel stack read raw, a site made. */
struct scratch {
	frames_t frames;
	__u64 raw[RAW_WORDS];
	struct site site;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/*
 * Reads the kernel stack of TASK (current) into RAW from the tracepoint's
 * arguments (CTX) up, WORDS words at most and not past its saved user
 * registers (REGS, the top of the stack).  Returns the words read: none in
 * an interrupt, whose CTX is on another stack.
 */
static __always_inline __u32 read_kernel_stack(void *ctx, struct task_struct *task,
					       struct pt_regs *regs, __u64 *raw, __u32 words)
{
	__u64 base = (__u64)ctx, top = (__u64)regs + sizeof(*regs);
	__u64 n = base >= (__u64)task->stack && base < top ? (top - base) / 8 : 0;

	if (n > words)
		n = words;
	if (n > RAW_WORDS)
		n = RAW_WORDS;
	if (!n || bpf_probe_read_kernel(raw, n * 8, ctx))
		return 0;
	return (__u32)n;
}

/* Where the walked frames are found: bpf_loop() state of place_frames(). */
struct placing {
	struct scratch *sc;
	__u32 n, nraw;		/* frames to find, words read */
	__u32 i, k;		/* the next frame to find, frames found */
	bool full;		/* found more than a site checks */
};

/* bpf_loop() callback: whether word J is the next frame (1 to stop). */
static long place_word(__u32 j, struct placing *p)
{
	struct scratch *sc = p->sc;
	__u32 at = p->i;
	__u64 w;

	if (!sc || j >= p->nraw || j >= RAW_WORDS || at >= p->n)
		return 1;
	w = sc->raw[j];
	/* (Indices masked for the verifier: F2T_OFFCPU_MAX_DEPTH is 127.) */
	if (!p->k)	/* the first found may come after the program's own */
		for (int d = 0; d < 3 && at + 1 < p->n && w != sc->frames[at & 127]; d++)
			at++;
	if (at >= F2T_OFFCPU_MAX_DEPTH || w != sc->frames[at & 127])
		return 0;
	if (p->k >= SITE_KFRAMES) {
		p->full = true;
		return 1;
	}
	sc->site.kpos[p->k] = (__u16)j;
	sc->site.kval[p->k] = w;
	p->k++;
	p->i = at + 1;
	return 0;
}

/*
 * Where the N frames walked into SC->frames lie in SC->raw (NRAW words),
 * into SC->site.  Up to three first frames may be missing (the program's
 * own, below its arguments); the last, the kernel entry's, is not looked
 * for (its place moves).  False when a frame between is not found, or when
 * there are more than SITE_KFRAMES to check.
 */
static __always_inline bool place_frames(struct scratch *sc, __u32 n, __u32 nraw)
{
	struct placing p = { .sc = sc, .n = n ? n - 1 : 0, .nraw = nraw };

	bpf_loop(RAW_WORDS, place_word, &p, 0);
	sc->site.nk = p.k;
	return p.k && !p.full && p.i == p.n;
}

#if defined(__TARGET_ARCH_x86)
/*
 * A kernel address seen as a BTF type (Linux 6.2), so that each load from
 * it is guarded as bpf_probe_read_kernel()'s are, without a helper call:
 * a site check reads its return addresses so at a third of the cost of
 * copying the stack between them (bench-offcpu.sh, "kernel stack check").
 * Weak: on a kernel without it the recorder loads the programs that copy.
 */
extern void *bpf_rdonly_cast(void *obj, __u32 btf_id) __ksym __weak;
#define CAN_READ_DIRECT 1
#else
#define CAN_READ_DIRECT 0
#endif

/*
 * Whether the kernel stack holds S's return addresses in S's places: read
 * one by one when DIRECT, else copied into RAW from the first to the last.
 */
static __always_inline bool same_kernel_stack(void *ctx, struct task_struct *task,
					      struct pt_regs *regs, struct site *s, __u64 *raw,
					      bool direct)
{
	__u32 nk = s->nk, words;

	if (!nk || nk > SITE_KFRAMES)
		return false;
#if CAN_READ_DIRECT
	if (direct) {
		__u64 base = (__u64)ctx, top = (__u64)regs + sizeof(*regs);

		if (base < (__u64)task->stack || base >= top)
			return false;	/* an interrupt's: no site has it */
		for (__u32 i = 0; i < SITE_KFRAMES && i < nk; i++) {
			__u64 at = base + (__u64)(s->kpos[i] & (RAW_WORDS - 1)) * 8;
			struct pt_regs *w;

			if (at + 8 > top)
				return false;
			/* Any 8-byte field at offset 0 reads the word; 0 if unreadable. */
			w = bpf_rdonly_cast((void *)at, bpf_core_type_id_kernel(struct pt_regs));
			if (w->r15 != s->kval[i])
				return false;
		}
		return true;
	}
#endif
	words = (s->kpos[(nk - 1) & (SITE_KFRAMES - 1)] & (RAW_WORDS - 1)) + 1;
	if (read_kernel_stack(ctx, task, regs, raw, words) != words)
		return false;
	for (__u32 i = 0; i < SITE_KFRAMES && i < nk; i++)
		if (raw[s->kpos[i] & (RAW_WORDS - 1)] != s->kval[i])
			return false;
	return true;
}

/*
 * The two innermost frame-pointer frames of the user stack at FP, into K:
 * taken from COPY (COPY_LEN bytes of the user stack from COPY_AT, the
 * switch out's copy) where they lie in it, else read.  A read from user
 * memory costs about 0.1 us, more than the site's lookup, and the copy
 * holds both frames of most system calls (bench-offcpu.sh).
 */
static __always_inline void user_frames(__u64 fp, struct site_key *k, const __u8 *copy,
					__u64 copy_at, __u32 copy_len)
{
	for (int i = 0; i < 2 && fp; i++) {
		__u64 fr[2], off = fp - copy_at;

		if (copy && fp >= copy_at && off + 16 <= copy_len && off <= F2T_OFFCPU_USTACK_MAX - 16) {
			fr[0] = *(const __u64 *)(copy + off);
			fr[1] = *(const __u64 *)(copy + off + 8);
		} else if (bpf_probe_read_user(fr, sizeof(fr), (void *)fp)) {
			break;
		}
		k->ufp[i] = fr[0];
		k->uret[i] = fr[1];
		fp = fr[0];
	}
}

/*
 * The system call a task is in, by its saved user registers; false when it
 * entered the kernel another way (an exception, or an interrupt that came
 * in on its stack, as one from user mode does on x86_64).  x86_64 saves the
 * number as orig_ax and -ENOSYS as ax until the call returns.
 */
#if defined(__TARGET_ARCH_x86)
#define SYSCALL_NR(regs) ((regs)->orig_ax)
#define IN_SYSCALL(regs) ((long)(regs)->orig_ax >= 0 && (long)(regs)->ax == -38)
#elif defined(__TARGET_ARCH_arm64)
#define SYSCALL_NR(regs) ((regs)->syscallno)
#define IN_SYSCALL(regs) ((int)(regs)->syscallno >= 0)
#else
#define SYSCALL_NR(regs) 0
#define IN_SYSCALL(regs) false
#endif

/**
 * stacks_of() - the current task's kernel and user stack ids, walked or reused
 * @ctx: the tracepoint program's context
 * @task: the current task
 * @regs: its user registers (bpf_task_pt_regs())
 * @waker: the stacks are a waking's (a site apart from the task's switches out)
 * @kstack: its kernel stack id, or why there is none (struct f2t_offcpu_rec)
 * @ustack: likewise for its user stack (-EFAULT for a kernel thread)
 * @direct: check a site's kernel stack by bpf_rdonly_cast(), not by a copy
 * @copy: the top of its user stack, copied already (NULL: none)
 * @copy_len: the bytes in @copy, from its user stack pointer up
 * @last: the task's last site of this kind (NULL: none kept)
 */
static __always_inline void stacks_of(void *ctx, struct task_struct *task, struct pt_regs *regs,
				      bool waker, __s32 *kstack, __s32 *ustack, bool direct,
				      const __u8 *copy, __u32 copy_len, struct site_cache *last)
{
	bool user = !(task->flags & 0x00200000 /* PF_KTHREAD */);
	struct site_key key = {
		.tid = task->pid,
		.waker = waker,
		.nr = SYSCALL_NR(regs),
		.ip = PT_REGS_IP(regs),
		.sp = PT_REGS_SP(regs),
		.fp = PT_REGS_FP(regs),
	};
	/* Only a system call's stacks are sites: see the comment at the top. */
	bool site = !user || IN_SYSCALL(regs);
	struct scratch *sc;
	__u32 zero = 0, nraw;
	struct site *s = NULL;
	bool same;
	long len;

	sc = bpf_map_lookup_elem(&scratch, &zero);
	if (!sc) {
		*kstack = *ustack = -12;	/* ENOMEM: cannot happen */
		return;
	}
	if (user && site)
		user_frames(key.fp, &key, copy, key.sp, copy_len);
	if (site && last && same_key(&last->key, &key)) {
		s = &last->site;
	} else if (site) {
		s = bpf_map_lookup_elem(&sites, &key);
		if (s && last) {
			last->key = key;
			last->site = *s;
			s = &last->site;
		}
	}
	same = s && same_kernel_stack(ctx, task, regs, s, sc->raw, direct);
	if (same && bpf_get_prandom_u32() % recheck_every) {
		*kstack = s->kstack;
		*ustack = s->ustack;
		count(F2T_OFFCPU_STACKS_REUSED);
		return;
	}
	*kstack = kernel_stack(ctx, &sc->frames, &len);
	*ustack = user ? user_stack(ctx) : -14;	/* EFAULT: no user stack */
	if (same) {
		count(F2T_OFFCPU_STACKS_RECHECKED);
		if ((*kstack < 0 || *kstack == s->kstack) && (*ustack < 0 || *ustack == s->ustack))
			return;		/* the site stands (a stack the tables could not keep is no other stack) */
		count(F2T_OFFCPU_STACKS_STALE);
	}
	if (!site || *kstack < 0 || (user && *ustack < 0))
		return;
	sc->site.kstack = *kstack;
	sc->site.ustack = *ustack;
	nraw = read_kernel_stack(ctx, task, regs, sc->raw, RAW_WORDS);
	if (!place_frames(sc, (__u32)((__u64)len / 8), nraw))
		return;
	bpf_map_update_elem(&sites, &key, &sc->site, BPF_ANY);
	if (last) {
		last->key = key;
		last->site = sc->site;
	}
}

#endif
