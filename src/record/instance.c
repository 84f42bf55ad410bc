// SPDX-License-Identifier: MIT
/*
 * Our tracefs instance, through libtracefs, named ftrace2trace-<pid>.
 *
 * Whether another instance's recorder lives is told by a lock, not by a
 * name or a pid (a renamed binary, another PID namespace where the number
 * means another process): each recorder holds flock(LOCK_EX) on its
 * instance's directory for as long as the instance exists, and the kernel
 * drops it when the recorder dies, however it dies.  An instance whose
 * lock can be taken was left by a killed run; one whose lock cannot be is
 * a running recording's, left alone.  The lock of the instances directory
 * itself makes "create, then lock" one step for a run that cleans up.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "record/instance.h"
#include "record/record.h"
#include "util/log.h"

#define CAP_BIT_DAC_OVERRIDE 1
#define CAP_BIT_SYS_ADMIN 21

/*
 * Wake the reader when a quarter of a CPU's buffer is full: with the default
 * 4 MB that is 1 MB per wake-up (few wake-ups, large batches) and leaves
 * three quarters of the buffer to absorb the time the reader needs to run.
 */
#define BUFFER_PERCENT "25"

/*
 * Set while an instance exists, for the atexit() safety net: the
 * recording's, and a flight recorder's marker watch.
 */
static struct f2t_inst *live_inst[2];

/* How long to wait for another run to finish creating or cleaning up. */
#define INSTANCES_LOCK_MS 2000
/* Names tried when ours is taken (a recorder with our pid in another PID namespace). */
#define NAME_TRIES 100

static unsigned long long cap_effective(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			caps = strtoull(line + 7, NULL, 16);
			break;
		}
	fclose(f);
	return caps;
}

int f2t_inst_check_access(void)
{
	unsigned long long need = (1ULL << CAP_BIT_SYS_ADMIN) | (1ULL << CAP_BIT_DAC_OVERRIDE);
	const char *dir;

	if (geteuid() != 0 && (cap_effective() & need) != need) {
		f2t_err("recording needs root (or CAP_SYS_ADMIN and CAP_DAC_OVERRIDE) "
			"to use tracefs; run it with sudo");
		return -EPERM;
	}
	/* Mounts tracefs at /sys/kernel/tracing if it is not mounted anywhere. */
	errno = 0;
	dir = tracefs_tracing_dir();
	if (!dir && f2t_resource_error(-errno)) {
		int err = -errno;

		/* It reads /proc/mounts: no descriptor left is no answer, not no tracefs. */
		f2t_err("cannot look for tracefs: %s", strerror(errno));
		return err;
	}
	if (!dir || !tracefs_dir_exists(NULL, "instances")) {
		f2t_err("tracefs is not available and could not be mounted at "
			"/sys/kernel/tracing (kernel without CONFIG_FTRACE?)");
		return -ENOENT;
	}
	f2t_info("tracefs at %s", dir);
	return 0;
}

/* The tracefs instances directory, opened: an fd, or -errno. */
static int open_instances(void)
{
	char *path = tracefs_get_tracing_file("instances");
	int fd = path ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int err = fd < 0 ? -(path && errno ? errno : ENOENT) : fd;

	tracefs_put_tracing_file(path);
	return err;
}

/*
 * Takes the lock of the instances directory (open at DIRFD), waiting a
 * little for a run that holds it.  Closing DIRFD releases it.
 */
static bool hold_instances(int dirfd)
{
	for (int waited = 0; waited < INSTANCES_LOCK_MS; waited += 10) {
		if (!flock(dirfd, LOCK_EX | LOCK_NB))
			return true;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return false;
		usleep(10000);
	}
	return false;
}

