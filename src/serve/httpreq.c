// SPDX-License-Identifier: MIT
/* An HTTP/1.x request head (RFC 9112), strictly: anything unusual is refused. */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "serve/httpreq.h"

bool f2t_http_str_is(struct f2t_http_str s, const char *lit)
{
	return s.p && s.len == strlen(lit) && !strncasecmp(s.p, lit, s.len);
}

/* RFC 9110's tchar: what a method or a header name is made of. */
static bool tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

static struct f2t_http_str trim(const char *p, size_t len)
{
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	return (struct f2t_http_str){ .p = p, .len = len };
}

/* "METHOD TARGET HTTP/1.x". */
static int request_line(const char *p, size_t len, struct f2t_http_req *req)
{
	static const struct {
		const char *name;
		enum f2t_http_method m;
	} methods[] = {
		{ "GET", F2T_HTTP_GET }, { "HEAD", F2T_HTTP_HEAD }, { "OPTIONS", F2T_HTTP_OPTIONS },
	};
	const char *sp1 = memchr(p, ' ', len), *sp2, *end = p + len;
	struct f2t_http_str m;

	if (!sp1 || sp1 == p)
		return -EINVAL;
	for (const char *q = p; q < sp1; q++)
		if (!tchar((unsigned char)*q))
			return -EINVAL;
	sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
	if (!sp2 || sp2 == sp1 + 1)
		return -EINVAL;
	for (const char *q = sp1 + 1; q < sp2; q++)
		if (*q <= ' ' || *q == 0x7f)
			return -EINVAL;
	if (end - sp2 - 1 != 8 || (memcmp(sp2 + 1, "HTTP/1.1", 8) && memcmp(sp2 + 1, "HTTP/1.0", 8)))
		return -EINVAL;
	m = (struct f2t_http_str){ .p = p, .len = (size_t)(sp1 - p) };
	req->method = F2T_HTTP_OTHER;
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (m.len == strlen(methods[i].name) && !memcmp(p, methods[i].name, m.len))
			req->method = methods[i].m;	/* methods are case-sensitive */
	req->target = (struct f2t_http_str){ .p = sp1 + 1, .len = (size_t)(sp2 - sp1 - 1) };
	return 0;
}

/* "Name: value"; the ones we decide on kept, once each. */
static int header(const char *p, size_t len, struct f2t_http_req *req)
{
	const char *colon = memchr(p, ':', len);
	struct f2t_http_str name, value;

	if (!colon || colon == p)
		return -EINVAL;	/* also a continuation line: no name before it */
	for (const char *q = p; q < colon; q++)
		if (!tchar((unsigned char)*q))
			return -EINVAL;
	for (const char *q = colon + 1; q < p + len; q++)
		if ((unsigned char)*q < ' ' && *q != '\t')
			return -EINVAL;
	name = (struct f2t_http_str){ .p = p, .len = (size_t)(colon - p) };
	value = trim(colon + 1, (size_t)(p + len - colon - 1));
	if (f2t_http_str_is(name, "host")) {
		if (req->host.p)
			return -EINVAL;
		req->host = value;
	} else if (f2t_http_str_is(name, "origin")) {
		if (req->origin.p)
			return -EINVAL;
		req->origin = value;
	} else if (f2t_http_str_is(name, "access-control-request-private-network")) {
		req->private_network = f2t_http_str_is(value, "true");
	}
	return 0;
}

int f2t_http_parse(const char *buf, size_t len, struct f2t_http_req *req)
{
	size_t pos = 0, nlines = 0;

	memset(req, 0, sizeof(*req));
	for (;;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end, next;
		int err;

		if (!nl)
			return len >= F2T_HTTP_HEAD_MAX ? -E2BIG : 0;
		next = (size_t)(nl - buf) + 1;
		if (next > F2T_HTTP_HEAD_MAX)
			return -E2BIG;
		end = next - 1;
		if (end > pos && buf[end - 1] == '\r')
			end--;	/* CRLF; a bare LF is taken too, as RFC 9112 allows */
		if (memchr(buf + pos, '\r', end - pos) || memchr(buf + pos, '\0', end - pos))
			return -EINVAL;
		if (!nlines) {
			err = request_line(buf + pos, end - pos, req);
		} else if (end == pos) {
			return (int)next;
		} else if (nlines > F2T_HTTP_HEADERS_MAX) {
			return -E2BIG;
		} else {
			err = header(buf + pos, end - pos, req);
		}
		if (err)
			return err;
		nlines++;
		pos = next;
	}
}
