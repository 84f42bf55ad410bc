/* SPDX-License-Identifier: MIT */
/*
 * The subcommands.  Each takes argv as given after the subcommand name
 * (argv[0] is the subcommand) and returns the process exit status.
 */
#ifndef F2T_COMMANDS_H
#define F2T_COMMANDS_H

/* F2T_VERSION, the release number, comes from the build (the VERSION file). */

int f2t_cmd_record(int argc, char **argv);
int f2t_cmd_convert(int argc, char **argv);
int f2t_cmd_dump(int argc, char **argv);
int f2t_cmd_merge(int argc, char **argv);
int f2t_cmd_report(int argc, char **argv);
int f2t_cmd_open(int argc, char **argv);

#endif
