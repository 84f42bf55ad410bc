// SPDX-License-Identifier: MIT
/* The merge's streaming JSON reader: tokens, grammar, positions in errors,
 * verbatim copies, seeking back, hostile input; and exact decimal shifts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "merge/decimal.h"
#include "merge/jlex.h"
#include "merge/jvalue.h"

/* A lexer over S (in a memfd, so seeking works as on a file). */
static void lex_over(struct f2t_jlex *lx, const char *s, size_t len)
{
	int fd = memfd_create("json", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(f2t_jlex_init_fd(lx, fd, "test.json"), 0);
	lx->own_fd = true;	/* let fini close it */
}

static void lex_str(struct f2t_jlex *lx, const char *s)
{
	lex_over(lx, s, strlen(s));
}

/* Skipping all of S fails with a message containing WANT at LINE:COL. */
static void assert_bad(const char *s, const char *want, unsigned line, unsigned col)
{
	struct f2t_jlex lx;
	int err;

	lex_str(&lx, s);
	err = f2t_jvalue_skip(&lx);
	if (!err)
		err = f2t_jlex_expect(&lx, F2T_JT_EOF, "after the value");
	if (err != -EINVAL || !strstr(lx.msg, want) || lx.err_pos.line != line ||
	    lx.err_pos.col != col)
		fail_msg("'%s': got %d '%s' at %llu:%llu, want '%s' at %u:%u", s, err, lx.msg,
			 (unsigned long long)lx.err_pos.line, (unsigned long long)lx.err_pos.col,
			 want, line, col);
	f2t_jlex_fini(&lx);
}

static void test_tokens(void **state)
{
	struct f2t_jlex lx;
	static const int want[] = {
		F2T_JT_LBRACE, F2T_JT_STRING, F2T_JT_COLON, F2T_JT_LBRACK, F2T_JT_NUMBER,
		F2T_JT_COMMA, F2T_JT_NUMBER, F2T_JT_COMMA, F2T_JT_TRUE, F2T_JT_COMMA,
		F2T_JT_FALSE, F2T_JT_COMMA, F2T_JT_NULL, F2T_JT_RBRACK, F2T_JT_RBRACE, F2T_JT_EOF,
	};

	lex_str(&lx, " {\"a\" :\n[ -1.5e+3 , 0, true,false,null ] }\r\n");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(f2t_jlex_next(&lx), want[i]);
		if (i == 1)
			assert_string_equal(lx.text, "a");
		if (i == 4) {
			assert_string_equal(lx.text, "-1.5e+3");
			assert_int_equal(lx.tok_pos.line, 2);
			assert_int_equal(lx.tok_pos.col, 3);
		}
	}
	/* EOF again, forever. */
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_EOF);
	f2t_jlex_fini(&lx);
}

static void test_string_escapes(void **state)
{
	struct f2t_jlex lx;

	lex_str(&lx, "\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u0041\\u00e9\\u20AC \\ud83d\\ude00\" "
		     "\"\\ud800x\" \"\\udc00\"");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_STRING);
	assert_string_equal(lx.text, "q\" b\\ s/ \b\f\n\r\t A\xc3\xa9\xe2\x82\xac \xf0\x9f\x98\x80");
	/* Lone surrogates become U+FFFD, never invalid UTF-8. */
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_STRING);
	assert_string_equal(lx.text, "\xef\xbf\xbdx");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_STRING);
	assert_string_equal(lx.text, "\xef\xbf\xbd");
	f2t_jlex_fini(&lx);
}

static void test_long_string_truncated(void **state)
{
	size_t n = 3 * (256u << 10) + 17;	/* spans several buffer refills */
	char *s = malloc(n + 8);
	struct f2t_jlex lx;

	s[0] = '"';
	memset(s + 1, 'x', n);
	strcpy(s + 1 + n, "\" 7");
	lex_str(&lx, s);
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_STRING);
	assert_true(lx.text_trunc);
	assert_int_equal(lx.text_len, F2T_JLEX_TEXT_MAX);
	assert_false(f2t_jlex_text_is(&lx, "x"));
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_NUMBER);
	assert_string_equal(lx.text, "7");
	assert_int_equal(lx.tok_pos.col, n + 4);
	f2t_jlex_fini(&lx);
	free(s);
}

