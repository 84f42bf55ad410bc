// SPDX-License-Identifier: MIT
/*
 * Harness plumbing.  The capture reader maps the whole file and its records
 * point into the mapping (so does the trace.dat page reader); a read past a record's end there lands in the next
 * record or in the page's zero tail, which no sanitizer sees.  So the
 * harnesses link with --wrap=mmap,--wrap=munmap,--wrap=madvise: the mapping
 * of the fuzzed capture becomes a heap copy of exactly its size, and a read
 * past the end of the last record (harnesses may leave END out) is caught.
 * They also wrap strtoul() and strtoull(), which ASan does not check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "pipeline/convert.h"
#include "source/capture/capsrc.h"
#include "source/input.h"
#include "source/source.h"
#include "util/log.h"

#include "fuzz.h"

/*
 * A hostile size field can ask libtracecmd or libtraceevent for exabytes.
 * Built normally, malloc() returns NULL and they (and we) refuse the file;
 * AddressSanitizer would abort instead and call it a finding.  Let it return
 * NULL as the C library does, so what is fuzzed is what users run.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static int cap_fd = -1;
static char cap_path[64];
static int input_fd = -1;	/* fz_read_input()'s file, while it is read */

void fz_init(void)
{
	static int done;
	int null;

	if (done)
		return;
	done = 1;
	f2t_quiet = 1;
	null = open("/dev/null", O_WRONLY);
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	/*
	 * Our error messages (one per bad input) slow fuzzing down and bury
	 * libFuzzer's lines: they go to /dev/null.  Sanitizer reports and
	 * libFuzzer's own output still reach file descriptor 2.
	 */
	if (!getenv("F2T_FUZZ_VERBOSE")) {
		FILE *devnull = fopen("/dev/null", "w");

		if (!devnull)
			abort();
		f2t_log_set_output(devnull);
	}
	/*
	 * The JSON writer's spools of standard output (one to three an input)
	 * and trace.dat's inflated copies go to $TMPDIR: on /tmp's disk file
	 * system, creating, writing and dropping them was a twentieth of a
	 * render input's time.  In memory unless the run says where.
	 */
	if (!access("/dev/shm", W_OK | X_OK) && setenv("TMPDIR", "/dev/shm", 0))
		abort();
	cap_fd = memfd_create("fuzz-capture", MFD_CLOEXEC);
	if (cap_fd < 0)
		abort();
	snprintf(cap_path, sizeof(cap_path), "/proc/self/fd/%d", cap_fd);
}

const char *fz_fixture(const char *rel, size_t *len)
{
	static struct { char *rel, *data; size_t len; } cache[64];
	const char *dir = getenv("F2T_TESTS");
	char path[1024];
	size_t i;
	FILE *f;

	for (i = 0; i < 64 && cache[i].rel; i++) {
		if (!strcmp(cache[i].rel, rel)) {
			*len = cache[i].len;
			return cache[i].data;
		}
	}
	if (i == 64)
		abort();
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : F2T_FUZZ_TESTS, rel);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz: cannot read %s (set F2T_TESTS to the tests directory)\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	cache[i].len = (size_t)ftell(f);
	rewind(f);
	cache[i].data = malloc(cache[i].len + 1);
	if (!cache[i].data || fread(cache[i].data, 1, cache[i].len, f) != cache[i].len)
		abort();
	cache[i].data[cache[i].len] = '\0';
	fclose(f);
	cache[i].rel = strdup(rel);
	*len = cache[i].len;
	return cache[i].data;
}

size_t fz_line_addrs(const uint8_t *data, size_t size, uint64_t *out, size_t max)
{
	char *text = malloc(size + 1);
	const char *p;
	size_t n = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; p && n < max; n++) {
		out[n] = strtoull(p, NULL, 16);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(text);
	return n;
}

static void cap_grow(struct fz_cap *c, size_t more)
{
	if (c->len + more <= c->cap)
		return;
	c->cap = (c->len + more) * 2;
	c->b = realloc(c->b, c->cap);
	if (!c->b)
		abort();
}

void fz_cap_begin(struct fz_cap *c)
{
	uint32_t v[2] = { F2T_CAP_VERSION, 0 };

	c->len = 0;
	cap_grow(c, 16);
	memcpy(c->b, F2T_CAP_MAGIC, 8);
	memcpy(c->b + 8, v, 8);
	c->len = 16;
}

