/* SPDX-License-Identifier: MIT */
/*
 * The head of one HTTP/1.x request, as a browser or curl sends it to
 * `ftrace2trace open`: the request line and the few headers the server
 * decides on.  Bounded: a head longer than F2T_HTTP_HEAD_MAX bytes or with
 * more than F2T_HTTP_HEADERS_MAX lines is refused, never buffered further.
 * Nothing is decoded or copied: the fields point into the caller's bytes.
 */
#ifndef F2T_HTTPREQ_H
#define F2T_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>

#define F2T_HTTP_HEAD_MAX 8192
#define F2T_HTTP_HEADERS_MAX 64

enum f2t_http_method {
	F2T_HTTP_OTHER,
	F2T_HTTP_GET,
	F2T_HTTP_HEAD,
	F2T_HTTP_OPTIONS,
};

/* A piece of the request's bytes; len 0 and p NULL: absent. */
struct f2t_http_str {
	const char *p;
	size_t len;
};

struct f2t_http_req {
	enum f2t_http_method method;
	struct f2t_http_str target;	/* as sent: "/name", "/name?x", "*", ... */
	struct f2t_http_str host;	/* Host, trimmed */
	struct f2t_http_str origin;	/* Origin, trimmed */
	bool private_network;		/* Access-Control-Request-Private-Network: true */
};

/**
 * f2t_http_parse() - parse a request head from the bytes received so far
 * @buf: the bytes, not NUL-terminated
 * @len: how many
 * @req: filled when the head is whole
 *
 * Return: the head's length (through its blank line) when it is whole, 0
 * when more bytes are needed, -EINVAL for a malformed head (a bad request
 * line, a header without a colon, a bare CR, a NUL, a second Host), -E2BIG
 * for one over the limits.
 */
int f2t_http_parse(const char *buf, size_t len, struct f2t_http_req *req);

/* Is @s the string @lit, ASCII case aside? */
bool f2t_http_str_is(struct f2t_http_str s, const char *lit);

#endif
