// SPDX-License-Identifier: MIT
/*
 * The one-shot server: a loopback socket, up to MAX_CONNS clients reading
 * their request heads side by side (a browser opens spare connections and
 * may never use them), each answered and closed; the file's bytes go out
 * with sendfile() from the descriptor opened at the start.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "serve/httpreq.h"
#include "serve/serve-local.h"
#include "serve/serve.h"
#include "util/log.h"
#include "util/openreg.h"

#define MAX_CONNS 16
#define TICK_MS 250	/* how often timeouts and signals are looked at */

struct conn {
	int fd;			/* -1: free */
	size_t len;
	uint64_t deadline_ms;
	char buf[F2T_HTTP_HEAD_MAX];
};

struct server {
	int lfd, file;
	struct stat st;
	const char *path;
	char name[256];
	char url[512];		/* the link */
	struct conn *conns;
	bool fetched;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void f2t_serve_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n = 0;

	base = base ? base + 1 : path;
	for (; *base && n + 1 < len; base++, n++) {
		char c = *base;

		buf[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ? c : '_';
	}
	buf[n] = '\0';
	/* "", ".", "..": names a URL path would read as something else. */
	if (strspn(buf, ".") == n)
		snprintf(buf, len, "trace");
}

/* The whole of @len bytes, or -1 (a client that stops reading times out). */
static int send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A status line and the headers every answer carries. */
static int head(int fd, const char *status, const char *more, uint64_t length)
{
	char h[1024];
	int n = snprintf(h, sizeof(h),
			 "HTTP/1.1 %s\r\n"
			 "Access-Control-Allow-Origin: " F2T_SERVE_ORIGIN "\r\n"
			 "Vary: Origin\r\n"
			 "Cache-Control: no-cache\r\n"
			 "Connection: close\r\n"
			 "%s"
			 "Content-Length: %" PRIu64 "\r\n\r\n", status, more, length);

	return send_all(fd, h, (size_t)n);
}

static void error_answer(int fd, const char *status, const char *more)
{
	char body[128];
	int n = snprintf(body, sizeof(body), "%s\n", status);

	if (!head(fd, status, more, (uint64_t)n))
		send_all(fd, body, (size_t)n);
}

/* The file, whole: 0, or -1 when the client went away (or a signal came). */
static int send_file(struct server *s, int fd)
{
	off_t off = 0;

	if (head(fd, "200 OK", "Content-Type: application/octet-stream\r\n",
		 (uint64_t)s->st.st_size))
		return -1;
	while (off < s->st.st_size) {
		ssize_t n = sendfile(fd, s->file, &off, (size_t)(s->st.st_size - off));

		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n == 0) {
			f2t_err("%s: shorter than when opened (changed while being served)",
				s->path);
			return -EIO;
		}
		if (n < 0)
			return -1;
	}
	return 0;
}

/* "127.0.0.1", "localhost" or "[::1]", with or without a port. */
static bool loopback_host(struct f2t_http_str h)
{
	static const char *const names[] = { "127.0.0.1", "localhost", "[::1]" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]), digits = n + 1;

		if (h.len < n || strncasecmp(h.p, names[i], n))
			continue;
		if (h.len == n)
			return true;
		while (digits < h.len && h.p[digits] >= '0' && h.p[digits] <= '9')
			digits++;
		if (h.p[n] == ':' && digits == h.len && h.len > n + 1)
			return true;
	}
	return false;
}

