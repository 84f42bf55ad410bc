// SPDX-License-Identifier: MIT
/*
 * trace-cmd's trace.dat as an input: file versions 6 and 7, compressed or
 * not, the top buffer and every named instance (-B), each one source, interleaved
 * by time.  We read it ourselves: the layout walk (tracedat_layout.c) keeps
 * what the file says about the recording, libtraceevent gets its formats
 * (tracedat_tep.c), and each buffer's CPU data is read page by page
 * (tracedat_pagesrc.c).  A file whose timestamps libtracecmd converts, or
 * that is otherwise not ours to read (f2t_tracedat_pages_unreadable()), is
 * opened by libtracecmd, and each buffer read by it (tracedat_tcmsrc.c).
 * This file is the opener that picks the reader, and the recording's
 * facts.  Either way the events are the kernel's raw ring-buffer records
 * with the kernel's format files, decoded exactly as our own capture's are
 * (rawdec.h).  What the file says besides its events:
 * task names from its saved cmdlines (handed on with the events of the
 * tasks it holds records of, for the tracker to apply: event.h's pid_comm),
 * kallsyms and printk formats, the uname, the trace clock, the CPU stats at
 * the end.  A trace.dat holds no tgids: a thread's process is learned from
 * fork events (with task_newtask), or is its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/input.h"
#include "source/tracedat/tracedat_bufsrc-local.h"
#include "source/tracedat/tracecmd-private.h"
#include "util/log.h"

/* The first bytes of every trace.dat: "\027\010Dtracing". */
static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

struct tracedat_input {
	struct f2t_input in;
	struct tracecmd_input *handle;	/* when libtracecmd reads the file */
	struct tep_handle *tep;		/* when we do */
	struct f2t_text kallsyms;	/* read on first use (read_kallsyms()) */
	bool kallsyms_read;
	bool tep_symbols;		/* the tep has them: every buffer's decoder shares it */
	char *host, *kernel, *machine, *recorder, *clock;
	struct f2t_tracedat_layout layout;
	struct f2t_tracedat_data data;	/* mapped when we read the CPU data */
	int fd;				/* the file, as f2t_input_open() opened it */
	char fd_path[32];		/* its /proc/self/fd name, for libtracecmd */
};

static bool tracedat_probe(const unsigned char *head, size_t len)
{
	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

/* ---- the recording's facts ---- */

/* Sums "KEY N" over the per-CPU stats texts. */
static uint64_t stat_sum(const char *text, const char *key)
{
	uint64_t sum = 0;
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen))
			sum += strtoull(p + klen, NULL, 10);
	return sum;
}

/*
 * What the kernel said its buffers overwrote or refused.  Not what it
 * "read": trace-cmd takes the stats when its readers are still going.
 */
static void add_cpustats(struct f2t_recording *rec, const char *stats)
{
	if (!stats)
		return;
	rec->kernel_overrun += stat_sum(stats, "overrun: ") + stat_sum(stats, "commit overrun: ");
	rec->kernel_dropped += stat_sum(stats, "dropped events: ");
}

/*
 * What the trace clock means for these timestamps, said once: only mono is
 * the CLOCK_MONOTONIC that other traces of the machine (and `merge`) use.
 */
static void say_clock(const char *path, const char *clock)
{
	if (!strcmp(clock, "mono"))
		return;
	if (!strcmp(clock, "boot"))
		f2t_warn("%s: trace clock 'boot' (CLOCK_BOOTTIME): it runs ahead of CLOCK_MONOTONIC by the time the machine slept; traces on CLOCK_MONOTONIC will not line up with it",
			 path);
	else if (!strcmp(clock, "x86-tsc") || !strcmp(clock, "counter"))
		f2t_warn("%s: trace clock '%s': timestamps are counts, not nanoseconds, unless trace-cmd saved a conversion (--tsc2nsec); durations and alignment with other traces are off",
			 path, clock);
	else
		f2t_warn("%s: trace clock '%s', not CLOCK_MONOTONIC: times are the kernel's own clock of that name, and a merge with traces on CLOCK_MONOTONIC (record with 'trace-cmd record -C mono') will not line them up",
			 path, clock);
}

/*
 * The recording's facts: UNAME ("Linux HOST RELEASE MACHINE"), the top
 * buffer's CLOCK, the CPU STATS, the file's COMPRESSION (NULL or "none":
 * not compressed) and its CPU count.
 */
