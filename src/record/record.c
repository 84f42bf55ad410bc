// SPDX-License-Identifier: MIT
/*
 * The recording run.  Order matters and is the point of this file:
 *   checks that cost nothing (access, command, -p, -e, every output
 *   writable) -> stale instances -> our instance, tracing off -> events,
 *   formats, readers -> child forked and held -> tracing on -> release the
 *   child -> move sub-buffers until a stop condition -> tracing off, drain,
 *   stats, META -> instance removed -> convert.
 * One cleanup path removes the instance on every exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "record/sampler.h"
#include "record/symsnap.h"
#include "record/child.h"
#include "record/events.h"
#include "record/instance.h"
#include "record/meta.h"
#include "record/pidwatch.h"
#include "record/procsnap.h"
#include "record/progress.h"
#include "record/pump.h"
#include "record/record.h"
#include "record/signals.h"
#include "record/syncmark.h"
#include "report/report.h"
#include "util/log.h"

#define POLL_MS 100
#define SWEEP_NS 1000000000ULL	/* read every CPU at least this often */

enum stop_reason { STOP_NONE, STOP_COMMAND, STOP_PIDS, STOP_DURATION, STOP_SIGNAL };

struct run {
	const struct f2t_record_opts *o;
	struct f2t_inst inst;
	struct f2t_evlist events;
	struct f2t_capw *capw;
	char cap_path[PATH_MAX];	/* what f2t_convert() reads */
	int cap_fd;			/* keeps the unlinked temporary capture alive */
	bool keep_created;
	bool out_created[F2T_MAX_OUTPUTS];
	dev_t out_dev[F2T_MAX_OUTPUTS];	/* to refuse two names for one file */
	ino_t out_ino[F2T_MAX_OUTPUTS];
	struct f2t_pump pump;
	struct f2t_sampler sampler;	/* nrings 0: not sampling */
	struct f2t_symsnap symsnap;
	struct f2t_child child;
	struct f2t_pidwatch watch;
	struct f2t_meta meta;
	struct f2t_progress prog;
	char *cmdline;
	uint64_t lost;
	uint64_t samples, samples_lost;	/* copied before the sampler closes */
	char sample_event[32];
	size_t ncpus_read;		/* CPUs whose ring we read */
	bool recorded;			/* capture complete: convert it */
	int exit_code;			/* when not 0/1 */
};

/* Is DEV/INO one of the first N outputs (regular files only)? */
static bool same_as_output(const struct run *r, unsigned int n, dev_t dev, ino_t ino)
{
	for (unsigned int i = 0; i < n; i++)
		if (r->out_ino[i] && r->out_dev[i] == dev && r->out_ino[i] == ino)
			return true;
	return false;
}

/*
 * Creates (or opens, without truncating) every output now, so a typo in a
 * path fails before anything is traced.  Remembers which ones we created,
 * to remove them if the run fails.
 */
static int check_outputs(struct run *r)
{
	const struct f2t_convert_opts *c = &r->o->conv;
	struct stat st;

	for (unsigned int i = 0; i < c->noutputs; i++) {
		const char *path = c->outputs[i].path;
		bool dup;
		int fd;

		if (!strcmp(path, "-"))
			continue;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			r->out_created[i] = true;
		else if (errno == EEXIST)
			fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			f2t_err("cannot write %s: %s", path, strerror(errno));
			return -errno;
		}
		if (fstat(fd, &st) < 0)
			memset(&st, 0, sizeof(st));	/* unknown: no duplicate check */
		dup = st.st_ino && same_as_output(r, i, st.st_dev, st.st_ino);
		close(fd);
		if (dup) {
			f2t_err("%s is given twice as an output", path);
			return -EINVAL;
		}
		r->out_dev[i] = st.st_dev;
		r->out_ino[i] = st.st_ino;
	}
	return 0;
}

static void remove_created_outputs(struct run *r)
{
	for (unsigned int i = 0; i < r->o->conv.noutputs; i++)
		if (r->out_created[i])
			unlink(r->o->conv.outputs[i].path);
}

/*
 * The capture goes to -k FILE, or to a temporary file next to the first
 * output (a directory we know is writable, and on the same disk as the
 * result rather than in a possibly RAM-backed /tmp).  The temporary file is
 * unlinked at once and read back through /proc/self/fd, so no run, not even
 * a killed one, leaves it behind.
 */
