// SPDX-License-Identifier: MIT
/*
 * `ftrace2trace record` command line: parses options into
 * struct f2t_record_opts and hands over to f2t_record_run().
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "pipeline/convert.h"
#include "record/record.h"
#include "report/report.h"
#include "util/log.h"
#include "output/format.h"

#define MAX_PIDS 256
#define MAX_EVENTS 256

enum { OPT_FORMAT = 256, OPT_FUNCTION, OPT_FUNCTION_GRAPH, OPT_NOTRACE, OPT_MAX_DEPTH,
       OPT_NO_SAMPLE, OPT_SAMPLE_ALL, OPT_CALL_GRAPH, OPT_USER, OPT_AS_ROOT, OPT_OFF_CPU,
       OPT_OFF_CPU_MIN, OPT_REPORT, OPT_OPEN, OPT_ALL_PROCESSES, OPT_WIDE, OPT_FLIGHT,
       OPT_AFTER, OPT_MAX_SNAPSHOTS, OPT_TRIGGER_MARKER, OPT_TRIGGER_LATENCY };

static const char synopsis[] =
	"usage: ftrace2trace record [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       ftrace2trace record [OPTIONS] -a [-d SECONDS]\n"
	"       ftrace2trace record [OPTIONS] -p PID[,PID...]\n";

static void usage(FILE *f)
{
	fprintf(f, "%s\n"
		"Records the kernel's scheduling events (system-wide: every CPU, every task)\n"
		"while COMMAND runs, until the -p processes exit, for -d seconds, or until\n"
		"Ctrl-C; then writes the trace files.  Needs root.\n"
		"\n"
		"options:\n"
		"  -o, --output FILE       write FILE (repeatable); format from the extension\n"
		"                          (.pftrace, .fxt, .json, .json.gz, .txt); default\n"
		"                          trace.pftrace\n"
		"      --format NAME       format of the next -o (perfetto, fxt, json, systrace);\n"
		"                          with no -o after it, the default output becomes\n"
		"                          trace.EXT\n"
		"  -a, --all               no command: record until -d or Ctrl-C\n"
		"  -d, --duration SECONDS  stop after SECONDS (fractions allowed)\n"
		"  -p, --pid PID[,PID...]  stop when all these processes have exited\n"
		"  -e, --event SYS[:EVENT] also record this tracepoint, or a whole system\n"
		"                          (repeatable, comma lists allowed)\n"
		"  -b, --buffer-size KB    ring buffer per CPU (default %lu, less on small\n"
		"                          machines)\n"
		"  -k, --keep-capture FILE keep the raw capture (for `ftrace2trace convert`),\n"
		"                          readable by its owner only\n"
		"      --user NAME         run COMMAND as user NAME (under sudo, it runs as\n"
		"                          the user who ran sudo)\n"
		"      --as-root           run COMMAND as root, even under sudo\n"
		"      --report            when recording stops, print where each thread's\n"
		"                          time went (`ftrace2trace report`) on stdout: the\n"
		"                          command's (or -p's) processes first, the others\n"
		"                          summed in one line, the top %d, as wide as the\n"
		"                          terminal\n"
		"      --all-processes     with --report: list every process\n"
		"      --wide              with --report: every column\n"
		"      --open              then show the trace in Perfetto UI, as\n"
		"                          `ftrace2trace open` does (the first .pftrace, else\n"
		"                          .fxt or .json output)\n"
		"  -F, --freq HZ           CPU samples per second per CPU, with kernel and\n"
		"                          user call stacks (default %u; 0 turns them off)\n"
		"      --no-sample         no CPU samples (same as -F 0)\n"
		"      --sample-all        keep every task's samples, not only those of\n"
		"                          COMMAND or the -p processes (always so with -a)\n"
		"      --call-graph MODE   fp (frame pointers, default) or dwarf[,BYTES]:\n"
		"                          copy BYTES of user stack (default %u) and unwind\n"
		"                          it when converting, for code built without\n"
		"                          frame pointers (off-CPU stacks too)\n"
		"      --off-cpu           where threads blocked, for how long, and who woke\n"
		"                          them: kernel and user stacks at each switch-out\n"
		"                          into a sleeping state (BPF; same scope as samples;\n"
		"                          the innermost user frames unwound from a copy of\n"
		"                          the stack's top, through libraries without frame\n"
		"                          pointers)\n"
		"      --off-cpu-min USECS keep blocked episodes of at least USECS (default %u)\n"
		"      --function[=GLOBS]  kernel functions called (comma-separated globs,\n"
		"                          e.g. 'vfs_*,tcp_*'), by the COMMAND or -p tasks\n"
		"      --function-graph[=GLOBS]  kernel calls as nested slices with durations\n"
		"      --notrace GLOBS     functions never to trace\n"
		"      --max-graph-depth N depth limit for --function-graph\n"
		"\n"
		"flight recorder:\n"
		"      --flight-recorder[=SECONDS]  keep only the last SECONDS (default %g) in\n"
		"                          the kernel's ring buffers, overwriting the oldest,\n"
		"                          and write them when a trigger fires: SIGUSR1, or\n"
		"                          the two options below (or when recording stops\n"
		"                          before any did); CPU samples and --off-cpu\n"
		"                          episodes are kept for the same window, in memory\n"
		"      --trigger-marker TEXT  a trace_marker write containing TEXT\n"
		"      --trigger-latency USECS  a wakeup latency (waking to running) longer\n"
		"                          than USECS of a COMMAND or -p thread (any with -a),\n"
		"                          seen in the kernel (BPF) while it waits, within a\n"
		"                          quarter of USECS (1 ms at least)\n"
		"      --after MS          record MS more after the trigger (after the end of\n"
		"                          the wait, for --trigger-latency) (default %u)\n"
		"      --max-snapshots N   with 1 (default), write the -o files and stop; with\n"
		"                          more, write NAME-1.EXT, NAME-2.EXT, ... and record on\n"
		"\n"
		"  -q, --quiet             no progress, summary or warnings\n"
		"  -v, --verbose           say more\n"
		"  -h, --help              this help\n"
		"\n"
		"The exit status is COMMAND's when it ran, else 0, or 1 on error\n"
		"(127: COMMAND not found; 128 + N: signal N before tracing started).\n"
		"Outputs appear only once complete.  See ftrace2trace-record(1).\n",
		synopsis, F2T_RECORD_DEFAULT_BUFFER_KB, F2T_REPORT_DEFAULT_TOP, F2T_RECORD_DEFAULT_FREQ,
		F2T_RECORD_DEFAULT_STACK, F2T_RECORD_DEFAULT_OFFCPU_MIN_US,
		F2T_RECORD_DEFAULT_FLIGHT_SECS, F2T_RECORD_DEFAULT_AFTER_MS);
}

/* One line saying what is wrong, the synopsis, and where the rest is (cli/usage.h). */
static int usage_error(const char *fmt, const char *arg)
{
	return f2t_usage_error(synopsis, "record", fmt, arg);
}