/* Answers one whole request; 1 once the file went out whole, 0, or negative errno. */
static int answer(struct server *s, int fd, const struct f2t_http_req *req)
{
	size_t nlen = strlen(s->name);
	bool ours = req->target.len == nlen + 1 && req->target.p[0] == '/' &&
		    !memcmp(req->target.p + 1, s->name, nlen);
	int err;

	if (!req->host.p) {
		error_answer(fd, "400 Bad Request", "");
		return 0;
	}
	/* A page of another origin, or a name rebound to us, gets nothing. */
	if (!loopback_host(req->host) ||
	    (req->origin.p && !f2t_http_str_is(req->origin, F2T_SERVE_ORIGIN))) {
		error_answer(fd, "403 Forbidden", "");
		return 0;
	}
	if (!ours) {
		error_answer(fd, "404 Not Found", "");
		return 0;
	}
	switch (req->method) {
	case F2T_HTTP_OPTIONS:
		head(fd, "204 No Content", req->private_network ?
		     "Access-Control-Allow-Methods: GET, HEAD\r\n"
		     "Access-Control-Allow-Private-Network: true\r\n" :
		     "Access-Control-Allow-Methods: GET, HEAD\r\n", 0);
		return 0;
	case F2T_HTTP_HEAD:
		head(fd, "200 OK", "Content-Type: application/octet-stream\r\n",
		     (uint64_t)s->st.st_size);
		return 0;
	case F2T_HTTP_GET:
		err = send_file(s, fd);
		return err == -EIO ? err : !err;
	default:
		error_answer(fd, "405 Method Not Allowed", "Allow: GET, HEAD, OPTIONS\r\n");
		return 0;
	}
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}

/* More bytes of a client's head; answered once whole.  1: the file went out. */
static int conn_read(struct server *s, struct conn *c)
{
	struct f2t_http_req req;
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
	int ret = 0, parsed;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		conn_close(c);
		return 0;
	}
	c->len += (size_t)n;
	parsed = f2t_http_parse(c->buf, c->len, &req);
	if (parsed == 0)
		return 0;
	if (parsed < 0)
		error_answer(c->fd, parsed == -E2BIG ? "431 Request Header Fields Too Large" :
			     "400 Bad Request", "");
	else
		ret = answer(s, c->fd, &req);
	shutdown(c->fd, SHUT_WR);
	conn_close(c);
	return ret;
}

static void conn_accept(struct server *s)
{
	struct timeval tv = { .tv_sec = F2T_SERVE_TIMEOUT_S };
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < MAX_CONNS; i++) {
		struct conn *c = &s->conns[i];

		if (c->fd >= 0)
			continue;
		/* An answer is sent blocking: a client that stops reading times out. */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		c->fd = fd;
		c->len = 0;
		c->deadline_ms = now_ms() + F2T_SERVE_TIMEOUT_S * 1000ull;
		return;
	}
	close(fd);
}

static int listen_on(struct server *s, unsigned int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1;

	s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->lfd < 0) {
		f2t_err("cannot make a socket: %s", strerror(errno));
		return -errno;
	}
	/* A previous run's connections in TIME_WAIT do not hold the port. */
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!bind(s->lfd, (struct sockaddr *)&a, sizeof(a)) && !listen(s->lfd, 16))
		return 0;
	if (errno == EADDRINUSE)
		f2t_err("127.0.0.1:%u is in use by another program (`ss -ltnp 'sport = :%u'` "
			"names it: a trace_processor_shell --httpd, another `ftrace2trace open`?); "
			"stop it, or serve on another port with --port and forward port %u to it",
			port, port, F2T_SERVE_PORT);
	else
		f2t_err("cannot listen on 127.0.0.1:%u: %s", port, strerror(errno));
	return -errno;
}

/* The file must be something Perfetto UI opens: whole, not our raw capture. */
static int open_file(struct server *s)
{
	char magic[8];

	s->file = f2t_open_reg(AT_FDCWD, s->path, 0, &s->st);
	if (s->file < 0) {
		f2t_err("%s: %s", s->path, s->file == -F2T_ENOTREG ? "not a regular file" :
			strerror(-s->file));
		return s->file;
	}
	if (!s->st.st_size) {
		f2t_err("%s: empty, no trace to open", s->path);
		return -EINVAL;
	}
	if (pread(s->file, magic, sizeof(magic), 0) == sizeof(magic) &&
	    !memcmp(magic, "F2TCAPT", 8)) {
		f2t_err("%s: a capture, which Perfetto UI does not read: convert it first "
			"(ftrace2trace convert %s -o trace.pftrace)", s->path, s->path);
		return -EINVAL;
	}
	return 0;
}

