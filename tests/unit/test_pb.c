// SPDX-License-Identifier: MIT
/*
 * The protobuf encoder against bytes worked out by hand from the wire
 * format (https://protobuf.dev/programming-guides/encoding/): a varint is
 * 7 bits a byte, least significant group first, the high bit set on every
 * byte but the last; a key is (field << 3) | wire type.  Each expected
 * sequence is derived in its comment; none was copied from the program.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perfetto/pb.h"

static void assert_varint(uint64_t v, const char *bytes, size_t n)
{
	uint8_t buf[PB_MAX_VARINT + 1];

	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(pb_enc_varint(buf, v), n);
	assert_int_equal(pb_varint_len(v), n);
	assert_memory_equal(buf, bytes, n);
	assert_int_equal(buf[n], 0xa5);	/* nothing past the end */
}

static void test_varint(void **state)
{
	assert_varint(0, "\x00", 1);
	assert_varint(1, "\x01", 1);
	assert_varint(127, "\x7f", 1);
	/* 128 = 1 0000000: low group 0 with the high bit, then 1 */
	assert_varint(128, "\x80\x01", 2);
	/* 300 = 10 0101100: 0x2c | 0x80, then 2 (the spec's own example) */
	assert_varint(300, "\xac\x02", 2);
	/* 2^32: four empty groups, then 2^32 >> 28 = 16 */
	assert_varint(1ull << 32, "\x80\x80\x80\x80\x10", 5);
	/* 64 ones: nine groups of 7, then the last bit */
	assert_varint(UINT64_MAX, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10);
}

static void test_tag(void **state)
{
	uint8_t buf[8];

	/* Trace.packet: 1 << 3 | 2 */
	assert_int_equal(pb_enc_tag(buf, 1, PB_LEN), 1);
	assert_int_equal(buf[0], 0x0a);
	/* timestamp_clock_id: 58 << 3 | 0 = 464 = 0x1d0: 0x50 | 0x80, then 3 */
	assert_int_equal(pb_enc_tag(buf, 58, PB_VARINT), 2);
	assert_memory_equal(buf, "\xd0\x03", 2);
	/* FtraceEvent.generic: 327 << 3 | 2 = 2618 = 0xa3a: 0x3a | 0x80, then 0x14 */
	assert_int_equal(pb_enc_tag(buf, 327, PB_LEN), 2);
	assert_memory_equal(buf, "\xba\x14", 2);
	/* a double: 5 << 3 | 1 */
	assert_int_equal(pb_enc_tag(buf, 5, PB_FIXED64), 1);
	assert_int_equal(buf[0], 0x29);
}

