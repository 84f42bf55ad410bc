// SPDX-License-Identifier: MIT
/*
 * Flight recorder (flight.h).  The rings are sized from what the kernel
 * says it wrote: per CPU, the events still held plus those overwritten
 * (per_cpu/cpuN/stats: entries + overrun) times the bytes an event takes
 * there (bytes / entries), over the time since arming.  The busiest CPU
 * decides, as every CPU's ring has one size; the rings only grow, and are
 * checked 1, 2, 4, 8 ... s after arming, then every minute, so a workload
 * that speeds up later is followed too.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/flight.h"
#include "record/meta.h"
#include "record/procsnap.h"
#include "util/log.h"

#define NS 1000000000ull
#define CHECK_FIRST_NS NS
#define CHECK_MAX_NS (60 * NS)
/* Room above the rate seen: a burst, the sub-buffer the reader holds. */
#define HEADROOM 1.5
/* An event in the ring, before any has been seen (about 58 bytes measured). */
#define EVENT_BYTES_GUESS 64.0

/* Bytes per second the busiest CPU wrote into its ring since arming. */
static double ring_rate(const struct f2t_flight *f, uint64_t now, double *events)
{
	double best = 0, secs = (double)(now - f->armed_ns) / 1e9;

	*events = 0;
	for (int cpu = 0; cpu < f->inst->ncpus && secs > 0; cpu++) {
		char path[64], *text;
		uint64_t entries, written, bytes;
		double per_event, rate;

		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(f->inst->ti, path, NULL);
		if (!text)
			continue;	/* offline CPU */
		entries = f2t_meta_stat_field(text, "entries");
		written = entries + f2t_meta_stat_field(text, "overrun");
		bytes = f2t_meta_stat_field(text, "bytes");
		free(text);
		per_event = entries ? (double)bytes / (double)entries : EVENT_BYTES_GUESS;
		rate = (double)written * per_event / secs;
		if (rate > best) {
			best = rate;
			*events = (double)written / secs;
		}
	}
	return best;
}

/* The rings grown to hold the window at the rate seen so far. */
static void size_rings(struct f2t_flight *f, uint64_t now)
{
	double events, rate = ring_rate(f, now, &events);
	double hold = f->o.secs + (double)f->o.after_ns / 1e9;
	unsigned long want = (unsigned long)ceil(rate * hold * HEADROOM / 1024.0), was;
	int err;

	if (want <= f->inst->buffer_kb)
		return;
	if (f->o.fixed_size) {
		f2t_warn("flight recorder: %.0f events/s on the busiest CPU: -b %lu holds about "
			 "%.2f s, not %g", events, f->inst->buffer_kb,
			 (double)f->inst->buffer_kb * 1024.0 / rate, f->o.secs);
		f->o.fixed_size = false;	/* said once */
		f->max_kb = f->inst->buffer_kb;
		return;
	}
	if (want > f->max_kb)
		want = f->max_kb;
	if (want <= f->inst->buffer_kb)
		return;
	was = f->inst->buffer_kb;
	err = f2t_inst_resize(f->inst, want);
	if (err) {
		f2t_warn("flight recorder: cannot grow the ring buffers to %lu KB per CPU (%s): "
			 "they hold about %.1f s", want, strerror(-err),
			 (double)was * 1024.0 / rate);
		f->max_kb = was;
		return;
	}
	f->grown_ns = f2t_meta_now();
	if (!f2t_quiet)
		fprintf(stderr, "ftrace2trace: flight recorder: %.0f events/s (%.0f KB/s) on the "
			"busiest CPU; ring buffers grown from %lu to %lu KB per CPU to hold "
			"%g s%s, in %.2f s (the kernel does not trace while it grows them: "
			"windows start after)\n", events, rate / 1024.0, was, f->inst->buffer_kb,
			f->o.secs,
			want == f->max_kb ? " (capped: a quarter of the available memory)" : "",
			(double)(f->grown_ns - now) / 1e9);
}

/* A quarter of MemAvailable, over the CPUs. */
static unsigned long memory_cap_kb(int ncpus)
{
	unsigned long long avail = f2t_inst_mem_available_kb();

	if (!avail || ncpus <= 0)
		return 1ul << 20;
	return (unsigned long)(avail / 4 / (unsigned long long)ncpus);
}

int f2t_flight_open(struct f2t_flight *f, const struct f2t_flight_opts *o, struct f2t_inst *inst)
{
	int err;

	memset(f, 0, sizeof(*f));
	f->o = *o;
	f->inst = inst;
	f->mw.fd = -1;
	f->max_kb = memory_cap_kb(inst->ncpus);
	if (f->max_kb < inst->buffer_kb)
		f->max_kb = inst->buffer_kb;
	/* The kernel's default, said here: the rings keep the newest data. */
	if (tracefs_option_enable(inst->ti, TRACEFS_OPTION_OVERWRITE) < 0) {
		err = -(errno ? errno : EIO);
		f2t_err("flight recorder: cannot set overwrite mode in %s: %s", inst->name,
			strerror(-err));
		return err;
	}
	if (o->marker) {
		err = f2t_markwatch_open(&f->mw, o->marker);	/* says why */
		if (err)
			return err;
	}
	if (o->latency.threshold_ns) {
		err = f2t_latency_open(&f->lat, &o->latency);	/* says why */
		if (err)
			return err;
	}
	return 0;
}

