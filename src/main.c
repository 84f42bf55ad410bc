// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/stdout.h"
#include "cli/suggest.h"
#include "util/sudo.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	bool needs_root;	/* keeps root under sudo; the others drop it at once */
	const char *what;
} commands[] = {
	{ "record", f2t_cmd_record, true, "record scheduling (and more) into trace files" },
	{ "convert", f2t_cmd_convert, false, "turn a capture into trace files" },
	{ "report", f2t_cmd_report, false, "where each thread's time went, how long it waited for a CPU, where it blocked" },
	{ "dump", f2t_cmd_dump, false, "print every record of an FXT file" },
	{ "merge", f2t_cmd_merge, false, "put JSON traces on one clock, through their clock_sync events" },
	{ "open", f2t_cmd_open, false, "show a trace file in Perfetto UI (served once on 127.0.0.1:9001)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: ftrace2trace COMMAND [OPTIONS]\n\n"
		   "Records what the Linux kernel knows about scheduling and CPU time and\n"
		   "writes trace files that Perfetto UI and chrome://tracing open.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].what);
	fprintf(f, "\n'ftrace2trace COMMAND --help' tells more; see also ftrace2trace(1).\n"
		   "example: sudo ftrace2trace record -o trace.pftrace -- ./my-program\n");
}

int main(int argc, char **argv)
{
	const char *names[NCOMMANDS], *near;

	f2t_stdout_begin();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return f2t_stdout_finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ftrace2trace %s\n", F2T_VERSION);
		return f2t_stdout_finish(0);
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* Under sudo, root is for recording alone: the rest is the user's. */
		if (f2t_sudo_init() < 0 || (!commands[i].needs_root && f2t_sudo_drop() < 0))
			return 1;
		return f2t_stdout_finish(commands[i].run(argc - 1, argv + 1));
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	near = f2t_suggest(argv[1], names, NCOMMANDS);
	if (near)
		fprintf(stderr, "ftrace2trace: unknown command '%s'; did you mean '%s'?\n\n",
			argv[1], near);
	else
		fprintf(stderr, "ftrace2trace: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
