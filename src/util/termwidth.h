/* SPDX-License-Identifier: MIT */
/* How many columns a table printed on a descriptor has to fit in. */
#ifndef F2T_TERMWIDTH_H
#define F2T_TERMWIDTH_H

/* The width a table fits in unless the user asks for all of it. */
#define F2T_TERM_DEFAULT_WIDTH 80

/**
 * f2t_term_width() - the columns of what @fd writes to
 * @fd: the descriptor (standard output, mostly)
 *
 * $COLUMNS when it is a number, else the terminal's width (TIOCGWINSZ)
 * when @fd is one, else F2T_TERM_DEFAULT_WIDTH.
 *
 * Return: the width, at least 40.
 */
unsigned int f2t_term_width(int fd);

#endif