static int set_info(struct tracedat_input *t, const char *uname, const char *clock,
		    const char *stats, const char *compression, uint32_t ncpus)
{
	struct f2t_recording *rec = &t->in.rec;
	struct f2t_trace_info *info = &rec->info;
	char word[4][128] = { "", "", "", "" };

	if (uname)
		sscanf(uname, "%127s %127s %127s %127s", word[0], word[1], word[2], word[3]);
	t->host = strdup(word[1]);
	t->kernel = strdup(word[2]);
	t->machine = strdup(word[3]);
	t->clock = strdup(clock && *clock ? clock : "local");
	if (!compression || !strcmp(compression, "none"))
		compression = "not compressed";
	if (asprintf(&t->recorder, "trace-cmd (trace.dat version %u, %s)", t->layout.version,
		     compression) < 0)
		t->recorder = NULL;
	if (!t->host || !t->kernel || !t->machine || !t->clock || !t->recorder)
		return -ENOMEM;
	info->host = t->host;
	info->kernel = t->kernel;
	info->machine = t->machine;
	info->cmdline = "";
	info->clock = t->clock;
	info->recorder = t->recorder;
	info->ncpus = ncpus;
	add_cpustats(rec, stats);
	say_clock(rec->path, t->clock);
	return 0;
}

/* The file's kallsyms, read when first asked for (function events need them). */
static struct f2t_text read_kallsyms(void *ctx)
{
	struct tracedat_input *t = ctx;

	if (!t->kallsyms_read) {
		t->kallsyms_read = true;
		t->kallsyms.s = f2t_tracedat_kallsyms(t->in.rec.path, t->fd, &t->layout,
						      &t->kallsyms.len);
	}
	return t->kallsyms;
}

static int read_own_info(struct tracedat_input *t)
{
	const struct f2t_tracedat_meta *m = &t->layout.meta;

	t->in.rec.read_kallsyms = read_kallsyms;
	t->in.rec.kallsyms_ctx = t;
	if (m->printk)
		t->in.rec.printk_formats = (struct f2t_text){ m->printk, strlen(m->printk) };
	return set_info(t, m->uname, m->clock, m->cpustats, t->layout.compression, m->ncpus);
}

static int read_libtracecmd_info(struct tracedat_input *t)
{
	const char *comp = NULL, *compver = NULL;
	/* The walk's, where it saw them: libtracecmd's text stops after the first CPU's. */
	const char *stats = t->layout.meta.cpustats ?: tracecmd_get_cpustats(t->handle);

	if (tracecmd_get_file_compress_proto(t->handle, &comp, &compver) < 0)
		comp = NULL;
	return set_info(t, tracecmd_get_uname(t->handle), tracecmd_get_trace_clock(t->handle),
			stats, comp, (uint32_t)tep_get_cpus(tracecmd_get_tep(t->handle)));
}

static void tracedat_close(struct f2t_input *in)
{
	struct tracedat_input *t = (struct tracedat_input *)in;

	f2t_source_close(in->events);
	f2t_tasks_free(in->rec.tasks);
	f2t_tasks_free(in->rec.tasks_end);
	if (t->handle)
		tracecmd_close(t->handle);
	tep_free(t->tep);
	free((char *)t->kallsyms.s);
	free(t->host);
	free(t->machine);
	free(t->kernel);
	free(t->recorder);
	free(t->clock);
	f2t_tracedat_data_close(&t->data);
	f2t_tracedat_layout_free(&t->layout);
	if (t->fd >= 0)
		close(t->fd);
	free((char *)in->rec.path);
	free(t);
}

/*
 * The input's events: the buffers' N sources in SRCS (an array freed here),
 * interleaved from FIRST_TS; or, when opening them failed (RET), none of them.
 */
static int interleave_buffers(struct tracedat_input *t, struct f2t_source **srcs, unsigned int n,
			 uint64_t first_ts, int ret)
{
	if (ret) {
		for (unsigned int i = 0; i < n; i++)
			f2t_source_close(srcs[i]);
	} else {
		t->in.events = f2t_source_interleave(srcs, n);
		if (!t->in.events)
			ret = -errno;
		t->in.rec.info.start_ns = first_ts == UINT64_MAX ? 0 : first_ts;
	}
	free(srcs);
	return ret;
}

static void say_instance_clock(const struct tracedat_input *t, const char *name, const char *clock)
{
	if (clock && strcmp(clock, t->clock))
		f2t_warn("%s: buffer '%s' has trace clock '%s', not '%s' like the top buffer: its times are on another clock",
			 t->in.rec.path, name, clock, t->clock);
}

