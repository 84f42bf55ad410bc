// SPDX-License-Identifier: MIT
/*
 * The request heads `ftrace2trace open` answers (serve/httpreq.h): a
 * browser's GET and preflight are read whole, with the fields the server
 * decides on; a head is not taken before its blank line, however it
 * arrives; what is malformed or too big is refused, never guessed at.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serve/httpreq.h"

static int parse(const char *s, struct f2t_http_req *req)
{
	return f2t_http_parse(s, strlen(s), req);
}

static void assert_str(struct f2t_http_str s, const char *want)
{
	assert_int_equal(s.len, strlen(want));
	assert_memory_equal(s.p, want, s.len);
}

static void test_browser_get(void **state)
{
	static const char head[] = "GET /trace.pftrace HTTP/1.1\r\n"
				   "Host: 127.0.0.1:9001\r\n"
				   "Origin:   https://ui.perfetto.dev  \r\n"
				   "Accept: */*\r\n\r\n";
	char buf[sizeof(head) + 5];
	struct f2t_http_req req;

	memcpy(buf, head, sizeof(head) - 1);
	memcpy(buf + sizeof(head) - 1, "extra", 5);
	/* What follows the head is not part of it. */
	assert_int_equal(f2t_http_parse(buf, sizeof(buf), &req), (int)sizeof(head) - 1);
	assert_int_equal(req.method, F2T_HTTP_GET);
	assert_str(req.target, "/trace.pftrace");
	assert_str(req.host, "127.0.0.1:9001");
	assert_str(req.origin, "https://ui.perfetto.dev");
	assert_true(f2t_http_str_is(req.origin, "HTTPS://UI.PERFETTO.DEV"));
	assert_false(req.private_network);
}

static void test_preflight(void **state)
{
	struct f2t_http_req req;

	assert_true(parse("OPTIONS /t.fxt HTTP/1.1\nHost: localhost\n"
			  "access-control-request-private-network: true\n\n", &req) > 0);
	assert_int_equal(req.method, F2T_HTTP_OPTIONS);
	assert_true(req.private_network);
	assert_null(req.origin.p);
}

/* Every prefix of a whole head needs more bytes: nothing is answered early. */
static void test_needs_the_blank_line(void **state)
{
	static const char head[] = "HEAD /a HTTP/1.0\r\nHost: [::1]\r\n\r\n";
	struct f2t_http_req req;

	for (size_t len = 0; len < sizeof(head) - 1; len++)
		assert_int_equal(f2t_http_parse(head, len, &req), 0);
	assert_int_equal(parse(head, &req), (int)sizeof(head) - 1);
	assert_int_equal(req.method, F2T_HTTP_HEAD);
}

static void test_other_methods(void **state)
{
	struct f2t_http_req req;

	assert_true(parse("POST /a HTTP/1.1\r\nHost: x\r\n\r\n", &req) > 0);
	assert_int_equal(req.method, F2T_HTTP_OTHER);
	/* Methods are case-sensitive. */
	assert_true(parse("get /a HTTP/1.1\r\n\r\n", &req) > 0);
	assert_int_equal(req.method, F2T_HTTP_OTHER);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"GET /a HTTP/2.0\r\n\r\n",			/* not HTTP/1.x */
		"GET  /a HTTP/1.1\r\n\r\n",			/* two spaces */
		"GET /a\r\n\r\n",				/* no version */
		"/a HTTP/1.1\r\n\r\n",				/* no method */
		"G(T /a HTTP/1.1\r\n\r\n",			/* not a token */
		"GET /a HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",	/* no colon */
		"GET /a HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",	/* obsolete folding */
		"GET /a HTTP/1.1\r\nHost: a\rX: b\r\n\r\n",	/* a bare CR */
		"GET /a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",	/* two Hosts */
		"GET /a HTTP/1.1\r\nOrigin: a\r\nOrigin: b\r\n\r\n",
		"GET /\x7f HTTP/1.1\r\n\r\n",			/* a control byte in the target */
		"GET /a HTTP/1.1\r\nX: a\x01 b\r\n\r\n",	/* ... in a value */
	};
	struct f2t_http_req req;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &req), -EINVAL);
	/* A NUL byte, where a C string would have ended. */
	assert_int_equal(f2t_http_parse("GET /a\0b HTTP/1.1\r\n\r\n", 21, &req), -EINVAL);
}

static void test_limits(void **state)
{
	static char big[F2T_HTTP_HEAD_MAX + 100];
	struct f2t_http_req req;
	size_t n;

	/* A head that fills the limit without its end is refused, not buffered on. */
	n = (size_t)snprintf(big, sizeof(big), "GET /a HTTP/1.1\r\nX: ");
	memset(big + n, 'a', sizeof(big) - n);
	assert_int_equal(f2t_http_parse(big, F2T_HTTP_HEAD_MAX - 1, &req), 0);
	assert_int_equal(f2t_http_parse(big, F2T_HTTP_HEAD_MAX, &req), -E2BIG);
	/* Too many lines. */
	n = (size_t)snprintf(big, sizeof(big), "GET /a HTTP/1.1\r\n");
	for (int i = 0; i <= F2T_HTTP_HEADERS_MAX; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "X%d: y\r\n", i);
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\r\n");
	assert_int_equal(f2t_http_parse(big, n, &req), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_browser_get),
		cmocka_unit_test(test_preflight),
		cmocka_unit_test(test_needs_the_blank_line),
		cmocka_unit_test(test_other_methods),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
