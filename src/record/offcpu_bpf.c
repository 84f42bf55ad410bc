// SPDX-License-Identifier: MIT
/*
 * Off-CPU recording through libbpf and the skeleton bpftool generated from
 * bpf/offcpu.bpf.c.  While recording, the only work per episode is a copy
 * of its record from its CPU's ring (mapped: capture/offcpu_rec.h) into a
 * batch, in end order across the rings; a batch becomes one OFFCPU_DATA
 * record.
 *
 * Test hooks: F2T_TEST_OFFCPU_STACK_ENTRIES sets the stack map's size; one
 * the kernel refuses (0) exercises the loader's failure path for real.
 * F2T_TEST_OFFCPU_RECHECK=N walks every Nth reuse of a site's stacks (1:
 * every one, so the stale count says how many reuses would have been wrong).
 * F2T_TEST_OFFCPU_USTACK=BYTES copies that much user stack per episode (0
 * to F2T_OFFCPU_USTACK_MAX, whatever the frame pointer), for
 * bench-offcpu.sh to tell the copy's cost.  F2T_TEST_OFFCPU_STACK_COPY=1
 * loads the programs that check a site's kernel stack by a copy, as on a
 * kernel without bpf_rdonly_cast() (bench-offcpu.sh prices it, and the
 * tests run them).  F2T_TEST_OFFCPU_WAKER_STACKS=0 takes no waker's stacks,
 * F2T_TEST_OFFCPU_RING=0 hands no episode to the ring (every episode lost),
 * F2T_TEST_OFFCPU_BARE=1 has the switch and waking programs return at once
 * (no episode at all): bench-offcpu.sh prices each part so.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "offcpu.skel.h"
#include "record/bpf_targets.h"
#include "record/offcpu.h"
#include "util/log.h"
#include "util/minheap.h"
#include "util/vec.h"

#define RING_BYTES (16u << 20)	/* shared out between the CPUs' rings */
#define RING_MIN (1u << 20)
#define RING_MAX (8u << 20)
#define BATCH_BYTES (64u * 1024)
#define BTF_PATH "/sys/kernel/btf/vmlinux"

/*
 * Where a CPU's ring is read: its next record (the heap's key its end),
 * that record's position and bytes, and the ring's head at this read.
 */
struct cursor {
	uint64_t end_ns;
	const struct f2t_offcpu_rec *rec;
	size_t len;
	uint64_t pos, head;
	const unsigned char *ring;
};

struct f2t_offcpu {
	struct offcpu_bpf *skel;
	unsigned char *rings;	/* the CPUs' rings, mapped */
	size_t rings_len;
	uint64_t ring_bytes;	/* each ring's */
	int ncpus;
	struct cursor *at;	/* where each ring is read */
	bool filling;		/* the last read found a ring an eighth full */
	struct f2t_capw *w;
	struct f2t_window *win;	/* a flight recorder's: batches go there */
	unsigned char batch[BATCH_BYTES];
	size_t used;
	uint64_t newest;	/* the batch's latest episode end */
	char info[512];		/* OFFCPU_INFO, for every snapshot's capture */
	int info_len;
	struct f2t_offcpu_counts since;	/* the counts at the last snapshot */
};

/*
 * libbpf's first warning (the cause; later ones say what failed with it),
 * not counting a try it makes again another way.
 */
static char libbpf_first[256];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(libbpf_first)];
	size_t n;

	if (level == LIBBPF_DEBUG && !f2t_verbose)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (level == LIBBPF_WARN && n && !libbpf_first[0] && !strstr(line, "Retrying"))
		memcpy(libbpf_first, line, n + 1);
	f2t_info("%s", line);
	return 0;
}

static int flush(struct f2t_offcpu *oc)
{
	int err;

	if (!oc->used)
		return 0;
	if (oc->win)
		err = f2t_window_add(oc->win, 0, oc->batch, oc->used, oc->newest);
	else
		err = f2t_capw_add(oc->w, F2T_CAP_OFFCPU_DATA, 0, oc->batch, oc->used);
	oc->used = 0;
	oc->newest = 0;
	if (err && oc->win)
		f2t_err("keeping the off-CPU window: %s", strerror(-err));
	else if (err)
		f2t_err("writing off-CPU records into the capture: %s", strerror(-err));
	return err;
}

