// SPDX-License-Identifier: MIT
/*
 * Scheduling lines of ftrace text into events (source/text/text_events.c),
 * through the text input: bodies in the kernel's own layout, and the near
 * misses of it that must read as the field rules say (a value ends at the
 * first " word=" or " ==> "; numbers decimal or 0x, signed; fields found
 * wherever they are), whichever way the source reads them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "logged.h"
#include "source/input.h"

#define HEAD "            ping-24129   (  24127) [001] d..2. 32735.2674%02d: "

/* The events of BODIES, one line each, after NAME: */
static struct f2t_input *open_lines(const char *name, const char *const *bodies, size_t n)
{
	char path[] = "/tmp/f2t-test-text-events-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct f2t_input *in;

	assert_non_null(f);
	fprintf(f, "# tracer: nop\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, HEAD, (int)i);
		fprintf(f, "%s: %s\n", name, bodies[i]);
	}
	fclose(f);
	in = f2t_input_open(path);
	unlink(path);
	assert_non_null(in);
	return in;
}

static void next_ok(struct f2t_input *in, struct f2t_event *ev, enum f2t_event_kind kind)
{
	assert_int_equal(f2t_source_next(in->events, ev), 1);
	assert_int_equal(ev->kind, kind);
}

static void assert_switch(const struct f2t_event *ev, const char *prev, int32_t prev_pid,
			  int32_t prev_prio, const char *state, const char *next, int32_t next_pid,
			  int32_t next_prio)
{
	assert_string_equal(ev->sw.prev_comm, prev);
	assert_int_equal(ev->sw.prev_pid, prev_pid);
	assert_int_equal(ev->sw.prev_prio, prev_prio);
	assert_string_equal(ev->sw.prev_state, state);
	assert_string_equal(ev->sw.next_comm, next);
	assert_int_equal(ev->sw.next_pid, next_pid);
	assert_int_equal(ev->sw.next_prio, next_prio);
}

static void assert_bad_lines(struct f2t_input *in, uint64_t n)
{
	struct f2t_stats st = { 0 };

	f2t_source_counts(in->events, &st);
	assert_int_equal(st.bad_records, n);
}

static void test_switch(void **state)
{
	static const char *const bodies[] = {
		"prev_comm=ping prev_pid=24129 prev_prio=120 prev_state=R+ ==> next_comm=pong next_pid=24128 next_prio=120",
		"prev_comm=Web Content prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=x y next_pid=8 next_prio=139",
		"prev_comm=a=b prev_pid=1 prev_prio=-1 prev_state=D|W ==> next_comm=c ==> d next_pid=0x1f next_prio=98",
		"prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120 ",
		"prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2",
		"prev_comm=a prev_pid=12345678901234567890 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=1",
		"prev_comm= prev_pid=3 prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120",
	};
	struct f2t_input *in = open_lines("sched_switch", bodies, 7);
	struct f2t_event ev;

	next_ok(in, &ev, F2T_EV_SWITCH);
	assert_switch(&ev, "ping", 24129, 120, "R+", "pong", 24128, 120);
	assert_int_equal(ev.sw.prev_state_raw, 0x100);
	next_ok(in, &ev, F2T_EV_SWITCH);
	assert_switch(&ev, "Web Content", 7, 120, "S", "x y", 8, 139);
	assert_int_equal(ev.sw.prev_state_raw, 0x01);
	/* a value ends at " ==> ": next_comm is "c", and the "d" between is no field */
	next_ok(in, &ev, F2T_EV_SWITCH);
	assert_switch(&ev, "a=b", 1, -1, "D|W", "c", 31, 98);
	assert_int_equal(ev.sw.prev_state_raw, 0x02);
	/* "120 " is no number, a switch without next_prio none, 20 digits too many */
	next_ok(in, &ev, F2T_EV_SWITCH);
	assert_switch(&ev, "", 3, 120, "I", "swapper/1", 0, 120);
	assert_int_equal(f2t_source_next(in->events, &ev), 0);
	assert_bad_lines(in, 3);
	f2t_input_close(in);
}

static void test_wakeups(void **state)
{
	static const char *const bodies[] = {
		"comm=pong pid=24128 prio=120 target_cpu=001",
		"comm=Web Content pid=5 prio=120 target_cpu=000",
		"comm=a pid=6 prio=120 success=1 target_cpu=002",
		"pid=7 comm=b target_cpu=003 prio=100",
		"comm=c pid=8 prio=120 target_cpu=1a",
	};
	struct f2t_input *in = open_lines("sched_wakeup", bodies, 5);
	struct f2t_event ev;

	next_ok(in, &ev, F2T_EV_WAKEUP);
	assert_string_equal(ev.wake.comm, "pong");
	assert_int_equal(ev.wake.pid, 24128);
	assert_int_equal(ev.wake.prio, 120);
	assert_int_equal(ev.wake.target_cpu, 1);
	next_ok(in, &ev, F2T_EV_WAKEUP);
	assert_string_equal(ev.wake.comm, "Web Content");
	assert_int_equal(ev.wake.pid, 5);
	/* older kernels' success=1 */
	next_ok(in, &ev, F2T_EV_WAKEUP);
	assert_string_equal(ev.wake.comm, "a");
	assert_int_equal(ev.wake.target_cpu, 2);
	/* out of order */
	next_ok(in, &ev, F2T_EV_WAKEUP);
	assert_string_equal(ev.wake.comm, "b");
	assert_int_equal(ev.wake.pid, 7);
	assert_int_equal(ev.wake.prio, 100);
	assert_int_equal(ev.wake.target_cpu, 3);
	assert_int_equal(f2t_source_next(in->events, &ev), 0);
	assert_bad_lines(in, 1);
	f2t_input_close(in);
}

static int setup(void **state)
{
	logged_start();
	return 0;
}

static int teardown(void **state)
{
	logged_stop();
	return 0;
}

/* softirq lines as the kernel and trace-cmd print them: vec's value runs on through the bracket. */
static void test_softirq(void **state)
{
	static const char *const bodies[] = {
		"vec=9 [action=RCU]", "vec=3 [action=NET_RX]", "vec=4", "vec=x [action=RCU]",
		"vec=1 [action=TIMER] ",
	};
	struct f2t_input *in = open_lines("softirq_entry", bodies, 5);
	struct f2t_event ev;

	next_ok(in, &ev, F2T_EV_SOFTIRQ_ENTRY);
	assert_int_equal(ev.softirq.vec, 9);
	assert_string_equal(ev.softirq.name, "RCU");
	next_ok(in, &ev, F2T_EV_SOFTIRQ_ENTRY);
	assert_int_equal(ev.softirq.vec, 3);
	assert_string_equal(ev.softirq.name, "NET_RX");
	next_ok(in, &ev, F2T_EV_SOFTIRQ_ENTRY);
	assert_string_equal(ev.softirq.name, "softirq 4");	/* as a capture names it */
	next_ok(in, &ev, F2T_EV_SOFTIRQ_ENTRY);		/* "vec=x" is a bad line */
	assert_int_equal(ev.softirq.vec, 1);
	assert_string_equal(ev.softirq.name, "TIMER");
	assert_int_equal(f2t_source_next(in->events, &ev), 0);
	assert_bad_lines(in, 1);
	f2t_input_close(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_softirq, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
