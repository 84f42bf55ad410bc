// SPDX-License-Identifier: MIT
/*
 * The parts of record that need neither root nor tracefs: the command line
 * written into META, command lookup, the /proc task snapshot, META keys,
 * the build-ids of mapped files read at stop and the time that may take,
 * a flight recorder's snapshot names, META keys and first pages.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/capture.h"
#include "record/child.h"
#include "record/flight.h"
#include "record/meta.h"
#include "record/procsnap.h"
#include "record/symsnap.h"
#include "source/ringbuf/rbpage.h"
#include "logged.h"

static char path[64];

static int setup(void **state)
{
	snprintf(path, sizeof(path), "/tmp/f2t-test-rec-%d", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void test_cmdline_quoting(void **state)
{
	char *plain[] = { "make", "-j4", NULL };
	char *odd[] = { "sh", "-c", "echo it's $HOME", "", NULL };
	char *nl[] = { "a\nb", NULL };
	char *s;

	s = f2t_meta_join_cmdline(plain);
	assert_string_equal(s, "make -j4");
	free(s);
	s = f2t_meta_join_cmdline(odd);
	assert_string_equal(s, "sh -c 'echo it'\\''s $HOME' ''");
	free(s);
	/* quoted; META turns the newline into a space when it writes the line */
	s = f2t_meta_join_cmdline(nl);
	assert_string_equal(s, "'a\nb'");
	free(s);
}

static void test_lookup(void **state)
{
	assert_int_equal(f2t_child_lookup("sh"), 0);
	assert_int_equal(f2t_child_lookup("/bin/sh"), 0);
	assert_int_equal(f2t_child_lookup("no-such-command-f2t-test"), -ENOENT);
	assert_int_equal(f2t_child_lookup("/nonexistent/dir/cmd"), -ENOENT);
	assert_int_equal(f2t_child_lookup(""), -ENOENT);
	/* a directory, and a file without x permission */
	assert_int_equal(f2t_child_lookup("/tmp"), -EACCES);
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fclose(f);
		/* not even root may execute a file without any x bit */
		chmod(path, 0644);
		assert_int_equal(f2t_child_lookup(path), -EACCES);
	}
}

/* The snapshot lists this very thread, with our tgid and name. */
static void test_procsnap_has_us(void **state)
{
	struct f2t_capw *w = f2t_capw_open(path, false);
	const struct f2t_cap_rec *rec;
	struct f2t_capr *r;
	char want[128], comm[32] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	char *text;

	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	snprintf(want, sizeof(want), "\n%ld %d %s\n", (long)syscall(SYS_gettid),
		 (int)getpid(), comm);

	assert_non_null(w);
	assert_int_equal(f2t_procsnap_write(w, 1), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);
	rec = f2t_capr_find(r, F2T_CAP_TASKS, 1);
	assert_non_null(rec);
	text = calloc(1, rec->len + 2);
	assert_non_null(text);
	text[0] = '\n';
	memcpy(text + 1, rec->data, rec->len);
	assert_non_null(strstr(text, want));
	/* every line is "TID TGID COMM" */
	for (char *line = text + 1; *line; line = strchr(line, '\n') + 1) {
		long tid, tgid;

		assert_int_equal(sscanf(line, "%ld %ld", &tid, &tgid), 2);
		assert_true(tid > 0 && tgid > 0);
	}
	free(text);
	f2t_capr_close(r);
}

static void test_meta_keys(void **state)
{
	static const char *const keys[] = {
		"host", "kernel", "cmdline", "clock", "page_size", "subbuf_size", "ncpus",
		"long_size", "start_ns", "stop_ns", "start_realtime_ns", "start_boottime_ns",
		"recorder",
	};
	struct f2t_meta m = {
		.cmdline = "sh -c 'x\ny'", .clock = "mono", .subbuf_size = 4096, .ncpus = 2,
	};
	struct f2t_capw *w = f2t_capw_open(path, false);
	struct f2t_capr *r;
	char *v;

	f2t_meta_mark_start(&m);
	m.stop_ns = m.start_ns + 5;
	assert_non_null(w);
	assert_int_equal(f2t_meta_write(w, &m), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = f2t_capr_meta(r, keys[i]);
		assert_non_null(v);
		free(v);
	}
	v = f2t_capr_meta(r, "cmdline");
	assert_string_equal(v, "sh -c 'x y'");	/* one line, whatever the command */
	free(v);
	v = f2t_capr_meta(r, "stop_ns");
	assert_int_equal(strtoull(v, NULL, 10), m.start_ns + 5);
	free(v);
	f2t_capr_close(r);
}

