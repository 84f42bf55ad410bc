// SPDX-License-Identifier: MIT
/* ftrace2trace merge -o OUT.json [--offset IN=SECONDS...] IN.json... */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "merge/decimal.h"
#include "merge/merge.h"
#include "util/log.h"
#include "util/outfile.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftrace2trace merge -o OUTPUT [--offset INPUT=SECONDS...] INPUT...\n\n"
		"Merges Chrome JSON traces, each on its own clock, into one on the first\n"
		"INPUT's clock.  Each other input is shifted by the offset its clock_sync\n"
		"events give (the same sync_id in two inputs), or by --offset.  Events keep\n"
		"their pids and tids.  Inputs are streamed, never loaded whole.\n\n"
		"options:\n"
		"  -o, --output FILE          the merged trace ('-': standard output)\n"
		"      --offset INPUT=SECONDS add SECONDS to INPUT's timestamps instead of\n"
		"                             aligning it by clock_sync (e.g. app.json=-1000)\n"
		"  -q, --quiet                no summary, no warnings\n"
		"  -v, --verbose              more detail\n"
		"  -h, --help                 this text\n\n"
		"example: ftrace2trace merge -o merged.json trace.json app.json\n"
		"See ftrace2trace-merge(1).\n");
}

/* "INPUT=SECONDS", split at the last '=' so paths may contain one. */
static int parse_offset(const char *arg, struct f2t_merge_offset *off, char **input)
{
	const char *eq = strrchr(arg, '=');

	if (!eq || eq == arg || !eq[1]) {
		f2t_err("--offset %s: want INPUT=SECONDS", arg);
		return -EINVAL;
	}
	if (f2t_dec_sec_to_ns(eq + 1, &off->ns)) {
		f2t_err("--offset %s: '%s' is not a number of seconds", arg, eq + 1);
		return -EINVAL;
	}
	*input = strndup(arg, (size_t)(eq - arg));
	if (!*input) {
		f2t_err("out of memory");
		return -ENOMEM;
	}
	off->input = *input;
	return 0;
}

int f2t_cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "offset", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct f2t_merge_opts opts = { 0 };
	struct f2t_merge_offset *offsets = calloc((size_t)argc, sizeof(*offsets));
	char **names = calloc((size_t)argc, sizeof(*names));
	int c, status = 2;

	if (!offsets || !names) {
		f2t_err("out of memory");
		status = 1;
		goto out;
	}
	while ((c = getopt_long(argc, argv, "o:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			opts.output = optarg;
			break;
		case 'O':
			if (parse_offset(optarg, &offsets[opts.noffsets], &names[opts.noffsets]))
				goto out;
			opts.noffsets++;
			break;
		case 'q':
			f2t_quiet = true;
			opts.quiet = true;
			break;
		case 'v':
			f2t_verbose = true;
			break;
		case 'h':
			usage(stdout);
			status = 0;
			goto out;
		default:
			f2t_suggest_say(argv[optind - 1], longopts);
			usage(stderr);
			goto out;
		}
	}
	if (!opts.output || optind >= argc) {
		f2t_err(!opts.output ? "no output given (-o FILE)" : "no input given");
		usage(stderr);
		goto out;
	}
	opts.inputs = (const char *const *)argv + optind;
	opts.ninputs = (size_t)(argc - optind);
	opts.offsets = offsets;
	if (f2t_outfile_catch_signals()) {
		f2t_err("cannot install signal handlers");
		status = 1;
		goto out;
	}
	status = f2t_merge(&opts) ? 1 : 0;
out:
	for (int i = 0; names && i < argc; i++)
		free(names[i]);
	free(names);
	free(offsets);
	return status;
}
