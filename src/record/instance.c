// SPDX-License-Identifier: MIT
/*
 * Our tracefs instance.  Everything goes through libtracefs; the instance
 * is named ftrace2trace-<pid> so a later run can tell a stale one (its
 * recorder was killed) from a live one and remove it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Set while an instance exists, for the atexit() safety net. */
static struct f2t_inst *live_inst;

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

static void read_comm(pid_t pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	comm[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(comm, (int)len, f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
}

/*
 * Is PID a live recorder other than us?  A recorder is a process named
 * ftrace2trace, or named like us (a renamed binary).  A pid reused by
 * something else means the instance is stale.
 */
static bool recorder_alive(pid_t pid)
{
	char comm[32], mine[32];

	if (pid == getpid())
		return false;	/* ours by name, yet we have not created it yet */
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	read_comm(pid, comm, sizeof(comm));
	read_comm(getpid(), mine, sizeof(mine));
	return !strcmp(comm, "ftrace2trace") || (comm[0] && !strcmp(comm, mine));
}

int f2t_inst_remove_stale(void)
{
	/* All names, filtered here: no regex dialect to get wrong. */
	char **names = tracefs_instances(NULL);
	size_t plen = strlen(F2T_INST_PREFIX);
	int removed = 0;

	for (int i = 0; names && names[i]; i++) {
		const char *digits = names[i] + plen;
		struct tracefs_instance *ti;
		char *end;
		long pid;

		if (strncmp(names[i], F2T_INST_PREFIX, plen) || !isdigit((unsigned char)*digits))
			continue;
		pid = strtol(digits, &end, 10);
		if (*end || pid <= 0 || recorder_alive((pid_t)pid))
			continue;
		ti = tracefs_instance_alloc(NULL, names[i]);
		if (!ti)
			continue;
		tracefs_trace_off(ti);
		if (tracefs_instance_destroy(ti) < 0) {
			f2t_warn("cannot remove stale tracefs instance %s: %s",
				 names[i], strerror(errno));
		} else {
			f2t_info("removed stale tracefs instance %s", names[i]);
			removed++;
		}
		tracefs_instance_free(ti);
	}
	tracefs_list_free(names);
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
	if (live_inst)
		f2t_inst_destroy(live_inst);
}

int f2t_inst_create(struct f2t_inst *in, unsigned long buffer_kb)
{
	static bool atexit_done;
	ssize_t got;
	int err = 0;

	memset(in, 0, sizeof(*in));
	snprintf(in->name, sizeof(in->name), F2T_INST_PREFIX "%d", (int)getpid());
	in->ti = tracefs_instance_create(in->name);
	if (!in->ti) {
		err = -(errno ? errno : EIO);
		f2t_err("cannot create tracefs instance %s: %s", in->name, strerror(-err));
		goto out;
	}
	live_inst = in;
	if (!atexit_done && atexit(destroy_at_exit) == 0)
		atexit_done = true;
	/* A new instance starts with tracing on; keep it off until we are ready. */
	tracefs_trace_off(in->ti);

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
	if (live_inst == in)
		live_inst = NULL;
}