static void say_link(const struct server *s, unsigned int port, const char *browser)
{
	char host[256] = "";

	printf("%s\n", s->url);
	fflush(stdout);
	if (f2t_quiet)
		return;
	if (browser) {
		fprintf(stderr, "ftrace2trace: opened the link above with %s; serving %s on "
			"127.0.0.1:%u until it is fetched (Ctrl-C stops)\n", browser, s->path, port);
		return;
	}
	gethostname(host, sizeof(host) - 1);
	fprintf(stderr, "ftrace2trace: open the link above in a browser on this machine; "
		"serving %s on 127.0.0.1:%u until it is fetched (Ctrl-C stops).\n"
		"From another machine, forward the port first: ssh -L %u:127.0.0.1:%u %s\n",
		s->path, port, F2T_SERVE_PORT, port, host[0] ? host : "THIS-HOST");
	if (port != F2T_SERVE_PORT)
		fprintf(stderr, "(Perfetto UI fetches from port %u only: on this machine the link "
			"works once something forwards %u to %u)\n", F2T_SERVE_PORT,
			F2T_SERVE_PORT, port);
}

static int loop(struct server *s, pid_t browser)
{
	struct pollfd p[MAX_CONNS + 1];

	while (!stop_signal) {
		uint64_t now = now_ms();
		int n = 0, map[MAX_CONNS], ret;
		bool room = false;

		if (browser > 0 && waitpid(browser, NULL, WNOHANG) != 0)
			browser = -1;
		for (int i = 0; i < MAX_CONNS; i++) {
			struct conn *c = &s->conns[i];

			if (c->fd >= 0 && now >= c->deadline_ms)
				conn_close(c);	/* never finished its request */
			if (c->fd < 0) {
				room = true;
				continue;
			}
			p[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
			map[n++] = i;
		}
		/* Full: later clients wait in the listen queue. */
		p[n] = (struct pollfd){ .fd = room ? s->lfd : -1, .events = POLLIN };
		if (poll(p, (nfds_t)n + 1, TICK_MS) < 0) {
			if (errno == EINTR)
				continue;
			f2t_err("poll: %s", strerror(errno));
			return -errno;
		}
		for (int i = 0; i < n; i++) {
			if (!p[i].revents)
				continue;
			ret = conn_read(s, &s->conns[map[i]]);
			if (ret)
				return ret < 0 ? ret : 0;
		}
		if (p[n].revents)
			conn_accept(s);
	}
	return stop_signal;
}

int f2t_serve_once(const char *path, const struct f2t_serve_opts *o)
{
	struct server s = { .lfd = -1, .file = -1, .path = path };
	unsigned int port = o->port ? o->port : F2T_SERVE_PORT;
	struct sigaction sa = { .sa_handler = on_stop }, old[3], ign = { .sa_handler = SIG_IGN };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction oldpipe;
	pid_t browser = -1;
	const char *how = NULL;
	int ret;

	stop_signal = 0;
	/* No SA_RESTART: a stop signal ends a blocked poll() or send at once. */
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	sigaction(SIGPIPE, &ign, &oldpipe);
	f2t_serve_name(path, s.name, sizeof(s.name));
	/* The port the browser fetches from: with --port, through a forwarding. */
	snprintf(s.url, sizeof(s.url), F2T_SERVE_ORIGIN "/#!/?url=http://127.0.0.1:%u/%s",
		 F2T_SERVE_PORT, s.name);
	s.conns = calloc(MAX_CONNS, sizeof(*s.conns));
	if (!s.conns) {
		f2t_err("out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < MAX_CONNS; i++)
		s.conns[i].fd = -1;
	ret = open_file(&s);
	if (!ret)
		ret = listen_on(&s, port);
	if (ret)
		goto out;
	if (o->browser)
		how = f2t_browser_open(s.url, &browser);
	say_link(&s, port, how);
	ret = loop(&s, browser);
	if (!ret && !f2t_quiet)
		fprintf(stderr, "ftrace2trace: %s was fetched; done\n", path);
	else if (ret > 0)
		f2t_err("stopped before %s was fetched", path);
out:
	if (s.conns)
		for (int i = 0; i < MAX_CONNS; i++)
			conn_close(&s.conns[i]);
	free(s.conns);
	if (s.lfd >= 0)
		close(s.lfd);
	if (s.file >= 0)
		close(s.file);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGPIPE, &oldpipe, NULL);
	return ret;
}
