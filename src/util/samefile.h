/* SPDX-License-Identifier: MIT */
/*
 * Is an output the file an input is read from?  Writing a trace over its
 * own input destroys the input (the output replaces it by rename), so the
 * subcommands that read and write files refuse it before anything is
 * written.  Files are compared by device and inode, so another name, a
 * symlink or a hard link to the input is caught as well as its own name.
 */
#ifndef F2T_SAMEFILE_H
#define F2T_SAMEFILE_H

/**
 * f2t_refuse_own_input() - an error if an output is the input
 * @input: the input's path ("-": standard input)
 * @output: an output's path ("-": standard output)
 *
 * Symlinks are followed; a path that does not exist (yet) is no other
 * file.
 *
 * Return: 0, or -EINVAL (reported, naming both).
 */
int f2t_refuse_own_input(const char *input, const char *output);

#endif
