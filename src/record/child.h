/* SPDX-License-Identifier: MIT */
/*
 * The recorded command: looked up before tracing starts (so a typo costs
 * nothing), forked early and held on a pipe until tracing is on, then
 * exec'd; its exit ends the recording and becomes our exit status.
 */
#ifndef F2T_CHILD_H
#define F2T_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "record/runas.h"
#include "record/ttyrelay.h"

struct f2t_child {
	pid_t pid;		/* 0: none */
	int gate;		/* write end: one byte releases the child */
	int errpipe;		/* read end: exec's errno, or EOF on success */
	int pidfd;		/* readable when the child exits; -1 if unsupported */
	bool exited;
	int status;		/* waitpid() status once exited */
	bool drop_failed;	/* f2t_child_spawn() failed becoming the user */
	bool own_session;	/* not in our session: its stops are watched */
	int stopped;		/* the signal that stopped it, until handled; or 0 */
};

/**
 * f2t_child_lookup() - can ARGV0 be exec'd, searching PATH like execvp()?
 *
 * Return: 0, -ENOENT or -EACCES.
 */
int f2t_child_lookup(const char *argv0);

/**
 * f2t_child_spawn() - fork the command, held before exec
 * @c: filled in
 * @argv: the command
 * @ra: who it runs as; the child takes that identity at once, and says
 *	whether it could before this returns
 * @tty: the session and terminal it gets (f2t_tty_open())
 *
 * Return: 0 or negative errno (c->drop_failed: the identity could not be
 * taken; the child has exited).
 */
int f2t_child_spawn(struct f2t_child *c, char *const argv[], const struct f2t_runas *ra,
		    struct f2t_tty *tty);

/**
 * f2t_child_release() - let the child exec, and wait for the exec's outcome
 *
 * Return: 0 once the exec succeeded, or the exec's negative errno (the
 * child has then exited).
 */
int f2t_child_release(struct f2t_child *c);

/**
 * f2t_child_check() - has the child exited?  Reaps it without blocking.
 *
 * A child in a session of its own that stopped is noted in c->stopped.
 */
bool f2t_child_check(struct f2t_child *c);

/**
 * f2t_child_finish() - end and reap the child
 *
 * A child still running when the recording stops for another reason (a
 * signal to us, -d) gets SIGTERM, then SIGKILL two seconds later; one that
 * was never released just sees its gate close.
 */
void f2t_child_finish(struct f2t_child *c);

/*
 * Sends SIG to the child's process group, when it has a session of its own
 * and has not been reaped (so that its id cannot have been reused).
 */
void f2t_child_signal(const struct f2t_child *c, int sig);

/* Shell-style exit code: the status, or 128 + signal. */
int f2t_child_exit_code(const struct f2t_child *c);

#endif