void fz_cap_add(struct fz_cap *c, uint32_t type, uint32_t arg, const void *data, size_t len)
{
	uint64_t l = len;
	size_t padded = (len + 7) & ~(size_t)7;

	cap_grow(c, 16 + padded);
	memcpy(c->b + c->len, &type, 4);
	memcpy(c->b + c->len + 4, &arg, 4);
	memcpy(c->b + c->len + 8, &l, 8);
	if (len)
		memcpy(c->b + c->len + 16, data, len);
	memset(c->b + c->len + 16 + len, 0, padded - len);
	c->len += 16 + padded;
}

void fz_cap_add_base(struct fz_cap *c, uint32_t type, long arg, long newarg)
{
	size_t len, off = 16;
	const unsigned char *b = (const unsigned char *)fz_fixture("fuzz/base.cap", &len);

	while (off + 16 <= len) {
		uint32_t t, a;
		uint64_t l;

		memcpy(&t, b + off, 4);
		memcpy(&a, b + off + 4, 4);
		memcpy(&l, b + off + 8, 8);
		if (t == F2T_CAP_END || l > len - off - 16)
			break;
		if (t == type && (arg < 0 || a == (uint32_t)arg))
			fz_cap_add(c, t, newarg < 0 ? a : (uint32_t)newarg, b + off + 16, l);
		off += 16 + ((l + 7) & ~7ull);
	}
}

void fz_cap_end(struct fz_cap *c)
{
	fz_cap_add(c, F2T_CAP_END, 0, NULL, 0);
}

const char *fz_cap_file(const void *data, size_t len)
{
	fz_init();
	/* Overwritten, then cut: emptied first, its pages were freed and zeroed again for each input. */
	if (pwrite(cap_fd, data, len, 0) != (ssize_t)len || ftruncate(cap_fd, (off_t)len))
		abort();
	return cap_path;
}

const char *fz_kept_file(const void *data, size_t len)
{
	static char paths[4][64];
	static int n;
	int fd = memfd_create("fuzz-fixed", MFD_CLOEXEC);

	if (n == 4 || fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	snprintf(paths[n], sizeof(paths[n]), "/proc/self/fd/%d", fd);
	return paths[n++];
}

void fz_convert_opts(struct f2t_convert_opts *o)
{
	*o = (struct f2t_convert_opts){ 0 };
	if (f2t_convert_add_output(o, "-", "fxt") || f2t_convert_add_output(o, "-", "json") ||
	    f2t_convert_add_output(o, "-", "systrace"))
		abort();
}

int fz_convert(const void *data, size_t len)
{
	struct f2t_convert_opts o;
	const char *path = fz_cap_file(data, len);

	fz_convert_opts(&o);
	return f2t_convert(path, &o);
}

/* ---- the capture's mapping as an exact-size heap copy ---- */

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t len);
int __real_madvise(void *addr, size_t len, int advice);

static struct { unsigned char *p; size_t len; } copies[4];

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct stat a, b;
	unsigned char *p;
	size_t i;

	/* Only the fuzzed file: another descriptor of the capture's or the input's memfd. */
	if (fd < 0 || off != 0 || prot != PROT_READ || fstat(fd, &a) ||
	    !((cap_fd >= 0 && !fstat(cap_fd, &b) && a.st_ino == b.st_ino && a.st_dev == b.st_dev) ||
	      (input_fd >= 0 && !fstat(input_fd, &b) && a.st_ino == b.st_ino && a.st_dev == b.st_dev)))
		return __real_mmap(addr, len, prot, flags, fd, off);
	for (i = 0; i < 4 && copies[i].p; i++)
		;
	p = malloc(len ? len : 1);
	if (i == 4 || !p || pread(fd, p, len, 0) != (ssize_t)len)
		abort();
	copies[i].p = p;
	copies[i].len = len;
	return p;
}

static int copy_of(const void *addr)
{
	for (int i = 0; i < 4; i++)
		if (copies[i].p && (const unsigned char *)addr >= copies[i].p &&
		    (const unsigned char *)addr <= copies[i].p + copies[i].len)
			return i;
	return -1;
}

int __wrap_munmap(void *addr, size_t len);
int __wrap_munmap(void *addr, size_t len)
{
	int i = copy_of(addr);

	if (i < 0 || addr != copies[i].p)
		return __real_munmap(addr, len);
	free(copies[i].p);
	copies[i].p = NULL;
	return 0;
}

/* The decoder drops pages it has read; a heap copy just stays. */
int __wrap_madvise(void *addr, size_t len, int advice);
int __wrap_madvise(void *addr, size_t len, int advice)
{
	if (copy_of(addr) >= 0)
		return 0;
	return __real_madvise(addr, len, advice);
}

/*
 * ---- strtoul() and strtoull() that AddressSanitizer can see ----
 *
 * ASan intercepts strtol() and strtoll() but not their unsigned twins, so
 * one run past the end of an unterminated buffer goes unseen.  These read,
 * with instrumented loads, every byte the real one will read (white space,
 * sign, base prefix, digits and the byte that stops them), then call it.
 */
