// SPDX-License-Identifier: MIT
/*
 * Sampling events and their rings.  One event per CPU, bound to no task,
 * whatever the scope: a task-bound event is scheduled out and in with its
 * task at every context switch, and for a hardware event in a VM each of
 * those PMU reprogrammings traps to the hypervisor, enough to slow a
 * context-switching command several times over.  The scope's processes
 * are named in PERF_INFO instead, and their samples picked at conversion.
 *
 * No per-sample work while recording:
 * data_head..data_tail is copied out as one capture record (whole perf
 * records, since the kernel only publishes whole ones), and only the record
 * headers are walked, to count samples and losses for the summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif

#include "capture/perf_rec.h"
#include "record/sampler.h"
#include "util/log.h"
#include "util/textbuf.h"

/* 512 KB per CPU holds half a second of 9999 Hz samples with deep stacks. */
#define RING_PAGES_FP	 128
#define RING_PAGES_DWARF 2048

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/* The registers libdw's unwinder starts from; 0 where we cannot unwind. */
static uint64_t user_regs_mask(void)
{
#if defined(__x86_64__)
	/* AX..IP and R8..R15; the segment registers tell an unwinder nothing. */
	return ((1ULL << PERF_REG_X86_64_MAX) - 1) &
	       ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) |
		 (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS) |
		 (1ULL << PERF_REG_X86_FLAGS) | (1ULL << PERF_REG_X86_CS) |
		 (1ULL << PERF_REG_X86_SS));
#else
	return 0;
#endif
}

static void fill_attr(struct perf_event_attr *a, const struct f2t_sampler_opts *o,
		      size_t ring_bytes)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->freq = o->freq != 0;
	a->sample_freq = o->freq;
	a->sample_type = F2T_SAMPLE_TYPE;
	if (o->callgraph == F2T_CG_DWARF) {
		a->sample_type = F2T_SAMPLE_TYPE_DWARF;
		a->sample_regs_user = user_regs_mask();
		a->sample_stack_user = o->stack_bytes;
		/* The kernel's own user frames would duplicate ours. */
		a->exclude_callchain_user = 1;
	}
	a->sample_id_all = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->build_id = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;	/* what ftrace's "mono" clock reads */
	a->disabled = 1;
	/* Wake the poll loop at a quarter full, not per sample. */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 4);
}

/*
 * Opens CPU's event, every task's, and maps its ring.  Returns 0, 1 when
 * the CPU is offline (skipped), or negative errno.
 */
static int open_cpu(struct f2t_sampler *s, struct perf_event_attr *a, int cpu)
{
	struct f2t_sampler_ring *ring = &s->rings[s->nrings];

	ring->fd = perf_open(a, -1, cpu, -1);
	if (ring->fd < 0)
		return errno == ENODEV ? 1 : -errno;
	ring->cpu = cpu;
	ring->len = (size_t)sysconf(_SC_PAGESIZE) + s->data_bytes;
	/* Counted now, so that close_events() closes the fd whatever happens. */
	s->nrings++;
	ring->base = mmap(NULL, ring->len, PROT_READ | PROT_WRITE, MAP_SHARED, ring->fd, 0);
	if (ring->base == MAP_FAILED) {
		ring->base = NULL;
		return -errno;
	}
	return 0;
}

/* The processes in scope now, with their users; their children join later. */
static int seed_traced(struct f2t_sampler *s, const struct f2t_sampler_opts *o)
{
	uid_t uids[4];
	int err = 0;

	switch (o->scope) {
	case F2T_SCOPE_ALL:
		s->traced.all = true;
		break;
	case F2T_SCOPE_COMMAND:
		err = f2t_traced_add(&s->traced, o->child, o->child_uid);
		break;
	case F2T_SCOPE_PIDS:
		for (size_t i = 0; i < o->npids && !err; i++)
			if (!f2t_proc_uids(o->pids[i], uids))
				err = f2t_traced_add(&s->traced, o->pids[i], uids[1]);
		break;
	}
	return err;
}

/*
 * Opens every CPU's event with A.  When the PMU refuses cycles (a VM), the
 * caller retries with cpu-clock.
 */
static int open_all(struct f2t_sampler *s, struct perf_event_attr *a, int ncpus)
{
	int err = 0;

	for (int cpu = 0; cpu < ncpus && err >= 0; cpu++)
		err = open_cpu(s, a, cpu);
	if (err > 0)
		err = 0;
	if (!err && !s->nrings)
		err = -ENODEV;
	return err;
}

static void close_events(struct f2t_sampler *s)
{
	for (size_t i = 0; i < s->nrings; i++) {
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->rings[i].len);
		close(s->rings[i].fd);
	}
	s->nrings = 0;
}

/* The running kernel's build-id, from its ELF notes; "" if unreadable. */
static void kernel_build_id(char *hex, size_t len)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	hex[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	/* Elf64_Nhdr: namesz, descsz, type; name and desc padded to 4. */
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t namesz = f2t_perf_u32(buf + off), descsz = f2t_perf_u32(buf + off + 4);
		uint32_t type = f2t_perf_u32(buf + off + 8);
		size_t name = off + 12, desc = name + ((namesz + 3) & ~3u);

		if (desc + descsz > (size_t)n)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4) && descsz * 2 < len) {
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[desc + i]);
			return;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
}

