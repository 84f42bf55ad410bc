// SPDX-License-Identifier: MIT
/*
 * The bounded protobuf decoder (util/pbdec.h), on bytes worked out by hand
 * from the wire format's rules: varints up to ten bytes and no further (the
 * tenth holds bit 63 alone), every wire type Perfetto uses, lengths checked
 * against the message's end, groups and field 0 refused, nested messages
 * read within their field, repeated varints packed or one per field.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/pbdec.h"

static void test_varints(void **state)
{
	static const uint8_t max[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
	static const uint8_t eleven[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
	static const uint8_t cut[] = { 0x96 };
	static const uint8_t v150[] = { 0x96, 0x01 };
	struct pbd d;
	uint64_t v;

	d = pbd_init(v150, sizeof(v150));
	assert_true(pbd_varint(&d, &v));
	assert_int_equal(v, 150);
	assert_ptr_equal(d.p, v150 + 2);
	d = pbd_init(max, sizeof(max));
	assert_true(pbd_varint(&d, &v));
	assert_true(v == UINT64_MAX);
	d = pbd_init(over, sizeof(over));
	assert_false(pbd_varint(&d, &v));
	assert_ptr_equal(d.p, over);
	d = pbd_init(eleven, sizeof(eleven));
	assert_false(pbd_varint(&d, &v));
	d = pbd_init(cut, sizeof(cut));
	assert_false(pbd_varint(&d, &v));
	d = pbd_init(NULL, 0);
	assert_false(pbd_varint(&d, &v));
}

static void test_fields_of_every_wire_type(void **state)
{
	/* 1: varint 150; 2: "hi"; 3: fixed64 1; 4: fixed32 0x01020304 */
	static const uint8_t m[] = { 0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i',
				     0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 4, 3, 2, 1 };
	struct pbd d = pbd_init(m, sizeof(m));
	struct pbd_field f;

	assert_int_equal(pbd_next(&d, &f), 1);
	assert_int_equal(f.num, 1);
	assert_int_equal(f.wire, PBD_VARINT);
	assert_int_equal(f.v, 150);
	assert_int_equal(pbd_next(&d, &f), 1);
	assert_int_equal(f.num, 2);
	assert_true(pbd_is_len(&f));
	assert_int_equal(f.len, 2);
	assert_memory_equal(f.data, "hi", 2);
	assert_int_equal(pbd_next(&d, &f), 1);
	assert_int_equal(f.num, 3);
	assert_int_equal(f.v, 1);
	assert_int_equal(pbd_next(&d, &f), 1);
	assert_int_equal(f.num, 4);
	assert_int_equal(f.v, 0x01020304);
	assert_int_equal(pbd_next(&d, &f), 0);
}

static void test_damage_refused(void **state)
{
	static const uint8_t past[] = { 0x12, 0x05, 'a', 'b' };	/* 5 bytes, 2 there */
	static const uint8_t group[] = { 0x0b, 0x0c };			/* wire types 3, 4 */
	static const uint8_t zero[] = { 0x00, 0x01 };			/* field 0 */
	static const uint8_t fixed_cut[] = { 0x19, 1, 2, 3 };		/* fixed64 of 3 bytes */
	static const uint8_t wire6[] = { 0x0e };
	const uint8_t *bad[] = { past, group, zero, fixed_cut, wire6 };
	size_t len[] = { sizeof(past), sizeof(group), sizeof(zero), sizeof(fixed_cut), sizeof(wire6) };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pbd d = pbd_init(bad[i], len[i]);
		struct pbd_field f;

		assert_int_equal(pbd_next(&d, &f), -EINVAL);
		assert_ptr_equal(d.p, bad[i]);	/* where the damage starts */
	}
}

static void test_nested_stays_within_its_field(void **state)
{
	/* 1: { 2: "abc" } 3: 7 -- the inner reader ends at the inner message's end */
	static const uint8_t m[] = { 0x0a, 0x05, 0x12, 0x03, 'a', 'b', 'c', 0x18, 0x07 };
	/* 1: { 2: length 4, but the message holds 3 } */
	static const uint8_t liar[] = { 0x0a, 0x05, 0x12, 0x04, 'a', 'b', 'c', 0x18, 0x07 };
	struct pbd d = pbd_init(m, sizeof(m)), in;
	struct pbd_field f, g;

	assert_int_equal(pbd_next(&d, &f), 1);
	in = pbd_sub(&f);
	assert_int_equal(pbd_next(&in, &g), 1);
	assert_int_equal(g.len, 3);
	assert_int_equal(pbd_next(&in, &g), 0);
	assert_int_equal(pbd_next(&d, &f), 1);
	assert_int_equal(f.v, 7);
	d = pbd_init(liar, sizeof(liar));
	assert_int_equal(pbd_next(&d, &f), 1);
	in = pbd_sub(&f);
	assert_int_equal(pbd_next(&in, &g), -EINVAL);
}

static void test_repeated_packed_or_not(void **state)
{
	/* 2: packed [1, 300, 2]; then 2: 5 as a varint field of its own */
	static const uint8_t m[] = { 0x12, 0x04, 0x01, 0xac, 0x02, 0x02, 0x10, 0x05 };
	static const uint8_t bad[] = { 0x12, 0x02, 0x01, 0xac };	/* a varint cut */
	uint64_t want[] = { 1, 300, 2 }, v;
	struct pbd d = pbd_init(m, sizeof(m)), it;
	struct pbd_field f;
	size_t n = 0;
	int ret;
	bool first = true;

	assert_int_equal(pbd_next(&d, &f), 1);
	it = pbd_sub(&f);
	while ((ret = pbd_repeated(&f, &it, first, &v)) > 0) {
		assert_true(n < 3);
		assert_int_equal(v, want[n++]);
		first = false;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 3);
	assert_int_equal(pbd_next(&d, &f), 1);
	it = pbd_sub(&f);
	assert_int_equal(pbd_repeated(&f, &it, true, &v), 1);
	assert_int_equal(v, 5);
	assert_int_equal(pbd_repeated(&f, &it, false, &v), 0);
	d = pbd_init(bad, sizeof(bad));
	assert_int_equal(pbd_next(&d, &f), 1);
	it = pbd_sub(&f);
	assert_int_equal(pbd_repeated(&f, &it, true, &v), 1);
	assert_int_equal(pbd_repeated(&f, &it, false, &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_fields_of_every_wire_type),
		cmocka_unit_test(test_damage_refused),
		cmocka_unit_test(test_nested_stays_within_its_field),
		cmocka_unit_test(test_repeated_packed_or_not),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
