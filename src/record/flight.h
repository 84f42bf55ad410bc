/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder (record --flight-recorder): our instance's rings
 * overwrite their oldest data and nothing is read while nothing happens;
 * the rings are grown, once the event rate is seen, to hold the last
 * SECONDS.  A trigger -- SIGUSR1, a marker holding --trigger-marker's
 * text (record/markwatch.h), a wakeup latency above --trigger-latency
 * (record/latency.h) -- is marked in the trace as an instant and makes a
 * snapshot due --after milliseconds later; record.c then stops the
 * instance, writes the window as a capture and converts it.
 */
#ifndef F2T_FLIGHT_H
#define F2T_FLIGHT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "record/instance.h"
#include "record/latency.h"
#include "record/markwatch.h"
#include "util/textbuf.h"

#define F2T_FLIGHT_NPOLL 2

struct f2t_flight_opts {
	double secs;			/* the window: the last SECONDS */
	uint64_t after_ns;		/* recording goes on this long after a trigger */
	bool fixed_size;		/* -b: the rings keep the size asked for */
	const char *marker;		/* --trigger-marker TEXT, or NULL */
	struct f2t_latency_opts latency;	/* threshold_ns 0: no latency trigger */
};

struct f2t_flight {
	struct f2t_flight_opts o;
	struct f2t_inst *inst;
	struct f2t_markwatch mw;
	struct f2t_latency *lat;
	uint64_t armed_ns, next_check_ns, check_every_ns;
	unsigned long max_kb;		/* the rings' size at most (memory) */
	/*
	 * When the rings were last grown: the kernel stops the instance's
	 * tracing while it resizes (hundreds of ms for a large ring), so
	 * what came before is cut from the rest by a hole; windows start
	 * after it.  0: never grown.
	 */
	uint64_t grown_ns;
	uint64_t trigger_ns;		/* the pending snapshot's trigger; 0: none */
	uint64_t due_ns;		/* when it is taken */
	char cause[320];		/* what triggered it */
	uint32_t waiting_tid;		/* the trigger's waiting thread, until it ran */
	struct f2t_textbuf tasks;	/* the /proc snapshot of when it was armed */
};

/**
 * f2t_flight_open() - overwrite mode on @inst, the triggers loaded
 * @f: filled in
 * @o: the options (a copy is kept; strings must outlive @f)
 * @inst: the recording's instance, tracing still off
 *
 * Prints one line saying what is wrong when it fails.
 *
 * Return: 0 or negative errno.
 */
int f2t_flight_open(struct f2t_flight *f, const struct f2t_flight_opts *o, struct f2t_inst *inst);

/**
 * f2t_flight_arm() - tracing went on (again): the window starts filling
 * @now: CLOCK_MONOTONIC ns
 *
 * Takes the /proc snapshot the next snapshot's names start from, and says
 * (on stderr, the first time) what the rings hold and what triggers.
 *
 * Return: 0 or negative errno.
 */
int f2t_flight_arm(struct f2t_flight *f, uint64_t now);

/* The descriptors to poll for triggers, F2T_FLIGHT_NPOLL of them (-1: none). */
void f2t_flight_pollfds(const struct f2t_flight *f, struct pollfd *pfd);

/* Milliseconds the loop may sleep before f2t_flight_check() has work. */
int f2t_flight_timeout_ms(const struct f2t_flight *f, uint64_t now);

/**
 * f2t_flight_check() - triggers, ring sizes, and whether a snapshot is due
 * @pfd: the entries f2t_flight_pollfds() filled, after poll()
 * @usr1: SIGUSR1 arrived
 * @now: CLOCK_MONOTONIC ns
 *
 * A trigger while none is pending writes its instant into the trace and
 * makes a snapshot due after --after; later ones wait for the next window.
 *
 * Return: 1 when the pending snapshot is due, 0 when not, or negative errno.
 */
int f2t_flight_check(struct f2t_flight *f, const struct pollfd *pfd, bool usr1, uint64_t now);

/**
 * f2t_flight_trigger() - a snapshot due, for @cause, at @now + --after
 *
 * Marks the trigger in the trace (an instant "snapshot trigger: CAUSE" on
 * the recorder's track "ftrace2trace") and says it on stderr.
 *
 * Return: 0 (a mark the kernel refuses is only a warning).
 */
int f2t_flight_trigger(struct f2t_flight *f, const char *cause, uint64_t now);

/*
 * The window of the due snapshot begins here (CLOCK_MONOTONIC ns): SECONDS
 * before the trigger, or at the arming, or after the rings' last growth.
 */
uint64_t f2t_flight_window_start(const struct f2t_flight *f);

/*
 * Where that window would begin if the rings had not grown: SECONDS before
 * the trigger, or at the arming.
 */
uint64_t f2t_flight_window_asked(const struct f2t_flight *f);

/*
 * What a snapshot may still need from @now on (CLOCK_MONOTONIC ns): the
 * last SECONDS, or the pending snapshot's window.
 */
uint64_t f2t_flight_keep_from(const struct f2t_flight *f, uint64_t now);

/* The snapshot was taken: nothing is pending any more. */
void f2t_flight_taken(struct f2t_flight *f);

/**
 * f2t_flight_name() - NAME-K.EXT for snapshot K of output PATH
 * @ext: the format's extension (".json.gz"), inserted before when PATH
 *       ends with it; else before PATH's last dot, or at its end
 *
 * Return: a malloc'd string, or NULL with errno set.
 */
char *f2t_flight_name(const char *path, const char *ext, unsigned int k);

/*
 * In a forked child: its copies of the triggers' descriptors closed (the
 * programs stay attached, the marker instance stays, for the parent).
 */
void f2t_flight_close_fds(struct f2t_flight *f);

/* The triggers unloaded, the marker instance removed; twice is fine. */
void f2t_flight_close(struct f2t_flight *f);

#endif
