// SPDX-License-Identifier: MIT
/*
 * Our reading of a trace.dat's CPU data (tracedat_pages.c): sub-buffers
 * made here as the kernel writes them, in a file as trace-cmd lays them
 * out, mapped or in zstd chunks, come back as the same events with the
 * same times; damage is refused with its offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zstd.h>

#include "logged.h"
#include "source/tracedat/tracedat.h"

#define PAGE 4096
#define BASE 64		/* where the CPU data starts in the file */

/*
 * A sub-buffer at TS holding N events 8 bytes long (type_len 2), the i-th
 * DELTAS[i] after the one before and holding the number FIRST + i; MISSED
 * sets the kernel's "events were lost before this page" flag.
 */
static void make_page(unsigned char *p, uint64_t ts, const uint32_t *deltas, int n,
		      uint64_t first, int missed)
{
	uint64_t commit = (uint64_t)n * 12;

	memset(p, 0, PAGE);
	if (missed)
		commit |= 1ull << 31;
	memcpy(p, &ts, 8);
	memcpy(p + 8, &commit, 8);
	for (int i = 0; i < n; i++) {
		uint32_t head = 2 | deltas[i] << 5;
		uint64_t v = first + (uint64_t)i;

		memcpy(p + 16 + i * 12, &head, 4);
		memcpy(p + 16 + i * 12 + 4, &v, 8);
	}
}

/* Two pages: times 1000+10, +5 and 2000+3, holding 0, 1 and 2. */
static unsigned char pages[2 * PAGE];

static void make_pages(int missed_second)
{
	static const uint32_t d1[] = { 10, 5 }, d2[] = { 3 };

	make_page(pages, 1000, d1, 2, 0, 0);
	make_page(pages + PAGE, 2000, d2, 1, 2, missed_second);
}

struct file {
	char path[64];
	struct f2t_tracedat_layout lay;
	struct f2t_tracedat_data data;
	struct f2t_tracedat_cpu where;
	struct f2t_tracedat_cpu_reader r;
};

/* A file of BASE bytes of zeros and then BODY, read as COMPRESSION data of LEN bytes. */
static void open_file(struct file *f, const void *body, size_t n, uint64_t len,
		      const char *compression)
{
	static const unsigned char zeros[BASE];
	FILE *out;
	int fd;

	snprintf(f->path, sizeof(f->path), "/tmp/f2t-test-pages-XXXXXX");
	close(mkstemp(f->path));
	out = fopen(f->path, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(zeros, 1, BASE, out), BASE);
	assert_int_equal(fwrite(body, 1, n, out), n);
	fclose(out);
	f->lay = (struct f2t_tracedat_layout){ .version = 7, .page = PAGE, .long8 = true };
	snprintf(f->lay.compression, sizeof(f->lay.compression), "%s", compression);
	assert_null(f2t_tracedat_pages_unreadable(&f->lay));
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(f2t_tracedat_data_open(&f->data, f->path, fd, &f->lay), 0);
	close(fd);
	f->where = (struct f2t_tracedat_cpu){ .cpu = 1, .off = BASE, .len = len };
	assert_int_equal(f2t_tracedat_cpu_init(&f->r, &f->data, &f->where, PAGE), 0);
}

static void close_file(struct file *f)
{
	f2t_tracedat_cpu_fini(&f->r);
	f2t_tracedat_data_close(&f->data);
	unlink(f->path);
}

static void expect_event(struct file *f, uint64_t ts, uint64_t value)
{
	uint64_t v;

	assert_int_equal(f2t_tracedat_cpu_next(&f->r), 1);
	assert_false(f->r.w.lost);
	assert_int_equal(f->r.w.ts, ts);
	assert_int_equal(f->r.w.size, 8);
	memcpy(&v, f->r.w.data, 8);
	assert_int_equal(v, value);
}

static void expect_the_pages(struct file *f)
{
	expect_event(f, 1010, 0);
	expect_event(f, 1015, 1);
	expect_event(f, 2003, 2);
	assert_int_equal(f2t_tracedat_cpu_next(&f->r), 0);
	assert_int_equal(f2t_tracedat_cpu_next(&f->r), 0);
}

static void test_mapped_pages_give_their_events(void **state)
{
	struct file f;

	make_pages(0);
	open_file(&f, pages, sizeof(pages), sizeof(pages), "none");
	expect_the_pages(&f);
	close_file(&f);
}

/* A range that ends inside a page: its first bytes are read, the rest taken as zeros. */
static void test_a_short_last_page_is_read(void **state)
{
	struct file f;

	make_pages(0);
	open_file(&f, pages, sizeof(pages), PAGE + 16 + 12, "none");
	expect_the_pages(&f);
	close_file(&f);
}