/* Every buffer of the layout, read by us: the top one, then the instances in the file's order. */
static int open_own_buffers(struct tracedat_input *t)
{
	const struct f2t_tracedat_layout *lay = &t->layout;
	struct f2t_source **srcs = calloc(lay->nbuffers + 1, sizeof(*srcs));
	uint64_t first_ts = UINT64_MAX;
	unsigned int k = 0;
	int ret = 0;

	if (!srcs)
		return -ENOMEM;
	/* Pass 0 opens the top buffer (name ""), pass 1 the instances. */
	for (size_t n = 0; !ret && n < 2 * lay->nbuffers; n++) {
		const struct f2t_tracedat_buffer *b = &lay->buffers[n % lay->nbuffers];
		bool instance = *b->name != '\0';

		if (instance != (n >= lay->nbuffers))
			continue;
		if (instance && b->ncpus)
			say_instance_clock(t, b->name, b->clock);
		srcs[k] = f2t_tracedat_pagesrc_open(t->tep, lay->meta.ncpus, b, &t->data, &t->in.rec,
						    &first_ts);
		if (!srcs[k])
			ret = -errno;
		else
			f2t_rawdec_share_tep(&((struct tracedat_bufsrc *)srcs[k++])->dec,
					     &t->tep_symbols);
	}
	return interleave_buffers(t, srcs, k, first_ts, ret);
}

/* The page size of buffer NAME, as the walk found it: the file's when it did not see the buffer. */
static uint32_t page_of(const struct tracedat_input *t, const char *name)
{
	for (size_t i = 0; name && i < t->layout.nbuffers; i++)
		if (!strcmp(t->layout.buffers[i].name, name))
			return t->layout.buffers[i].page;
	return t->layout.page;
}

/* Every buffer, read by libtracecmd: the top one, then the instances in the file's order. */
static int open_libtracecmd_buffers(struct tracedat_input *t)
{
	int n = tracecmd_buffer_instances(t->handle);
	struct f2t_source **srcs = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*srcs));
	uint64_t first_ts = UINT64_MAX;
	unsigned int k = 0;
	int ret = 0;

	if (!srcs)
		return -ENOMEM;
	srcs[k] = f2t_tracedat_tcmsrc_open(t->handle, false, tracecmd_cpus(t->handle), page_of(t, ""),
					   &t->in.rec, t->fd, &first_ts);
	if (!srcs[k])
		ret = -errno;
	else
		k++;
	for (int i = 0; !ret && i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(t->handle, i);

		if (!h) {
			f2t_err("%s: libtracecmd cannot read buffer instance '%s' (a truncated or corrupt trace.dat)",
				t->in.rec.path, tracecmd_buffer_instance_name(t->handle, i));
			ret = -EINVAL;
			break;
		}
		/* The walk's stats, when it saw them, hold every buffer's already. */
		if (!t->layout.meta.cpustats &&
		    tracecmd_get_cpustats(h) != tracecmd_get_cpustats(t->handle))
			add_cpustats(&t->in.rec, tracecmd_get_cpustats(h));
		if (tracecmd_cpus(h) > 0)
			say_instance_clock(t, tracecmd_buffer_instance_name(t->handle, i),
					   tracecmd_get_trace_clock(h));
		srcs[k] = f2t_tracedat_tcmsrc_open(h, true, tracecmd_cpus(h),
						   page_of(t, tracecmd_buffer_instance_name(t->handle, i)),
						   &t->in.rec, t->fd, &first_ts);
		if (!srcs[k])
			ret = -errno;
		else
			k++;
	}
	return interleave_buffers(t, srcs, k, first_ts, ret);
}

/*
 * libtracecmd 1.3 and libtraceevent crash on some damaged files while they
 * open them: in libtracecmd's own cleanup after an instance's data fails to
 * read, in libtraceevent's parser of a damaged format file (ours too).  What compressed chunks and
 * format texts hold cannot be checked without reading them as they do.  So
 * while they open the file, a crash becomes the one-line error it deserves
 * and exit status 1: no output exists yet, and the handler only writes and
 * exits (both async-signal-safe).
 */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static char crash_msg[512];
static size_t crash_len;
static int crash_fd = STDERR_FILENO;	/* a copy: stderr is muted at times (tracedat_inflate.c) */

static void on_crash(int sig)
{
	ssize_t n = write(crash_fd, crash_msg, crash_len);

	(void)n;
	(void)sig;
	_exit(1);
}