int f2t_flight_arm(struct f2t_flight *f, uint64_t now)
{
	bool first = !f->armed_ns;
	char triggers[192];
	int n;

	f->armed_ns = now;
	f->check_every_ns = CHECK_FIRST_NS;
	f->next_check_ns = now + CHECK_FIRST_NS;
	f->tasks.len = 0;
	if (first && !f2t_quiet) {
		n = snprintf(triggers, sizeof(triggers), "SIGUSR1 (kill -USR1 %d)", (int)getpid());
		if (f->o.marker)
			n += snprintf(triggers + n, sizeof(triggers) - (size_t)n,
				      ", a trace_marker write holding \"%.40s\"", f->o.marker);
		if (f->o.latency.threshold_ns)
			snprintf(triggers + n, sizeof(triggers) - (size_t)n,
				 ", a wakeup latency over %llu us (run queues looked at every %g ms)",
				 (unsigned long long)(f->o.latency.threshold_ns / 1000),
				 (double)f2t_latency_period(f->o.latency.threshold_ns) / 1e6);
		fprintf(stderr, "ftrace2trace: flight recorder armed: the last %g s kept in "
			"%lu KB per CPU (%s); snapshot on %s\n", f->o.secs, f->inst->buffer_kb,
			f->o.fixed_size ? "-b: never grown" : "grown once the event rate is seen",
			triggers);
	}
	return f2t_procsnap_take(&f->tasks);
}

void f2t_flight_pollfds(const struct f2t_flight *f, struct pollfd *pfd)
{
	pfd[0] = (struct pollfd){ .fd = f->mw.fd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = f2t_latency_fd(f->lat), .events = POLLIN };
}

int f2t_flight_timeout_ms(const struct f2t_flight *f, uint64_t now)
{
	uint64_t at = f->due_ns && f->due_ns < f->next_check_ns ? f->due_ns : f->next_check_ns;

	return at <= now ? 0 : (int)((at - now + 999999) / 1000000);
}

/* @s without the marker's field separators. */
static void unseparate(char *s)
{
	for (; *s; s++)
		if (*s == '|' || *s == '\n')
			*s = '/';
}

/* An instant on a track of its own, written while tracing is on. */
static void mark(struct f2t_flight *f, const char *text)
{
	if (tracefs_print_init(f->inst->ti) < 0 ||
	    tracefs_printf(f->inst->ti, "N|%d|ftrace2trace|%s\n", (int)getpid(), text) < 0)
		f2t_warn("flight recorder: cannot mark \"%.40s\" in the trace: %s", text,
			 strerror(errno));
	tracefs_print_close(f->inst->ti);
}

int f2t_flight_trigger(struct f2t_flight *f, const char *cause, uint64_t now)
{
	char text[sizeof(f->cause) + 32];

	if (cause != f->cause)
		snprintf(f->cause, sizeof(f->cause), "%s", cause);
	f->trigger_ns = now;
	f->due_ns = now + f->o.after_ns;
	unseparate(f->cause);
	snprintf(text, sizeof(text), "snapshot trigger: %s", f->cause);
	mark(f, text);
	if (!f2t_quiet)
		fprintf(stderr, "ftrace2trace: snapshot triggered: %s\n", f->cause);
	return 0;
}

/* The first waiting thread the latency trigger reports, or 0; sets f->cause. */
static int find_waiting(struct f2t_flight *f)
{
	struct f2t_latency_rec hit;
	int n;

	while ((n = f2t_latency_read(f->lat, &hit)) > 0) {
		if (hit.kind != F2T_LATENCY_WAITING)
			continue;	/* the end of a wait of an earlier window */
		/*
		 * A wait begun before the rings' last growth is no trigger: the
		 * kernel traced nothing while it grew them (no window can show
		 * the wait's start), and the growth itself may have been what
		 * kept the CPU from the thread.
		 */
		if (hit.at_ns - hit.wait_ns >= f->grown_ns)
			break;
		if (f2t_verbose)
			f2t_info("flight recorder: %s (tid %u) waited %.1f ms to run across the "
				 "rings' growth: not a trigger", hit.comm, hit.tid,
				 (double)hit.wait_ns / 1e6);
	}
	if (n <= 0)
		return n;
	f->waiting_tid = hit.tid;
	snprintf(f->cause, sizeof(f->cause),
		 "%s (tid %u, pid %u) waiting to run for %.1f ms since its wakeup, on CPU %u",
		 hit.comm, hit.tid, hit.tgid, (double)hit.wait_ns / 1e6, hit.cpu);
	return 1;
}

/*
 * The end of the trigger's wait, marked and said: its whole length.  The
 * snapshot then ends --after past it (it shows how the stall ended).
 */
