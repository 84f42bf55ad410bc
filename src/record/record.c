// SPDX-License-Identifier: MIT
/*
 * The recording run.  Order matters and is the point of this file:
 *   checks that cost nothing (access, command, -p, -e, every output
 *   writable) -> stale instances -> our instance, tracing off -> events,
 *   formats, readers -> child forked and held -> tracing on -> release the
 *   child -> move sub-buffers until a stop condition -> tracing off, drain,
 *   stats, META -> instance removed -> root dropped (under sudo) -> convert.
 * One cleanup path removes the instance on every exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "record/sampler.h"
#include "record/symsnap.h"
#include "record/child.h"
#include "record/events.h"
#include "record/flight.h"
#include "record/instance.h"
#include "record/meta.h"
#include "record/offcpu.h"
#include "record/pidwatch.h"
#include "record/procsnap.h"
#include "record/progress.h"
#include "record/pump.h"
#include "record/record.h"
#include "record/signals.h"
#include "record/syncmark.h"
#include "record/ttyrelay.h"
#include "record/window.h"
#include "report/report.h"
#include "output/format.h"
#include "serve/serve.h"
#include "util/termwidth.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/sudo.h"

#define POLL_MS 100
#define SWEEP_NS 1000000000ULL	/* read every CPU at least this often */

enum stop_reason { STOP_NONE, STOP_COMMAND, STOP_PIDS, STOP_DURATION, STOP_SIGNAL };

struct run {
	const struct f2t_record_opts *o;
	struct f2t_inst inst;
	struct f2t_evlist events;
	struct f2t_capw *capw;
	char cap_path[PATH_MAX];	/* what f2t_convert() reads */
	int cap_fd;			/* keeps the unnamed temporary capture alive */
	/* Where each output will be renamed to (NULL: written through), to
	 * refuse two names for one file. */
	char *out_names[F2T_MAX_OUTPUTS];
	struct f2t_pump pump;
	struct f2t_sampler sampler;	/* nrings 0: not sampling */
	struct f2t_offcpu *offcpu;	/* NULL: no --off-cpu */
	struct f2t_offcpu_counts offcpu_counts;
	struct f2t_symsnap symsnap;
	struct f2t_child child;
	struct f2t_runas runas;		/* who the command runs as */
	struct f2t_tty tty;		/* its session and terminal */
	struct f2t_pidwatch watch;
	struct f2t_meta meta;
	struct f2t_progress prog;
	char *cmdline;
	uint64_t lost;
	uint64_t samples, samples_lost;	/* copied before the sampler closes */
	char sampling[128];		/* what was sampled and how, for the summary */
	size_t ncpus_read;		/* CPUs whose ring we read */
	int exit_code;			/* when not 0/1 */
	/* --flight-recorder */
	bool flight_on;
	struct f2t_flight flight;
	unsigned int snapshots;		/* taken so far */
	bool flight_done;		/* the last one is the capture to convert */
	struct f2t_convert_opts conv;	/* what convert() writes: -o, or a snapshot's names */
	char *snap_names[F2T_MAX_OUTPUTS];	/* NAME-K.EXT of the snapshot converted here */
	pid_t converters[64];		/* snapshots converted apart, not reaped yet */
	size_t nconverters;
	bool converter_failed;
	char *keep;			/* -k FILE-K of snapshot K */
	/* What the perf and off-CPU rings gave, held until a snapshot (record/window.h) */
	struct f2t_window perf_win, offcpu_win;
	size_t win_max;			/* bytes both may hold: an eighth of the available memory */
	bool win_short;			/* they held less than the window (said once) */
	uint64_t lost_before, bytes_before;	/* the kernel's counts at the last snapshot */
	uint64_t maps_ns;		/* when the capture's MAPS were read, after the first */
};

/* Is NAME (canonical) where one of the first N outputs goes? */
static bool same_as_output(const struct run *r, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (r->out_names[i] && !strcmp(r->out_names[i], name))
			return true;
	return false;
}

/*
 * Tries every output now, so that a typo in a path fails before anything
 * is traced: the temporary file each will be written to is created, then
 * removed.  Nothing appears under an output's name before the conversion
 * is complete.
 */
