// SPDX-License-Identifier: MIT
/* ftrace2trace merge -o OUT.json [--offset IN=SECONDS...] IN.json... */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "merge/decimal.h"
#include "merge/merge.h"
#include "pipeline/convert.h"
#include "source/input.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/spool.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftrace2trace merge -o OUTPUT [--offset INPUT=SECONDS...] INPUT...\n\n"
		"Merges Chrome JSON traces, each on its own clock, into one on the first\n"
		"INPUT's clock.  Each other input is shifted by the offset its clock_sync\n"
		"events give (the same sync_id in two inputs), or by --offset.  Events keep\n"
		"their pids and tids.  Inputs are streamed, never loaded whole.  An INPUT\n"
		"that is a recording (a .pftrace, a capture, a trace.dat) is converted to\n"
		"JSON first, in a temporary directory.\n\n"
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

/*
 * Inputs that are recordings, not JSON (a .pftrace, a capture, a
 * trace.dat): each converted first to a JSON file in a directory of our own
 * (@dir, made at the first one), which the merge reads in its place: it
 * aligns JSON traces by their clock_sync events and copies their events as
 * they are, streamed, twice.  Messages and --offset still name the input
 * as given.  Anything that cannot be read here is the merge's to report.
 */
static int convert_recordings(const char *const *inputs, size_t n, char **files, char *dir,
			      size_t dirlen)
{
	static const struct f2t_input_kind *const kinds[] = {
		&f2t_pftrace_input, &f2t_capture_input, &f2t_tracedat_input,
	};
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		unsigned char head[F2T_INPUT_PROBE_LEN];
		int fd = open(inputs[i], O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		struct f2t_convert_opts co = { .noutputs = 1 };
		const struct f2t_input_kind *kind = NULL;
		struct stat st;
		ssize_t len = -1;

		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode))
			len = pread(fd, head, sizeof(head), 0);
		close(fd);
		for (size_t k = 0; len > 0 && !kind && k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (kinds[k]->probe(head, (size_t)len))
				kind = kinds[k];
		if (!kind)
			continue;
		if (!*dir) {
			snprintf(dir, dirlen, "%s/ftrace2trace-merge.XXXXXX", f2t_tmpdir());
			if (!mkdtemp(dir)) {
				err = -errno;
				f2t_err("%s: cannot make a directory for its conversion in %s: %s",
					inputs[i], f2t_tmpdir(), strerror(-err));
				*dir = '\0';
				break;
			}
		}
		if (asprintf(&files[i], "%s/%zu.json", dir, i + 1) < 0) {
			files[i] = NULL;
			f2t_err("out of memory");
			return -ENOMEM;
		}
		f2t_info("%s: %s, converted to JSON to be merged", inputs[i], kind->name);
		co.outputs[0] = (struct f2t_output){ .path = files[i], .format = F2T_FMT_JSON };
		err = f2t_convert(inputs[i], &co);
	}
	return err;
}

/* The conversions and their directory gone. */
static void remove_conversions(char **files, size_t n, const char *dir)
{
	for (size_t i = 0; i < n; i++)
		if (files[i])
			unlink(files[i]);
	if (*dir)
		rmdir(dir);
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
	char **files = calloc((size_t)argc, sizeof(*files));
	char dir[4096] = "";
	int c, status = 2;

	if (!offsets || !names || !files) {
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
	opts.files = (const char *const *)files;
	status = convert_recordings(opts.inputs, opts.ninputs, files, dir, sizeof(dir)) ||
		 f2t_merge(&opts) ? 1 : 0;
	remove_conversions(files, opts.ninputs, dir);
out:
	for (int i = 0; names && i < argc; i++)
		free(names[i]);
	for (int i = 0; files && i < argc; i++)
		free(files[i]);
	free(files);
	free(names);
	free(offsets);
	return status;
}
