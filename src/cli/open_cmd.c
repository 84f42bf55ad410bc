// SPDX-License-Identifier: MIT
/* ftrace2trace open [--no-browser] [--port N] FILE: serve/serve.h. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "serve/serve.h"
#include "util/log.h"

static const char synopsis[] = "usage: ftrace2trace open [OPTIONS] FILE\n";

static void usage(FILE *f)
{
	fprintf(f, "%s\n"
		"Shows FILE (a .pftrace, .fxt, .json or .json.gz trace) in Perfetto UI:\n"
		"serves it once on 127.0.0.1:%d, the port ui.perfetto.dev may fetch from,\n"
		"prints the link, opens it in a browser ($BROWSER, else xdg-open when there\n"
		"is a display), and exits once the file has been fetched (or on Ctrl-C).\n"
		"Nothing but FILE is served, and only on the loopback address.\n\n"
		"options:\n"
		"      --no-browser   only print the link (and how to forward the port\n"
		"                     over ssh, to open it from another machine)\n"
		"      --port N       serve on port N instead (when %d is taken here):\n"
		"                     the link still names %d, forward it to N\n"
		"  -q, --quiet        print the link alone\n"
		"  -h, --help         this text\n\n"
		"Exit status: 0 once fetched, 1 on error, 128 + N when signal N stopped it.\n"
		"See ftrace2trace-open(1).\n", synopsis, F2T_SERVE_PORT, F2T_SERVE_PORT,
		F2T_SERVE_PORT);
}

static int usage_error(const char *fmt, const char *arg)
{
	return f2t_usage_error(synopsis, "open", fmt, arg);
}

enum { OPT_NO_BROWSER = 256, OPT_PORT };

int f2t_cmd_open(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-browser", no_argument, NULL, OPT_NO_BROWSER },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct f2t_serve_opts o = { .browser = true };
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case OPT_NO_BROWSER:
			o.browser = false;
			break;
		case OPT_PORT: {
			unsigned long port = strtoul(optarg, &end, 10);

			if (*end || !optarg[0] || optarg[0] == '-' || !port || port > 65535)
				return usage_error("--port: '%s' is not a port from 1 to 65535",
						   optarg);
			o.port = (unsigned int)port;
			break;
		}
		case 'q':
			f2t_quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return f2t_usage_bad_option(synopsis, "open", c, argv[optind - 1], longopts);
		}
	}
	if (optind != argc - 1)
		return usage_error(optind >= argc ? "no file given%s" : "more than one file given%s",
				   "");
	ret = f2t_serve_once(argv[optind], &o);
	return ret < 0 ? 1 : ret ? 128 + ret : 0;
}