/* Snapshot K of an output: NAME-K.EXT, the format's whole extension kept. */
static void test_flight_names(void **state)
{
	static const struct { const char *path, *ext; unsigned int k; const char *want; } cases[] = {
		{ "spike.pftrace", ".pftrace", 1, "spike-1.pftrace" },
		{ "out/all.json.gz", ".json.gz", 2, "out/all-2.json.gz" },
		{ "all.json.gz", ".json", 3, "all.json-3.gz" },	/* not its extension: the last dot */
		{ "dir.d/trace", ".fxt", 4, "dir.d/trace-4" },	/* a dot in a directory is no extension */
		{ ".hidden", NULL, 5, ".hidden-5" },
		{ "run.cap", NULL, 12, "run-12.cap" },
		{ "-", ".pftrace", 1, "--1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *name = f2t_flight_name(cases[i].path, cases[i].ext, cases[i].k);

		assert_non_null(name);
		assert_string_equal(name, cases[i].want);
		free(name);
	}
}

/* A snapshot's META says where its window begins and, on one line, what triggered it. */
static void test_meta_flight_keys(void **state)
{
	struct f2t_meta m = {
		.cmdline = "-a", .clock = "mono", .subbuf_size = 4096, .ncpus = 2,
		.flight_from_ns = 123456789, .flight_trigger = "marker \"a\nb\" written by x-1",
	};
	struct f2t_capw *w = f2t_capw_open(path, false);
	struct f2t_capr *r;
	char *v;

	assert_non_null(w);
	assert_int_equal(f2t_meta_write(w, &m), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);
	v = f2t_capr_meta(r, "flight_from_ns");
	assert_non_null(v);
	assert_string_equal(v, "123456789");
	free(v);
	v = f2t_capr_meta(r, "flight_trigger");
	assert_non_null(v);
	assert_string_equal(v, "marker \"a b\" written by x-1");
	free(v);
	f2t_capr_close(r);
	/* A recording that is no snapshot has neither key. */
	m.flight_from_ns = 0;
	w = f2t_capw_open(path, false);
	assert_non_null(w);
	assert_int_equal(f2t_meta_write(w, &m), 0);
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);
	assert_null(f2t_capr_meta(r, "flight_from_ns"));
	assert_null(f2t_capr_meta(r, "flight_trigger"));
	f2t_capr_close(r);
}

/*
 * The first page a snapshot reads says "nothing missed" (the overwritten
 * past is no loss): both flags go, the data's length stays, and the page
 * still fits as kbuffer will read it.
 */
static void test_page_clear_missed(void **state)
{
	unsigned char page[4096] = { 0 };
	uint64_t ts = 987654321, commit = 200 | (1ull << 31) | (1ull << 30), got, count = 77;

	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16 + 200, &count, 8);	/* the stored count, after the data */
	assert_true(f2t_rb_page_fits(page, sizeof(page)));
	f2t_rb_page_clear_missed(page);
	memcpy(&got, page + 8, 8);
	assert_int_equal(got, 200);
	assert_int_equal(f2t_rb_page_time(page), ts);
	assert_true(f2t_rb_page_fits(page, sizeof(page)));
	/* A page with nothing missed is left as it was. */
	commit = 100;
	memcpy(page + 8, &commit, 8);
	f2t_rb_page_clear_missed(page);
	memcpy(&got, page + 8, 8);
	assert_int_equal(got, 100);
}

/* The build-id readelf finds in FILE (128 bytes of HEX), or "" when it cannot tell. */
static void readelf_build_id(const char *file, char *hex)
{
	char cmd[600], line[256];
	FILE *p;

	hex[0] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %127s", hex) == 1)
			break;
	pclose(p);
}

/* The BUILD_IDS record's text written by f2t_symsnap_build_ids(DEADLINE), or NULL. */
static char *build_ids_until(uint64_t deadline)
{
	struct f2t_symsnap s = { 0 };
	struct f2t_capw *w = f2t_capw_open(path, false);
	pid_t self = getpid();
	const struct f2t_cap_rec *rec;
	struct f2t_capr *r;
	char *text = NULL;

	assert_non_null(w);
	assert_int_equal(f2t_symsnap_maps(&s, w, &self, 1), 0);
	assert_true(s.nfiles > 0);
	assert_int_equal(f2t_symsnap_build_ids(&s, w, deadline), 0);
	f2t_symsnap_free(&s);
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);
	rec = f2t_capr_find(r, F2T_CAP_BUILD_IDS, 0);
	if (rec) {
		text = calloc(1, rec->len + 1);
		assert_non_null(text);
		memcpy(text, rec->data, rec->len);
	}
	f2t_capr_close(r);
	return text;
}

/*
 * Our own executable's build-id, as readelf reads it, is saved; past the
 * stop's deadline nothing is read and the warning says how much was left.
 */
static void test_build_ids_deadline(void **state)
{
	char exe[512], hex[128], want[700], *text;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		skip();
	exe[n] = '\0';
	readelf_build_id(exe, hex);
	if (!hex[0])
		skip();	/* no readelf, or a binary without a build-id */
	snprintf(want, sizeof(want), "%s %s\n", hex, exe);
	logged_start();
	text = build_ids_until(UINT64_MAX);
	assert_non_null(text);
	assert_non_null(strstr(text, want));
	assert_null(strstr(logged(), "took too long"));
	free(text);
	text = build_ids_until(0);
	assert_null(text);
	assert_non_null(strstr(logged(), "took too long: the build-ids of "));
	logged_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_quoting),
		cmocka_unit_test_setup_teardown(test_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_procsnap_has_us, setup, teardown),
		cmocka_unit_test_setup_teardown(test_meta_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_build_ids_deadline, setup, teardown),
		cmocka_unit_test(test_flight_names),
		cmocka_unit_test_setup_teardown(test_meta_flight_keys, setup, teardown),
		cmocka_unit_test(test_page_clear_missed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