static void test_text_survives_colon(void **state)
{
	struct f2t_jlex lx;

	lex_str(&lx, "{\"ts\" : 5}");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACE);
	assert_int_equal(f2t_jobj_next(&lx, true, NULL, false), 1);
	assert_true(f2t_jlex_text_is(&lx, "ts"));
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_NUMBER);
	assert_string_equal(lx.text, "5");
	assert_int_equal(f2t_jobj_next(&lx, false, NULL, false), 0);
	f2t_jlex_fini(&lx);
}

static void test_bad_json(void **state)
{
	assert_bad("", "expected a value, found end of file", 1, 1);
	assert_bad("{", "expected a member name", 1, 2);
	assert_bad("{\"a\" 1}", "expected ':' after a member name, found a number", 1, 6);
	assert_bad("{\"a\":1,}", "expected a member name", 1, 8);
	assert_bad("{1:2}", "expected a member name", 1, 2);
	assert_bad("[1,]", "expected a value, found ']'", 1, 4);
	assert_bad("[1 2]", "expected ',' or ']', found a number", 1, 4);
	assert_bad("{\"a\":1]", "expected ',' or '}', found ']'", 1, 7);
	assert_bad("[1]]", "expected end of file after the value, found ']'", 1, 4);
	assert_bad("\n\n  [\"abc", "unterminated string", 3, 4);
	assert_bad("[\"a\nb\"]", "control character", 1, 4);
	assert_bad("[\"\\x\"]", "invalid escape", 1, 4);
	assert_bad("[\"\\u12G4\"]", "four hex digits", 1, 7);
	assert_bad("[\"\\u12", "four hex digits", 1, 7);
	assert_bad("[01]", "invalid number", 1, 3);
	assert_bad("[1.]", "no digit after '.'", 1, 4);
	assert_bad("[1e]", "no digit in the exponent", 1, 4);
	assert_bad("[-]", "invalid number", 1, 3);
	assert_bad("[1x]", "invalid number", 1, 3);
	assert_bad("[+1]", "unexpected character", 1, 2);
	assert_bad("[.5]", "unexpected character", 1, 2);
	assert_bad("[tru]", "invalid literal", 1, 2);
	assert_bad("[truex]", "invalid literal", 1, 2);
	assert_bad("[nul", "invalid literal", 1, 2);
	assert_bad("[NaN]", "unexpected character", 1, 2);
	assert_bad("{'a':1}", "unexpected character", 1, 2);
	assert_bad("[\xff]", "unexpected byte 0xff", 1, 2);
	assert_bad("[", "expected a value, found end of file", 1, 2);
	assert_bad("[1,", "expected a value, found end of file", 1, 4);
	assert_bad("{\"a\":", "expected a value, found end of file", 1, 6);
}

static void test_nul_byte(void **state)
{
	static const char s[] = "[\"a\",\0]";
	struct f2t_jlex lx;

	lex_over(&lx, s, sizeof(s) - 1);
	assert_int_equal(f2t_jvalue_skip(&lx), -EINVAL);
	assert_string_equal(lx.msg, "unexpected byte 0x00");
	assert_int_equal(lx.err_pos.col, 6);
	f2t_jlex_fini(&lx);
}

static void test_depth_limit(void **state)
{
	size_t n = F2T_JVALUE_MAX_DEPTH + 1;
	char *s = malloc(2 * n + 1);
	struct f2t_jlex lx;

	/* Exactly the limit is fine ... */
	memset(s, '[', n - 1);
	memset(s + n - 1, ']', n - 1);
	s[2 * n - 2] = '\0';
	lex_str(&lx, s);
	assert_int_equal(f2t_jvalue_skip(&lx), 0);
	f2t_jlex_fini(&lx);
	/* ... one more is refused, without recursion to blow the stack. */
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = '\0';
	lex_str(&lx, s);
	assert_int_equal(f2t_jvalue_skip(&lx), -EINVAL);
	assert_non_null(strstr(lx.msg, "nested deeper"));
	f2t_jlex_fini(&lx);
	free(s);
}