static void wait_ended(struct f2t_flight *f, const struct f2t_latency_rec *hit, uint64_t now)
{
	char text[160];

	if (hit->kind == F2T_LATENCY_GONE)
		snprintf(text, sizeof(text), "wakeup latency of %s (tid %u, pid %u) unknown: "
			 "it ran and exited between two looks", hit->comm, hit->tid, hit->tgid);
	else
		snprintf(text, sizeof(text), "wakeup latency %s%.3f ms of %s (tid %u, pid %u) on CPU %u",
			 hit->kind == F2T_LATENCY_AT_MOST ? "at most " : "",
			 (double)hit->wait_ns / 1e6, hit->comm, hit->tid, hit->tgid, hit->cpu);
	unseparate(text);
	mark(f, text);
	if (!f2t_quiet)
		fprintf(stderr, "ftrace2trace: %s\n", text);
	f->waiting_tid = 0;
	if (now + f->o.after_ns > f->due_ns)
		f->due_ns = now + f->o.after_ns;
}

/* The first trigger of the window, or 0; sets f->cause. */
static int find_trigger(struct f2t_flight *f, const struct pollfd *pfd, bool usr1)
{
	char marker[sizeof(f->cause) - 32];
	int n;

	if (usr1) {
		snprintf(f->cause, sizeof(f->cause), "SIGUSR1");
		return 1;
	}
	n = pfd[0].revents ? f2t_markwatch_read(&f->mw, marker, sizeof(marker)) : 0;
	if (n > 0)
		snprintf(f->cause, sizeof(f->cause), "%s", marker);
	if (n)
		return n;
	/* Not by revents alone: a read may have queued more records than it gave. */
	return find_waiting(f);
}

int f2t_flight_check(struct f2t_flight *f, const struct pollfd *pfd, bool usr1, uint64_t now)
{
	int n = 0;

	if (now >= f->next_check_ns) {
		size_rings(f, now);
		if (f->check_every_ns < CHECK_MAX_NS)
			f->check_every_ns *= 2;
		f->next_check_ns = now + f->check_every_ns;
	}
	if (f->due_ns) {
		/* Later triggers belong to this window: read and let go. */
		char ignored[sizeof(f->cause)];
		struct f2t_latency_rec hit;

		if (pfd[0].revents && f2t_markwatch_read(&f->mw, ignored, sizeof(ignored)) < 0)
			return -EIO;
		while ((n = f2t_latency_read(f->lat, &hit)) > 0)
			if (hit.kind != F2T_LATENCY_WAITING && hit.tid == f->waiting_tid)
				wait_ended(f, &hit, now);
		if (n < 0)
			return -EIO;
		return now >= f->due_ns;
	}
	n = find_trigger(f, pfd, usr1);
	if (n <= 0)
		return n;
	f2t_flight_trigger(f, f->cause, now);
	return now >= f->due_ns;
}

/* SECONDS before @at, not before the arming. */
static uint64_t window_asked(const struct f2t_flight *f, uint64_t at)
{
	uint64_t span = (uint64_t)llround(f->o.secs * 1e9);

	return at > f->armed_ns + span ? at - span : f->armed_ns;
}

/* ... nor before the last growth. */
static uint64_t window_from(const struct f2t_flight *f, uint64_t at)
{
	uint64_t from = window_asked(f, at);

	return from > f->grown_ns ? from : f->grown_ns;
}

uint64_t f2t_flight_window_start(const struct f2t_flight *f)
{
	return window_from(f, f->trigger_ns);
}

uint64_t f2t_flight_window_asked(const struct f2t_flight *f)
{
	return window_asked(f, f->trigger_ns);
}

uint64_t f2t_flight_keep_from(const struct f2t_flight *f, uint64_t now)
{
	return window_from(f, f->trigger_ns ? f->trigger_ns : now);
}

void f2t_flight_taken(struct f2t_flight *f)
{
	f->trigger_ns = f->due_ns = 0;
	f->waiting_tid = 0;
}

char *f2t_flight_name(const char *path, const char *ext, unsigned int k)
{
	size_t len = strlen(path), elen = ext ? strlen(ext) : 0, at;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	char *name;

	/* A name's leading dot (".hidden") starts no extension. */
	if (elen && len - (size_t)(base - path) > elen && !strcmp(path + len - elen, ext))
		at = len - elen;
	else
		at = dot && dot > base ? (size_t)(dot - path) : len;
	name = malloc(len + 16);
	if (name)
		snprintf(name, len + 16, "%.*s-%u%s", (int)at, path, k, path + at);
	return name;
}

void f2t_flight_close_fds(struct f2t_flight *f)
{
	/* Closes descriptors only, detaching nothing the parent still uses. */
	f2t_latency_drop(f->lat);
	f->lat = NULL;
	f2t_markwatch_close_fd(&f->mw);
}

void f2t_flight_close(struct f2t_flight *f)
{
	f2t_latency_close(f->lat);
	f->lat = NULL;
	f2t_markwatch_close(&f->mw);
	free(f->tasks.p);
	f->tasks = (struct f2t_textbuf){ 0 };
}
