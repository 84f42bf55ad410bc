// SPDX-License-Identifier: MIT
/* The merge's clock alignment: offsets from shared clock_sync ids (receiver
 * and issuer sides, averages, chains), --offset, refusals, and which
 * clock_sync events are kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "merge/align.h"

#define S 1000000000ll	/* ns per s */

static void add_sync(struct f2t_minput *in, const char *id, int64_t ts, int64_t issue)
{
	struct f2t_msync *s;

	in->syncs = realloc(in->syncs, (in->nsyncs + 1) * sizeof(*s));
	s = &in->syncs[in->nsyncs];
	*s = (struct f2t_msync){ .id = strdup(id), .index = in->nsyncs, .ts_ns = ts,
				 .issue_ns = issue, .issuer = issue != 0 };
	in->nsyncs++;
	in->nevents = in->nsyncs + 10;
}

static struct f2t_minput *inputs(size_t n)
{
	struct f2t_minput *ins = calloc(n, sizeof(*ins));
	static const char *const names[] = { "ref.json", "a.json", "b.json", "c.json" };

	for (size_t i = 0; i < n; i++) {
		ins[i].path = names[i];
		ins[i].num = i + 1;
	}
	return ins;
}

static void free_inputs(struct f2t_minput *ins, size_t n)
{
	for (size_t i = 0; i < n; i++)
		f2t_minput_fini(&ins[i]);
	free(ins);
}

static void test_issuer_midpoint(void **state)
{
	struct f2t_minput *ins = inputs(2);

	/* Kernel saw the marker at 5 s; the app read 1005 s - 1 us before, 1005 s + 2 us after. */
	add_sync(&ins[0], "s1", 5 * S, 0);
	add_sync(&ins[1], "s1", 1005 * S + 2000, 1005 * S - 1000);
	assert_int_equal(f2t_merge_align(ins, 2), 0);
	assert_int_equal(ins[0].how, F2T_MH_REFERENCE);
	assert_int_equal(ins[0].offset_ns, 0);
	assert_int_equal(ins[1].how, F2T_MH_SYNC);
	assert_int_equal(ins[1].via, 0);
	assert_int_equal(ins[1].pairs, 1);
	assert_true(ins[1].offset_ns == -1000 * S - 500);
	free_inputs(ins, 2);
}

static void test_average_and_spread(void **state)
{
	struct f2t_minput *ins = inputs(2);

	add_sync(&ins[0], "x", 10 * S, 0);
	add_sync(&ins[0], "y", 20 * S, 0);
	add_sync(&ins[0], "z", 30 * S, 0);
	add_sync(&ins[0], "only-ref", 40 * S, 0);
	/* Differences -1000 s + 0, +3, +4 ns: mean +2.33 -> +2, spread 4. */
	add_sync(&ins[1], "z", 1030 * S - 4, 0);
	add_sync(&ins[1], "x", 1010 * S, 0);
	add_sync(&ins[1], "y", 1020 * S - 3, 0);
	add_sync(&ins[1], "only-app", 1 * S, 0);
	assert_int_equal(f2t_merge_align(ins, 2), 0);
	assert_int_equal(ins[1].pairs, 3);
	assert_true(ins[1].offset_ns == -1000 * S + 2);
	assert_int_equal(ins[1].spread_ns, 4);
	free_inputs(ins, 2);
}

static void test_first_of_duplicate_ids(void **state)
{
	struct f2t_minput *ins = inputs(2);

	add_sync(&ins[0], "d", 10 * S, 0);
	add_sync(&ins[1], "d", 110 * S, 0);
	add_sync(&ins[1], "d", 999 * S, 0);	/* a later reuse of the id: ignored */
	assert_int_equal(f2t_merge_align(ins, 2), 0);
	assert_int_equal(ins[1].pairs, 1);
	assert_true(ins[1].offset_ns == -100 * S);
	free_inputs(ins, 2);
}

static void test_chain_and_given(void **state)
{
	struct f2t_minput *ins = inputs(4);

	/* b syncs only with a, a with the reference; c is given. */
	add_sync(&ins[0], "r-a", 1 * S, 0);
	add_sync(&ins[1], "r-a", 11 * S, 0);
	add_sync(&ins[1], "a-b", 20 * S, 0);
	add_sync(&ins[2], "a-b", 120 * S, 0);
	ins[3].offset_given = true;
	ins[3].offset_ns = 7;
	add_sync(&ins[3], "r-a", 0, 0);		/* would say otherwise: --offset wins */
	assert_int_equal(f2t_merge_align(ins, 4), 0);
	assert_true(ins[1].offset_ns == -10 * S);
	assert_int_equal(ins[2].how, F2T_MH_SYNC);
	assert_int_equal(ins[2].via, 1);
	assert_true(ins[2].offset_ns == -110 * S);
	assert_int_equal(ins[3].how, F2T_MH_GIVEN);
	assert_int_equal(ins[3].offset_ns, 7);
	free_inputs(ins, 4);
}

static void test_given_reference(void **state)
{
	struct f2t_minput *ins = inputs(2);

	ins[0].offset_given = true;
	ins[0].offset_ns = 5 * S;
	add_sync(&ins[0], "s", 1 * S, 0);
	add_sync(&ins[1], "s", 2 * S, 0);
	assert_int_equal(f2t_merge_align(ins, 2), 0);
	/* Placed relative to the reference as shifted. */
	assert_true(ins[1].offset_ns == 4 * S);
	free_inputs(ins, 2);
}

static void test_refusals(void **state)
{
	struct f2t_minput *ins = inputs(4);

	add_sync(&ins[0], "k", 1 * S, 0);
	add_sync(&ins[1], "other", 1 * S, 0);	/* no id in common */
	ins[2].nevents = 3;			/* timed, no sync at all */
	/* ins[3]: nothing timed: needs no offset */
	assert_int_equal(f2t_merge_align(ins, 4), -EINVAL);
	assert_int_equal(ins[3].how, F2T_MH_NOTHING);
	free_inputs(ins, 4);
}

static void test_overflow(void **state)
{
	struct f2t_minput *ins = inputs(2);

	add_sync(&ins[0], "o", INT64_MAX, 0);
	add_sync(&ins[1], "o", INT64_MIN, 0);
	assert_int_equal(f2t_merge_align(ins, 2), -ERANGE);
	free_inputs(ins, 2);
}

static void test_pick_syncs(void **state)
{
	struct f2t_minput *ins = inputs(3);

	add_sync(&ins[0], "a", 1, 0);
	add_sync(&ins[0], "a", 2, 0);
	add_sync(&ins[1], "b", 1, 0);
	add_sync(&ins[1], "a", 1, 0);
	add_sync(&ins[2], "b", 1, 0);
	add_sync(&ins[2], "c", 1, 0);
	assert_int_equal(f2t_merge_pick_syncs(ins, 3), 0);
	assert_true(ins[0].syncs[0].keep);
	assert_false(ins[0].syncs[1].keep);
	assert_true(ins[1].syncs[0].keep);
	assert_false(ins[1].syncs[1].keep);
	assert_false(ins[2].syncs[0].keep);
	assert_true(ins[2].syncs[1].keep);
	free_inputs(ins, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_issuer_midpoint),
		cmocka_unit_test(test_average_and_spread),
		cmocka_unit_test(test_first_of_duplicate_ids),
		cmocka_unit_test(test_chain_and_given),
		cmocka_unit_test(test_given_reference),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_pick_syncs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