static int check_outputs(struct run *r)
{
	const struct f2t_convert_opts *c = &r->o->conv;

	for (unsigned int i = 0; i < c->noutputs; i++) {
		const char *path = c->outputs[i].path;
		struct f2t_outfile f;
		bool renamed;
		int err;

		if (!strcmp(path, "-"))
			continue;
		err = f2t_outfile_open(&f, path, 0);
		if (err) {
			f2t_err("cannot write %s: %s", path, strerror(-err));
			return err;
		}
		renamed = f.tmp != NULL;
		if (renamed && same_as_output(r, i, f.path)) {
			f2t_outfile_abort(&f);
			f2t_err("%s is given twice as an output", path);
			return -EINVAL;
		}
		r->out_names[i] = renamed ? strdup(f.path) : NULL;
		f2t_outfile_abort(&f);
		if (renamed && !r->out_names[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * -k FILE, or FILE-K for snapshot K when a flight recorder takes several;
 * NULL without -k.
 */
static const char *keep_name(struct run *r)
{
	const char *keep = r->o->keep_capture;

	if (!keep || !r->flight_on || r->o->max_snapshots <= 1)
		return keep;
	free(r->keep);
	r->keep = f2t_flight_name(keep, NULL, r->snapshots + 1);
	return r->keep ? r->keep : keep;
}

/*
 * The capture goes to -k FILE, or to an unnamed temporary file next to the
 * first output (a directory we know is writable, and on the same disk as
 * the result rather than in a possibly RAM-backed /tmp), read back through
 * /proc/self/fd: no run, not even a killed one, leaves it behind.
 */
static int open_capture(struct run *r, const char *keep)
{
	const char *tmpdir = getenv("TMPDIR");
	char near[PATH_MAX];
	int err;

	if (r->out_names[0])
		snprintf(near, sizeof(near), "%s", r->out_names[0]);
	else
		snprintf(near, sizeof(near), "%s/capture", tmpdir && *tmpdir ? tmpdir : "/tmp");
	r->capw = f2t_capw_open(keep ? keep : near, !keep);
	if (!r->capw) {
		err = -errno;
		f2t_err("cannot write %s: %s", keep ? keep : near, strerror(errno));
		return err;
	}
	if (keep) {
		r->cap_fd = -1;
		/* Converting a capture into itself would read what it overwrites. */
		if (same_as_output(r, r->o->conv.noutputs, f2t_capw_name(r->capw))) {
			f2t_err("-k %s is also an output", keep);
			return -EINVAL;
		}
		snprintf(r->cap_path, sizeof(r->cap_path), "%s", f2t_capw_name(r->capw));
		return 0;
	}
	r->cap_fd = fcntl(f2t_capw_fd(r->capw), F_DUPFD_CLOEXEC, 0);
	if (r->cap_fd < 0) {
		err = -errno;
		f2t_err("%s: %s", f2t_capw_name(r->capw), strerror(errno));
		return err;
	}
	snprintf(r->cap_path, sizeof(r->cap_path), "/proc/self/fd/%d", r->cap_fd);
	return 0;
}

/*
 * The capture could not be written: one line naming it, with how far the
 * recording got.  Nothing more is written to it (its error is sticky).
 */
static void capture_error(const struct run *r, const char *name, uint64_t bytes, int err)
{
	char size[32];

	f2t_human_bytes(bytes, size, sizeof(size));
	if (r->meta.start_ns)
		f2t_err("%s%s: %s; recording stopped after %.2f s, %s captured", name,
			r->o->keep_capture ? "" : " (the temporary capture)", strerror(-err),
			(double)(f2t_meta_now() - r->meta.start_ns) / 1e9, size);
	else
		f2t_err("%s%s: %s, before recording started", name,
			r->o->keep_capture ? "" : " (the temporary capture)", strerror(-err));
}

/* A stop signal before tracing started: nothing to convert; exit as 128 + signal. */
static int interrupted(struct run *r)
{
	int sig = f2t_sig_received();

	f2t_err("interrupted (%s) before recording started", strsignal(sig));
	r->exit_code = 128 + sig;
	return -EINTR;
}

static int build_cmdline(struct run *r)
{
	const struct f2t_record_opts *o = r->o;

	if (o->command) {
		r->cmdline = f2t_meta_join_cmdline(o->command);
	} else if (o->npids) {
		size_t len = 4 + o->npids * 12;

		r->cmdline = malloc(len);
		if (r->cmdline) {
			int at = snprintf(r->cmdline, len, "-p ");

			for (size_t i = 0; i < o->npids; i++)
				at += snprintf(r->cmdline + at, len - (size_t)at, "%s%d",
					       i ? "," : "", (int)o->pids[i]);
		}
	} else {
		r->cmdline = strdup("-a");
	}
	return r->cmdline ? 0 : -ENOMEM;
}

static int command_error(const char *cmd, int err)
{
	f2t_err("cannot run %s: %s", cmd, strerror(-err));
	return err == -ENOENT ? 127 : 126;
}

/* Whose samples and off-CPU episodes are kept: COMMAND's, the -p ones', or all. */
static enum f2t_sample_scope scope_of(const struct f2t_record_opts *o)
{
	if (!o->sample_all && o->command)
		return F2T_SCOPE_COMMAND;
	if (!o->sample_all && o->npids)
		return F2T_SCOPE_PIDS;
	return F2T_SCOPE_ALL;
}

/*
 * The sampling events, opened disabled once the child exists (the command
 * scope names it as its root).  Sampling that was not asked for by name
 * and cannot start is only a warning: the scheduling trace still works.
 * --off-cpu with no sampling still opens them, sampling nothing: their
 * mapping records name the user frames of the off-CPU stacks.
 */
static int open_sampler(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	struct f2t_sampler_opts so = {
		.freq = o->sample_freq,
		.callgraph = o->dwarf ? F2T_CG_DWARF : F2T_CG_FP,
		.stack_bytes = o->stack_bytes ? o->stack_bytes : F2T_RECORD_DEFAULT_STACK,
		.scope = scope_of(o),
		.child = r->child.pid,
		.pids = o->pids,
		.npids = o->npids,
	};
	int err;

	if (!o->sample_freq && !o->off_cpu)
		return 0;
	so.child_uid = r->runas.change ? r->runas.id.uid : geteuid();
	err = f2t_sampler_open(&r->sampler, &so, r->inst.ncpus, r->capw);
	if (err && !o->sample_freq_given && !f2t_capw_error(r->capw) && !f2t_resource_error(err)) {
		f2t_warn("recording without CPU samples (--no-sample silences this)");
		return 0;
	}
	if (!err)
		err = f2t_symsnap_kallsyms(r->capw);
	return err;
}

/* What every capture begins with: the formats, header_page, printk formats. */
static int capture_header(struct run *r)
{
	/* A capture write error is reported once, by f2t_record_run(). */
	int err = f2t_events_write_formats(&r->events, r->capw);

	if (!err)
		err = f2t_meta_write_static(r->capw);
	if (err == -ENOMEM)
		f2t_err("out of memory");
	return err;	/* header_page unreadable: said so */
}

/* Everything up to (not including) tracing on. */
static int setup(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	int err;

	err = capture_header(r);
	if (err)
		return err;
	/*
	 * Fork before opening the readers: a child held at its gate has not
	 * exec'd yet, so close-on-exec has not dropped inherited fds, and
	 * trace_pipe_raw fds held there would keep the instance busy.
	 */
	if (o->command) {
		/* Another user's command must not reach our terminal (record/ttyrelay.h). */
		err = f2t_tty_open(&r->tty, r->runas.change && r->runas.id.uid != geteuid(),
				   r->runas.id.uid);
		if (err) {
			f2t_err("cannot make a pseudo-terminal for %s: %s", o->command[0],
				strerror(-err));
			return err;
		}
		err = f2t_child_spawn(&r->child, o->command, &r->runas, &r->tty);
		if (err && r->child.drop_failed)
			f2t_err("cannot run %s as user %s: %s", o->command[0], r->runas.id.name,
				strerror(-err));
		else if (err)
			f2t_err("cannot start %s: %s", o->command[0], strerror(-err));
		if (err)
			return err;
		err = f2t_functrace_follow(r->inst.ti, &o->func, &r->child.pid, 1);
		if (err)
			return err;
	}
	if (o->off_cpu) {
		struct f2t_offcpu_opts oo = {
			.min_ns = o->off_cpu_min_ns, .scope = scope_of(o), .child = r->child.pid,
			.pids = o->pids, .npids = o->npids,
			.ustack_bytes = F2T_OFFCPU_USTACK_COPY,
		};

		/* --call-graph dwarf: off-CPU stacks unwound as samples are, as far as they can. */
		if (o->dwarf) {
			oo.ustack_bytes = o->stack_bytes && o->stack_bytes < F2T_OFFCPU_USTACK_MAX
						  ? o->stack_bytes : F2T_OFFCPU_USTACK_MAX;
			oo.ustack_whole = true;
		}
		err = f2t_offcpu_open(&r->offcpu, &oo, r->capw);	/* prints its errors */
		if (err)
			return err;
	}
	if (r->flight_on) {
		struct f2t_flight_opts fo = {
			.secs = o->flight_secs, .after_ns = (uint64_t)o->after_ms * 1000000,
			.fixed_size = o->buffer_kb != 0, .marker = o->trigger_marker,
			.latency = { .threshold_ns = o->trigger_latency_ns, .scope = scope_of(o),
				     .ncpus = r->inst.ncpus,
				     .child = r->child.pid, .pids = o->pids, .npids = o->npids },
		};

		err = f2t_flight_open(&r->flight, &fo, &r->inst);	/* prints its errors */
		if (err)
			return err;
	}
	err = f2t_pump_open(&r->pump, r->inst.ti, r->inst.ncpus, (size_t)r->inst.subbuf_size,
			    r->inst.buffer_kb, r->capw);
	if (!err)
		err = open_sampler(r);
	/*
	 * Function events are named at conversion from kallsyms, like kernel
	 * frames, and so are the %ps fields of -e tracepoints (a timer's
	 * function); sampling saves it already when it runs.
	 */
	if (!err && (o->func.mode != F2T_FUNCTRACE_OFF || o->nevents) && !r->sampler.nrings)
		err = f2t_symsnap_kallsyms(r->capw);
	if (r->flight_on) {
		/* Nothing to disk while armed: the rings are read into windows. */
		r->perf_win = (struct f2t_window){ .type = F2T_CAP_PERF_DATA,
						   .keep = f2t_sampler_keep_past };
		r->offcpu_win = (struct f2t_window){ .type = F2T_CAP_OFFCPU_DATA };
		r->sampler.win = &r->perf_win;
		f2t_offcpu_window(r->offcpu, &r->offcpu_win);
		r->win_max = (size_t)(f2t_inst_mem_available_kb() * 1024 / 8);
		if (!r->win_max)
			r->win_max = 256u << 20;
	}
	return err;
}

static enum stop_reason stop_condition(struct run *r, uint64_t now, uint64_t deadline)
{
	if (f2t_sig_received())
		return STOP_SIGNAL;
	if (r->child.pid && f2t_child_check(&r->child))
		return STOP_COMMAND;
	if (r->o->npids && !f2t_pidwatch_alive(&r->watch))
		return STOP_PIDS;
	if (deadline && now >= deadline)
		return STOP_DURATION;
	return STOP_NONE;
}

/*
 * The first entries of a recording loop's poll set, what can stop it: the
 * signals' self-pipe (pfd[0]), the command (pfd[1]), the -p processes.
 * Returns how many.  A command Ctrl-Z stopped goes on first: we stopped as
 * we would have, and it goes on when we do.
 */
static size_t stop_fds(struct run *r, struct pollfd *pfd)
{
	size_t n = 0;

	if (r->child.stopped && f2t_tty_suspend(&r->tty))
		f2t_child_signal(&r->child, SIGCONT);
	r->child.stopped = 0;
	pfd[n++] = (struct pollfd){ .fd = f2t_sig_fd(), .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = r->child.pid ? r->child.pidfd : -1, .events = POLLIN };
	for (size_t i = 0; i < r->watch.n; i++)
		pfd[n++] = (struct pollfd){ .fd = r->watch.gone[i] ? -1 : r->watch.fds[i],
					    .events = POLLIN };
	return n;
}

/*
 * Polls the N entries of @pfd and the terminal's (added after them) for at
 * most TIMEOUT ms, less when the -d DEADLINE comes first; sets @now, and
 * relays the terminal.  Returns 0 or negative errno (said).
 */
static int wait_once(struct run *r, struct pollfd *pfd, size_t n, int timeout,
		     uint64_t deadline, uint64_t *now)
{
	f2t_tty_pollfds(&r->tty, pfd + n);
	if (deadline && deadline - *now < (uint64_t)timeout * 1000000)
		timeout = (int)((deadline - *now + 999999) / 1000000);
	if (poll(pfd, n + F2T_TTY_NPOLL, timeout) < 0 && errno != EINTR) {
		int err = -errno;

		f2t_err("poll: %s", strerror(-err));
		return err;
	}
	*now = f2t_meta_now();
	if (f2t_tty_relay(&r->tty, pfd + n))
		f2t_child_signal(&r->child, SIGSTOP);	/* Ctrl-Z: we stop with it, in stop_fds() */
	return 0;
}

/*
 * The perf rings' poll entries at PFD; returns how many.  The off-CPU rings
 * have none: they are read on every pass (f2t_offcpu_timeout()).
 */
static size_t reader_fds(const struct run *r, struct pollfd *pfd)
{
	size_t n = 0;

	for (size_t i = 0; i < r->sampler.nrings; i++)
		pfd[n++] = (struct pollfd){ .fd = r->sampler.rings[i].fd, .events = POLLIN };
	return n;
}

/* Reads the perf rings reader_fds() found ready (every one at a SWEEP), and the off-CPU rings. */
static int read_readers(struct run *r, const struct pollfd *pfd, bool sweep)
{
	int err = 0;

	for (size_t i = 0; i < r->sampler.nrings && !err; i++)
		if (pfd[i].revents || sweep)
			err = f2t_sampler_read(&r->sampler, i);
	return err ? err : f2t_offcpu_read(r->offcpu);
}

/* Moves data until a stop condition holds.  Returns 0 or negative errno. */
static int pump_loop(struct run *r)
{
	size_t max = 2 + F2T_TTY_NPOLL + r->watch.n + r->pump.n + r->sampler.nrings;
	struct pollfd *pfd = calloc(max, sizeof(*pfd));
	uint64_t deadline = 0, next_sweep, now = f2t_meta_now();
	enum stop_reason why = STOP_NONE;
	int err = 0;

	if (!pfd)
		return -ENOMEM;
	if (r->o->duration > 0)
		deadline = r->meta.start_ns + (uint64_t)llround(r->o->duration * 1e9);
	next_sweep = now + SWEEP_NS;
	while (!err && (why = stop_condition(r, now, deadline)) == STOP_NONE) {
		size_t n, cpu0, ring0;
		int timeout = f2t_offcpu_timeout(r->offcpu, POLL_MS);

		n = stop_fds(r, pfd);
		cpu0 = n;
		for (size_t i = 0; i < r->pump.n; i++)
			pfd[n++] = (struct pollfd){ .fd = r->pump.c[i].fd, .events = POLLIN };
		ring0 = n;
		n += reader_fds(r, pfd + n);
		err = wait_once(r, pfd, n, timeout, deadline, &now);
		if (err)
			break;
		for (size_t i = 0; i < r->pump.n && !err; i++)
			if (pfd[cpu0 + i].revents || now >= next_sweep)
				err = f2t_pump_read(&r->pump, i);	/* prints its errors */
		if (!err)
			err = read_readers(r, pfd + ring0, now >= next_sweep);
		if (now >= next_sweep)
			next_sweep = now + SWEEP_NS;
		f2t_progress_update(&r->prog, now, (double)(now - r->meta.start_ns) / 1e9,
				    r->pump.bytes);
	}
	f2t_tty_finish(&r->tty);
	/* The terminal's Ctrl-C or hang-up reached the command too, before it had a session. */
	if (why == STOP_SIGNAL && f2t_sig_from_kernel())
		f2t_child_signal(&r->child, f2t_sig_received());
	f2t_info("stopping: %s", why == STOP_COMMAND ? "the command exited" :
		 why == STOP_PIDS ? "the -p processes exited" :
		 why == STOP_DURATION ? "duration reached" :
		 why == STOP_SIGNAL ? "signal" : "error");
	free(pfd);
	return err;
}

/* "cpu-clock, 999 Hz on each CPU; the command's processes' kept at conversion" */
static void describe_sampling(struct run *r)
{
	const char *kept = r->sampler.scope == F2T_SCOPE_COMMAND ?
				   "; the command's processes' kept at conversion" :
			   r->sampler.scope == F2T_SCOPE_PIDS ?
				   "; the -p processes' kept at conversion" : ", every task's kept";

	if (!r->sampler.nrings)
		snprintf(r->sampling, sizeof(r->sampling), "off");
	else
		snprintf(r->sampling, sizeof(r->sampling), "%s, %u Hz on each CPU%s",
			 r->sampler.event, r->o->sample_freq, kept);
}

/* The capture complete: closed, or its error said. */
static int close_capture(struct run *r)
{
	char *name = strdup(f2t_capw_name(r->capw));
	uint64_t bytes = f2t_capw_bytes(r->capw);
	int err = f2t_capw_close(r->capw);

	r->capw = NULL;
	if (err)
		capture_error(r, name ? name : "the capture", bytes, err);
	free(name);
	return err;
}

/* Whose recording this is, for the report: "PID[,PID...]"; NULL for -a or ENOMEM. */
static char *pid_list(const struct run *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!r->o->command && !r->o->npids)
		return NULL;
	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	if (r->o->command)
		fprintf(f, "%d", (int)r->child.pid);
	for (size_t i = 0; i < r->o->npids; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)r->o->pids[i]);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * What the samples' frames are named with that only the stop can read: the
 * build-ids of the files mapped at start, the JIT maps.  The workload is
 * over (or a snapshot is due): opening every mapped file costs it nothing
 * now.  Other users' files: bounded in time, each open unable to block
 * (symsnap.h).
 */
static int stop_symbols(struct run *r)
{
	uint64_t until = f2t_meta_now() + F2T_SYMSNAP_STOP_NS;
	int err;

	if (!r->sampler.nrings)
		return 0;
	err = f2t_symsnap_build_ids(&r->symsnap, r->capw, until);
	/* A JIT map is the user's file in /tmp, read as them. */
	if (!err)
		err = f2t_sudo_files_begin();
	if (!err) {
		err = f2t_symsnap_jit(r->capw, &r->sampler.traced, until);
		f2t_sudo_files_end();
	}
	return err;
}

/*
 * A snapshot's samples and off-CPU episodes: the BPF ring read to its end
 * (the perf rings are by now), the windows from FROM into the capture, the
 * off-CPU stacks and counts.
 */
static int snapshot_readers(struct run *r, uint64_t from)
{
	int err = f2t_offcpu_read(r->offcpu);

	if (!err)
		err = f2t_window_trim(&r->perf_win, from);
	if (!err)
		err = f2t_window_trim(&r->offcpu_win, from);
	if (!err)
		err = f2t_window_write(&r->perf_win, r->capw);
	if (!err)
		err = f2t_window_write(&r->offcpu_win, r->capw);
	if (!err)
		err = f2t_offcpu_write_end(r->offcpu, &r->offcpu_counts);	/* says why */
	if (!err)
		err = stop_symbols(r);
	return err;
}

/* Tracing off, everything left in the rings, final facts, capture closed. */
static int finish_capture(struct run *r)
{
	int err, e, drain_err, sync_err;

	/* While tracing is still on, so the kernel records it. */
	sync_err = f2t_syncmark_write(r->inst.ti, "end", &r->meta.sync_end);
	r->meta.stop_ns = f2t_meta_now();
	err = f2t_inst_tracing(&r->inst, false);
	if (err)
		f2t_warn("cannot turn tracing off: %s", strerror(-err));
	f2t_sampler_disable(&r->sampler);
	drain_err = f2t_pump_drain(&r->pump);	/* prints its errors */
	/* A missing sync point is a warning, unless memory or descriptors ran out (said). */
	if (!drain_err && f2t_resource_error(sync_err))
		drain_err = sync_err;
	e = f2t_sampler_drain(&r->sampler);
	drain_err = drain_err ? drain_err : e;
	e = f2t_offcpu_finish(r->offcpu, &r->offcpu_counts);
	drain_err = drain_err ? drain_err : e;
	e = stop_symbols(r);
	drain_err = drain_err ? drain_err : e;
	err = f2t_procsnap_write(r->capw, 1);
	e = f2t_meta_write_cpu_stats(r->capw, r->inst.ti, r->inst.ncpus, false, &r->lost);
	err = err ? err : e;
	r->meta.pids = pid_list(r);
	e = r->meta.pids || (!r->o->command && !r->o->npids) ? 0 : -ENOMEM;
	err = err ? err : e;
	e = f2t_meta_write(r->capw, &r->meta);
	err = err ? err : e;
	free((char *)r->meta.pids);
	r->meta.pids = NULL;
	/* The readers' fds pin the instance; close them so it can go. */
	r->ncpus_read = r->pump.n;
	r->samples = r->sampler.samples;
	r->samples_lost = r->sampler.lost;
	describe_sampling(r);
	f2t_pump_close(&r->pump);
	f2t_sampler_close(&r->sampler);
	f2t_offcpu_close(r->offcpu);
	r->offcpu = NULL;
	f2t_inst_destroy(&r->inst);
	if (err && !f2t_capw_error(r->capw))
		f2t_err("completing the capture: %s", strerror(-err));
	err = drain_err ? drain_err : err;
	if (err)
		return err;	/* the capture is aborted, and its error reported, by our caller */
	return close_capture(r);
}

static void summary(struct run *r)
{
	const struct f2t_offcpu_counts *c = &r->offcpu_counts;
	char size[32];
	double secs = (double)(r->meta.stop_ns - r->meta.start_ns) / 1e9;

	f2t_progress_clear(&r->prog);
	if (!f2t_quiet)
		fprintf(stderr, "ftrace2trace: recorded %.2f s, %s captured from %zu CPUs, "
			"%llu events lost\n", secs,
			f2t_human_bytes(r->pump.bytes, size, sizeof(size)), r->ncpus_read,
			(unsigned long long)r->lost);
	if (!f2t_quiet && r->o->sample_freq)
		fprintf(stderr, "ftrace2trace: %llu CPU samples (%s), %llu sample records lost\n",
			(unsigned long long)r->samples, r->sampling,
			(unsigned long long)r->samples_lost);
	if (!f2t_quiet && r->o->off_cpu)
		fprintf(stderr, "ftrace2trace: %llu off-CPU episodes of at least %.0f us, "
			"%llu lost (ring buffer full), %llu lost (no task storage for the thread), "
			"%llu stacks lost (stack map collisions or full), %llu user stacks shortened; "
			"stacks reused %llu times, %llu checked by a walk, %llu of them stale\n",
			(unsigned long long)c->n[F2T_OFFCPU_EPISODES], (double)r->o->off_cpu_min_ns / 1e3,
			(unsigned long long)c->n[F2T_OFFCPU_DROPPED_RING],
			(unsigned long long)c->n[F2T_OFFCPU_DROPPED_MAP],
			(unsigned long long)c->n[F2T_OFFCPU_STACK_COLLISIONS],
			(unsigned long long)c->n[F2T_OFFCPU_STACKS_SHORTENED],
			(unsigned long long)c->n[F2T_OFFCPU_STACKS_REUSED],
			(unsigned long long)c->n[F2T_OFFCPU_STACKS_RECHECKED],
			(unsigned long long)c->n[F2T_OFFCPU_STACKS_STALE]);
	if (c->n[F2T_OFFCPU_DROPPED_RING] || c->n[F2T_OFFCPU_DROPPED_MAP])
		f2t_warn("the kernel lost %llu off-CPU episodes: a CPU's ring filled faster "
			 "than it was read, or no task storage could be had; try a larger "
			 "--off-cpu-min",
			 (unsigned long long)(c->n[F2T_OFFCPU_DROPPED_RING] +
					      c->n[F2T_OFFCPU_DROPPED_MAP]));
	if (r->samples_lost)
		f2t_warn("the kernel lost %llu sample records: the sample rings filled faster "
			 "than they were read; try a lower -F", (unsigned long long)r->samples_lost);
	if (r->lost)
		f2t_warn("the kernel lost %llu events: the ring buffer (%lu KB per CPU) filled "
			 "faster than it was read; try a larger -b",
			 (unsigned long long)r->lost, r->inst.buffer_kb);
}

/* Seconds from a CPU's window start AT (0: its ring was empty) to the trigger. */
static double before_trigger(uint64_t trigger, uint64_t at, uint64_t from)
{
	if (!at || at < from)
		at = from;	/* the page that began before the window holds its start */
	return at < trigger ? (double)(trigger - at) / 1e9 : 0;
}

/*
 * A flight recorder's snapshot: tracing stops, the window is drained into
 * the capture with the names and facts it needs, the capture is closed.
 */
static int snapshot(struct run *r)
{
	struct f2t_flight *f = &r->flight;
	struct f2t_meta m = r->meta;
	uint64_t from = f2t_flight_window_start(f), asked = f2t_flight_window_asked(f);
	uint64_t lost = 0, shift;
	size_t at;
	int err, e;

	e = f2t_syncmark_write(r->inst.ti, "end", &m.sync_end);
	m.stop_ns = f2t_meta_now();
	err = f2t_inst_tracing(&r->inst, false);
	if (err)
		f2t_warn("cannot turn tracing off: %s", strerror(-err));
	err = f2t_resource_error(e) ? e : 0;	/* said */
	/*
	 * Names: the /proc snapshot of the arming, those the perf records
	 * gave since, then the trigger's /proc snapshot (a thread's later
	 * line wins).  The perf rings are read to their end first: a quiet
	 * CPU's ring can hold a task's COMM records until then.
	 */
	f2t_sampler_disable(&r->sampler);
	if (!err)
		err = f2t_sampler_drain(&r->sampler);
	if (!err && r->sampler.nrings)
		err = f2t_sampler_window_names(&r->perf_win, &f->tasks);
	at = f->tasks.len;
	if (!err)
		err = f2t_procsnap_take(&f->tasks);
	if (!err)
		err = f2t_capw_add(r->capw, F2T_CAP_TASKS, 0, f->tasks.p ? f->tasks.p : "",
				   f->tasks.len);
	r->pump.w = r->capw;
	/* Pages are cut at the window's start when their times are CLOCK_MONOTONIC's. */
	if (!err)
		err = f2t_pump_drain_window(&r->pump, strcmp(r->inst.clock, "mono") ? 0 : from,
					    r->inst.buffer_kb);
	if (!err)
		err = snapshot_readers(r, from);
	/* The trigger's /proc snapshot is the one at the stop: /proc is not walked again. */
	if (!err)
		err = f2t_capw_add(r->capw, F2T_CAP_TASKS, 1, f->tasks.p ? f->tasks.p + at : "",
				   f->tasks.len - at);
	if (!err)
		err = f2t_meta_write_cpu_stats(r->capw, r->inst.ti, r->inst.ncpus, true, &lost);
	/* The kernel counts from the instance's creation: this window's share is the growth. */
	r->lost = lost - r->lost_before;
	r->lost_before = lost;
	shift = from > m.start_ns ? from - m.start_ns : 0;
	m.start_ns += shift;
	m.start_realtime_ns += shift;
	m.start_boottime_ns += shift;
	m.sync_start.id[0] = '\0';	/* written when recording began: overwritten since */
	m.flight_from_ns = from;
	m.flight_trigger = f->cause;
	m.flight_maps_ns = r->maps_ns;
	m.pids = pid_list(r);
	if (!err && !m.pids && (r->o->command || r->o->npids))
		err = -ENOMEM;
	if (!err)
		err = f2t_meta_write(r->capw, &m);
	free((char *)m.pids);
	r->meta.stop_ns = m.stop_ns;
	r->ncpus_read = r->pump.n;
	if (!f2t_quiet && !err)
		fprintf(stderr, "ftrace2trace: snapshot %u: from %.2f s before the trigger "
			"(%.2f s on the CPU whose ring held least) to %.2f s after, %s captured "
			"from %zu CPUs, %llu events lost\n", r->snapshots,
			before_trigger(f->trigger_ns, r->pump.window_min_ns, from),
			before_trigger(f->trigger_ns, r->pump.window_max_ns, from),
			(double)(m.stop_ns - f->trigger_ns) / 1e9,
			f2t_human_bytes(r->pump.bytes - r->bytes_before, (char[32]){ 0 }, 32),
			r->ncpus_read, (unsigned long long)r->lost);
	r->bytes_before = r->pump.bytes;
	/* A run that ends soon after a growth would otherwise get a near-empty trace, unexplained. */
	if (!err && from > asked)
		f2t_warn("snapshot %u: the window begins where the ring buffers were last grown, "
			 "%.2f s before the trigger, not %.2f s: the kernel does not trace while it "
			 "grows them, and nothing from before it is kept; -b KB sets their size "
			 "(never grown)", r->snapshots, before_trigger(f->trigger_ns, from, from),
			 before_trigger(f->trigger_ns, asked, asked));
	if (!f2t_quiet && !err && (r->sampler.nrings || r->offcpu))
		fprintf(stderr, "ftrace2trace: snapshot %u: CPU samples and off-CPU episodes held "
			"in memory for the window: %s at most\n", r->snapshots,
			f2t_human_bytes(r->perf_win.peak + r->offcpu_win.peak, (char[32]){ 0 }, 32));
	if (r->lost)
		f2t_warn("the kernel lost %llu events inside the window", (unsigned long long)r->lost);
	if (err) {
		if (!f2t_capw_error(r->capw))
			f2t_err("completing snapshot %u: %s", r->snapshots, strerror(-err));
		return err;
	}
	return close_capture(r);
}

/* Snapshot K's outputs: the -o names, or NAME-K.EXT when there may be several. */
static int snapshot_outputs(struct run *r)
{
	r->conv = r->o->conv;
	for (unsigned int i = 0; i < r->conv.noutputs; i++) {
		const struct f2t_format_desc *d = f2t_format_desc(r->conv.outputs[i].format);

		free(r->snap_names[i]);
		r->snap_names[i] = NULL;
		if (r->o->max_snapshots <= 1)
			continue;
		r->snap_names[i] = f2t_flight_name(r->conv.outputs[i].path, d ? d->ext : NULL,
						   r->snapshots);
		if (!r->snap_names[i])
			return -ENOMEM;
		r->conv.outputs[i].path = r->snap_names[i];
	}
	return 0;
}

/* Converters that ended: their status noted.  BLOCK: wait for them all. */
static void reap_converters(struct run *r, bool block)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->nconverters; i++) {
		int status;
		pid_t got = waitpid(r->converters[i], &status, block ? 0 : WNOHANG);

		if (got == 0) {
			r->converters[kept++] = r->converters[i];
			continue;
		}
		if (got < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			r->converter_failed = true;
	}
	r->nconverters = kept;
}

static int convert(struct run *r);

/*
 * Converts the snapshot just taken in a child process, as the user who ran
 * sudo, while we record on.  The child first lets go of what would keep
 * the instance busy or the programs attached (its trace_pipe_raw and
 * trace_pipe descriptors, its copies of the BPF and perf ones) and says
 * so by closing its end of a pipe; it ends with _exit(), leaving the
 * instance and the kernel's state to us.
 */
static int convert_apart(struct run *r)
{
	int sync[2], err;
	pid_t pid;
	char c;

	reap_converters(r, r->nconverters == sizeof(r->converters) / sizeof(r->converters[0]));
	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	fflush(stdout);	/* nothing of ours written twice */
	pid = fork();
	if (pid < 0) {
		err = -errno;
		f2t_err("cannot start converting snapshot %u: %s", r->snapshots, strerror(-err));
		close(sync[0]);
		close(sync[1]);
		return err;
	}
	if (!pid) {
		close(sync[0]);
		f2t_pump_close(&r->pump);
		f2t_sampler_close(&r->sampler);
		f2t_offcpu_close(r->offcpu);
		r->offcpu = NULL;
		f2t_flight_close_fds(&r->flight);
		close(sync[1]);
		err = f2t_sudo_drop() == 0 && convert(r) == 0 ? 0 : 1;
		/* _exit(): no atexit() of the parent's (its instances are its own to remove). */
		_exit(fflush(stdout) ? 1 : err);
	}
	close(sync[1]);
	while (read(sync[0], &c, 1) < 0 && errno == EINTR)
		;
	close(sync[0]);
	r->converters[r->nconverters++] = pid;
	return 0;
}

/* A new capture, tracing on again: the next window. */
static int rearm(struct run *r)
{
	int err;

	if (r->cap_fd >= 0)
		close(r->cap_fd);
	r->cap_fd = -1;
	err = open_capture(r, keep_name(r));
	if (!err)
		err = capture_header(r);
	if (!err && (r->o->func.mode != F2T_FUNCTRACE_OFF || r->o->nevents || r->sampler.nrings))
		err = f2t_symsnap_kallsyms(r->capw);
	if (!err)
		err = f2t_offcpu_capture(r->offcpu, r->capw);
	if (!err && r->sampler.nrings) {
		/*
		 * The mappings as they are now, instead of the records that
		 * made them: the past's names, forks and exits are kept.
		 */
		r->sampler.w = r->capw;
		f2t_window_prune(&r->perf_win, f2t_sampler_keep_tasks);
		r->maps_ns = f2t_meta_now();
		err = f2t_sampler_write_info(&r->sampler, r->capw);
		if (!err)
			err = f2t_symsnap_maps(&r->symsnap, r->capw,
					       r->o->sample_all || !r->o->npids ? NULL : r->o->pids,
					       r->o->npids);
	}
	if (err)
		return err;
	f2t_flight_taken(&r->flight);
	err = f2t_inst_tracing(&r->inst, true);
	if (err) {
		f2t_err("cannot turn tracing on again in %s: %s", r->inst.name, strerror(-err));
		return err;
	}
	err = f2t_sampler_enable(&r->sampler);
	if (err) {
		f2t_err("cannot start sampling again: %s", strerror(-err));
		return err;
	}
	return f2t_flight_arm(&r->flight, f2t_meta_now());
}

/* Snapshot K taken; converted apart while recording goes on, or, the last, here once the kernel's state is restored. */
static int take_snapshot(struct run *r, bool *last)
{
	int err;

	r->snapshots++;
	*last = *last || r->snapshots >= r->o->max_snapshots;
	err = snapshot_outputs(r);
	if (!err)
		err = snapshot(r);
	if (!err && *last) {
		/*
		 * As at the end of any recording.  (Converting apart while this
		 * runs measured slower on a busy 2-CPU machine: the conversion
		 * ran two to four times as long beside the removal.)
		 */
		f2t_pump_close(&r->pump);
		f2t_sampler_close(&r->sampler);
		f2t_offcpu_close(r->offcpu);
		r->offcpu = NULL;
		f2t_flight_close(&r->flight);
		f2t_inst_destroy(&r->inst);
		r->flight_done = true;
		return 0;
	}
	if (!err)
		err = convert_apart(r);
	return err ? err : rearm(r);
}

/* Empties the self-pipe after a SIGUSR1: the loop goes on. */
static void drain_signals(void)
{
	char buf[64];

	while (read(f2t_sig_fd(), buf, sizeof(buf)) > 0)
		;
}

/*
 * What no snapshot can need any more let go, and the oldest samples (then
 * episodes) past the memory allowed (out of memory: said).
 */
static int trim_windows(struct run *r, uint64_t now)
{
	uint64_t from = f2t_flight_keep_from(&r->flight, now);
	size_t episodes;
	int err = f2t_window_trim(&r->perf_win, from), cut = 0, c = 0;

	if (!err)
		err = f2t_window_trim(&r->offcpu_win, from);
	episodes = r->offcpu_win.bytes < r->win_max ? r->offcpu_win.bytes : r->win_max;
	if (!err)
		err = cut = f2t_window_limit(&r->perf_win, r->win_max - episodes);
	if (err >= 0)
		err = c = f2t_window_limit(&r->offcpu_win, r->win_max);
	if (err < 0) {
		f2t_err("keeping the flight recorder's window of samples: %s", strerror(-err));
		return err;
	}
	if ((cut || c) && !r->win_short)
		f2t_warn("flight recorder: the CPU samples and off-CPU episodes of the window take "
			 "more than an eighth of the available memory (%s): the oldest are let go, "
			 "and a snapshot holds them for less than %g s; try a lower -F",
			 f2t_human_bytes(r->win_max, (char[32]){ 0 }, 32), r->o->flight_secs);
	r->win_short = r->win_short || cut || c;
	return 0;
}

/*
 * The flight recorder's loop: nothing is read from the kernel's ring
 * buffers; the perf and off-CPU rings are read into windows in memory;
 * triggers and stop conditions are waited for.  Returns 0 or negative errno; @why says
 * why it ended (STOP_NONE: the last snapshot was taken).
 */
static int flight_loop(struct run *r, enum stop_reason *why)
{
	size_t max = 2 + F2T_FLIGHT_NPOLL + F2T_TTY_NPOLL + r->watch.n + r->sampler.nrings;
	struct pollfd *pfd = calloc(max, sizeof(*pfd));
	uint64_t deadline = 0, now = f2t_meta_now();
	bool last = false;
	int err = 0;

	if (!pfd)
		return -ENOMEM;
	if (r->o->duration > 0)
		deadline = r->meta.start_ns + (uint64_t)llround(r->o->duration * 1e9);
	while (!err && !last && (*why = stop_condition(r, now, deadline)) == STOP_NONE) {
		size_t n, fl0, ring0;
		int timeout = f2t_flight_timeout_ms(&r->flight, now), got;

		n = stop_fds(r, pfd);
		fl0 = n;
		f2t_flight_pollfds(&r->flight, pfd + n);
		n += F2T_FLIGHT_NPOLL;
		ring0 = n;
		n += reader_fds(r, pfd + n);
		err = wait_once(r, pfd, n, f2t_offcpu_timeout(r->offcpu, timeout < POLL_MS ? timeout : POLL_MS),
				deadline, &now);
		if (!err)
			err = read_readers(r, pfd + ring0, false);
		if (!err)
			err = trim_windows(r, now);
		if (err)
			break;
		if (pfd[0].revents)
			drain_signals();
		got = f2t_flight_check(&r->flight, pfd + fl0, f2t_sig_take_snapshot(), now);
		if (got < 0)
			err = got;
		else if (got)
			err = take_snapshot(r, &last);
		reap_converters(r, false);
	}
	if (last)
		*why = STOP_NONE;
	free(pfd);
	return err;
}

/*
 * Recording as a flight recorder, up to the capture to convert here, if
 * any: the last snapshot's, or, when recording stopped before any trigger,
 * the window of the stop (what `perf record --overwrite` writes at exit).
 * A stop after some snapshots leaves nothing more (r->flight_done unset).
 */
static int flight_record(struct run *r)
{
	static const char *const causes[] = {
		[STOP_COMMAND] = "stop: the command exited", [STOP_PIDS] = "stop: the -p processes exited",
		[STOP_DURATION] = "stop: duration reached", [STOP_SIGNAL] = "stop: signal",
	};
	enum stop_reason why = STOP_NONE;
	bool last = true;
	int err = flight_loop(r, &why);

	f2t_tty_finish(&r->tty);
	if (why == STOP_SIGNAL && f2t_sig_from_kernel())
		f2t_child_signal(&r->child, f2t_sig_received());
	if (err)
		return err;
	if (why != STOP_NONE)
		f2t_info("stopping: %s", causes[why] + 6);
	if (why != STOP_NONE && r->snapshots)
		return 0;
	if (why != STOP_NONE) {
		err = f2t_flight_trigger(&r->flight, causes[why], f2t_meta_now());
		if (!err)
			err = take_snapshot(r, &last);
	}
	return err;
}

/* Recording proper; returns 0 or negative errno, or sets r->exit_code. */
static int record(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	int err;

	err = setup(r);
	if (err)
		return err;
	if (f2t_sig_received())
		return interrupted(r);
	err = f2t_inst_tracing(&r->inst, true);
	if (err) {
		f2t_err("cannot turn tracing on in %s: %s", r->inst.name, strerror(-err));
		return err;
	}
	if (r->sampler.nrings) {
		err = f2t_sampler_enable(&r->sampler);
		if (err) {
			f2t_err("cannot start sampling: %s", strerror(-err));
			return err;
		}
	}
	f2t_meta_mark_start(&r->meta);
	err = f2t_syncmark_write(r->inst.ti, "start", &r->meta.sync_start);
	if (f2t_resource_error(err))
		return err;	/* said */
	err = r->flight_on ? f2t_flight_arm(&r->flight, r->meta.start_ns)
			   : f2t_procsnap_write(r->capw, 0);
	/*
	 * Mappings made from now on arrive as MMAP2 records; older ones are
	 * read here, after sampling started, so none falls in between.  A
	 * command is still held before its exec: its maps are ours.
	 */
	if (!err && r->sampler.nrings && !(r->o->command && !r->o->sample_all))
		err = f2t_symsnap_maps(&r->symsnap, r->capw,
				       r->o->sample_all || !r->o->npids ? NULL : r->o->pids,
				       r->o->npids);
	if (err) {
		if (!f2t_capw_error(r->capw))
			f2t_err("reading /proc: %s", strerror(-err));
		return err;
	}
	if (o->command) {
		err = f2t_child_release(&r->child);
		if (err) {
			r->exit_code = command_error(o->command[0], err);
			return err;
		}
	}
	f2t_info("recording%s", o->command ? "" : "; Ctrl-C stops");
	if (r->flight_on)
		return flight_record(r);
	err = pump_loop(r);
	if (!err)
		err = finish_capture(r);
	if (!err)
		summary(r);
	return err;
}

static int convert(struct run *r)
{
	struct f2t_convert_opts conv = r->conv;
	int err;

	conv.progress = !f2t_quiet && isatty(STDERR_FILENO);
	conv.summary = !f2t_quiet;
	/* A signal now removes the partly written outputs, then ends us. */
	err = f2t_outfile_catch_signals();
	if (err) {
		f2t_err("cannot install signal handlers: %s", strerror(-err));
		return err;
	}
	if (r->o->report) {
		/* The report in the same pass, once the outputs are whole. */
		struct f2t_report_opts ro = {
			.format = F2T_REPORT_TEXT,
			.title = r->o->keep_capture ? r->o->keep_capture : "this recording",
			.top = F2T_REPORT_DEFAULT_TOP,
			.all_processes = r->o->report_all,
			.width = r->o->report_wide ? 0 : f2t_term_width(STDOUT_FILENO),
		};

		err = f2t_report_run(r->cap_path, &ro, &conv, "-");
	} else {
		err = f2t_convert(r->cap_path, &conv);
	}
	f2t_sig_restore();
	return err;
}

int f2t_record_run(const struct f2t_record_opts *o)
{
	struct run r = { .o = o, .cap_fd = -1, .tty.master = -1, .tty.slave = -1,
			 .conv = o->conv, .flight_on = o->flight_secs > 0, .flight.mw.fd = -1 };
	unsigned long said = f2t_errors();
	int err;

	f2t_progress_init(&r.prog);
	if (!o->command && !o->npids && o->duration <= 0)
		r.prog.hint = "(Ctrl-C stops)";
	/* First, so that no signal can kill us between creating files and tracing. */
	err = f2t_sig_install();
	if (!err && r.flight_on)
		err = f2t_sig_install_snapshot();
	if (err) {
		f2t_err("cannot install signal handlers: %s", strerror(-err));
		goto out;
	}
	err = f2t_inst_check_access();
	if (err)
		goto out;
	if (o->command) {
		err = f2t_child_lookup(o->command[0]);
		if (err) {
			r.exit_code = command_error(o->command[0], err);
			goto out;
		}
		err = f2t_runas_pick(&r.runas, o->user, o->as_root);
		if (err)
			goto out;
	}
	if (o->npids) {
		err = f2t_pidwatch_open(&r.watch, o->pids, o->npids);
		if (err)
			goto out;
	}
	err = f2t_events_build(&r.events, o->events, o->nevents);
	if (err)
		goto out;
	err = build_cmdline(&r);
	if (!err)
		err = check_outputs(&r);
	if (!err)
		err = open_capture(&r, keep_name(&r));
	if (err)
		goto out;

	if (f2t_sig_received()) {
		err = interrupted(&r);
		goto out;
	}
	f2t_inst_remove_stale();
	err = f2t_inst_create(&r.inst, o->buffer_kb);
	if (!err)
		err = f2t_functrace_setup(r.inst.ti, &o->func);
	if (!err)
		err = f2t_functrace_follow(r.inst.ti, &o->func, o->pids, o->npids);
	if (!err)
		err = f2t_events_enable(&r.events, r.inst.ti);
	if (err)
		goto out;
	r.meta.cmdline = r.cmdline;
	r.meta.clock = r.inst.clock;
	r.meta.subbuf_size = (uint64_t)r.inst.subbuf_size;
	r.meta.ncpus = (uint32_t)r.inst.ncpus;

	err = record(&r);
	if (err)
		goto out;
	/* Ends a command that is still running (we stopped for -d or a signal). */
	f2t_child_finish(&r.child);
	/*
	 * Recording is over, and so is root's part: the capture, the files
	 * its frames name and the outputs are read and written as the user
	 * who ran sudo, a conversion's bug no way to root.
	 */
	err = f2t_sudo_drop();
	if (!err && (!r.flight_on || r.flight_done))
		err = convert(&r);
out:
	f2t_progress_clear(&r.prog);
	if (r.capw && f2t_capw_error(r.capw))
		capture_error(&r, f2t_capw_name(r.capw), f2t_capw_bytes(r.capw),
			      f2t_capw_error(r.capw));
	else if (err && !r.exit_code && f2t_errors() == said)
		/* A failure passed up from below unsaid (out of memory, mostly): never a silent exit 1. */
		f2t_err("cannot record: %s", strerror(-err));
	f2t_pump_close(&r.pump);
	f2t_sampler_close(&r.sampler);
	f2t_offcpu_close(r.offcpu);
	f2t_flight_close(&r.flight);
	f2t_window_free(&r.perf_win);
	f2t_window_free(&r.offcpu_win);
	f2t_symsnap_free(&r.symsnap);
	f2t_child_finish(&r.child);
	/* After: a command still running is ended by us, not hung up. */
	f2t_tty_close(&r.tty);
	f2t_inst_destroy(&r.inst);
	/* Not complete: leave no file behind. */
	f2t_capw_abort(r.capw);
	if (r.cap_fd >= 0)
		close(r.cap_fd);
	for (unsigned int i = 0; i < o->conv.noutputs; i++) {
		free(r.out_names[i]);
		free(r.snap_names[i]);
	}
	free(r.keep);
	/* Snapshots converted apart: the run fails with any of them. */
	reap_converters(&r, true);
	if (r.converter_failed && !err) {
		f2t_err("a snapshot's conversion failed (said above)");
		err = -EIO;
	}
	f2t_sig_restore();
	f2t_pidwatch_close(&r.watch);
	f2t_runas_free(&r.runas);
	f2t_events_free(&r.events);
	free(r.cmdline);
	if (r.exit_code)
		return r.exit_code;
	if (err)
		return 1;
	/* Last, with nothing of the recording left: serving can take minutes. */
	if (o->open && f2t_serve_once(o->open, &(struct f2t_serve_opts){ .browser = true }) < 0)
		return 1;
	return o->command ? f2t_child_exit_code(&r.child) : 0;
}