unsigned long long __real_strtoull(const char *nptr, char **endptr, int base);
unsigned long __real_strtoul(const char *nptr, char **endptr, int base);

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

static void touch_number(const char *p, int base)
{
	volatile char c;

	while ((c = *p) == ' ' || (c >= '\t' && c <= '\r'))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	else if (base == 0 && p[0] == '0')
		base = 8;
	if (base == 0)
		base = 10;
	while (digit_value(*p) < base)
		p++;
}

unsigned long long __wrap_strtoull(const char *nptr, char **endptr, int base);
unsigned long long __wrap_strtoull(const char *nptr, char **endptr, int base)
{
	touch_number(nptr, base);
	return __real_strtoull(nptr, endptr, base);
}

unsigned long __wrap_strtoul(const char *nptr, char **endptr, int base);
unsigned long __wrap_strtoul(const char *nptr, char **endptr, int base)
{
	touch_number(nptr, base);
	return __real_strtoul(nptr, endptr, base);
}

static int add_field(void *ctx, const char *name, int is_str, long long num, const char *str)
{
	*(size_t *)ctx += strlen(name) + (is_str ? strlen(str) : (size_t)(num & 1));
	return 0;
}

void fz_read_input(const struct f2t_input_kind *kind, const uint8_t *data, size_t size)
{
	struct f2t_input *in = NULL;
	char path[64];
	int fd = memfd_create("f2t-fuzz", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	input_fd = fd;
	if (kind->open(path, fd, &in) == 0) {
		struct f2t_event ev;
		size_t sum = 0, len;

		while (f2t_source_next(in->events, &ev) > 0) {
			const struct f2t_task *task = ev.pid ? f2t_tasks_find(in->rec.tasks, ev.pid) :
							       NULL;
			const char *text = f2t_event_text(&ev, task, &len);

			if (text && text[len] != '\0')
				abort();	/* the text op ends its text */
			f2t_event_fields(&ev, add_field, &sum);
		}
		f2t_input_close(in);
	}
	input_fd = -1;
	close(fd);
}

/* ---- a fixed capture's formats and recording, around fuzzed pages ---- */

void fz_fixed_open(struct fz_fixed *fx, bool kallsyms)
{
	struct fz_cap c = { 0 };
	const char *path;

	fz_init();
	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_HEADER_PAGE, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_EVENT_FORMAT, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_TASKS, -1, -1);
	if (kallsyms)
		fz_cap_add_base(&c, F2T_CAP_KALLSYMS, -1, -1);
	/* What names samples' user frames: maps of the sampled task, build-ids. */
	fz_cap_add_base(&c, F2T_CAP_MAPS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_BUILD_IDS, -1, -1);
	fz_cap_end(&c);
	path = fz_kept_file(c.b, c.len);
	free(c.b);
	fx->base = f2t_input_open(path);
	fx->cap = f2t_capr_open(path);
	fx->tep = fx->cap ? f2t_capsrc_formats(fx->cap) : NULL;
	fx->tasks = fx->cap ? f2t_capr_find(fx->cap, F2T_CAP_TASKS, 0) : NULL;
	if (!fx->base || !fx->tep || !fx->tasks)
		abort();
}

struct f2t_capr *fz_fixed_input(struct fz_fixed *fx, const char *path, struct f2t_input *in,
				const struct f2t_text *kallsyms)
{
	struct f2t_capr *cap = f2t_capr_open(path);
	int line;

	*in = (struct f2t_input){ .rec = fx->base->rec, .kind = "fuzzed capture" };
	in->rec.tasks = in->rec.tasks_end = NULL;
	if (!cap)
		return NULL;
	in->rec.path = path;
	if (kallsyms) {
		in->rec.kallsyms = *kallsyms;
		in->rec.read_kallsyms = NULL;
	}
	in->rec.tasks = f2t_tasks_new();
	in->rec.tasks_end = f2t_tasks_new();
	if (!in->rec.tasks || !in->rec.tasks_end ||
	    f2t_tasks_load_snapshot(in->rec.tasks, fx->tasks->data, fx->tasks->len, &line) < 0)
		abort();
	in->events = f2t_capsrc_open_with(cap, &in->rec, fx->tep, &fx->tep_symbols);
	return cap;
}

void fz_fixed_close(struct f2t_input *in, struct f2t_capr *cap)
{
	if (in->events)
		f2t_source_close(in->events);
	f2t_tasks_free(in->rec.tasks);
	f2t_tasks_free(in->rec.tasks_end);
	if (cap)
		f2t_capr_close(cap);
}