static int take(struct f2t_offcpu *oc, const struct f2t_offcpu_rec *r, size_t size)
{
	if (oc->used + size > sizeof(oc->batch)) {
		int err = flush(oc);

		if (err)
			return err;
	}
	memcpy(oc->batch + oc->used, r, size);
	oc->used += size;
	if (r->end_ns > oc->newest)
		oc->newest = r->end_ns;
	return 0;
}

static int write_info(struct f2t_offcpu *oc, const struct f2t_offcpu_opts *o)
{
	static const char *const scopes[] = { "all", "command", "pids" };
	struct utsname u;

	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	oc->info_len = snprintf(oc->info, sizeof(oc->info),
				"record_size=%zu\nmin_ns=%llu\nscope=%s\nmax_depth=%d\n"
				"ustack_copy=%u\nustack_fit=%d\narch=%s\n",
				sizeof(struct f2t_offcpu_rec), (unsigned long long)o->min_ns,
				scopes[o->scope], F2T_OFFCPU_MAX_DEPTH,
				oc->skel->rodata->ustack_bytes,
				(int)oc->skel->rodata->ustack_fit, u.machine);
	return f2t_offcpu_capture(oc, oc->w);
}

/*
 * Whether the programs may read a site's kernel stack directly: built for
 * x86_64 (bpf/stacks.bpf.h) and a kernel whose BTF has bpf_rdonly_cast()
 * (Linux 6.2).  Else the twins that copy it load.
 */
static bool can_read_direct(void)
{
#if defined(__x86_64__)
	const char *copy = getenv("F2T_TEST_OFFCPU_STACK_COPY");
	struct btf *vmlinux;
	bool yes;

	if (copy && *copy && strcmp(copy, "0"))
		return false;
	vmlinux = btf__load_vmlinux_btf();
	yes = vmlinux && btf__find_by_name_kind(vmlinux, "bpf_rdonly_cast", BTF_KIND_FUNC) > 0;
	btf__free(vmlinux);
	return yes;
#else
	return false;
#endif
}

/* Each CPU's ring: RING_BYTES shared out, RING_MIN to RING_MAX (a power of two). */
static uint64_t ring_size(int ncpus)
{
	uint64_t n = RING_MIN;

	while (n < RING_MAX && n * 2 * (uint64_t)ncpus <= RING_BYTES)
		n *= 2;
	return n;
}

