// SPDX-License-Identifier: MIT
/* ftrace2trace convert INPUT -o OUT [-o OUT...] */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "pipeline/convert.h"
#include "util/log.h"
#include "util/outfile.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftrace2trace convert [OPTIONS] INPUT -o OUTPUT [-o OUTPUT...]\n\n"
		"Converts INPUT into trace files; one pass feeds every output.  INPUT is a\n"
		"capture (written by 'ftrace2trace record -k FILE'; converted the same way\n"
		"record does at its end), a trace-cmd trace.dat (versions 6 and 7, every\n"
		"buffer), or ftrace text: the kernel's trace file, trace-cmd report output,\n"
		"an atrace dump, a systrace HTML file.  The kind is told from the contents.\n"
		"INPUT may be - (standard input), a pipe or a FIFO: read into a temporary\n"
		"file in $TMPDIR first.\n\n"
		"options:\n"
		"  -o, --output FILE    write FILE; its format comes from the extension\n"
		"                       (.pftrace, .fxt, .json, .json.gz, .txt), or from\n"
		"                       --format\n"
		"      --format NAME    format of the next -o: perfetto, fxt, json, systrace\n"
		"  -q, --quiet          no summary, no warnings\n"
		"  -v, --verbose        more detail\n"
		"  -h, --help           this text\n\n"
		"See ftrace2trace-convert(1).\n");
}

int f2t_cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct f2t_convert_opts opts = { .summary = true };
	const char *format = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "o:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (f2t_convert_add_output(&opts, optarg, format) < 0)
				return 2;
			format = NULL;
			break;
		case 'f':
			format = optarg;
			break;
		case 'q':
			f2t_quiet = true;
			opts.summary = false;
			break;
		case 'v':
			f2t_verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			f2t_suggest_say(argv[optind - 1], longopts);
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || !opts.noutputs) {
		f2t_err(optind >= argc ? "no input file given" :
			!opts.noutputs ? "no output given (-o FILE)" : "more than one input given");
		usage(stderr);
		return 2;
	}
	if (format)
		f2t_warn("--format %s is not followed by -o; ignored", format);
	opts.progress = isatty(STDERR_FILENO);
	if (f2t_outfile_catch_signals()) {
		f2t_err("cannot install signal handlers");
		return 1;
	}
	return f2t_convert(argv[optind], &opts) ? 1 : 0;
}
