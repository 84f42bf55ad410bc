// SPDX-License-Identifier: MIT
/* Linux prev_state letters -> FXT thread states, and when to keep the letters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fxt/fxt_enc.h"
#include "fxt/fxt_state.h"

static void check(const char *linux_state, int want, bool want_canonical)
{
	bool canonical = !want_canonical;

	assert_int_equal(fxt_linux_state(linux_state, &canonical), want);
	assert_int_equal(canonical, want_canonical);
}

static void test_canonical_letters(void **state)
{
	/* The spec's numbers: 1 running, 2 suspended, 3 blocked, 4 dying, 5 dead. */
	check("R", 1, true);
	check("R+", 1, true);
	check("S", 3, true);
	check("T", 2, true);
	check("Z", 4, true);
	check("X", 5, true);
}

static void test_letters_kept(void **state)
{
	check("D", 3, false);		/* uninterruptible: FXT calls it blocked too */
	check("I", 3, false);		/* idle kernel thread */
	check("t", 2, false);		/* traced */
	check("D|K", 3, false);
	check("S|W", 3, false);		/* a combination is not the plain letter */
	check("x", 5, false);		/* old kernels' EXIT_DEAD */
	check("P", 3, false);		/* parked: unknown to FXT */
	check("W", 3, false);
	check("", 3, false);
	check(NULL, 3, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical_letters),
		cmocka_unit_test(test_letters_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
