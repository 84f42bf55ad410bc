/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean ...?" for a mistyped subcommand or long option: the known
 * word nearest by edit distance (a transposition counts one), when it is
 * near enough to be a typo, or the one known word it begins.
 */
#ifndef F2T_SUGGEST_H
#define F2T_SUGGEST_H

#include <getopt.h>
#include <stddef.h>

/**
 * f2t_suggest() - the candidate @word was probably meant to be
 * @word: what was typed
 * @cands: the known words
 * @n: how many
 *
 * Return: one of @cands, or NULL when none is near (a value, not a failure).
 */
const char *f2t_suggest(const char *word, const char *const *cands, size_t n);

/**
 * f2t_suggest_option() - the long option an unknown @arg was meant to be
 * @arg: the argument getopt_long() refused ("--fromat" or "--fromat=x")
 * @longopts: the command's options, ended by an entry with a NULL name
 *
 * Return: the option's name (without "--"), or NULL: @arg is not a long
 * option, or none is near.
 */
const char *f2t_suggest_option(const char *arg, const struct option *longopts);

/**
 * f2t_suggest_quote() - @arg quoted for "unknown option %s", with the
 * option it was probably meant to be: "'--fromat' (did you mean '--format'?)"
 * @buf: where the text goes
 * @len: its size
 *
 * Return: @buf.
 */
const char *f2t_suggest_quote(const char *arg, const struct option *longopts, char *buf,
			      size_t len);

/**
 * f2t_suggest_say() - after getopt_long() printed its own complaint about
 * @arg, one more line, "ftrace2trace: did you mean '--NAME'?", when a long
 * option is near.
 */
void f2t_suggest_say(const char *arg, const struct option *longopts);

#endif
