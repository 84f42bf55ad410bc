// SPDX-License-Identifier: MIT
/*
 * Recording facts.  META is plain "key=value\n" text written once, after
 * the stop, so it holds every key; readers find it by its type.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "record/meta.h"
#include "util/log.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t f2t_meta_now(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

void f2t_meta_mark_start(struct f2t_meta *m)
{
	m->start_ns = clock_ns(CLOCK_MONOTONIC);
	m->start_realtime_ns = clock_ns(CLOCK_REALTIME);
	m->start_boottime_ns = clock_ns(CLOCK_BOOTTIME);
}

/*
 * The first line of @path (a /proc file, world-readable: read as whoever we
 * are) whose text starts with @key (NULL: the first line), from after
 * @key's ':' if any, blanks trimmed; "" when there is none.
 */
static void proc_line(const char *path, const char *key, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = line, *end;

		if (key) {
			if (strncmp(line, key, strlen(key)) || !(v = strchr(line, ':')))
				continue;
			v++;
		}
		v += strspn(v, " \t");
		end = v + strcspn(v, "\n");
		while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		snprintf(buf, len, "%.*s", (int)(end - v), v);
		break;
	}
	fclose(f);
}

/* Minutes east of UTC at @realtime_ns, as strftime's %z says. */
static long tz_offset_min(uint64_t realtime_ns)
{
	time_t t = (time_t)(realtime_ns / 1000000000ULL);
	struct tm tm;

	return localtime_r(&t, &tm) ? tm.tm_gmtoff / 60 : 0;
}

/* A value must stay on its line. */
static void put_value(FILE *f, const char *key, const char *v)
{
	fprintf(f, "%s=", key);
	for (; v && *v; v++)
		fputc(*v == '\n' || *v == '\r' ? ' ' : *v, f);
	fputc('\n', f);
}

/* sync_WHICH_id, _mono_ns, _realtime_ns, _boottime_ns: only for a marker written. */
static void put_sync(FILE *f, const char *which, const struct f2t_meta_sync *s)
{
	if (!s->id[0])
		return;
	fprintf(f, "sync_%s_id=%s\n", which, s->id);
	fprintf(f, "sync_%s_mono_ns=%llu\n", which, (unsigned long long)s->mono_ns);
	fprintf(f, "sync_%s_realtime_ns=%llu\n", which, (unsigned long long)s->realtime_ns);
	fprintf(f, "sync_%s_boottime_ns=%llu\n", which, (unsigned long long)s->boottime_ns);
}

int f2t_meta_write(struct f2t_capw *w, const struct f2t_meta *m)
{
	char host[256] = "", recorder[64], boot_id[64], cpu_model[256];
	struct utsname u;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	if (uname(&u) < 0)
		u.release[0] = u.version[0] = u.machine[0] = '\0';
	/* Which boot: two captures of one host and boot share their clocks. */
	proc_line("/proc/sys/kernel/random/boot_id", NULL, boot_id, sizeof(boot_id));
	/* x86's "model name"; other architectures name it elsewhere, or not at all. */
	proc_line("/proc/cpuinfo", "model name", cpu_model, sizeof(cpu_model));
	if (!cpu_model[0])
		proc_line("/proc/cpuinfo", "Model", cpu_model, sizeof(cpu_model));
	snprintf(recorder, sizeof(recorder), "ftrace2trace %s", F2T_VERSION);
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	put_value(f, "host", host);
	put_value(f, "kernel", u.release);
	put_value(f, "kernel_version", u.version);
	put_value(f, "machine", u.machine);
	put_value(f, "boot_id", boot_id);
	put_value(f, "cpu_model", cpu_model);
	put_value(f, "cmdline", m->cmdline);
	if (m->pids)
		put_value(f, "pids", m->pids);
	put_value(f, "clock", m->clock);
	fprintf(f, "page_size=%ld\n", sysconf(_SC_PAGESIZE));
	fprintf(f, "subbuf_size=%llu\n", (unsigned long long)m->subbuf_size);
	fprintf(f, "ncpus=%u\n", m->ncpus);
	fprintf(f, "long_size=%zu\n", sizeof(long));
	fprintf(f, "start_ns=%llu\n", (unsigned long long)m->start_ns);
	fprintf(f, "stop_ns=%llu\n", (unsigned long long)m->stop_ns);
	fprintf(f, "start_realtime_ns=%llu\n", (unsigned long long)m->start_realtime_ns);
	fprintf(f, "start_boottime_ns=%llu\n", (unsigned long long)m->start_boottime_ns);
	fprintf(f, "tz_offset_min=%ld\n", tz_offset_min(m->start_realtime_ns));
	put_value(f, "recorder", recorder);
	put_sync(f, "start", &m->sync_start);
	put_sync(f, "end", &m->sync_end);
	if (m->flight_from_ns) {
		fprintf(f, "flight_from_ns=%llu\n", (unsigned long long)m->flight_from_ns);
		put_value(f, "flight_trigger", m->flight_trigger);
	}
	if (m->flight_maps_ns)
		fprintf(f, "flight_maps_ns=%llu\n", (unsigned long long)m->flight_maps_ns);
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	err = f2t_capw_add(w, F2T_CAP_META, 0, text, len);
	free(text);
	return err;
}

int f2t_meta_write_static(struct f2t_capw *w)
{
	char *buf;
	int len = 0, err;

	buf = tracefs_instance_file_read(NULL, "events/header_page", &len);
	if (!buf || len <= 0) {
		free(buf);
		f2t_err("cannot read events/header_page: captures would be undecodable");
		return -EIO;
	}
	err = f2t_capw_add(w, F2T_CAP_HEADER_PAGE, 0, buf, (size_t)len);
	free(buf);
	if (err)
		return err;
	buf = tracefs_instance_file_read(NULL, "printk_formats", &len);
	if (!buf || len <= 0) {
		f2t_info("no printk_formats: trace_printk strings will show as addresses");
		free(buf);
		return 0;
	}
	err = f2t_capw_add(w, F2T_CAP_PRINTK_FORMATS, 0, buf, (size_t)len);
	free(buf);
	return err;
}

uint64_t f2t_meta_stat_field(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
	return 0;
}

int f2t_meta_write_cpu_stats(struct f2t_capw *w, struct tracefs_instance *ti,
			     int ncpus, bool overwrites, uint64_t *lost)
{
	int err = 0;

	*lost = 0;
	for (int cpu = 0; cpu < ncpus && !err; cpu++) {
		char path[64], *text;
		int len = 0;

		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(ti, path, &len);
		if (!text)
			continue;	/* offline CPU */
		*lost += (overwrites ? 0 : f2t_meta_stat_field(text, "overrun")) +
			 f2t_meta_stat_field(text, "commit overrun") +
			 f2t_meta_stat_field(text, "dropped events");
		err = f2t_capw_add(w, F2T_CAP_CPU_STATS, (uint32_t)cpu, text, (size_t)len);
		free(text);
	}
	return err;
}

/* Quoted so that the line can be pasted back into a shell. */
static bool needs_quotes(const char *s)
{
	return !*s || s[strcspn(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~")];
}

char *f2t_meta_join_cmdline(char *const argv[])
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (int i = 0; argv[i]; i++) {
		if (i)
			fputc(' ', f);
		if (!needs_quotes(argv[i])) {
			fputs(argv[i], f);
			continue;
		}
		fputc('\'', f);
		for (const char *p = argv[i]; *p; p++)
			if (*p == '\'')
				fputs("'\\''", f);
			else
				fputc(*p, f);
		fputc('\'', f);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
