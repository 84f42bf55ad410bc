// SPDX-License-Identifier: MIT
/* The capture file: what is written reads back; what is damaged is refused with its offset. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/capture.h"
#include "logged.h"

static char path[64];

static int setup(void **state)
{
	snprintf(path, sizeof(path), "/tmp/f2t-test-cap-%d", (int)getpid());
	logged_start();
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	logged_stop();
	return 0;
}

static void truncate_to(long size)
{
	assert_int_equal(truncate(path, size), 0);
}

/* Without END: what a killed recorder leaves (in its temporary file). */
static void write_sample(bool end)
{
	struct f2t_capw *w = f2t_capw_open(path, false);
	const char meta[] = "host=box\nclock=mono\nstart_ns=42\n";
	uint64_t size;

	assert_non_null(w);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_META, 0, meta, strlen(meta)), 0);
	assert_int_equal(f2t_capw_add2(w, F2T_CAP_EVENT_FORMAT, 0, "sched", 6, "name: x\n", 8), 0);
	assert_int_equal(f2t_capw_add(w, F2T_CAP_CPU_DATA, 1, "0123456789abcdef", 16), 0);
	size = f2t_capw_bytes(w);
	assert_int_equal(f2t_capw_close(w), 0);
	if (!end)
		truncate_to((long)size);
}

static void test_round_trip(void **state)
{
	struct f2t_capr *r;
	const struct f2t_cap_rec *rec;
	char *v;

	write_sample(true);
	r = f2t_capr_open(path);
	assert_non_null(r);
	assert_true(r->complete);
	assert_int_equal(r->nrecs, 3);
	rec = f2t_capr_find(r, F2T_CAP_EVENT_FORMAT, -1);
	assert_non_null(rec);
	assert_int_equal(rec->len, 14);
	assert_string_equal((const char *)rec->data, "sched");
	assert_memory_equal((const char *)rec->data + 6, "name: x\n", 8);
	rec = f2t_capr_find(r, F2T_CAP_CPU_DATA, 1);
	assert_non_null(rec);
	assert_null(f2t_capr_find(r, F2T_CAP_CPU_DATA, 0));
	/* header 16 + meta (16 + 32) + format (16 + 14 padded to 16) + cpu data header 16 */
	assert_int_equal(rec->offset, 16 + 48 + 32 + 16);
	v = f2t_capr_meta(r, "start_ns");
	assert_string_equal(v, "42");
	free(v);
	assert_null(f2t_capr_meta(r, "start"));
	f2t_capr_close(r);
}

static void test_killed_recorder_is_readable_but_incomplete(void **state)
{
	struct f2t_capr *r;

	write_sample(false);
	r = f2t_capr_open(path);
	assert_non_null(r);
	assert_false(r->complete);
	assert_int_equal(r->nrecs, 3);
	f2t_capr_close(r);
}

static void test_truncated_record_names_offset(void **state)
{

	write_sample(false);
	/* Cut the CPU data record (header at 96, data at 112) in its data. */
	truncate_to(96 + 16 + 8);
	assert_null(f2t_capr_open(path));
	assert_non_null(strstr(logged(), "offset 96"));
	assert_non_null(strstr(logged(), path));
}

static void test_bad_magic(void **state)
{
	FILE *f = fopen(path, "w");

	fputs("this is not a capture at all", f);
	fclose(f);
	assert_null(f2t_capr_open(path));
	assert_non_null(strstr(logged(), "offset 0"));
	assert_non_null(strstr(logged(), "bad magic"));
}

static void test_unknown_record_type(void **state)
{
	FILE *f;
	uint32_t bogus = 77;

	write_sample(false);
	f = fopen(path, "r+");
	fseek(f, 16, SEEK_SET);		/* the META record's type */
	fwrite(&bogus, 4, 1, f);
	fclose(f);
	assert_null(f2t_capr_open(path));
	assert_non_null(strstr(logged(), "offset 16: unknown record type 77"));
}

static void test_split_by_cpu(void **state)
{
	struct f2t_capw *w = f2t_capw_open(path, false);
	struct f2t_cap_cpus split;
	struct f2t_capr *r;

	assert_non_null(w);
	f2t_capw_add(w, F2T_CAP_CPU_DATA, 2, "a", 1);	/* record 0 */
	f2t_capw_add(w, F2T_CAP_META, 0, "x=1\n", 4);	/* record 1 */
	f2t_capw_add(w, F2T_CAP_CPU_DATA, 0, "b", 1);	/* record 2 */
	f2t_capw_add(w, F2T_CAP_CPU_DATA, 2, "", 0);	/* record 3: empty, left out */
	f2t_capw_add(w, F2T_CAP_CPU_DATA, 2, "c", 1);	/* record 4 */
	assert_int_equal(f2t_capw_close(w), 0);
	r = f2t_capr_open(path);
	assert_non_null(r);

	assert_int_equal(f2t_capr_split_by_cpu(r, F2T_CAP_CPU_DATA, 8, &split), 0);
	assert_int_equal(split.ncpus, 3);
	assert_int_equal(split.cpu[0].n, 1);
	assert_int_equal(split.cpu[0].recs[0], 2);
	assert_int_equal(split.cpu[1].n, 0);
	assert_int_equal(split.cpu[2].n, 2);
	assert_int_equal(split.cpu[2].recs[0], 0);
	assert_int_equal(split.cpu[2].recs[1], 4);
	f2t_cap_cpus_free(&split);

	/* A cpu number past the limit is refused, naming the record's offset. */
	assert_int_equal(f2t_capr_split_by_cpu(r, F2T_CAP_CPU_DATA, 2, &split),
			 -EINVAL);
	assert_non_null(strstr(logged(), "offset 16: cpu 2 out of range"));
	f2t_capr_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_recorder_is_readable_but_incomplete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_record_names_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_record_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_by_cpu, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