/* Open, size, load: one line saying what is missing when it fails. */
static int load(struct f2t_offcpu *oc, const struct f2t_offcpu_opts *o)
{
	const char *hook = getenv("F2T_TEST_OFFCPU_STACK_ENTRIES");
	const char *recheck = getenv("F2T_TEST_OFFCPU_RECHECK");
	const char *ustack = getenv("F2T_TEST_OFFCPU_USTACK");
	const char *wstacks = getenv("F2T_TEST_OFFCPU_WAKER_STACKS");
	const char *ring = getenv("F2T_TEST_OFFCPU_RING");
	const char *bare = getenv("F2T_TEST_OFFCPU_BARE");
	int err;

	if (access(BTF_PATH, R_OK) < 0) {
		f2t_err("--off-cpu: the kernel has no BTF (%s: %s); BPF off-CPU recording "
			"needs a kernel built with CONFIG_DEBUG_INFO_BTF", BTF_PATH, strerror(errno));
		return -ENOTSUP;
	}
	libbpf_set_print(libbpf_print);
	libbpf_first[0] = '\0';
	oc->skel = offcpu_bpf__open();
	if (!oc->skel) {
		err = -errno;
		f2t_err("--off-cpu: cannot open the BPF programs: %s", strerror(-err));
		return err;
	}
	oc->skel->rodata->min_ns = o->min_ns;
	oc->skel->rodata->filter = o->scope != F2T_SCOPE_ALL;
	oc->skel->rodata->cpu_ring_bytes = oc->ring_bytes;
	oc->skel->rodata->ustack_bytes = o->ustack_bytes;
	oc->skel->rodata->ustack_fit = !o->ustack_whole;
	if (ustack && *ustack) {
		oc->skel->rodata->ustack_bytes = (__u32)strtoul(ustack, NULL, 10) & ~7u;
		oc->skel->rodata->ustack_fit = false;
	}
	if (wstacks && *wstacks)
		oc->skel->rodata->waker_stacks = strcmp(wstacks, "0") != 0;
	if (ring && *ring)
		oc->skel->rodata->ring_output = strcmp(ring, "0") != 0;
	if (bare && *bare)
		oc->skel->rodata->bare = strcmp(bare, "0") != 0;
	err = bpf_map__set_max_entries(oc->skel->maps.rings, (__u32)oc->ncpus);
	if (!err)
		err = bpf_map__set_value_size(oc->skel->maps.rings,
					      (__u32)(F2T_OFFCPU_RING_HDR + oc->ring_bytes));
	if (!err && hook && *hook) {
		oc->skel->rodata->kstacks_max = (__u32)strtoul(hook, NULL, 10);
		err = bpf_map__set_max_entries(oc->skel->maps.kstacks, oc->skel->rodata->kstacks_max);
	}
	if (can_read_direct()) {
		bpf_program__set_autoload(oc->skel->progs.offcpu_switch_c, false);
		bpf_program__set_autoload(oc->skel->progs.offcpu_waking_c, false);
	} else {
		bpf_program__set_autoload(oc->skel->progs.offcpu_switch, false);
		bpf_program__set_autoload(oc->skel->progs.offcpu_waking, false);
	}
	if (recheck && *recheck)
		oc->skel->rodata->recheck_every = (__u32)strtoul(recheck, NULL, 10) ?: 1;
	if (!err)
		err = offcpu_bpf__load(oc->skel);
	/* EPERM: capabilities or lockdown; as root, EACCES is the verifier's refusal. */
	if (err == -EPERM || (err == -EACCES && geteuid())) {
		f2t_err("--off-cpu: not permitted to load BPF programs (needs root, or "
			"CAP_BPF and CAP_PERFMON)");
	} else if (err) {
		f2t_err("--off-cpu: the kernel refused the BPF programs or maps (%s)%s%s",
			strerror(-err), libbpf_first[0] ? ": " : "", libbpf_first);
	}
	return err;
}

int f2t_offcpu_open(struct f2t_offcpu **out, const struct f2t_offcpu_opts *o,
		    struct f2t_capw *w)
{
	struct f2t_offcpu *oc = calloc(1, sizeof(*oc));
	int err;

	*out = NULL;
	if (!oc)
		return -ENOMEM;
	oc->w = w;
	oc->ncpus = libbpf_num_possible_cpus();
	if (oc->ncpus <= 0) {
		err = oc->ncpus ? oc->ncpus : -EINVAL;
		f2t_err("--off-cpu: cannot count the CPUs: %s", strerror(-err));
		goto out;
	}
	oc->ring_bytes = ring_size(oc->ncpus);
	oc->at = calloc((size_t)oc->ncpus, sizeof(*oc->at));
	if (!oc->at) {
		err = -ENOMEM;
		goto out;
	}
	err = load(oc, o);
	if (err)
		goto out;
	/* The processes whose episodes are kept, when not every task's. */
	err = f2t_bpf_fill_targets(bpf_map__fd(oc->skel->maps.targets), o->scope, o->child,
				   o->pids, o->npids);
	if (err) {
		f2t_err("--off-cpu: cannot fill the process filter: %s", strerror(-err));
		goto out;
	}
	oc->rings_len = (F2T_OFFCPU_RING_HDR + oc->ring_bytes) * (size_t)oc->ncpus;
	oc->rings = mmap(NULL, oc->rings_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bpf_map__fd(oc->skel->maps.rings), 0);
	if (oc->rings == MAP_FAILED) {
		oc->rings = NULL;
		err = -errno;
		f2t_err("--off-cpu: cannot map the rings: %s", strerror(-err));
		goto out;
	}
	err = offcpu_bpf__attach(oc->skel);
	if (err) {
		f2t_err("--off-cpu: cannot attach to the sched_switch, sched_waking and "
			"sched_process_fork tracepoints: %s", strerror(-err));
		goto out;
	}
	err = write_info(oc, o);
	if (err)
		f2t_err("writing the capture: %s", strerror(-err));
out:
	if (err)
		f2t_offcpu_close(oc);
	else
		*out = oc;
	return err;
}