static int open_capture(struct run *r)
{
	const char *first = r->o->conv.outputs[0].path;
	char tmpl[PATH_MAX];
	const char *slash;
	int err;

	if (r->o->keep_capture) {
		struct stat st;

		/* Converting a capture into itself would read what it overwrites. */
		if (stat(r->o->keep_capture, &st) == 0 &&
		    same_as_output(r, r->o->conv.noutputs, st.st_dev, st.st_ino)) {
			f2t_err("-k %s is also an output", r->o->keep_capture);
			return -EINVAL;
		}
		r->keep_created = access(r->o->keep_capture, F_OK) < 0;
		r->capw = f2t_capw_open(r->o->keep_capture);
		if (!r->capw) {
			err = -errno;
			f2t_err("cannot write %s: %s", r->o->keep_capture, strerror(errno));
			return err;
		}
		snprintf(r->cap_path, sizeof(r->cap_path), "%s", r->o->keep_capture);
		return 0;
	}
	slash = strcmp(first, "-") ? strrchr(first, '/') : NULL;
	if (!strcmp(first, "-"))
		snprintf(tmpl, sizeof(tmpl), "%s/.ftrace2trace-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	else if (slash)
		snprintf(tmpl, sizeof(tmpl), "%.*s/.ftrace2trace-XXXXXX",
			 (int)(slash - first), first);
	else
		snprintf(tmpl, sizeof(tmpl), ".ftrace2trace-XXXXXX");
	r->cap_fd = mkostemp(tmpl, O_CLOEXEC);
	if (r->cap_fd < 0) {
		err = -errno;
		f2t_err("cannot create a temporary capture %s: %s", tmpl, strerror(errno));
		return err;
	}
	r->capw = f2t_capw_open(tmpl);
	err = r->capw ? 0 : -errno;
	unlink(tmpl);
	if (err) {
		f2t_err("cannot write %s: %s", tmpl, strerror(-err));
		return err;
	}
	snprintf(r->cap_path, sizeof(r->cap_path), "/proc/self/fd/%d", r->cap_fd);
	return 0;
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
	f2t_err("%s: %s", cmd, strerror(-err));
	return err == -ENOENT ? 127 : 126;
}

/*
 * The sampling events, opened disabled once the child exists (the command
 * scope follows it from its exec).  Sampling that was not asked for by name
 * and cannot start is only a warning: the scheduling trace still works.
 */
static int open_sampler(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	struct f2t_sampler_opts so = {
		.freq = o->sample_freq,
		.callgraph = o->dwarf ? F2T_CG_DWARF : F2T_CG_FP,
		.stack_bytes = o->stack_bytes ? o->stack_bytes : F2T_RECORD_DEFAULT_STACK,
		.scope = F2T_SCOPE_ALL,
	};
	int err;

	if (!o->sample_freq)
		return 0;
	if (!o->sample_all && o->command) {
		so.scope = F2T_SCOPE_COMMAND;
		so.child = r->child.pid;
	} else if (!o->sample_all && o->npids) {
		so.scope = F2T_SCOPE_PIDS;
		so.pids = o->pids;
		so.npids = o->npids;
	}
	err = f2t_sampler_open(&r->sampler, &so, r->inst.ncpus, r->capw);
	if (err && !o->sample_freq_given) {
		f2t_warn("recording without CPU samples (--no-sample silences this)");
		return 0;
	}
	if (!err)
		err = f2t_symsnap_kallsyms(r->capw);
	return err;
}

/* Everything up to (not including) tracing on. */
static int setup(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	int err;

	err = f2t_events_write_formats(&r->events, r->capw);
	if (!err)
		err = f2t_meta_write_static(r->capw);
	if (err) {
		f2t_err("writing the capture: %s", strerror(-err));
		return err;
	}
	/*
	 * Fork before opening the readers: a child held at its gate has not
	 * exec'd yet, so close-on-exec has not dropped inherited fds, and
	 * trace_pipe_raw fds held there would keep the instance busy.
	 */
	if (o->command) {
		err = f2t_child_spawn(&r->child, o->command);
		if (err) {
			f2t_err("cannot start %s: %s", o->command[0], strerror(-err));
			return err;
		}
		err = f2t_functrace_follow(r->inst.ti, &o->func, &r->child.pid, 1);
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
	return err;
}

static enum stop_reason stop_condition(struct run *r, uint64_t now, uint64_t deadline)
{
	if (f2t_sig_count())
		return STOP_SIGNAL;
	if (r->child.pid && f2t_child_check(&r->child))
		return STOP_COMMAND;
	if (r->o->npids && !f2t_pidwatch_alive(&r->watch))
		return STOP_PIDS;
	if (deadline && now >= deadline)
		return STOP_DURATION;
	return STOP_NONE;
}

/* Moves data until a stop condition holds.  Returns 0 or negative errno. */
static int pump_loop(struct run *r)
{
	size_t max = 2 + r->watch.n + r->pump.n + r->sampler.nrings;
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
		size_t n = 0, cpu0, ring0;
		int timeout = POLL_MS;

		pfd[n++] = (struct pollfd){ .fd = f2t_sig_fd(), .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = r->child.pid ? r->child.pidfd : -1,
					    .events = POLLIN };
		for (size_t i = 0; i < r->watch.n; i++)
			pfd[n++] = (struct pollfd){
				.fd = r->watch.gone[i] ? -1 : r->watch.fds[i], .events = POLLIN };
		cpu0 = n;
		for (size_t i = 0; i < r->pump.n; i++)
			pfd[n++] = (struct pollfd){ .fd = r->pump.c[i].fd, .events = POLLIN };
		ring0 = n;
		/* A ring whose task went away stays readable (HUP): sweep it only. */
		for (size_t i = 0; i < r->sampler.nrings; i++)
			pfd[n++] = (struct pollfd){
				.fd = r->sampler.rings[i].hup ? -1 : r->sampler.rings[i].fd,
				.events = POLLIN };
		if (deadline && deadline - now < (uint64_t)POLL_MS * 1000000)
			timeout = (int)((deadline - now + 999999) / 1000000);

		if (poll(pfd, n, timeout) < 0 && errno != EINTR) {
			err = -errno;
			f2t_err("poll: %s", strerror(errno));
			break;
		}
		now = f2t_meta_now();
		for (size_t i = 0; i < r->pump.n && !err; i++)
			if (pfd[cpu0 + i].revents || now >= next_sweep)
				err = f2t_pump_read(&r->pump, i);	/* prints its errors */
		for (size_t i = 0; i < r->sampler.nrings && !err; i++) {
			if (pfd[ring0 + i].revents & (POLLHUP | POLLERR))
				r->sampler.rings[i].hup = true;
			if (pfd[ring0 + i].revents || now >= next_sweep)
				err = f2t_sampler_read(&r->sampler, i);
		}
		if (now >= next_sweep)
			next_sweep = now + SWEEP_NS;
		f2t_progress_update(&r->prog, now, (double)(now - r->meta.start_ns) / 1e9,
				    r->pump.bytes);
	}
	f2t_info("stopping: %s", why == STOP_COMMAND ? "the command exited" :
		 why == STOP_PIDS ? "the -p processes exited" :
		 why == STOP_DURATION ? "duration reached" :
		 why == STOP_SIGNAL ? "signal" : "error");
	free(pfd);
	return err;
}

/* Tracing off, everything left in the rings, final facts, capture closed. */
static int finish_capture(struct run *r)
{
	int err, e, drain_err;

	/* While tracing is still on, so the kernel records it. */
	f2t_syncmark_write(r->inst.ti, "end", &r->meta.sync_end);
	r->meta.stop_ns = f2t_meta_now();
	err = f2t_inst_tracing(&r->inst, false);
	if (err)
		f2t_warn("cannot turn tracing off: %s", strerror(-err));
	f2t_sampler_disable(&r->sampler);
	drain_err = f2t_pump_drain(&r->pump);	/* prints its errors */
	e = f2t_sampler_drain(&r->sampler);
	drain_err = drain_err ? drain_err : e;
	if (r->sampler.nrings) {
		/* The workload is over: opening every mapped file costs it nothing now. */
		e = f2t_symsnap_build_ids(&r->symsnap, r->capw);
		if (!e)
			e = f2t_symsnap_jit(r->capw);
		drain_err = drain_err ? drain_err : e;
	}
	err = f2t_procsnap_write(r->capw, 1);
	e = f2t_meta_write_cpu_stats(r->capw, r->inst.ti, r->inst.ncpus, &r->lost);
	err = err ? err : e;
	e = f2t_meta_write(r->capw, &r->meta);
	err = err ? err : e;
	/* The readers' fds pin the instance; close them so it can go. */
	r->ncpus_read = r->pump.n;
	r->samples = r->sampler.samples;
	r->samples_lost = r->sampler.lost;
	snprintf(r->sample_event, sizeof(r->sample_event), "%s",
		 r->sampler.nrings ? r->sampler.event : "off");
	f2t_pump_close(&r->pump);
	f2t_sampler_close(&r->sampler);
	f2t_inst_destroy(&r->inst);
	e = f2t_capw_close(r->capw);
	r->capw = NULL;
	err = err ? err : e;
	if (err)
		f2t_err("writing the capture %s: %s",
			r->o->keep_capture ? r->o->keep_capture : "(temporary)", strerror(-err));
	return drain_err ? drain_err : err;
}

static void summary(struct run *r)
{
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
			(unsigned long long)r->samples, r->sample_event,
			(unsigned long long)r->samples_lost);
	if (r->samples_lost)
		f2t_warn("the kernel lost %llu sample records: the sample rings filled faster "
			 "than they were read; try a lower -F", (unsigned long long)r->samples_lost);
	if (r->lost)
		f2t_warn("the kernel lost %llu events: the ring buffer (%lu KB per CPU) filled "
			 "faster than it was read; try a larger -b",
			 (unsigned long long)r->lost, r->inst.buffer_kb);
}