/* Copy the value at the start of S into a memfd and return what was copied. */
static char *copy_first_value(const char *s, int *err)
{
	struct f2t_jlex lx;
	int fd = memfd_create("out", MFD_CLOEXEC);
	struct f2t_out *o = f2t_out_fdopen(fd, "out");
	char *res = calloc(1, 1 << 20);

	lex_str(&lx, s);
	*err = f2t_jvalue_copy(&lx, o);
	assert_int_equal(f2t_out_close(o), 0);
	assert_true(pread(fd, res, (1 << 20) - 1, 0) >= 0);
	close(fd);
	f2t_jlex_fini(&lx);
	return res;
}

static void test_copy_verbatim(void **state)
{
	static const char v[] = "{\"ts\": 1234567.8912345678901234, \"s\":\"\\u00e9\\n\", "
				"\"a\":[1, {\"b\":null}] ,\"x\":-0.0e-0}";
	char buf[sizeof(v) + 16];
	char *got;
	int err;

	snprintf(buf, sizeof(buf), "  \n%s  ,", v);
	got = copy_first_value(buf, &err);
	assert_int_equal(err, 0);
	/* Exactly the value's bytes: no leading/trailing space, numbers untouched. */
	assert_string_equal(got, v);
	free(got);

	got = copy_first_value("\"just a string\"", &err);
	assert_int_equal(err, 0);
	assert_string_equal(got, "\"just a string\"");
	free(got);
}

static void test_copy_across_refills(void **state)
{
	size_t n = (256u << 10) * 2 + 5;
	char *s = malloc(n + 8), *got;
	int err;

	s[0] = '"';
	for (size_t i = 1; i <= n; i++)
		s[i] = (char)('a' + i % 26);
	strcpy(s + n + 1, "\" 1");
	got = copy_first_value(s, &err);
	assert_int_equal(err, 0);
	assert_int_equal(strlen(got), n + 2);
	assert_memory_equal(got, s, n + 2);
	free(got);
	free(s);
}

static void test_member_raw_copy(void **state)
{
	struct f2t_jlex lx;
	int fd = memfd_create("out", MFD_CLOEXEC);
	struct f2t_out *o = f2t_out_fdopen(fd, "out");
	char got[256] = { 0 };
	bool first = true;
	int r;

	lex_str(&lx, "{ \"a\\u0062\" : 1 , \"c\":[2] }");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACE);
	f2t_out_putc(o, '{');
	while ((r = f2t_jobj_next(&lx, first, o, !first)) == 1) {
		first = false;
		assert_int_equal(f2t_jvalue_copy(&lx, o), 0);
	}
	assert_int_equal(r, 0);
	f2t_out_putc(o, '}');
	assert_int_equal(f2t_out_close(o), 0);
	assert_true(pread(fd, got, sizeof(got) - 1, 0) > 0);
	assert_string_equal(got, "{\"a\\u0062\" :1,\"c\":[2]}");
	close(fd);
	f2t_jlex_fini(&lx);
}

static void test_seek_back(void **state)
{
	struct f2t_jlex lx;
	struct f2t_jpos at;

	lex_str(&lx, "{\"a\": 1,\n  \"b\": [true]}");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACE);
	assert_int_equal(f2t_jobj_next(&lx, true, NULL, false), 1);
	assert_int_equal(f2t_jvalue_skip(&lx), 0);
	assert_int_equal(f2t_jobj_next(&lx, false, NULL, false), 1);
	assert_true(f2t_jlex_text_is(&lx, "b"));
	assert_true(f2t_jlex_peek(&lx) == '[');
	f2t_jlex_where(&lx, &at);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 8);
	assert_int_equal(f2t_jvalue_skip(&lx), 0);
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_RBRACE);
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_EOF);
	/* Back to the value: same tokens, same positions in errors. */
	assert_int_equal(f2t_jlex_seek(&lx, &at), 0);
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACK);
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_TRUE);
	assert_int_equal(lx.tok_pos.line, 2);
	assert_int_equal(lx.tok_pos.col, 9);
	f2t_jlex_fini(&lx);
}