void f2t_offcpu_window(struct f2t_offcpu *oc, struct f2t_window *win)
{
	if (oc)
		oc->win = win;
}

int f2t_offcpu_capture(struct f2t_offcpu *oc, struct f2t_capw *w)
{
	if (!oc)
		return 0;
	oc->w = w;
	return f2t_capw_add(w, F2T_CAP_OFFCPU_INFO, 0, oc->info, (size_t)oc->info_len);
}

int f2t_offcpu_timeout(const struct f2t_offcpu *oc, int ms)
{
	return oc && oc->filling && ms > 10 ? 10 : ms;
}

/* CPU I's ring, mapped: its positions, then its bytes. */
static unsigned char *ring_of(const struct f2t_offcpu *oc, int i)
{
	return oc->rings + (F2T_OFFCPU_RING_HDR + oc->ring_bytes) * (size_t)i;
}

/*
 * Moves the cursor INPUT to the next record of its ring, past the end
 * marks: 1, or 0 at the head (a minheap.h refill).
 */
static int ring_next(void *input, void *ctx)
{
	const struct f2t_offcpu *oc = ctx;
	struct cursor *at = input;

	if (at->rec)
		at->pos += at->len;
	at->rec = NULL;
	while (at->pos < at->head) {
		uint64_t off = at->pos & (oc->ring_bytes - 1);
		const struct f2t_offcpu_rec *r = (const void *)(at->ring + F2T_OFFCPU_RING_HDR + off);

		if (!r->start_ns) {
			at->pos += oc->ring_bytes - off;
			continue;
		}
		at->len = F2T_OFFCPU_REC_BYTES(r->ucopy);
		/* Cannot happen: the program writes only these. */
		if (r->ucopy > F2T_OFFCPU_USTACK_MAX || r->ucopy % 8 || off + at->len > oc->ring_bytes) {
			at->pos = at->head;
			return 0;
		}
		at->rec = r;
		at->end_ns = r->end_ns;
		return 1;
	}
	return 0;
}

int f2t_offcpu_read(struct f2t_offcpu *oc)
{
	struct f2t_minheap heap;
	void *input;
	int err;

	if (!oc)
		return 0;
	err = f2t_minheap_init(&heap, (size_t)oc->ncpus, offsetof(struct cursor, end_ns),
			       ring_next, oc);
	oc->filling = false;
	for (int i = 0; !err && i < oc->ncpus; i++) {
		struct cursor *at = &oc->at[i];

		at->ring = ring_of(oc, i);
		at->rec = NULL;
		at->head = __atomic_load_n((uint64_t *)at->ring, __ATOMIC_ACQUIRE);
		at->pos = *(const uint64_t *)(at->ring + F2T_OFFCPU_RING_TAIL);
		if (at->head - at->pos > oc->ring_bytes)
			at->pos = at->head;	/* cannot happen: the program never overtakes */
		if (at->head - at->pos > oc->ring_bytes / 8)
			oc->filling = true;
		err = f2t_minheap_add(&heap, at);
	}
	/* By end time across the rings; each ring holds its CPU's in that order. */
	while (!err && f2t_minheap_next(&heap, &input) > 0)
		err = take(oc, ((struct cursor *)input)->rec, ((struct cursor *)input)->len);
	f2t_minheap_free(&heap);
	if (err == -ENOMEM)
		f2t_err("--off-cpu: out of memory");
	for (int i = 0; i < oc->ncpus; i++)
		__atomic_store_n((uint64_t *)(ring_of(oc, i) + F2T_OFFCPU_RING_TAIL), oc->at[i].pos,
				 __ATOMIC_RELEASE);
	return err ? err : flush(oc);
}

