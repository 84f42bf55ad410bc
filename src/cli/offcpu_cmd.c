// SPDX-License-Identifier: MIT
/*
 * `ftrace2trace report --off-cpu [--folded] [--top N] CAPTURE`: the off-CPU
 * report of a capture recorded with --off-cpu (report/offcpu.h).  Only the
 * off-CPU report for now; the other reports join this command.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "report/offcpu.h"
#include "util/log.h"

enum { OPT_OFF_CPU = 256, OPT_FOLDED, OPT_TOP };

#define DEFAULT_TOP 10

static const char synopsis[] =
	"usage: ftrace2trace report --off-cpu [--folded] [--top N] CAPTURE\n";

static void usage(FILE *f)
{
	fprintf(f, "%s\n"
		"Prints where the threads of a recording made with `record --off-cpu -k\n"
		"CAPTURE` blocked: blocked time by thread (S and D apart), the stacks that\n"
		"blocked longest, and who woke them from where.\n"
		"\n"
		"options:\n"
		"      --off-cpu       the off-CPU report (the one report so far)\n"
		"      --folded        one line per thread name and stack,\n"
		"                      THREAD;outermost;...;innermost MICROSECONDS, for\n"
		"                      flamegraph.pl, inferno or speedscope\n"
		"      --top N         threads and stacks listed (default %d)\n"
		"  -h, --help          this help\n"
		"\n"
		"See ftrace2trace-record(1).\n", synopsis, DEFAULT_TOP);
}

static int usage_error(const char *what, const char *arg)
{
	f2t_err(what, arg);
	fprintf(stderr, "%s'ftrace2trace report --help' lists the options.\n", synopsis);
	return 2;
}

int f2t_cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct f2t_offcpu_report_opts o = { .top = DEFAULT_TOP };
	bool off_cpu = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		char *end;
		unsigned long n;

		switch (c) {
		case OPT_OFF_CPU:
			off_cpu = true;
			break;
		case OPT_FOLDED:
			o.folded = true;
			break;
		case OPT_TOP:
			n = strtoul(optarg, &end, 10);
			if (*end || !optarg[0] || optarg[0] == '-' || !n || n > 100000)
				return usage_error("--top: '%s' is not a count from 1 to 100000", optarg);
			o.top = (unsigned int)n;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!off_cpu)
		return usage_error("give --off-cpu (the one report so far)%s", "");
	if (optind != argc - 1)
		return usage_error("give one CAPTURE file%s", "");
	return f2t_offcpu_report_file(argv[optind], &o, stdout) ? 1 : 0;
}