/* Recording proper; returns 0 or negative errno, or sets r->exit_code. */
static int record(struct run *r)
{
	const struct f2t_record_opts *o = r->o;
	int err;

	err = setup(r);
	if (err)
		return err;
	if (f2t_sig_count()) {
		f2t_err("interrupted before recording started");
		return -EINTR;
	}
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
	f2t_syncmark_write(r->inst.ti, "start", &r->meta.sync_start);
	err = f2t_procsnap_write(r->capw, 0);
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
		f2t_err("writing the capture: %s", strerror(-err));
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
	err = pump_loop(r);
	if (!err)
		err = finish_capture(r);
	if (!err)
		summary(r);
	return err;
}

static int convert(struct run *r)
{
	struct f2t_convert_opts conv = r->o->conv;
	const char *paths[F2T_MAX_OUTPUTS];
	int err;

	for (unsigned int i = 0; i < conv.noutputs; i++)
		paths[i] = conv.outputs[i].path;
	conv.progress = !f2t_quiet && isatty(STDERR_FILENO);
	conv.summary = !f2t_quiet;
	/* A signal now removes the partly written outputs, then kills us. */
	f2t_sig_converting(paths, conv.noutputs);
	if (r->o->report) {
		/* The report in the same pass, once the outputs are whole. */
		struct f2t_report_opts ro = {
			.format = F2T_REPORT_TEXT,
			.title = r->o->keep_capture ? r->o->keep_capture : "this recording",
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
	struct run r = { .o = o, .cap_fd = -1 };
	int err;

	f2t_progress_init(&r.prog);
	if (!o->command && !o->npids && o->duration <= 0)
		r.prog.hint = "(Ctrl-C stops)";
	/* First, so that no signal can kill us between creating files and tracing. */
	err = f2t_sig_install();
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
		err = open_capture(&r);
	if (err)
		goto out;

	if (f2t_sig_count()) {
		f2t_err("interrupted before recording started");
		err = -EINTR;
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
	r.recorded = true;
	err = convert(&r);
out:
	f2t_progress_clear(&r.prog);
	f2t_pump_close(&r.pump);
	f2t_sampler_close(&r.sampler);
	f2t_symsnap_free(&r.symsnap);
	f2t_child_finish(&r.child);
	f2t_inst_destroy(&r.inst);
	if (!r.recorded) {
		/* Nothing usable was made: leave no file behind. */
		f2t_capw_abort(r.capw);
		if (r.keep_created)
			unlink(o->keep_capture);
		remove_created_outputs(&r);
	}
	if (r.cap_fd >= 0)
		close(r.cap_fd);
	f2t_sig_restore();
	f2t_pidwatch_close(&r.watch);
	f2t_events_free(&r.events);
	free(r.cmdline);
	if (r.exit_code)
		return r.exit_code;
	if (err)
		return 1;
	return o->command ? f2t_child_exit_code(&r.child) : 0;
}
