// SPDX-License-Identifier: MIT
/* Eight bytes at once (util/bytes.h) against a byte-by-byte look. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/bytes.h"

static const unsigned char fillers[] = { 0x00, 0x01, 0x1f, 0x20, 'a', 0x7f, 0x80, 0xfe, 0xff };

/* Every byte value at every position, among each filler. */
static void each_word(void (*check)(const unsigned char b[8], uint64_t x))
{
	for (size_t f = 0; f < sizeof(fillers); f++) {
		for (unsigned int v = 0; v < 256; v++) {
			for (int at = 0; at < 8; at++) {
				unsigned char b[8];
				uint64_t x;

				memset(b, fillers[f], sizeof(b));
				b[at] = (unsigned char)v;
				memcpy(&x, b, sizeof(x));
				check(b, x);
			}
		}
	}
}

static void check_below(const unsigned char b[8], uint64_t x)
{
	static const unsigned int limits[] = { 1, 0x20, 0x41, 0x80 };

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		int want = 0;

		for (int k = 0; k < 8; k++)
			want |= b[k] < limits[i];
		assert_int_equal(f2t_byte_below(x, limits[i]) != 0, want);
	}
}

static void check_is(const unsigned char b[8], uint64_t x)
{
	static const unsigned char targets[] = { 0, '"', '\\', 0x80, 0xff };

	for (size_t i = 0; i < sizeof(targets); i++) {
		int want = memchr(b, targets[i], 8) != NULL;

		assert_int_equal(f2t_byte_is(x, targets[i]) != 0, want);
	}
}

static void test_byte_below(void **state)
{
	each_word(check_below);
}

static void test_byte_is(void **state)
{
	each_word(check_is);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_byte_below),
		cmocka_unit_test(test_byte_is),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
