/* SPDX-License-Identifier: MIT */
/*
 * Usage errors of the subcommands, said one way: one line saying what is
 * wrong, the synopsis, and where the options are listed; exit status 2.
 */
#ifndef F2T_USAGE_H
#define F2T_USAGE_H

#include <getopt.h>

/**
 * f2t_usage_error() - say a usage error of subcommand @cmd
 * @synopsis: its usage lines
 * @cmd: its name ("record")
 * @fmt: what is wrong, with one %s for @arg
 *
 * Return: 2, the exit status of a usage error.
 */
int f2t_usage_error(const char *synopsis, const char *cmd, const char *fmt, const char *arg);

/**
 * f2t_usage_bad_option() - what getopt_long() refused, said
 * @c: what it returned: ':' (a value missing), anything else an unknown option
 * @arg: argv[optind - 1], the option it refused
 * @longopts: the subcommand's options, for "did you mean" (cli/suggest.h)
 *
 * Return: 2.
 */
int f2t_usage_bad_option(const char *synopsis, const char *cmd, int c, const char *arg,
			 const struct option *longopts);

#endif