/* Instance NAME's directory, locked: an fd, -EWOULDBLOCK when its recorder lives, or -errno. */
static int lock_instance(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* ftrace2trace-PID or ftrace2trace-PID-N: a name f2t_inst_create() gives. */
static bool recorder_name(const char *name)
{
	size_t plen = strlen(F2T_INST_PREFIX);
	const char *p = name + plen;

	if (strncmp(name, F2T_INST_PREFIX, plen) || !isdigit((unsigned char)*p))
		return false;
	p += strspn(p, "0123456789");
	if (*p == '-' && isdigit((unsigned char)p[1]))
		p += 1 + strspn(p + 1, "0123456789");
	return !*p;
}

int f2t_inst_remove_stale(void)
{
	int dirfd = open_instances(), removed = 0;
	char **names = NULL;

	/* Listed under the lock: an instance made since is locked by its maker. */
	if (dirfd < 0 || !hold_instances(dirfd)) {
		f2t_info("tracefs instances busy or unreadable: stale ones are left for a later run");
		goto out;
	}
	/* All names, filtered here: no regex dialect to get wrong. */
	names = tracefs_instances(NULL);
	for (int i = 0; names && names[i]; i++) {
		struct tracefs_instance *ti;
		int fd;

		if (!recorder_name(names[i]))
			continue;
		fd = lock_instance(dirfd, names[i]);
		if (fd == -EWOULDBLOCK)
			f2t_warn("tracefs instance %s belongs to a recording that is still "
				 "running: left alone", names[i]);
		if (fd < 0)
			continue;
		/*
		 * No recorder holds it.  Tracing is not turned off first: a
		 * recorder from before these locks, alive, has its files open
		 * and the kernel refuses the removal (EBUSY) without it losing
		 * a thing.
		 */
		ti = tracefs_instance_alloc(NULL, names[i]);
		if (ti) {
			int ret = tracefs_instance_destroy(ti), why = errno;

			if (ret < 0 && why == EBUSY) {
				f2t_warn("tracefs instance %s is in use, though by no recorder "
					 "of this version: left alone", names[i]);
			} else if (ret < 0) {
				f2t_warn("cannot remove stale tracefs instance %s: %s",
					 names[i], strerror(why));
			} else {
				f2t_info("removed stale tracefs instance %s", names[i]);
				removed++;
			}
			tracefs_instance_free(ti);
		}
		close(fd);
	}
out:
	tracefs_list_free(names);
	if (dirfd >= 0)
		close(dirfd);
	return removed;
}

static int count_cpus(struct tracefs_instance *ti)
{
	char *path = tracefs_instance_get_file(ti, "per_cpu");
	DIR *d = path ? opendir(path) : NULL;
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		int cpu;

		if (sscanf(de->d_name, "cpu%d", &cpu) == 1 && cpu + 1 > n)
			n = cpu + 1;
	}
	if (d)
		closedir(d);
	tracefs_put_tracing_file(path);
	return n;
}

unsigned long f2t_inst_pick_buffer_kb(int ncpus)
{
	unsigned long kb = F2T_RECORD_DEFAULT_BUFFER_KB;
	unsigned long long avail = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &avail) == 1)
			break;
	if (f)
		fclose(f);
	if (ncpus > 0 && avail && kb * (unsigned long long)ncpus > avail / 8) {
		kb = (unsigned long)(avail / 8 / (unsigned long long)ncpus);
		if (kb < 1024)
			kb = 1024;
	}
	return kb;
}

