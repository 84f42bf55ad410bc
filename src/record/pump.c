// SPDX-License-Identifier: MIT
/*
 * Sub-buffer mover.  No per-event work: trace_pipe_raw hands out one whole
 * sub-buffer per read(), and those are appended in batches so that one
 * capture write carries up to BATCH_BYTES.  The fds are ours (opened through
 * libtracefs) so the caller can poll() them all; tracefs_cpu does the reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/pump.h"
#include "source/ringbuf/rbpage.h"
#include "util/log.h"

/*
 * Bytes per CPU_DATA record: large enough that a capture write is cheap,
 * small enough that many CPUs do not add up (at most 16 MB in all).
 */
#define BATCH_BYTES_MAX (256 * 1024)
#define BATCH_BYTES_ALL (16 * 1024 * 1024)

static int flush_batch(struct f2t_pump *p, struct f2t_pump_cpu *c)
{
	int err;

	if (!c->used)
		return 0;
	err = f2t_capw_add(p->w, F2T_CAP_CPU_DATA, (uint32_t)c->cpu, c->batch, c->used);
	if (!err) {
		c->bytes += c->used;
		p->bytes += c->used;
	}
	c->used = 0;
	return err;
}

/*
 * A flight recorder's drain (f2t_pump_drain_window()): sub-buffers before
 * FROM_NS are dropped, and the first one read says nothing was missed.
 */
struct window {
	uint64_t from_ns;
	bool first, trimming;
	uint64_t kept_ns;	/* the first kept sub-buffer's time; 0: none yet */
};

/*
 * The sub-buffer just read at DST, as the window sees it: while every
 * earlier one is dropped, the batch holds one, the latest that began at
 * or before the window; it goes when the next one also did.
 */
static unsigned char *window_page(struct f2t_pump *p, struct f2t_pump_cpu *c,
				  struct window *win, unsigned char *dst)
{
	if (win->first)
		f2t_rb_page_clear_missed(dst);
	win->first = false;
	if (win->trimming && f2t_rb_page_time(dst) > win->from_ns)
		win->trimming = false;	/* the one held, if any, is the first kept */
	else if (win->trimming && c->used) {
		memmove(c->batch, dst, p->subbuf);
		c->used = 0;
		dst = c->batch;
	}
	if (win->trimming || !win->kept_ns)
		win->kept_ns = f2t_rb_page_time(dst);
	return dst;
}

/*
 * Moves up to MAX sub-buffers; DRAIN reads with tracefs_cpu_flush(); WIN,
 * when not NULL, keeps only a flight recorder's window.
 */
static int move(struct f2t_pump *p, struct f2t_pump_cpu *c, size_t max, bool drain,
		struct window *win)
{
	int err = 0;

	for (size_t k = 0; k < max; k++) {
		unsigned char *dst = c->batch + c->used;
		int n = drain ? tracefs_cpu_flush(c->tcpu, dst)
			      : tracefs_cpu_read(c->tcpu, dst, true);

		if (n == 0)
			break;	/* empty for now */
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -(errno ? errno : EIO);
			f2t_err("reading CPU %d's ring buffer: %s", c->cpu, strerror(-err));
			break;
		}
		/*
		 * A read of a whole sub-buffer size always returns a whole
		 * sub-buffer (the unused tail zeroed); keep the records a
		 * multiple of it whatever happens.
		 */
		if ((size_t)n < p->subbuf)
			memset(dst + n, 0, p->subbuf - (size_t)n);
		if (win)
			dst = window_page(p, c, win, dst);
		c->used += p->subbuf;
		if (c->used + p->subbuf > p->batch_cap * p->subbuf) {
			err = flush_batch(p, c);
			if (err)
				break;
		}
	}
	if (!err)
		err = flush_batch(p, c);
	return err;
}

int f2t_pump_open(struct f2t_pump *p, struct tracefs_instance *ti, int ncpus,
		  size_t subbuf, unsigned long ring_kb, struct f2t_capw *w)
{
	size_t batch;
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->w = w;
	p->subbuf = subbuf;
	batch = BATCH_BYTES_ALL / (size_t)(ncpus > 0 ? ncpus : 1);
	if (batch > BATCH_BYTES_MAX)
		batch = BATCH_BYTES_MAX;
	p->batch_cap = batch / subbuf ? batch / subbuf : 1;
	p->max_per_read = (size_t)ring_kb * 1024 / subbuf + 1;
	p->c = calloc((size_t)ncpus, sizeof(*p->c));
	if (!p->c)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct f2t_pump_cpu *c = &p->c[p->n];
		char path[64];

		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		c->cpu = cpu;
		/*
		 * Close-on-exec: a recorded command that inherited these fds would
		 * pin the instance (rmdir fails with EBUSY while it runs).
		 */
		c->fd = tracefs_instance_file_open(ti, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->fd >= 0)
			fcntl(c->fd, F_SETFD, FD_CLOEXEC);
		if (c->fd < 0) {
			f2t_info("CPU %d: cannot open %s (%s), skipped", cpu, path, strerror(errno));
			continue;
		}
		c->tcpu = tracefs_cpu_alloc_fd(c->fd, (int)subbuf, true);
		c->batch = malloc(p->batch_cap * subbuf);
		if (!c->tcpu || !c->batch) {
			err = -ENOMEM;
			p->n++;
			goto out;
		}
		p->n++;
	}
	if (!p->n) {
		f2t_err("cannot open any CPU's trace_pipe_raw");
		err = -ENODEV;
	}
out:
	if (err)
		f2t_pump_close(p);
	return err;
}

int f2t_pump_read(struct f2t_pump *p, size_t i)
{
	return move(p, &p->c[i], p->max_per_read, false, NULL);
}

int f2t_pump_drain(struct f2t_pump *p)
{
	int err = 0;

	/* Tracing is off, so this ends; the bound is a guard, not a limit. */
	for (size_t i = 0; i < p->n && !err; i++)
		err = move(p, &p->c[i], 4 * p->max_per_read, true, NULL);
	return err;
}

int f2t_pump_drain_window(struct f2t_pump *p, uint64_t from_ns, unsigned long ring_kb)
{
	/*
	 * Tracing is off, so this ends; the bound is a guard, as in
	 * f2t_pump_drain(), but from the rings' size now: bounded by the
	 * size they had when the pump opened, a grown ring was read only in
	 * part, oldest first, and the newest data, the trigger's, were left.
	 */
	size_t bound = 4 * ((size_t)ring_kb * 1024 / p->subbuf + 1);
	int err = 0;

	p->window_min_ns = p->window_max_ns = 0;
	for (size_t i = 0; i < p->n && !err; i++) {
		struct window win = { .from_ns = from_ns, .first = true, .trimming = from_ns > 0 };

		err = move(p, &p->c[i], bound, true, &win);
		if (!win.kept_ns)
			continue;	/* nothing in this CPU's ring */
		if (!p->window_min_ns || win.kept_ns < p->window_min_ns)
			p->window_min_ns = win.kept_ns;
		if (win.kept_ns > p->window_max_ns)
			p->window_max_ns = win.kept_ns;
	}
	return err;
}

void f2t_pump_close(struct f2t_pump *p)
{
	for (size_t i = 0; p->c && i < p->n; i++) {
		struct f2t_pump_cpu *c = &p->c[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->fd >= 0)
			close(c->fd);
		free(c->batch);
	}
	free(p->c);
	p->c = NULL;
	p->n = 0;
}