static int parse_pids(const char *arg, pid_t *pids, size_t *n)
{
	char *copy = strdup(arg), *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);

		if (*end || v <= 0 || v > 0x3fffffff || *n >= MAX_PIDS) {
			err = -EINVAL;
			break;
		}
		pids[(*n)++] = (pid_t)v;
	}
	free(copy);
	return err;
}

/* "fp", "dwarf" or "dwarf,BYTES" (a multiple of 8 below 64 KB, as perf_event_open wants). */
static int parse_call_graph(const char *arg, struct f2t_record_opts *o)
{
	char *end;
	unsigned long bytes;

	if (!strcmp(arg, "fp")) {
		o->dwarf = false;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return -EINVAL;
	o->dwarf = true;
	if (!arg[5])
		return 0;
	bytes = strtoul(arg + 6, &end, 10);
	if (*end || !arg[6] || bytes < 64 || bytes > 65528)
		return -EINVAL;
	o->stack_bytes = (unsigned int)(bytes & ~7ul);
	return 0;
}

/* "trace" + the extension of format NAME. */
static const char *default_output(const char *format, char *buf, size_t len)
{
	const struct f2t_format_desc *d = f2t_format_desc(f2t_format_from_name(format));

	if (!d)
		return NULL;
	snprintf(buf, len, "trace%s%s", d->ext[0] == '.' ? "" : ".", d->ext);
	return buf;
}

/* What --open serves: the first Perfetto output, else the first other one Perfetto UI opens. */
static const char *openable_output(const struct f2t_convert_opts *c)
{
	static const enum f2t_format rank[] = { F2T_FMT_PERFETTO, F2T_FMT_FXT, F2T_FMT_JSON,
						F2T_FMT_JSON_GZ };

	for (size_t k = 0; k < sizeof(rank) / sizeof(rank[0]); k++)
		for (unsigned int i = 0; i < c->noutputs; i++)
			if (c->outputs[i].format == rank[k])
				return c->outputs[i].path;
	return NULL;
}

int f2t_cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "all", no_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "keep-capture", required_argument, NULL, 'k' },
		{ "user", required_argument, NULL, OPT_USER },
		{ "as-root", no_argument, NULL, OPT_AS_ROOT },
		{ "report", no_argument, NULL, OPT_REPORT },
		{ "open", no_argument, NULL, OPT_OPEN },
		{ "all-processes", no_argument, NULL, OPT_ALL_PROCESSES },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ "freq", required_argument, NULL, 'F' },
		{ "no-sample", no_argument, NULL, OPT_NO_SAMPLE },
		{ "sample-all", no_argument, NULL, OPT_SAMPLE_ALL },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
		{ "off-cpu-min", required_argument, NULL, OPT_OFF_CPU_MIN },
		{ "function", optional_argument, NULL, OPT_FUNCTION },
		{ "function-graph", optional_argument, NULL, OPT_FUNCTION_GRAPH },
		{ "notrace", required_argument, NULL, OPT_NOTRACE },
		{ "max-graph-depth", required_argument, NULL, OPT_MAX_DEPTH },
		{ "flight-recorder", optional_argument, NULL, OPT_FLIGHT },
		{ "after", required_argument, NULL, OPT_AFTER },
		{ "max-snapshots", required_argument, NULL, OPT_MAX_SNAPSHOTS },
		{ "trigger-marker", required_argument, NULL, OPT_TRIGGER_MARKER },
		{ "trigger-latency", required_argument, NULL, OPT_TRIGGER_LATENCY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct f2t_record_opts o = { 0 };
	static pid_t pids[MAX_PIDS];
	static const char *events[MAX_EVENTS];
	const char *format = NULL;
	bool off_cpu_min_given = false, flight_only = false, open = false;
	char defname[64];
	int c;

	o.pids = pids;
	o.sample_freq = F2T_RECORD_DEFAULT_FREQ;
	o.off_cpu_min_ns = F2T_RECORD_DEFAULT_OFFCPU_MIN_US * 1000ull;
	o.events = events;
	o.after_ms = F2T_RECORD_DEFAULT_AFTER_MS;
	o.max_snapshots = 1;
	optind = 1;
	opterr = 0;
	/* '+': the first non-option starts COMMAND, so its options stay its own. */
	while ((c = getopt_long(argc, argv, "+:o:ad:p:e:b:k:F:qvh", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o':
			if (f2t_convert_add_output(&o.conv, optarg, format) < 0)
				return 2;
			format = NULL;
			break;
		case OPT_FORMAT:
			format = optarg;
			break;
		case 'a':
			o.all = true;
			break;
		case 'd':
			o.duration = strtod(optarg, &end);
			if (*end || !isfinite(o.duration) || o.duration <= 0 || o.duration > 1e7)
				return usage_error("-d: '%s' is not a positive number of seconds",
						   optarg);
			break;
		case 'p':
			if (parse_pids(optarg, pids, &o.npids) < 0)
				return usage_error("-p: '%s' is not a list of process ids", optarg);
			break;
		case 'e':
			if (o.nevents >= MAX_EVENTS)
				return usage_error("too many -e options%s", "");
			events[o.nevents++] = optarg;
			break;
		case 'b': {
			unsigned long long kb = strtoull(optarg, &end, 10);

			if (*end || optarg[0] == '-' || kb < 4 || kb > (1ULL << 24))
				return usage_error("-b: '%s' is not a size in KB (4 to 16777216)",
						   optarg);
			o.buffer_kb = (unsigned long)kb;
			break;
		}
		case 'k':
			o.keep_capture = optarg;
			break;
		case OPT_USER:
			o.user = optarg;
			break;
		case OPT_AS_ROOT:
			o.as_root = true;
			break;
		case OPT_REPORT:
			o.report = true;
			break;
		case OPT_OPEN:
			open = true;
			break;
		case OPT_ALL_PROCESSES:
			o.report_all = true;
			break;
		case OPT_WIDE:
			o.report_wide = true;
			break;
		case 'F': {
			unsigned long hz = strtoul(optarg, &end, 10);

			if (*end || optarg[0] == '-' || !optarg[0] || hz > 100000)
				return usage_error("-F: '%s' is not a frequency in Hz (0 to 100000)",
						   optarg);
			o.sample_freq = (unsigned int)hz;
			o.sample_freq_given = true;
			break;
		}
		case OPT_NO_SAMPLE:
			o.sample_freq = 0;
			o.sample_freq_given = true;
			break;
		case OPT_SAMPLE_ALL:
			o.sample_all = true;
			break;
		case OPT_CALL_GRAPH:
			if (parse_call_graph(optarg, &o) < 0)
				return usage_error("--call-graph: '%s' is not fp, dwarf or dwarf,BYTES",
						   optarg);
			break;
		case OPT_OFF_CPU:
			o.off_cpu = true;
			break;
		case OPT_OFF_CPU_MIN: {
			double us = strtod(optarg, &end);

			if (*end || !optarg[0] || !isfinite(us) || us < 0 || us > 1e9)
				return usage_error("--off-cpu-min: '%s' is not a number of microseconds",
						   optarg);
			o.off_cpu_min_ns = (uint64_t)llround(us * 1e3);
			off_cpu_min_given = true;
			break;
		}
		case OPT_FUNCTION:
		case OPT_FUNCTION_GRAPH:
			if (o.func.mode != F2T_FUNCTRACE_OFF)
				return usage_error("give one of --function and --function-graph%s", "");
			o.func.mode = c == OPT_FUNCTION ? F2T_FUNCTRACE_FUNCTION : F2T_FUNCTRACE_GRAPH;
			o.func.filters = optarg && *optarg ? optarg : NULL;
			break;
		case OPT_NOTRACE:
			o.func.notrace = optarg;
			break;
		case OPT_MAX_DEPTH: {
			long depth = strtol(optarg, &end, 10);

			if (*end || depth < 1 || depth > 1000)
				return usage_error("--max-graph-depth: '%s' is not a depth from 1 to 1000",
						   optarg);
			o.func.max_depth = (int)depth;
			break;
		}
		case OPT_FLIGHT:
			o.flight_secs = F2T_RECORD_DEFAULT_FLIGHT_SECS;
			if (optarg) {
				o.flight_secs = strtod(optarg, &end);
				if (*end || !optarg[0] || !isfinite(o.flight_secs) ||
				    o.flight_secs <= 0 || o.flight_secs > 86400)
					return usage_error("--flight-recorder: '%s' is not a number of "
							   "seconds (up to 86400)", optarg);
			}
			break;
		case OPT_AFTER: {
			unsigned long ms = strtoul(optarg, &end, 10);

			if (*end || !optarg[0] || optarg[0] == '-' || ms > 3600000)
				return usage_error("--after: '%s' is not a number of milliseconds "
						   "(up to 3600000)", optarg);
			o.after_ms = (unsigned int)ms;
			flight_only = true;
			break;
		}
		case OPT_MAX_SNAPSHOTS: {
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !optarg[0] || optarg[0] == '-' || n < 1 || n > 100000)
				return usage_error("--max-snapshots: '%s' is not a count from 1 to 100000",
						   optarg);
			o.max_snapshots = (unsigned int)n;
			flight_only = true;
			break;
		}
		case OPT_TRIGGER_MARKER:
			if (!optarg[0] || strchr(optarg, '\n'))
				return usage_error("--trigger-marker: give a text of one line%s", "");
			o.trigger_marker = optarg;
			flight_only = true;
			break;
		case OPT_TRIGGER_LATENCY: {
			double us = strtod(optarg, &end);

			if (*end || !optarg[0] || !isfinite(us) || us < 1 || us > 1e9)
				return usage_error("--trigger-latency: '%s' is not a number of "
						   "microseconds (1 to 1e9)", optarg);
			o.trigger_latency_ns = (uint64_t)llround(us * 1e3);
			flight_only = true;
			break;
		}
		case 'q':
			f2t_quiet = true;
			break;
		case 'v':
			f2t_verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return f2t_usage_bad_option(synopsis, "record", c, argv[optind - 1], longopts);
		}
	}
	if (optind < argc)
		o.command = argv + optind;

	if (!o.command && !o.all && !o.npids)
		return usage_error("nothing to record: give a COMMAND, -a or -p%s", "");
	if ((o.command != NULL) + o.all + (o.npids > 0) > 1)
		return usage_error("a COMMAND, -a and -p exclude each other%s", "");
	if ((o.user || o.as_root) && !o.command)
		return usage_error("--user and --as-root go with a COMMAND%s", "");
	if (o.user && o.as_root)
		return usage_error("give one of --user and --as-root%s", "");
	if ((o.report_all || o.report_wide) && !o.report)
		return usage_error("--all-processes and --wide go with --report%s", "");
	if (off_cpu_min_given && !o.off_cpu)
		return usage_error("--off-cpu-min goes with --off-cpu%s", "");
	if (flight_only && !o.flight_secs)
		return usage_error("--after, --max-snapshots and the --trigger options go with "
				   "--flight-recorder%s", "");
	if ((o.func.notrace || o.func.max_depth) && o.func.mode == F2T_FUNCTRACE_OFF)
		return usage_error("--notrace and --max-graph-depth go with --function or --function-graph%s", "");
	if (!o.conv.noutputs) {
		/* Perfetto's own format: what Perfetto UI shows in full. */
		const char *name = format ? default_output(format, defname, sizeof(defname))
					  : "trace.pftrace";

		if (!name)
			return usage_error("unknown format '%s'", format);
		if (f2t_convert_add_output(&o.conv, name, NULL) < 0)
			return 2;
	} else if (format) {
		return usage_error("--format %s applies to the -o after it, and none follows",
				   format);
	}
	for (unsigned int i = 0; o.max_snapshots > 1 && i < o.conv.noutputs; i++)
		if (!strcmp(o.conv.outputs[i].path, "-"))
			return usage_error("-o -: several snapshots cannot all go to standard "
					   "output (--max-snapshots 1 can)%s", "");
	if (open && o.max_snapshots > 1)
		return usage_error("--open serves one trace: not with --max-snapshots%s", "");
	if (open && !(o.open = openable_output(&o.conv)))
		return usage_error("--open: no output Perfetto UI opens (.pftrace, .fxt, .json, "
				   ".json.gz)%s", "");
	return f2t_record_run(&o);
}