static void test_a_lost_note_comes_before_its_page(void **state)
{
	struct file f;

	make_pages(1);
	open_file(&f, pages, sizeof(pages), sizeof(pages), "none");
	expect_event(&f, 1010, 0);
	expect_event(&f, 1015, 1);
	assert_int_equal(f2t_tracedat_cpu_next(&f.r), 1);
	assert_true(f.r.w.lost);
	assert_int_equal(f.r.w.lost_count, 0);	/* the kernel did not count them */
	expect_event(&f, 2003, 2);
	assert_int_equal(f2t_tracedat_cpu_next(&f.r), 0);
	close_file(&f);
}

/*
 * The pages as zstd chunks of PER_CHUNK pages: a count, then each chunk's
 * compressed and uncompressed sizes and data; USIZE_ADD is added to every
 * stated uncompressed size, COUNT_ADD to the count.  Returns the length.
 */
static size_t make_chunks(unsigned char *out, int per_chunk, uint32_t usize_add, uint32_t count_add)
{
	uint32_t count = 2 / per_chunk + count_add;
	size_t at = 4;

	memcpy(out, &count, 4);
	for (int c = 0; c < 2 / per_chunk; c++) {
		size_t n = ZSTD_compress(out + at + 8, 8192, pages + c * per_chunk * PAGE,
					 (size_t)per_chunk * PAGE, 3);
		uint32_t csize = (uint32_t)n, usize = (uint32_t)per_chunk * PAGE + usize_add;

		assert_false(ZSTD_isError(n));
		memcpy(out + at, &csize, 4);
		memcpy(out + at + 4, &usize, 4);
		at += 8 + n;
	}
	return at;
}

static void test_zstd_chunks_give_the_same_events(void **state)
{
	unsigned char z[16384];

	make_pages(0);
	for (int per_chunk = 1; per_chunk <= 2; per_chunk++) {
		size_t n = make_chunks(z, per_chunk, 0, 0);
		struct file f;

		/* trace-cmd's range leaves the count out of its length */
		open_file(&f, z, n, n - 4, "zstd");
		expect_the_pages(&f);
		close_file(&f);
	}
}

static void test_a_chunk_of_the_wrong_size_is_refused(void **state)
{
	unsigned char z[16384];
	struct file f;
	size_t n;

	make_pages(0);
	n = make_chunks(z, 2, PAGE, 0);
	open_file(&f, z, n, n - 4, "zstd");
	logged_start();
	assert_int_equal(f2t_tracedat_cpu_next(&f.r), -EINVAL);
	assert_non_null(strstr(logged(), "offset 76: cpu 1: a chunk that does not inflate to its size"));
	logged_stop();
	close_file(&f);
}

static void test_a_chunk_past_the_end_is_refused(void **state)
{
	unsigned char z[16384];
	struct file f;
	size_t n;

	make_pages(0);
	n = make_chunks(z, 2, 0, 1);
	open_file(&f, z, n, n - 4, "zstd");
	expect_event(&f, 1010, 0);
	expect_event(&f, 1015, 1);
	expect_event(&f, 2003, 2);
	logged_start();
	assert_int_equal(f2t_tracedat_cpu_next(&f.r), -EINVAL);
	assert_non_null(strstr(logged(), "a compressed chunk past the end of the file"));
	logged_stop();
	close_file(&f);
}

static void test_a_commit_past_the_page_is_refused(void **state)
{
	uint64_t commit = PAGE;	/* the data would run 16 bytes past the page */
	struct file f;

	make_pages(0);
	memcpy(pages + PAGE + 8, &commit, 8);
	open_file(&f, pages, sizeof(pages), sizeof(pages), "none");
	expect_event(&f, 1010, 0);
	expect_event(&f, 1015, 1);
	logged_start();
	assert_int_equal(f2t_tracedat_cpu_next(&f.r), -EINVAL);
	assert_non_null(strstr(logged(), "offset 4160: cpu 1: a ring-buffer page whose commit size runs past its end"));
	logged_stop();
	close_file(&f);
}

static void test_what_we_leave_to_libtracecmd(void **state)
{
	struct f2t_tracedat_layout lay = { .version = 7, .page = PAGE, .long8 = true };

	snprintf(lay.compression, sizeof(lay.compression), "zlib");
	assert_string_equal(f2t_tracedat_pages_unreadable(&lay), "a compression other than zstd");
	snprintf(lay.compression, sizeof(lay.compression), "none");
	lay.ts_adjusted = true;
	assert_string_equal(f2t_tracedat_pages_unreadable(&lay),
			    "its options shift or scale the timestamps");
	lay.ts_adjusted = false;
	lay.long8 = false;
	assert_string_equal(f2t_tracedat_pages_unreadable(&lay), "recorded by a 32-bit kernel");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapped_pages_give_their_events),
		cmocka_unit_test(test_a_short_last_page_is_read),
		cmocka_unit_test(test_a_lost_note_comes_before_its_page),
		cmocka_unit_test(test_zstd_chunks_give_the_same_events),
		cmocka_unit_test(test_a_chunk_of_the_wrong_size_is_refused),
		cmocka_unit_test(test_a_chunk_past_the_end_is_refused),
		cmocka_unit_test(test_a_commit_past_the_page_is_refused),
		cmocka_unit_test(test_what_we_leave_to_libtracecmd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
