/* SPDX-License-Identifier: MIT */
/*
 * The function and function-graph tracers on our instance (--function,
 * --function-graph).  Many kernels refuse them (lockdown, vendor policy,
 * no CONFIG_FUNCTION_TRACER): this module tries them before tracing starts
 * and says, in one line, what was refused and the likely reason.
 */
#ifndef F2T_FUNCTRACE_H
#define F2T_FUNCTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tracefs_instance;

enum f2t_functrace_mode {
	F2T_FUNCTRACE_OFF = 0,
	F2T_FUNCTRACE_FUNCTION,		/* ftrace:function events */
	F2T_FUNCTRACE_GRAPH,		/* ftrace:funcgraph_entry/exit */
};

struct f2t_functrace_opts {
	enum f2t_functrace_mode mode;
	const char *filters;	/* comma-separated globs, NULL: every function */
	const char *notrace;	/* comma-separated globs never traced, or NULL */
	int max_depth;		/* function-graph depth; 0: unlimited */
};

/**
 * f2t_functrace_setup() - set the tracer, filters and depth on an instance
 * @ti: our instance (tracing not yet on)
 * @o: what was asked for; F2T_FUNCTRACE_OFF does nothing
 *
 * Return: 0, or a negative errno after printing what the kernel refused
 * and why it likely did (e.g. "kernel lockdown (integrity) is active").
 */
int f2t_functrace_setup(struct tracefs_instance *ti, const struct f2t_functrace_opts *o);

/**
 * f2t_functrace_follow() - limit function tracing to PIDS and their children
 *
 * Return: 0 or a negative errno (printed).
 */
int f2t_functrace_follow(struct tracefs_instance *ti, const struct f2t_functrace_opts *o,
			 const pid_t *pids, size_t npids);

#endif