/* The fuzz build's fuzzer must see the crash, and keep the file that caused it. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
static const bool guard_crashes = false;
#else
static const bool guard_crashes = true;
#endif

static void guard_open(const char *path, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_crash, .sa_flags = SA_RESETHAND };
	int n = snprintf(crash_msg, sizeof(crash_msg),
			 "ftrace2trace: error: %s: libtracecmd or libtraceevent crashed reading it (a truncated or corrupt trace.dat)\n",
			 path);

	crash_len = n > 0 && (size_t)n < sizeof(crash_msg) ? (size_t)n : 0;
	crash_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (crash_fd < 0)
		crash_fd = STDERR_FILENO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		sigaction(crash_signals[i], guard_crashes ? &sa : NULL, &old[i]);
}

static void unguard_open(const struct sigaction *old)
{
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		sigaction(crash_signals[i], &old[i], NULL);
	if (crash_fd != STDERR_FILENO)
		close(crash_fd);
	crash_fd = STDERR_FILENO;
}

static int check_layout(const char *path, int fd, uint64_t *size,
			struct f2t_tracedat_layout *lay)
{
	struct stat st;

	if (fstat(fd, &st)) {
		f2t_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	*size = (uint64_t)st.st_size;
	return f2t_tracedat_layout_read(path, fd, *size, lay);
}

static int tracedat_open(const char *path, int fd, struct f2t_input **out)
{
	struct tracedat_input *t = calloc(1, sizeof(*t));
	struct sigaction old[sizeof(crash_signals) / sizeof(crash_signals[0])];
	struct tracecmd_input *copy;
	unsigned long said = f2t_errors();
	const char *why;
	uint64_t size = 0;
	int ret;

	if (!t) {
		f2t_err("%s: out of memory", path);
		return -ENOMEM;
	}
	guard_open(path, old);
	/* Kept open: the kallsyms are read on first use, the file is not opened again by name. */
	t->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	snprintf(t->fd_path, sizeof(t->fd_path), "/proc/self/fd/%d", t->fd);
	t->in.kind = f2t_tracedat_input.name;
	t->in.close = tracedat_close;
	t->in.rec.path = strdup(path);
	t->in.rec.tasks = f2t_tasks_new();
	t->in.rec.tasks_end = f2t_tasks_new();
	if (t->fd < 0) {
		ret = -errno;
		f2t_err("%s: %s", path, strerror(errno));
		goto out;
	}
	if (!t->in.rec.path || !t->in.rec.tasks || !t->in.rec.tasks_end) {
		ret = -ENOMEM;
		goto out;
	}
	ret = check_layout(path, t->fd, &size, &t->layout);
	if (ret)
		goto out;
	why = f2t_tracedat_pages_unreadable(&t->layout);
	/* Test hook: libtracecmd's reading, to compare ours with. */
	if (!why && getenv("F2T_TEST_TRACEDAT_LIBTRACECMD"))
		why = "F2T_TEST_TRACEDAT_LIBTRACECMD is set";
	if (!why) {
		t->tep = f2t_tracedat_tep(path, &t->layout);
		if (!t->tep) {
			ret = -errno;
			goto out;
		}
		if (tep_is_old_format(t->tep))
			why = "an old ring-buffer format";
	}
	if (!why) {
		ret = read_own_info(t) ?: f2t_tracedat_data_open(&t->data, path, t->fd, &t->layout) ?:
		      open_own_buffers(t);
		goto out;
	}
	tep_free(t->tep);
	t->tep = NULL;
	if (t->layout.hook) {
		/*
		 * libtracecmd 1.3 prints a hook it parses on standard output
		 * (where an output may go) and writes through a NULL pointer
		 * for one it cannot parse.
		 */
		f2t_err("%s: a hook option (trace-cmd record -H), which libtracecmd cannot be given safely, in a file only libtracecmd reads (%s)",
			path, why);
		ret = -EINVAL;
		goto out;
	}
	f2t_info("%s: libtracecmd reads it (%s)", path, why);
	/* Our own messages say what is wrong; libtracecmd's would be noise. */
	tracecmd_set_loglevel(f2t_verbose ? TEP_LOG_WARNING : TEP_LOG_NONE);
	/*
	 * Without plugins, libtraceevent prints every event with the kernel's
	 * own print format, as the kernel's trace file does; trace-cmd's
	 * plugins print sched_switch and others their own way.
	 */
	t->handle = tracecmd_open(t->fd_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!t->handle) {
		f2t_err("%s: libtracecmd cannot read it (a truncated or corrupt trace.dat, or a version it does not know)",
			path);
		ret = -EINVAL;
		goto out;
	}
	ret = read_libtracecmd_info(t);
	if (ret)
		goto out;
	/* Read through a copy, but named, described and checked as the file itself. */
	if (f2t_tracedat_should_inflate(t->handle, size) &&
	    (copy = f2t_tracedat_inflate(path, t->fd_path, TRACECMD_FL_LOAD_NO_PLUGINS))) {
		tracecmd_close(t->handle);
		t->handle = copy;
	}
	ret = open_libtracecmd_buffers(t);
out:
	unguard_open(old);
	if (ret == -ENOMEM && f2t_errors() == said)
		f2t_err("%s: out of memory", path);
	if (ret) {
		tracedat_close(&t->in);
		return ret;
	}
	*out = &t->in;
	return 0;
}

const struct f2t_input_kind f2t_tracedat_input = {
	.name = "trace-cmd trace.dat",
	.probe = tracedat_probe,
	.open = tracedat_open,
};