static bool clock_available(const char *list, const char *want)
{
	size_t n = strlen(want);

	for (const char *p = list; *p;) {
		while (*p && (isspace((unsigned char)*p) || *p == '['))
			p++;
		if (!strncmp(p, want, n) && (!p[n] || p[n] == ']' || isspace((unsigned char)p[n])))
			return true;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	return false;
}

/* mono matches user-space CLOCK_MONOTONIC; boot is the next best. */
static int set_clock(struct f2t_inst *in)
{
	static const char *const prefer[] = { "mono", "boot" };
	char *list = tracefs_instance_file_read(in->ti, "trace_clock", NULL);
	char *cur;

	for (size_t i = 0; list && i < sizeof(prefer) / sizeof(prefer[0]); i++) {
		if (!clock_available(list, prefer[i]))
			continue;
		if (tracefs_instance_file_write(in->ti, "trace_clock", prefer[i]) > 0)
			break;
	}
	free(list);
	errno = 0;
	cur = tracefs_get_clock(in->ti);
	if (!cur) {
		int err = errno ? -errno : -EIO;

		f2t_err("cannot read trace_clock of instance %s: %s", in->name, strerror(-err));
		return err;
	}
	snprintf(in->clock, sizeof(in->clock), "%s", cur);
	free(cur);
	if (strcmp(in->clock, "mono"))
		f2t_warn("trace clock 'mono' unavailable, using '%s': timestamps will not "
			 "match CLOCK_MONOTONIC", in->clock);
	return 0;
}

static int subbuf_size(struct f2t_inst *in)
{
	struct tep_handle *tep;
	long long kb;
	char *hp;
	int len, size = -1;

	/* Kernels that can change the sub-buffer size say it per instance. */
	if (tracefs_instance_file_read_number(in->ti, "buffer_subbuf_size_kb", &kb) == 0 &&
	    kb > 0 && kb <= 1024)
		return (int)kb * 1024;
	/* Older ones: the page layout in header_page (what libtracefs uses). */
	hp = tracefs_instance_file_read(NULL, "events/header_page", &len);
	tep = tep_alloc();
	if (hp && tep && tep_parse_header_page(tep, hp, (unsigned long)len, sizeof(long)) == 0)
		size = tep_get_sub_buffer_size(tep);
	tep_free(tep);
	free(hp);
	if (size <= 0)
		size = (int)sysconf(_SC_PAGESIZE);
	return size;
}

static void destroy_at_exit(void)
{
	for (size_t i = 0; i < sizeof(live_inst) / sizeof(live_inst[0]); i++)
		if (live_inst[i])
			f2t_inst_destroy(live_inst[i]);
}

/*
 * Makes our instance, ftrace2trace-PID (or -PID-N when that name is a live
 * recorder's in another PID namespace), and locks it: made and locked
 * while holding the instances directory, so no run cleaning up sees it
 * unlocked.  Return: 0 or negative errno (message printed).
 */
static int make_locked(struct f2t_inst *in)
{
	int dirfd = open_instances(), err = 0;

	if (dirfd < 0) {
		f2t_err("cannot open the tracefs instances directory: %s", strerror(-dirfd));
		return dirfd;
	}
	if (!hold_instances(dirfd))
		f2t_info("tracefs instances busy: creating ours without waiting longer");
	for (int n = 1; !in->ti; n++) {
		if (n == 1)
			snprintf(in->name, sizeof(in->name), F2T_INST_PREFIX "%d", (int)getpid());
		else
			snprintf(in->name, sizeof(in->name), F2T_INST_PREFIX "%d-%d", (int)getpid(), n);
		errno = 0;
		in->ti = tracefs_instance_create(in->name);
		if (in->ti && !tracefs_instance_is_new(in->ti)) {
			tracefs_instance_free(in->ti);	/* someone else's */
			in->ti = NULL;
			errno = EEXIST;
		}
		if (!in->ti && (errno != EEXIST || n == NAME_TRIES)) {
			err = -(errno ? errno : EIO);
			f2t_err("cannot create tracefs instance %s: %s", in->name, strerror(-err));
			goto out;
		}
	}
	in->lock_fd = lock_instance(dirfd, in->name);
	if (in->lock_fd < 0) {
		err = in->lock_fd;
		f2t_err("cannot lock tracefs instance %s: %s", in->name, strerror(-err));
	}
out:
	close(dirfd);
	return err;
}

int f2t_inst_create(struct f2t_inst *in, unsigned long buffer_kb)
{
	static bool atexit_done;
	ssize_t got;
	int err = 0;

	memset(in, 0, sizeof(*in));
	in->lock_fd = -1;
	err = make_locked(in);
	if (!in->ti)
		goto out;
	for (size_t i = 0; i < sizeof(live_inst) / sizeof(live_inst[0]); i++) {
		if (!live_inst[i]) {
			live_inst[i] = in;
			break;
		}
	}
	if (!atexit_done && atexit(destroy_at_exit) == 0)
		atexit_done = true;
	/* A new instance starts with tracing on; keep it off until we are ready. */
	tracefs_trace_off(in->ti);
	if (err)
		goto out;	/* not locked: removed again by our caller */

	err = set_clock(in);
	if (err)
		goto out;
	/*
	 * User markers are written to the top-level trace_marker; this option
	 * copies them into our instance.  libtracefs 1.6 has no option id for it.
	 */
	if (!tracefs_file_exists(in->ti, "options/copy_trace_marker") ||
	    tracefs_instance_file_write(in->ti, "options/copy_trace_marker", "1") <= 0)
		f2t_info("this kernel cannot copy top-level trace_marker writes into an "
			 "instance; only markers written to %s's own trace_marker are recorded",
			 in->name);

	in->ncpus = count_cpus(in->ti);
	if (in->ncpus <= 0) {
		f2t_err("no per_cpu directories in tracefs instance %s", in->name);
		err = -ENOENT;
		goto out;
	}
	if (!buffer_kb)
		buffer_kb = f2t_inst_pick_buffer_kb(in->ncpus);
	if (tracefs_instance_set_buffer_size(in->ti, buffer_kb, -1) < 0) {
		err = -(errno ? errno : EIO);
		f2t_err("cannot set a %lu KB ring buffer per CPU: %s", buffer_kb, strerror(-err));
		goto out;
	}
	got = tracefs_instance_get_buffer_size(in->ti, 0);
	in->buffer_kb = got > 0 ? (unsigned long)got : buffer_kb;
	if (tracefs_file_exists(in->ti, "buffer_percent"))
		tracefs_instance_file_write(in->ti, "buffer_percent", BUFFER_PERCENT);
	in->subbuf_size = subbuf_size(in);
	f2t_info("instance %s: clock %s, %lu KB per CPU, %d CPUs, %d-byte sub-buffers",
		 in->name, in->clock, in->buffer_kb, in->ncpus, in->subbuf_size);
out:
	return err;
}

int f2t_inst_tracing(struct f2t_inst *in, bool on)
{
	int ret = on ? tracefs_trace_on(in->ti) : tracefs_trace_off(in->ti);

	return ret < 0 ? -(errno ? errno : EIO) : 0;
}

int f2t_inst_resize(struct f2t_inst *in, unsigned long kb)
{
	ssize_t got;

	if (tracefs_instance_set_buffer_size(in->ti, kb, -1) < 0)
		return -(errno ? errno : EIO);
	got = tracefs_instance_get_buffer_size(in->ti, 0);
	in->buffer_kb = got > 0 ? (unsigned long)got : kb;
	return 0;
}

void f2t_inst_destroy(struct f2t_inst *in)
{
	if (!in || !in->ti)
		return;
	tracefs_trace_off(in->ti);
	if (tracefs_instance_destroy(in->ti) < 0)
		f2t_warn("cannot remove tracefs instance %s (%s); the next run removes it",
			 in->name, strerror(errno));
	tracefs_instance_free(in->ti);
	in->ti = NULL;
	/* After the removal: until then, the instance is seen as ours. */
	if (in->lock_fd >= 0)
		close(in->lock_fd);
	in->lock_fd = -1;
	for (size_t i = 0; i < sizeof(live_inst) / sizeof(live_inst[0]); i++)
		if (live_inst[i] == in)
			live_inst[i] = NULL;
}