static void test_array_iteration(void **state)
{
	struct f2t_jlex lx;
	int n = 0, r;

	/* The bare-array form may stop after an element or a trailing comma. */
	static const char *const cut[] = { "[1, {\"a\":2}", "[1, {\"a\":2},\n", "[" };
	static const int elems[] = { 2, 2, 0 };

	for (size_t i = 0; i < 3; i++) {
		lex_str(&lx, cut[i]);
		assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACK);
		n = 0;
		for (bool first = true; (r = f2t_jarr_next(&lx, first, true)) == 1; first = false) {
			assert_int_equal(f2t_jvalue_skip(&lx), 0);
			n++;
		}
		assert_int_equal(r, 2);
		assert_int_equal(n, elems[i]);
		f2t_jlex_fini(&lx);
	}
	/* Not accepted without eof_ends. */
	lex_str(&lx, "[1,");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACK);
	assert_int_equal(f2t_jarr_next(&lx, true, false), 1);
	assert_int_equal(f2t_jvalue_skip(&lx), 0);
	assert_int_equal(f2t_jarr_next(&lx, false, false), 1);
	assert_int_equal(f2t_jvalue_skip(&lx), -EINVAL);
	f2t_jlex_fini(&lx);
	/* A torn element is still an error. */
	lex_str(&lx, "[{\"a\":");
	assert_int_equal(f2t_jlex_next(&lx), F2T_JT_LBRACK);
	assert_int_equal(f2t_jarr_next(&lx, true, true), 1);
	assert_int_equal(f2t_jvalue_skip(&lx), -EINVAL);
	f2t_jlex_fini(&lx);
}

/* Random bytes and random cuts of a valid document: errors, never crashes. */
static void test_fuzz(void **state)
{
	static const char doc[] = "{\"traceEvents\":[{\"name\":\"a\\u00e9\",\"ph\":\"B\",\"ts\":1.5,"
				  "\"args\":{\"x\":[true,false,null,-1e5]}}],\"otherData\":{}}";
	static const char alphabet[] = "{}[]:,\"\\u0123456789.eE+-tfnrlsa \n\x01\xff";
	struct f2t_jlex lx;
	char buf[128];

	srand(1);
	for (size_t cut = 0; cut < sizeof(doc) - 1; cut++) {
		lex_over(&lx, doc, cut);
		assert_int_equal(f2t_jvalue_skip(&lx), -EINVAL);
		f2t_jlex_fini(&lx);
	}
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)rand() % sizeof(buf);

		for (size_t i = 0; i < n; i++)
			buf[i] = rand() % 4 ? alphabet[rand() % (sizeof(alphabet) - 1)] : (char)rand();
		if (n && rand() % 2)
			memcpy(buf, doc, n < sizeof(doc) - 1 ? n / 2 : 0);
		lex_over(&lx, buf, n);
		for (int i = 0; i < 50 && f2t_jvalue_skip(&lx) == 0; i++)
			;
		f2t_jlex_fini(&lx);
	}
}

static void assert_shift(const char *num, int64_t ns, const char *want)
{
	char out[F2T_DEC_OUT_MAX];
	int n = f2t_dec_shift_us(num, strlen(num), ns, out);

	if (n < 0 || strcmp(out, want))
		fail_msg("%s + %lld ns: got %d '%s', want '%s'", num, (long long)ns, n,
			 n < 0 ? "" : out, want);
	assert_int_equal((size_t)n, strlen(want));
}

static void test_decimal_shift(void **state)
{
	assert_shift("829", 1000000000000, "1000000829");
	assert_shift("829.5", 1000000000000, "1000000829.5");
	assert_shift("1234.567", 0, "1234.567");
	assert_shift("1234.567", 1, "1234.568");
	assert_shift("1234.567", -1234567, "0");
	assert_shift("1234.567", -1234568, "-0.001");
	assert_shift("0", -5, "-0.005");
	assert_shift("-0", 0, "0");
	assert_shift("1.5e3", 0, "1500");
	assert_shift("15e-1", 0, "1.5");
	assert_shift("1e-9", 0, "0.000000001");
	assert_shift("1e-9", 1000, "1.000000001");
	/* More digits than a double holds: every one survives. */
	assert_shift("1234567890123.1234567890123", 1, "1234567890123.1244567890123");
	assert_shift("99999999999999999999.999", 1, "100000000000000000000");
	assert_shift("-2.5", 2500, "0");
	assert_shift("-2.5", 3000, "0.5");
	assert_shift("2.5", INT64_MIN, "-9223372036854773.308");
	assert_shift("0.000", 9223372036854775807, "9223372036854775.807");
}