static void test_fixed64(void **state)
{
	uint8_t buf[8];

	assert_int_equal(pb_enc_fixed64(buf, 0x0102030405060708ull), 8);
	assert_memory_equal(buf, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
}

static void test_fields(void **state)
{
	struct pb_buf b = { 0 };

	/* field 1 = 150: 0x08, then 150 = 1 0010110: 0x96, 0x01 */
	pb_uint(&b, 1, 150);
	/* field 3 = -1 as int64: 0x18, then ten bytes of two's complement */
	pb_int(&b, 3, -1);
	/* field 2 = "testing": 0x12, length 7, the bytes */
	pb_str(&b, 2, "testing");
	/* field 5 = 1.0: 0x29, then 0x3ff0000000000000 little-endian */
	pb_double(&b, 5, 1.0);
	assert_int_equal(b.err, 0);
	assert_int_equal(b.len, 3 + 11 + 9 + 9);
	assert_memory_equal(b.p,
			    "\x08\x96\x01"
			    "\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"
			    "\x12\x07testing"
			    "\x29\x00\x00\x00\x00\x00\x00\xf0\x3f", b.len);
	pb_buf_free(&b);
}

static void test_nested_short(void **state)
{
	struct pb_buf b = { 0 };
	size_t outer, inner;

	/* field 3 { field 1 = 150 }: 0x1a, length 3, then 08 96 01 */
	outer = pb_open(&b, 3);
	pb_uint(&b, 1, 150);
	pb_close(&b, outer);
	/* field 4 { field 2 { } }: 0x22, length 2, then 0x12, length 0 */
	outer = pb_open(&b, 4);
	inner = pb_open(&b, 2);
	pb_close(&b, inner);
	pb_close(&b, outer);
	assert_int_equal(b.err, 0);
	assert_int_equal(b.len, 5 + 4);
	assert_memory_equal(b.p, "\x1a\x03\x08\x96\x01" "\x22\x02\x12\x00", b.len);
	pb_buf_free(&b);
}

static void test_nested_long(void **state)
{
	struct pb_buf b = { 0 };
	uint8_t body[200];
	size_t m;

	for (size_t i = 0; i < sizeof(body); i++)
		body[i] = (uint8_t)i;
	pb_uint(&b, 1, 7);
	/*
	 * field 2 holding 200 bytes: 0x12, then 200 = 1 1001000 needs two
	 * bytes, 0xc8 0x01: the body moves one byte along.
	 */
	m = pb_open(&b, 2);
	pb_raw(&b, body, sizeof(body));
	pb_close(&b, m);
	pb_uint(&b, 3, 1);
	assert_int_equal(b.err, 0);
	assert_int_equal(b.len, 2 + 3 + 200 + 2);
	assert_memory_equal(b.p, "\x08\x07\x12\xc8\x01", 5);
	assert_memory_equal(b.p + 5, body, sizeof(body));
	assert_memory_equal(b.p + 205, "\x18\x01", 2);
	pb_buf_free(&b);
}

static void test_growth(void **state)
{
	struct pb_buf b = { 0 };
	size_t m = pb_open(&b, 1);

	/* 100000 one-byte varints: the buffer grows, the length takes three bytes. */
	for (int i = 0; i < 100000; i++)
		pb_varint(&b, 1);
	pb_close(&b, m);
	assert_int_equal(b.err, 0);
	/* 100000 = 0x186a0: 0x20 | 0x80, 0x0d | 0x80, 0x06 */
	assert_int_equal(b.len, 1 + 3 + 100000);
	assert_memory_equal(b.p, "\x0a\xa0\x8d\x06", 4);
	assert_int_equal(b.p[b.len - 1], 1);
	pb_buf_free(&b);
}

static void test_nested_sized(void **state)
{
	struct pb_buf b = { 0 };
	uint8_t body[200];

	for (size_t i = 0; i < sizeof(body); i++)
		body[i] = (uint8_t)i;
	/*
	 * The sizes, by hand: field 1 = 150 is a one-byte key and 0x96 0x01,
	 * 3 bytes; field 16 = 1 a two-byte key (16 << 3 = 128: 0x80 0x01),
	 * 3 bytes; field 2 with 200 bytes of body: key 0x12, length 0xc8 0x01,
	 * 203 bytes.
	 */
	assert_int_equal(pb_uint_size(1, 150), 3);
	assert_int_equal(pb_uint_size(16, 1), 3);
	assert_int_equal(pb_len_size(2, 200), 203);
	assert_int_equal(pb_len_size(3, 0), 2);
	/*
	 * field 3 { field 1 = 150, field 2 { 200 bytes } }: body 3 + 203 =
	 * 206 = 1 1001110: 0x1a, 0xce 0x01, then the body as pb_open() and
	 * pb_close() would write it: 08 96 01, 12 c8 01, the 200 bytes.
	 */
	pb_open_sized(&b, 3, pb_uint_size(1, 150) + pb_len_size(2, sizeof(body)));
	pb_uint(&b, 1, 150);
	pb_open_sized(&b, 2, sizeof(body));
	pb_raw(&b, body, sizeof(body));
	assert_int_equal(b.err, 0);
	assert_int_equal(b.len, 3 + 206);
	assert_memory_equal(b.p, "\x1a\xce\x01" "\x08\x96\x01" "\x12\xc8\x01", 9);
	assert_memory_equal(b.p + 9, body, sizeof(body));
	pb_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_tag),
		cmocka_unit_test(test_fixed64),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_nested_short),
		cmocka_unit_test(test_nested_long),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_nested_sized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