/*
 * A stack map, or the kernel-stack table (an array: its unused entries
 * hold no frame), as one OFFCPU_STACKS record (arg @which):
 * {u32 id, u32 n, u64 ip[n]}...
 */
static int write_stacks(struct f2t_offcpu *oc, const struct bpf_map *map, uint32_t which)
{
	int fd = bpf_map__fd(map);
	__u64 ips[F2T_OFFCPU_MAX_DEPTH];
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	__u32 key, *prev = NULL;
	int err = 0;

	while (!bpf_map_get_next_key(fd, prev, &key)) {
		__u32 n = 0;

		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, ips))
			continue;	/* removed meanwhile: cannot happen once detached */
		while (n < F2T_OFFCPU_MAX_DEPTH && ips[n])
			n++;
		if (!n)
			continue;
		if (f2t_vec_reserve(&buf, &cap, len + 8 + n * 8, 64 * 1024)) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(buf + len, &key, 4);
		memcpy(buf + len + 4, &n, 4);
		memcpy(buf + len + 8, ips, n * 8);
		len += 8 + n * 8;
	}
	err = f2t_capw_add(oc->w, F2T_CAP_OFFCPU_STACKS, which, buf, len);
out:
	free(buf);
	return err;
}

static int read_counts(struct f2t_offcpu *oc, struct f2t_offcpu_counts *c)
{
	int fd = bpf_map__fd(oc->skel->maps.counters), ncpus = libbpf_num_possible_cpus();
	__u64 *v;
	int err = 0;

	memset(c, 0, sizeof(*c));
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	v = calloc((size_t)ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (__u32 k = 0; k < F2T_OFFCPU_NCOUNTERS && !err; k++) {
		if (bpf_map_lookup_elem(fd, &k, v)) {
			err = -errno;
			break;
		}
		for (int i = 0; i < ncpus; i++)
			c->n[k] += v[i];
	}
	free(v);
	return err;
}

int f2t_offcpu_write_end(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts)
{
	char text[F2T_OFFCPU_NCOUNTERS * 40];	/* "name=N\n": names of 16 bytes at most */
	struct f2t_offcpu_counts now;
	int err, n = 0;

	memset(counts, 0, sizeof(*counts));
	if (!oc)
		return 0;
	err = read_counts(oc, &now);
	if (err) {
		f2t_err("--off-cpu: cannot read the counters: %s", strerror(-err));
		return err;
	}
	for (int k = 0; k < F2T_OFFCPU_NCOUNTERS; k++)
		counts->n[k] = now.n[k] - oc->since.n[k];
	oc->since = now;
	/* Room for every name and a 20-digit count: nothing is cut. */
	for (int k = 0; k < F2T_OFFCPU_NCOUNTERS; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%s=%llu\n",
			      f2t_offcpu_counter_name(k), (unsigned long long)counts->n[k]);
	err = f2t_capw_add(oc->w, F2T_CAP_OFFCPU_INFO, 1, text, (size_t)n);
	if (!err)
		err = write_stacks(oc, oc->skel->maps.kstacks, 0);
	if (!err)
		err = write_stacks(oc, oc->skel->maps.ustacks, 1);
	if (err)
		f2t_err("writing the off-CPU stacks into the capture: %s", strerror(-err));
	return err;
}

int f2t_offcpu_finish(struct f2t_offcpu *oc, struct f2t_offcpu_counts *counts)
{
	int err;

	memset(counts, 0, sizeof(*counts));
	if (!oc)
		return 0;
	offcpu_bpf__detach(oc->skel);
	err = f2t_offcpu_read(oc);
	return err ? err : f2t_offcpu_write_end(oc, counts);
}

void f2t_offcpu_close(struct f2t_offcpu *oc)
{
	if (!oc)
		return;
	if (oc->rings)
		munmap(oc->rings, oc->rings_len);
	offcpu_bpf__destroy(oc->skel);
	free(oc->at);
	free(oc);
}
