// SPDX-License-Identifier: MIT
/*
 * "Did you mean" (cli/suggest.h): a typo of a subcommand or long option
 * (a letter wrong, missing, extra, two swapped) finds the word meant; a
 * word near nothing, or an option that is known (refused for another
 * reason), finds nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli/suggest.h"

static const char *const commands[] = { "record", "convert", "report", "dump", "merge", "open" };
#define N (sizeof(commands) / sizeof(commands[0]))

static void test_subcommand_typos(void **state)
{
	assert_string_equal(f2t_suggest("recrod", commands, N), "record");	/* swapped */
	assert_string_equal(f2t_suggest("reord", commands, N), "record");	/* missing */
	assert_string_equal(f2t_suggest("reportt", commands, N), "report");	/* extra */
	assert_string_equal(f2t_suggest("dunp", commands, N), "dump");		/* wrong */
	assert_string_equal(f2t_suggest("opn", commands, N), "open");
	assert_string_equal(f2t_suggest("conv", commands, N), "convert");	/* the one it begins */
}

static void test_nothing_near(void **state)
{
	assert_null(f2t_suggest("frobnicate", commands, N));
	assert_null(f2t_suggest("x", commands, N));
	assert_null(f2t_suggest("re", commands, N));	/* begins two */
	assert_null(f2t_suggest("", commands, N));
}

static void test_long_options(void **state)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "all-processes", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	char buf[128];

	assert_string_equal(f2t_suggest_option("--fromat", opts), "format");
	assert_string_equal(f2t_suggest_option("--outptu=x.json", opts), "output");
	assert_string_equal(f2t_suggest_option("--all-process", opts), "all-processes");
	assert_null(f2t_suggest_option("--output", opts));	/* known: a value missing */
	assert_null(f2t_suggest_option("-x", opts));		/* not a long option */
	assert_null(f2t_suggest_option("--", opts));
	assert_string_equal(f2t_suggest_quote("--fromat", opts, buf, sizeof(buf)),
			    "'--fromat' (did you mean '--format'?)");
	assert_string_equal(f2t_suggest_quote("--zzz", opts, buf, sizeof(buf)), "'--zzz'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subcommand_typos),
		cmocka_unit_test(test_nothing_near),
		cmocka_unit_test(test_long_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