/* The process PID belongs to (a -p PID may name any of its threads). */
static pid_t tgid_of(pid_t pid)
{
	char path[64], line[128];
	long tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && !tgid && fgets(line, sizeof(line), f))
		sscanf(line, "Tgid: %ld", &tgid);
	if (f)
		fclose(f);
	return tgid > 0 ? (pid_t)tgid : pid;
}

/* "roots=PID[,PID...]\n": whose samples the conversion keeps; "" for all. */
static int format_roots(struct f2t_textbuf *t, const struct f2t_sampler_opts *o)
{
	char num[24];
	int err = 0;

	if (o->scope == F2T_SCOPE_ALL)
		return 0;
	err = f2t_textbuf_add(t, "roots=", 6);
	if (o->scope == F2T_SCOPE_COMMAND) {
		snprintf(num, sizeof(num), "%d", (int)o->child);
		if (!err)
			err = f2t_textbuf_add(t, num, strlen(num));
	}
	for (size_t i = 0; o->scope == F2T_SCOPE_PIDS && i < o->npids && !err; i++) {
		snprintf(num, sizeof(num), "%s%d", i ? "," : "", (int)tgid_of(o->pids[i]));
		err = f2t_textbuf_add(t, num, strlen(num));
	}
	return err ? err : f2t_textbuf_add(t, "\n", 1);
}

static int write_info(struct f2t_sampler *s, const struct f2t_sampler_opts *o,
		      const struct perf_event_attr *a)
{
	static const char *const scopes[] = { "all", "command", "pids" };
	struct f2t_textbuf t = { 0 };
	char text[1024], kbid[128];
	int n, err;

	kernel_build_id(kbid, sizeof(kbid));
	n = snprintf(text, sizeof(text),
		     "event=%s\ntype=%u\nconfig=%llu\nfreq=%u\nsample_type=%llu\n"
		     "regs_user=%llu\nstack_user=%u\ncallgraph=%s\nscope=%s\n"
		     "kernel_build_id=%s\narch=%s\n",
		     s->event, a->type, (unsigned long long)a->config, o->freq,
		     (unsigned long long)a->sample_type,
		     (unsigned long long)a->sample_regs_user, a->sample_stack_user,
		     o->callgraph == F2T_CG_DWARF ? "dwarf" : "fp", scopes[o->scope], kbid,
#if defined(__x86_64__)
		     "x86_64"
#else
		     "other"
#endif
		     );
	err = f2t_textbuf_add(&t, text, (size_t)n);
	if (!err)
		err = format_roots(&t, o);
	if (err) {
		free(t.p);
		return err;
	}
	s->info = t.p;
	s->info_len = t.len;
	return f2t_sampler_write_info(s, s->w);
}

int f2t_sampler_write_info(struct f2t_sampler *s, struct f2t_capw *w)
{
	return f2t_capw_add(w, F2T_CAP_PERF_INFO, 0, s->info, s->info_len);
}

int f2t_sampler_open(struct f2t_sampler *s, const struct f2t_sampler_opts *o, int ncpus,
		     struct f2t_capw *w)
{
	struct perf_event_attr a;
	size_t pages = o->ring_pages;
	int err;

	memset(s, 0, sizeof(*s));
	s->w = w;
	s->scope = o->scope;
	if (o->callgraph == F2T_CG_DWARF && !user_regs_mask()) {
		f2t_err("--call-graph dwarf: not supported on this architecture");
		return -EOPNOTSUPP;
	}
	if (!pages)
		pages = o->callgraph == F2T_CG_DWARF ? RING_PAGES_DWARF : RING_PAGES_FP;
	s->data_bytes = pages * (size_t)sysconf(_SC_PAGESIZE);
	s->rings = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*s->rings));
	s->copy = malloc(s->data_bytes);
	if (!s->rings || !s->copy || seed_traced(s, o)) {
		err = -ENOMEM;
		goto out;
	}
	fill_attr(&a, o, s->data_bytes);
	s->sample_type = a.sample_type;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	snprintf(s->event, sizeof(s->event), "cycles");
	if (!o->freq) {
		/* Address-space records only (for --off-cpu stacks): no sample. */
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_DUMMY;
		snprintf(s->event, sizeof(s->event), "dummy");
	}
	err = open_all(s, &a, ncpus);
	if (o->freq && (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL)) {
		/* No PMU (a VM, most often): the timer does the same job. */
		close_events(s);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		/*
		 * The timer also fires in the idle task, whose samples the
		 * conversion would leave out anyway.  Not asked of cycles: they
		 * do not advance in idle, and some PMUs refuse the bit.
		 */
		a.exclude_idle = o->scope != F2T_SCOPE_ALL;
		snprintf(s->event, sizeof(s->event), "cpu-clock");
		err = open_all(s, &a, ncpus);
	}
	if (err == -EINVAL) {
		/* Kernels before 5.12 know no build_id bit: take dev/inode. */
		close_events(s);
		a.build_id = 0;
		err = open_all(s, &a, ncpus);
	}
	if (err) {
		f2t_err("cannot open the sampling events (%s): %s", s->event, strerror(-err));
		goto out;
	}
	f2t_info("sampling %s at %u Hz, one event per CPU on %zu CPUs (%s call graphs)", s->event,
		 o->freq, s->nrings, o->callgraph == F2T_CG_DWARF ? "dwarf" : "frame-pointer");
	err = write_info(s, o, &a);
