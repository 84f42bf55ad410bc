// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs/tracefs.h>

#include "record/functrace.h"
#include "util/log.h"

static const char *tracer_name(enum f2t_functrace_mode mode)
{
	return mode == F2T_FUNCTRACE_GRAPH ? "function_graph" : "function";
}

/* The lockdown mode in force ("integrity", "confidentiality"), or NULL. */
static char *lockdown_mode(void)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char line[128], *open, *close;

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close || !strncmp(open + 1, "none]", 5))
		return NULL;
	return strndup(open + 1, (size_t)(close - open - 1));
}

static int refused(enum f2t_functrace_mode mode, const char *what, int err)
{
	char *lock = err == -EPERM ? lockdown_mode() : NULL;

	if (lock)
		f2t_err("the kernel refused the %s tracer (%s: %s): kernel lockdown (%s) is active and forbids function tracing",
			tracer_name(mode), what, strerror(-err), lock);
	else if (err == -EPERM || err == -EACCES)
		f2t_err("the kernel refused the %s tracer (%s: %s): a security policy (lockdown, SELinux) or /proc/sys/kernel/ftrace_enabled=0 forbids it",
			tracer_name(mode), what, strerror(-err));
	else
		f2t_err("cannot set up the %s tracer (%s: %s)", tracer_name(mode), what,
			strerror(-err));
	free(lock);
	return err;
}

static bool tracer_available(enum f2t_functrace_mode mode)
{
	char **tracers = tracefs_tracers(NULL);
	bool found = false;

	for (int i = 0; tracers && tracers[i]; i++)
		if (!strcmp(tracers[i], tracer_name(mode)))
			found = true;
	tracefs_list_free(tracers);
	return found;
}

/* Adds every comma-separated glob in LIST through ADD. */
static int add_globs(struct tracefs_instance *ti, const char *list,
		     int (*add)(struct tracefs_instance *, const char *, const char *, unsigned int))
{
	char *copy = strdup(list), *save = NULL;
	unsigned int flags = TRACEFS_FL_RESET | TRACEFS_FL_CONTINUE;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
		if (add(ti, g, NULL, flags) < 0) {
			ret = errno ? -errno : -EINVAL;
			break;
		}
		flags = TRACEFS_FL_CONTINUE;
	}
	/* A NULL filter closes the file that CONTINUE kept open. */
	add(ti, NULL, NULL, 0);
	free(copy);
	return ret;
}

int f2t_functrace_setup(struct tracefs_instance *ti, const struct f2t_functrace_opts *o)
{
	char depth[16];
	int ret;

	if (o->mode == F2T_FUNCTRACE_OFF)
		return 0;
	if (!tracer_available(o->mode)) {
		f2t_err("this kernel has no %s tracer (not in available_tracers; it needs CONFIG_%s)",
			tracer_name(o->mode),
			o->mode == F2T_FUNCTRACE_GRAPH ? "FUNCTION_GRAPH_TRACER" : "FUNCTION_TRACER");
		return -ENODEV;
	}
	if (o->filters) {
		ret = add_globs(ti, o->filters, tracefs_function_filter);
		if (ret)
			return refused(o->mode, "set_ftrace_filter", ret);
	}
	if (o->notrace) {
		ret = add_globs(ti, o->notrace, tracefs_function_notrace);
		if (ret)
			return refused(o->mode, "set_ftrace_notrace", ret);
	}
	if (o->mode == F2T_FUNCTRACE_GRAPH && o->max_depth > 0) {
		snprintf(depth, sizeof(depth), "%d", o->max_depth);
		if (tracefs_instance_file_write(ti, "max_graph_depth", depth) < 0)
			f2t_warn("cannot set max_graph_depth on this kernel's instances; depth unlimited");
	}
	errno = 0;
	if (tracefs_tracer_set(ti, o->mode == F2T_FUNCTRACE_GRAPH ? TRACEFS_TRACER_FUNCTION_GRAPH :
								    TRACEFS_TRACER_FUNCTION) < 0)
		return refused(o->mode, "current_tracer", errno ? -errno : -EPERM);
	return 0;
}

int f2t_functrace_follow(struct tracefs_instance *ti, const struct f2t_functrace_opts *o,
			 const pid_t *pids, size_t npids)
{
	char buf[32];

	if (o->mode == F2T_FUNCTRACE_OFF || !npids)
		return 0;
	for (size_t i = 0; i < npids; i++) {
		snprintf(buf, sizeof(buf), "%d", (int)pids[i]);
		if ((i ? tracefs_instance_file_append(ti, "set_ftrace_pid", buf) :
			 tracefs_instance_file_write(ti, "set_ftrace_pid", buf)) < 0)
			return refused(o->mode, "set_ftrace_pid", errno ? -errno : -EPERM);
	}
	/* function-fork makes their children inherit the filter. */
	if (tracefs_instance_file_write(ti, "options/function-fork", "1") < 0)
		return refused(o->mode, "options/function-fork", errno ? -errno : -EPERM);
	return 0;
}
