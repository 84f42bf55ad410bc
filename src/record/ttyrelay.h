/* SPDX-License-Identifier: MIT */
/*
 * A command run as another user must not reach our terminal: holding a
 * descriptor of it, it could push input with TIOCSTI for the shell to run
 * as root once we exit, read what is typed after us, or change its modes.
 * It gets a session of its own and, when any of our standard descriptors
 * is a terminal, a pseudo-terminal instead, which we relay to ours (what
 * sudo's use_pty does).  When our standard input is that terminal, the
 * pseudo-terminal is the command's controlling terminal, ours is put in
 * raw mode while we relay (so Ctrl-C, Ctrl-Z and every key reach the
 * command's line discipline), and its window size follows ours; when it is
 * not, the command has no controlling terminal and only its output is
 * relayed.  The relay is driven from the recording's poll loop.
 */
#ifndef F2T_TTYRELAY_H
#define F2T_TTYRELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <termios.h>

#define F2T_TTY_NPOLL 3		/* pollfd entries f2t_tty_pollfds() fills */
#define F2T_TTY_BUF 4096

struct f2t_tty {
	bool own_session;	/* the command gets setsid() */
	int master;		/* -1: no pseudo-terminal */
	int slave;		/* -1 once the command has it */
	int term;		/* our terminal (one of 0, 1, 2), or -1 */
	int term_out;		/* where the command's output is written */
	dev_t rdev;		/* our terminal's device */
	bool on_slave[3];	/* the command's 0, 1, 2 that become the slave */
	bool input;		/* our stdin is the terminal: typing is relayed */
	bool raw;		/* the terminal is in raw mode: restore it */
	bool in_eof;		/* no more to read from the terminal */
	bool master_eof;	/* no slave left open, or a read error */
	bool winch_handler;	/* ours is installed */
	pid_t child;		/* the command's process group, once forked */
	struct termios saved;	/* the terminal's modes, as we found them */
	size_t in_len, out_len;
	unsigned char in[F2T_TTY_BUF];	/* typed, for the master */
	unsigned char out[F2T_TTY_BUF];	/* from the master, for the terminal */
};

/**
 * f2t_tty_open() - decide how the command is separated from our terminal
 * @t: filled in
 * @own_session: false: the command keeps our session and descriptors
 *	(nothing else is done)
 * @owner: user the pseudo-terminal is given to, as login does
 *
 * Allocates the pseudo-terminal when one of our descriptors 0-2 is a
 * terminal, with that terminal's modes and window size.
 *
 * Return: 0 or negative errno.
 */
int f2t_tty_open(struct f2t_tty *t, bool own_session, uid_t owner);

/**
 * f2t_tty_child() - in the forked command, before it drops root
 *
 * A new session; the slave on every descriptor that was our terminal (0-2
 * and any above), and as the controlling terminal when typing is relayed.
 *
 * Return: 0 or negative errno.
 */
int f2t_tty_child(const struct f2t_tty *t);

/* In the recorder once the command is forked: the slave is its alone. */
void f2t_tty_forked(struct f2t_tty *t, pid_t child);

/*
 * The relay's pollfd entries (F2T_TTY_NPOLL of them, fd -1 where nothing
 * is to be waited for); pass them back to f2t_tty_relay() after poll().
 */
void f2t_tty_pollfds(const struct f2t_tty *t, struct pollfd *pfd);

/**
 * f2t_tty_relay() - move what poll() found ready, without blocking
 *
 * Also puts the terminal in raw mode once we are in its foreground, and
 * passes a new window size on.  Never fails: a terminal that hung up just
 * stops being relayed.  Ctrl-C is the command's terminal's to act on: it
 * gives the command's foreground group SIGINT, and the recording stops when
 * that ends the command (as it did when the key reached us too).
 *
 * Return: true when the suspend key (Ctrl-Z) was typed while the command's
 * own process group was in the foreground, its leader leaving SIGTSTP to
 * the default: the kernel discards that SIGTSTP (the group is orphaned:
 * its leader's parent, we, is in another session), so the caller stops
 * the group itself; f2t_tty_suspend() follows.
 */
bool f2t_tty_relay(struct f2t_tty *t, const struct pollfd *pfd);

/**
 * f2t_tty_suspend() - the command stopped (Ctrl-Z)
 *
 * Gives the terminal back in its modes and stops us as the key would
 * have, so the shell regains it; returns once we are continued.
 *
 * Return: true when we stopped for it (the caller then continues the
 * command), false when we did not relay the key (a stop from elsewhere).
 */
bool f2t_tty_suspend(struct f2t_tty *t);

/*
 * Recording over: copies what the command wrote and we have not yet
 * relayed, gives the terminal its modes back.  Keeps the master open, so
 * a command still running is not hung up before it is ended.
 */
void f2t_tty_finish(struct f2t_tty *t);

/* Restores the terminal if still needed, closes everything. */
void f2t_tty_close(struct f2t_tty *t);

#endif