out:
	if (err)
		f2t_sampler_close(s);
	return err;
}

int f2t_sampler_enable(struct f2t_sampler *s)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (ioctl(s->rings[i].fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	return 0;
}

void f2t_sampler_disable(struct f2t_sampler *s)
{
	for (size_t i = 0; i < s->nrings; i++)
		ioctl(s->rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

/*
 * Counts samples and losses in LEN bytes of whole records; returns the
 * newest time they hold (0: none).
 */
static uint64_t count_records(struct f2t_sampler *s, const unsigned char *p, size_t len)
{
	uint64_t newest = 0, ts;
	size_t off = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;	/* the decoder will say where */
		s->records++;
		if (h.type == PERF_RECORD_SAMPLE)
			s->samples++;
		else if (h.type == PERF_RECORD_LOST && off + 24 <= len)
			s->lost += f2t_perf_u64(p + off + 16);
		else if (h.type == PERF_RECORD_FORK && off + 16 <= len)
			/* pid, ppid.  Out of memory only costs a JIT map. */
			f2t_traced_fork(&s->traced, (pid_t)f2t_perf_u32(p + off + 8),
					(pid_t)f2t_perf_u32(p + off + 12));
		if (f2t_perf_rec_time(p + off, h.size, h.type, s->sample_type, &ts) && ts > newest)
			newest = ts;
		off += h.size;
	}
	return newest;
}

/* Moves the whole records of LEN bytes at DATA that KEEP says to the front. */
static size_t keep_records(unsigned char *data, size_t len, bool (*keep)(uint32_t type))
{
	size_t off = 0, kept = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;
		if (keep(h.type)) {
			memmove(data + kept, data + off, h.size);
			kept += h.size;
		}
		off += h.size;
	}
	return kept;
}

static bool task_record(uint32_t type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT;
}

/* What a later window's samples are named with: not a sample, not a past count. */
static bool past_record(uint32_t type)
{
	return type != PERF_RECORD_SAMPLE && type != PERF_RECORD_LOST &&
	       type != PERF_RECORD_LOST_SAMPLES && type != PERF_RECORD_THROTTLE &&
	       type != PERF_RECORD_UNTHROTTLE;
}

size_t f2t_sampler_keep_past(unsigned char *data, size_t len)
{
	return keep_records(data, len, past_record);
}

size_t f2t_sampler_keep_tasks(unsigned char *data, size_t len)
{
	return keep_records(data, len, task_record);
}

int f2t_sampler_read(struct f2t_sampler *s, size_t i)
{
	struct f2t_sampler_ring *r = &s->rings[i];
	struct perf_event_mmap_page *meta = r->base;
	const unsigned char *data = (const unsigned char *)r->base + meta->data_offset;
	uint64_t head, tail, size, mask = s->data_bytes - 1, newest;
	size_t at, first;
	int err;

	if (meta->data_size && meta->data_size != s->data_bytes)
		mask = meta->data_size - 1;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	size = head - tail;
	if (!size)
		return 0;
	if (size > mask + 1) {
		/* Cannot happen without overwrite mode; never copy garbage. */
		f2t_err("CPU %d's sample ring is inconsistent (head %llu, tail %llu)", r->cpu,
			(unsigned long long)head, (unsigned long long)tail);
		return -EIO;
	}
	at = (size_t)(tail & mask);
	first = (size_t)size < mask + 1 - at ? (size_t)size : (size_t)(mask + 1 - at);
	memcpy(s->copy, data + at, first);
	memcpy(s->copy + first, data, (size_t)size - first);
	/* The kernel may reuse the space now: the copy is ours. */
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
	newest = count_records(s, s->copy, (size_t)size);
	if (s->win)
		err = f2t_window_add(s->win, (uint32_t)r->cpu, s->copy, (size_t)size, newest);
	else
		err = f2t_capw_add(s->w, F2T_CAP_PERF_DATA, (uint32_t)r->cpu, s->copy,
				   (size_t)size);
	if (err)
		return err;
	s->bytes += size;
	return 0;
}

int f2t_sampler_drain(struct f2t_sampler *s)
{
	int err = 0;

	for (size_t i = 0; i < s->nrings && !err; i++)
		err = f2t_sampler_read(s, i);
	return err;
}

void f2t_sampler_close(struct f2t_sampler *s)
{
	close_events(s);
	free(s->rings);
	free(s->copy);
	free(s->info);
	f2t_traced_free(&s->traced);
	s->rings = NULL;
	s->copy = NULL;
	s->info = NULL;
}
