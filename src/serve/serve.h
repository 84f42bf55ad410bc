/* SPDX-License-Identifier: MIT */
/*
 * `ftrace2trace open`: one trace file served once to Perfetto UI, as
 * Perfetto's own tools/open_trace_in_ui does: on 127.0.0.1 port 9001 (the
 * one port ui.perfetto.dev's content security policy lets it fetch from),
 * with the CORS header for its origin and an answer to the browser's
 * preflight (Private Network Access), then the link
 * https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/NAME, a browser
 * where one is configured, and the end once the file has been fetched.
 * Only that file, under that name, to clients on loopback that name a
 * loopback host (no DNS rebinding) and, when a page asks, for Perfetto
 * UI's origin alone; the request parser is serve/httpreq.h.
 */
#ifndef F2T_SERVE_H
#define F2T_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#define F2T_SERVE_PORT 9001
#define F2T_SERVE_ORIGIN "https://ui.perfetto.dev"
/* Seconds a client has to send its request, and to take each part of the answer. */
#define F2T_SERVE_TIMEOUT_S 30

struct f2t_serve_opts {
	unsigned int port;	/* 0: F2T_SERVE_PORT */
	bool browser;		/* start a browser where one is configured */
};

/**
 * f2t_serve_once() - serve @path to Perfetto UI until it has been fetched
 * @path: the trace file, opened here as a regular file (util/openreg.h)
 * @o: port and browser
 *
 * Prints the link on standard output and what to do on standard error,
 * and its errors (a busy port says how to find who holds it).
 *
 * Return: 0 once a client received the whole file, the number of the
 * signal (SIGINT, SIGTERM, SIGHUP) that stopped it before, or a negative
 * errno (reported).
 */
int f2t_serve_once(const char *path, const struct f2t_serve_opts *o);

/**
 * f2t_serve_name() - the name @path is served under: its base name, with
 * any byte but [A-Za-z0-9._-] made '_' (the URL needs no escaping)
 * @buf: at least 64 bytes
 * @len: its size
 */
void f2t_serve_name(const char *path, char *buf, size_t len);

#endif