static void test_decimal_errors(void **state)
{
	char out[F2T_DEC_OUT_MAX];
	int64_t ns;

	assert_int_equal(f2t_dec_shift_us("abc", 3, 0, out), -EINVAL);
	assert_int_equal(f2t_dec_shift_us("", 0, 0, out), -EINVAL);
	assert_int_equal(f2t_dec_shift_us("1e", 2, 0, out), -EINVAL);
	assert_int_equal(f2t_dec_shift_us("1e999999999", 11, 0, out), -ERANGE);
	assert_int_equal(f2t_dec_shift_us("1e-999999", 9, 0, out), -ERANGE);
	assert_int_equal(f2t_dec_shift_us(
		"12345678901234567890123456789012345678901234567890123456789012345", 65, 0, out),
		-ERANGE);
	assert_int_equal(f2t_dec_us_to_ns("1e20", 4, &ns), -ERANGE);
	assert_int_equal(f2t_dec_sec_to_ns("x", &ns), -EINVAL);
	assert_int_equal(f2t_dec_sec_to_ns("1.2.3", &ns), -EINVAL);
	assert_int_equal(f2t_dec_sec_to_ns("", &ns), -EINVAL);
	assert_int_equal(f2t_dec_sec_to_ns("-", &ns), -EINVAL);
	assert_int_equal(f2t_dec_sec_to_ns("10000000000", &ns), -ERANGE);
}

static void test_decimal_to_ns(void **state)
{
	int64_t ns;

	assert_int_equal(f2t_dec_us_to_ns("1234.5678", 9, &ns), 0);
	assert_int_equal(ns, 1234568);	/* 0.8 ns rounds up */
	assert_int_equal(f2t_dec_us_to_ns("-1.0004", 7, &ns), 0);
	assert_int_equal(ns, -1000);
	assert_int_equal(f2t_dec_us_to_ns("-1.0005", 7, &ns), 0);
	assert_int_equal(ns, -1001);	/* halves away from zero */
	assert_int_equal(f2t_dec_us_to_ns("0.0001", 6, &ns), 0);
	assert_int_equal(ns, 0);
	assert_int_equal(f2t_dec_us_to_ns("5e2", 3, &ns), 0);
	assert_int_equal(ns, 500000);
	assert_int_equal(f2t_dec_us_to_ns("9223372036854775.807", 20, &ns), 0);
	assert_true(ns == INT64_MAX);
	assert_int_equal(f2t_dec_us_to_ns("9223372036854775.808", 20, &ns), -ERANGE);
	assert_int_equal(f2t_dec_sec_to_ns("1000", &ns), 0);
	assert_true(ns == 1000000000000);
	assert_int_equal(f2t_dec_sec_to_ns("-0.5", &ns), 0);
	assert_true(ns == -500000000);
	assert_int_equal(f2t_dec_sec_to_ns("+1.000000001", &ns), 0);
	assert_true(ns == 1000000001);
	assert_int_equal(f2t_dec_sec_to_ns(".25", &ns), 0);
	assert_true(ns == 250000000);
	assert_int_equal(f2t_dec_sec_to_ns("-9.223372036854775808e9", &ns), 0);
	assert_true(ns == INT64_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_long_string_truncated),
		cmocka_unit_test(test_text_survives_colon),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_copy_verbatim),
		cmocka_unit_test(test_copy_across_refills),
		cmocka_unit_test(test_member_raw_copy),
		cmocka_unit_test(test_seek_back),
		cmocka_unit_test(test_array_iteration),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_decimal_shift),
		cmocka_unit_test(test_decimal_errors),
		cmocka_unit_test(test_decimal_to_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
