// SPDX-License-Identifier: MIT
/*
 * ftrace2trace report [OPTIONS] INPUT...: the scheduling report
 * (report/report.h), its rows over several inputs, two inputs compared
 * (--diff), or with --off-cpu the off-CPU report (report/offcpu.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/usage.h"
#include "report/offcpu.h"
#include "report/report.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/termwidth.h"

#define MAX_IDS 256
#define OFFCPU_TOP 10	/* stacks listed by --off-cpu unless --top says */

enum {
	OPT_JSON = 256, OPT_CSV, OPT_NDJSON, OPT_DIFF, OPT_FROM, OPT_TO, OPT_SLOW, OPT_OFF_CPU,
	OPT_FOLDED, OPT_WIDE
};

static const char synopsis[] =
	"usage: ftrace2trace report [OPTIONS] INPUT\n"
	"       ftrace2trace report --ndjson|--csv|--json [OPTIONS] INPUT...\n"
	"       ftrace2trace report --diff [--json|--csv|--folded] [OPTIONS] A B\n"
	"       ftrace2trace report --off-cpu [--folded] [--top N] CAPTURE\n";

static void usage(FILE *f)
{
	fprintf(f, "%s\n"
		"Where each thread's time went (running, runnable after a wakeup or a\n"
		"preemption, sleeping, blocked, unknown) and how long it waited for a CPU,\n"
		"from a capture ('ftrace2trace record -k FILE'), a trace.dat or ftrace\n"
		"text: per thread under its process, per CPU, the wakeup latency\n"
		"distribution, the slow waits; headed by where and when it was recorded.\n\n"
		"options:\n"
		"      --json              one JSON document with every figure (with several\n"
		"                          inputs: --ndjson's rows)\n"
		"      --csv               the per-thread table as CSV, with the input and\n"
		"                          its recording's identity; several inputs: one table\n"
		"      --ndjson            one JSON object a line per thread per input, with\n"
		"                          the identity and the wakeup latency buckets, for\n"
		"                          DuckDB, ClickHouse or BigQuery\n"
		"      --diff              compare A with B: threads and processes matched by\n"
		"                          name, CPUs by number, off-CPU stacks; A, B and the\n"
		"                          change (text, --json or --csv)\n"
		"  -o, --output FILE       write the report to FILE (default: standard output)\n"
		"  -s, --sort COLUMN       order threads and processes by COLUMN, largest\n"
		"                          first (default running; the CSV column names,\n"
		"                          with or without _ns, or tid, pid, comm)\n"
		"  -n, --top N|all         the first N processes, and N threads of each (the\n"
		"                          text: %d unless told; JSON and CSV: all)\n"
		"  -a, --all-processes     list every process; else, when the capture says\n"
		"                          whose recording it was (record's COMMAND or -p),\n"
		"                          its processes and the ones they started, first,\n"
		"                          and the others summed in one line\n"
		"      --wide              every column, however wide (else the tables fit\n"
		"                          $COLUMNS, the terminal, or 80 columns)\n"
		"  -p, --pid PID[,PID...]  only these processes\n"
		"  -t, --tid TID[,TID...]  only these threads\n"
		"  -c, --comm NAME         only threads named NAME, or in a process named\n"
		"                          NAME (repeatable)\n"
		"      --from SECONDS      start the window SECONDS after the first event\n"
		"      --to SECONDS        end it SECONDS after the first event\n"
		"      --slow USECS        list every wait for a CPU longer than USECS\n"
		"      --off-cpu           instead, where the threads of a capture recorded\n"
		"                          with --off-cpu blocked: blocked time by thread,\n"
		"                          the --top N (default %d) stacks, their wakers\n"
		"      --folded            with --off-cpu: THREAD;outermost;...;innermost US\n"
		"                          lines for flamegraph.pl, inferno or speedscope;\n"
		"                          with --diff: STACK A_US B_US lines, the two-column\n"
		"                          form of difffolded.pl that flamegraph.pl draws\n"
		"  -q, --quiet             no progress, no warnings\n"
		"  -v, --verbose           say more\n"
		"  -h, --help              this text\n\n"
		"See ftrace2trace-report(1) for what each figure counts.\n", synopsis,
		F2T_REPORT_DEFAULT_TOP, OFFCPU_TOP);
}

static int usage_error(const char *fmt, const char *arg)
{
	return f2t_usage_error(synopsis, "report", fmt, arg);
}

/* "1,2,3" appended to @ids. */
static int parse_ids(const char *arg, int32_t *ids, size_t *n)
{
	const char *p = arg;

	do {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || (*end && *end != ',') || v <= 0 || v > 0x3fffffff ||
		    *n >= MAX_IDS)
			return -EINVAL;
		ids[(*n)++] = (int32_t)v;
		p = *end ? end + 1 : end;
	} while (*p);
	return 0;
}

/* Non-negative seconds (or microseconds) as nanoseconds. */
static int parse_ns(const char *arg, double unit, uint64_t *ns)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !isfinite(v) || v < 0 || v * unit > 1e18)
		return -EINVAL;
	*ns = (uint64_t)llround(v * unit);
	return 0;
}

int f2t_cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "ndjson", no_argument, NULL, OPT_NDJSON },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "output", required_argument, NULL, 'o' },
		{ "sort", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "comm", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "slow", required_argument, NULL, OPT_SLOW },
		{ "all-processes", no_argument, NULL, 'a' },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static int32_t pids[MAX_IDS], tids[MAX_IDS];
	static const char *comms[MAX_IDS];
	struct f2t_report_opts o = { .pids = pids, .tids = tids, .comms = comms };
	struct f2t_convert_opts conv = { 0 };
	struct f2t_offcpu_report_opts offcpu = { .top = OFFCPU_TOP };
	bool off_cpu = false, others = false, diff = false, wide = false, top_given = false;
	size_t ninputs;
	const char *output = NULL;
	char cols[1024];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:s:n:p:t:c:aqvh", longopts, NULL)) != -1) {
		char *end;

		/* An option of the scheduling report only, which --off-cpu refuses. */
		others |= c != 'n' && c != OPT_OFF_CPU && c != OPT_FOLDED && c != 'q' && c != 'v' &&
			  c != 'h';
		if (c == OPT_NDJSON && o.format != F2T_REPORT_TEXT)
			return usage_error("give one of --json, --csv and --ndjson%s", "");
		switch (c) {
		case OPT_OFF_CPU:
			off_cpu = true;
			break;
		case OPT_FOLDED:
			offcpu.folded = true;
			break;
		case OPT_DIFF:
			diff = true;
			break;
		case OPT_NDJSON:
			o.format = F2T_REPORT_NDJSON;
			break;
		case OPT_JSON:
		case OPT_CSV:
			if (o.format != F2T_REPORT_TEXT)
				return usage_error("give one of --json, --csv and --ndjson%s", "");
			o.format = c == OPT_JSON ? F2T_REPORT_JSON : F2T_REPORT_CSV;
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			if (!f2t_report_sort_ok(optarg)) {
				f2t_report_columns(cols, sizeof(cols));
				f2t_err("--sort: no column '%s'; the columns: %s", optarg, cols);
				return 2;
			}
			o.sort = optarg;
			break;
		case 'n': {
			unsigned long n = strtoul(optarg, &end, 10);

			top_given = true;
			if (!strcmp(optarg, "all")) {
				o.top = 0;
				offcpu.top = 1000000;
				break;
			}
			if (*end || !optarg[0] || optarg[0] == '-' || n == 0 || n > 1000000)
				return usage_error("--top: '%s' is not a count from 1 to 1000000, or all",
						   optarg);
			o.top = offcpu.top = (unsigned int)n;
			break;
		}
		case 'a':
			o.all_processes = true;
			break;
		case OPT_WIDE:
			wide = true;
			break;
		case 'p':
			if (parse_ids(optarg, pids, &o.npids))
				return usage_error("--pid: '%s' is not a list of process ids", optarg);
			break;
		case 't':
			if (parse_ids(optarg, tids, &o.ntids))
				return usage_error("--tid: '%s' is not a list of thread ids", optarg);
			break;
		case 'c':
			if (o.ncomms == MAX_IDS)
				return usage_error("too many --comm%s", "");
			comms[o.ncomms++] = optarg;
			break;
		case OPT_FROM:
			if (parse_ns(optarg, 1e9, &o.from_ns))
				return usage_error("--from: '%s' is not a number of seconds", optarg);
			break;
		case OPT_TO:
			if (parse_ns(optarg, 1e9, &o.to_ns) || !o.to_ns)
				return usage_error("--to: '%s' is not a positive number of seconds",
						   optarg);
			break;
		case OPT_SLOW:
			if (parse_ns(optarg, 1e3, &o.slow_ns) || !o.slow_ns)
				return usage_error("--slow: '%s' is not a positive number of microseconds",
						   optarg);
			break;
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
			return f2t_usage_bad_option(synopsis, "report", c, argv[optind - 1], longopts);
		}
	}
	ninputs = optind < argc ? (size_t)(argc - optind) : 0;
	if (!ninputs)
		return usage_error("no input given%s", "");
	if (o.to_ns && o.to_ns <= o.from_ns)
		return usage_error("--to must come after --from%s", "");
	if (off_cpu && (others || diff))
		return usage_error("--off-cpu takes only --folded and --top%s", "");
	if (offcpu.folded && !off_cpu && !diff)
		return usage_error("--folded goes with --off-cpu or --diff%s", "");
	if (diff && (o.sort || o.slow_ns))
		return usage_error("--diff orders by running time and lists no waits: no --sort, "
				   "no --slow%s", "");
	if (diff && ninputs != 2)
		return usage_error("--diff compares two inputs: A and B%s", "");
	if (diff && (o.format == F2T_REPORT_NDJSON || (offcpu.folded && o.format)))
		return usage_error("--diff writes text, --json, --csv or --folded: one of them%s",
				   "");
	if (!diff && ninputs > 1 && (off_cpu || o.format == F2T_REPORT_TEXT))
		return usage_error("several inputs make one table: give --ndjson, --csv or "
				   "--json, or --diff for two%s", "");
	/* A big compressed trace.dat is read through a temporary copy. */
	if (f2t_outfile_catch_signals()) {
		f2t_err("cannot install signal handlers");
		return 1;
	}
	if (!top_given && o.format == F2T_REPORT_TEXT)
		o.top = F2T_REPORT_DEFAULT_TOP;
	/* A file is as wide as standard output would be. */
	o.width = wide ? 0 : f2t_term_width(STDOUT_FILENO);
	conv.progress = !f2t_quiet && isatty(STDERR_FILENO);
	conv.summary = f2t_verbose;
	if (off_cpu)
		return f2t_offcpu_report_run(argv[optind], &offcpu, &conv) ? 1 : 0;
	if (diff)
		return f2t_report_diff_run(argv[optind], argv[optind + 1], &o, offcpu.folded, &conv,
					   output) ? 1 : 0;
	if (o.format == F2T_REPORT_NDJSON || (ninputs > 1 && o.format == F2T_REPORT_JSON)) {
		o.format = F2T_REPORT_NDJSON;
		return f2t_report_run_many((const char *const *)argv + optind, ninputs, &o, &conv,
					   output) ? 1 : 0;
	}
	if (ninputs > 1)
		return f2t_report_run_many((const char *const *)argv + optind, ninputs, &o, &conv,
					   output) ? 1 : 0;
	return f2t_report_run(argv[optind], &o, &conv, output) ? 1 : 0;
}
