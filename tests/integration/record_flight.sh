#!/usr/bin/env bash
# The flight recorder (record --flight-recorder), end to end as root:
# - a rare stall (tests/helpers/stall: a thread waking every 2 ms, starved
#   once ~40 ms by a SCHED_FIFO hog on its CPU at a random moment of an 8 s
#   run) with --flight-recorder=2 --trigger-latency=10000: exactly one
#   snapshot, holding the stall (Perfetto's thread_state: the worker runnable
#   30 ms or more, its name), beginning about 2 s before the stall and ending
#   after it, the trigger an instant naming the thread while it still
#   waits, a second instant with its whole wait once it ran, no data-loss
#   stat; that wait the trace's runnable state within 1 ms, and report's
#   longest wait on the kept capture (-k); .fxt with the .pftrace's slices;
# - a preemption of a spinning worker as long does not trigger;
# - with -p, a thread asleep across the arming whose first wakeup waits:
#   it triggers; a SCHED_OTHER worker's stall (the fair class's queue) too;
# - a ping-pong preempted for milliseconds hundreds of times by a spinning
#   thread on its CPU: no trigger unless a wakeup's wait was that long;
# - rings grown under a ping-pong: the snapshot reaches the end on the busy
#   CPU, with no hole where the kernel grew them;
# - SIGUSR1 during --flight-recorder=1: a snapshot of about the last second;
# - rings too small for the window (-b 64 under a ping-pong): the overwritten
#   past is no loss (summary, and no data-loss stat in trace_processor);
# - --trigger-marker: a trace_marker write holding the text triggers, one
#   without it does not;
# - --max-snapshots=3: NAME-1/2/3.EXT, disjoint windows, in order;
# - SIGINT while armed: the window of the stop written, our instances gone,
#   the latency program detached.
# The windows and states are read by Perfetto's trace_processor, not by us.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
STALL=$B/tests/helpers/stall
[ -x "$STALL" ] || skip "$STALL not built (make tests)"
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
need_trace_processor
cd "$TMP" || exit 1
q() { tp_q "$@"; }
# no_loss FILE: trace_processor lists no data-loss stat with a count.
no_loss() {
	local n
	n=$(q "$1" "select count(*) from stats where severity = 'data_loss' and value > 0;")
	[ "$n" = 0 ] || fail "$1: data-loss stats: $("$TP" -q <(echo "select name, value from stats where severity = 'data_loss' and value > 0;") "$1" 2>/dev/null | tail -5)"
}
# ours_left PID: one of the run's instances (ftrace2trace-PID, -PID-N) is still there.
ours_left() {
	ls -d "$T/instances/ftrace2trace-$1" "$T/instances/ftrace2trace-$1-"* >/dev/null 2>&1
}

# 1. The rare stall, caught by the wakeup latency.
"$F2T" record --flight-recorder=2 --trigger-latency=10000 -o stall.pftrace -o stall.json \
	-o stall.fxt -k stall.cap -- "$STALL" 8 40 >stall.out 2>stall.err
rc=$?
bpf=1
if grep -q "built without BPF" stall.err; then
	bpf=0
	echo "note: this build has no BPF: --trigger-latency not checked ($(grep -- --trigger-latency stall.err))"
else
	# Ended by us after the snapshot, as with -d: the command's status is 143 (SIGTERM).
	[ -s stall.pftrace ] || fail "no snapshot (exit $rc): $(cat stall.err)"
	ls stall-*.pftrace >/dev/null 2>&1 && fail "more than one snapshot: $(ls)"
	read -r worker from to < <(sed -n 's/^stall: worker=\([0-9]*\) hog=[0-9]* from=\([0-9]*\) to=\([0-9]*\)/\1 \2 \3/p' stall.out)
	[ -n "${worker:-}" ] || fail "the stall helper said nothing: $(cat stall.out)"
	grep -q "snapshot triggered: stall-worker (tid $worker, pid [0-9]*) waiting to run for [0-9.]* ms since its wakeup" stall.err ||
		fail "the trigger is not the worker's wait: $(cat stall.err)"
	grep -q "^ftrace2trace: wakeup latency [0-9.]* ms of stall-worker (tid $worker," stall.err ||
		fail "the end of the worker's wait is not said: $(cat stall.err)"
	for f in stall.pftrace stall.json; do
		long=$(q $f "select count(*) from thread_state s join thread t using (utid) where t.tid = $worker and t.name = 'stall-worker' and s.state like 'R%' and s.dur >= 30000000 and s.ts >= $from - 5000000 and s.ts <= $to;")
		[ "$long" = 1 ] || fail "$f: no long runnable state of stall-worker ($worker) during the stall ($long)"
		span=$(q $f "select ($from - min(ts)) / 1000000, (max(ts + dur) - $to) / 1000000 from sched;")
		before=${span%,*} after=${span#*,}
		[ "$before" -ge 1700 ] && [ "$before" -le 2300 ] ||
			fail "$f: the window begins $before ms before the stall, not about 2000"
		[ "$after" -ge 0 ] || fail "$f: the window ends $after ms after the stall's end"
		# The kernel's own events time the same wait the trigger measured
		# from the scheduler's delay accounting.
		said=$(sed -n 's/^ftrace2trace: wakeup latency \([0-9.]*\) ms.*/\1/p' stall.err)
		r_ms=$(q $f "select max(s.dur) / 1e6 from thread_state s join thread t using (utid) where t.tid = $worker and s.state like 'R%' and s.ts >= $from - 5000000 and s.ts <= $to;")
		awk -v a="$said" -v b="$r_ms" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }' ||
			fail "$f: the trigger said $said ms, the trace's runnable state lasts $r_ms ms"
		inst=$(q $f "select count(*) from instant where name like 'snapshot trigger: stall-worker (tid $worker,%waiting to run%';")
		[ "$inst" = 1 ] || fail "$f: no trigger instant naming the worker"
		inst=$(q $f "select count(*) from instant where name like 'wakeup latency % ms of stall-worker (tid $worker,%';")
		[ "$inst" = 1 ] || fail "$f: no instant with the worker's whole wait"
		no_loss $f
	done
	# Every format holds the same window (Perfetto's FXT importer gives the
	# idle thread no slices: those are left out); report reads the capture.
	n_pf=$(q stall.pftrace "select count(*) from sched join thread using (utid) where tid != 0;")
	n_fxt=$(q stall.fxt "select count(*) from sched join thread using (utid) where tid != 0;")
	[ "$n_pf" -gt 0 ] && [ "$n_pf" = "$n_fxt" ] || fail "sched slices: .pftrace $n_pf, .fxt $n_fxt"
	rep=$("$F2T" report --csv stall.cap | awk -F, -v t="$worker" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $1 == t { print $c["wakeup_max_ns"] / 1e6 }')
	awk -v a="$said" -v b="${rep:-0}" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }' ||
		fail "report on the snapshot's capture: the worker's longest wakeup latency ${rep:-?} ms, the trigger said $said"
	ok "a 40 ms stall caught by --trigger-latency: one snapshot, the worker's long R ($r_ms ms; the trigger said $said; report $rep), the window from $before ms before to $after ms after it, the trigger marked, no loss, $n_pf sched slices of threads in .pftrace and .fxt alike"
fi

# 1b. A wait that no wakeup began (the hog preempting a spinning worker) is
#     not a wakeup latency: no trigger, though the trace shows the long R.
if [ $bpf = 1 ]; then
	"$F2T" record --flight-recorder=2 --trigger-latency=10000 -o preempt.pftrace \
		-- "$STALL" 5 40 busy >preempt.out 2>preempt.err || fail "preempted worker: exit $?: $(cat preempt.err)"
	grep -q "snapshot triggered: stop: the command exited" preempt.err ||
		fail "a preemption triggered the wakeup-latency trigger: $(grep 'snapshot triggered' preempt.err)"
	read -r worker from to < <(sed -n 's/^stall: worker=\([0-9]*\) hog=[0-9]* from=\([0-9]*\) to=\([0-9]*\)/\1 \2 \3/p' preempt.out)
	[ -n "${worker:-}" ] || fail "the stall helper said nothing: $(cat preempt.out)"
	# The stop's window is the last 2 s: the spin may be before it.
	long=$(q preempt.pftrace "select count(*) from thread_state s join thread t using (utid) where t.tid = $worker and s.state like 'R%' and s.dur >= 30000000;")
	inwin=$(q preempt.pftrace "select count(*) from sched where ts <= $from;")
	if [ "$inwin" = 0 ]; then
		seen="the spin was before the stop's window"
	else
		[ "$long" -ge 1 ] || fail "the worker's preemption is not in the trace"
		seen="the window shows $long runnable states of 30 ms or more"
	fi
	ok "a 40 ms preemption of a spinning thread did not trigger --trigger-latency (the stop wrote the window; $seen)"
fi

# 1c. A thread there before the arming (-p), asleep across it, whose first
#     wakeup after it waits behind the hog: caught, as any thread the run
#     queues hold.
if [ $bpf = 1 ]; then
	"$STALL" 6 40 late >late.out 2>&1 &
	S=$!
	sleep 0.3
	"$F2T" record --flight-recorder=2 --trigger-latency=10000 -p $S -o late.pftrace \
		>/dev/null 2>late.err || fail "-p of a sleeping worker: exit $?: $(cat late.err)"
	wait $S
	read -r worker from to < <(sed -n 's/^stall: worker=\([0-9]*\) hog=[0-9]* from=\([0-9]*\) to=\([0-9]*\)/\1 \2 \3/p' late.out)
	[ -n "${worker:-}" ] || fail "the stall helper said nothing: $(cat late.out)"
	grep -q "snapshot triggered: stall-worker (tid $worker," late.err ||
		fail "the first wakeup after the arming of a thread asleep across it did not trigger: $(grep 'triggered' late.err)"
	ok "a thread asleep since before the arming: its first wakeup's wait triggered ($(sed -n 's/^ftrace2trace: wakeup latency \([0-9.]*\) ms.*/\1/p' late.err) ms in all)"
fi

# 1e. The same stall of a SCHED_OTHER worker: its wait is in the fair
#     class's run queue (a tree, maybe under a cgroup's group entity).
if [ $bpf = 1 ]; then
	"$F2T" record --flight-recorder=2 --trigger-latency=10000 -o fair.pftrace \
		-- "$STALL" 5 40 other >fair.out 2>fair.err
	read -r worker from to < <(sed -n 's/^stall: worker=\([0-9]*\) hog=[0-9]* from=\([0-9]*\) to=\([0-9]*\)/\1 \2 \3/p' fair.out)
	[ -n "${worker:-}" ] || fail "the stall helper said nothing: $(cat fair.out)"
	grep -q "snapshot triggered: stall-worker (tid $worker," fair.err ||
		fail "a SCHED_OTHER worker's stall did not trigger: $(grep 'triggered' fair.err)"
	said=$(sed -n 's/^ftrace2trace: wakeup latency \([0-9.]*\) ms of stall-worker.*/\1/p' fair.err)
	r_ms=$(q fair.pftrace "select max(s.dur) / 1e6 from thread_state s join thread t using (utid) where t.tid = $worker and s.state like 'R%' and s.ts >= $from - 5000000 and s.ts <= $to;")
	awk -v a="${said:-0}" -v b="${r_ms:-0}" 'BEGIN { d = a - b; exit !(b >= 30 && d < 1 && d > -1) }' ||
		fail "SCHED_OTHER worker: the trigger said ${said:-nothing} ms, the trace's runnable state lasts ${r_ms:-?} ms"
	ok "a SCHED_OTHER worker's 40 ms stall triggered ($said ms, the trace's R $r_ms ms)"
fi

# 1g. Two stalls, one after the other, with --max-snapshots=2: the first
#     snapshot is written by a child while recording goes on, and the
#     trigger (the parent's timers) still catches the second.
if [ $bpf = 1 ]; then
	"$F2T" record --flight-recorder=2 --trigger-latency=10000 --max-snapshots=2 -o two.pftrace \
		-- sh -c "'$STALL' 5 40 >two-a.out; '$STALL' 5 40 >two-b.out" 2>two.err
	wa=$(sed -n 's/^stall: worker=\([0-9]*\) .*/\1/p' two-a.out)
	wb=$(sed -n 's/^stall: worker=\([0-9]*\) .*/\1/p' two-b.out)
	[ -n "$wa" ] && [ -n "$wb" ] || fail "a stall helper said nothing (another wait over 10 ms triggered first?): $(cat two-a.out two-b.out; grep 'triggered' two.err)"
	for k in 1 2; do
		[ $k = 1 ] && w=$wa || w=$wb
		[ -s two-$k.pftrace ] || fail "no two-$k.pftrace: $(cat two.err)"
		n=$(q two-$k.pftrace "select count(*) from instant where name like 'wakeup latency % ms of stall-worker (tid $w,%';")
		[ "$n" = 1 ] || fail "two-$k.pftrace: no whole wait of stall-worker $w: $(grep -i 'trigger\|latency' two.err)"
	done
	ok "--max-snapshots=2: two stalls, each caught in its own snapshot"
fi

# 1f. A spinning thread sharing CPU 0 with a ping-pong: the ping-pong's
#     threads are preempted by it hundreds of times for milliseconds, and
#     only a wait that began with a wakeup may trigger.  Which kind each
#     long wait was is read from Perfetto's thread states (the state before
#     the runnable one: running, or asleep).  The rings' size is fixed (-b):
#     grown, they would hold only what came after the growth, next to
#     nothing when the ping-pong ends soon after it.
if [ $bpf = 1 ]; then
	taskset -c 0 sh -c 'while :; do :; done' &
	H=$!
	"$F2T" record --flight-recorder=10 -b 200000 --trigger-latency=2000 -o mixed.pftrace \
		-- taskset -c 0 "$PINGPONG" 200000 >/dev/null 2>mixed.err
	rc=$?
	kill $H
	wait $H 2>/dev/null
	[ $rc = 0 ] || grep -q "snapshot triggered" mixed.err || fail "ping-pong beside a spinning thread: exit $rc: $(cat mixed.err)"
	n=$(q mixed.pftrace "select count(*) from thread_state s join thread t using (utid) where t.name in ('ping', 'pong');")
	[ "${n:-0}" -ge 1000 ] 2>/dev/null || fail "ping-pong beside a spinning thread: ${n:-no} thread states of ping and pong in the snapshot: $(cat mixed.err)"
	kinds=$(q mixed.pftrace "with st as (select t.name, s.state, s.dur, lag(s.state) over (partition by s.utid order by s.ts) prev from thread_state s join thread t using (utid) where t.name in ('ping', 'pong')) select coalesce(sum(prev = 'Running'), 0) || ',' || coalesce(sum(prev like 'S%' or prev like 'D%'), 0) from st where state like 'R%' and dur > 2000000;")
	preempted=${kinds%,*} woken=${kinds#*,}
	[ "${preempted:-0}" -ge 20 ] || skip_note="only ${preempted:-0} preempted waits over 2 ms: a weak check"
	if grep -q "snapshot triggered: p[io]ng (tid" mixed.err; then
		[ "${woken:-0}" -ge 1 ] ||
			fail "a preempted wait triggered: $(grep 'snapshot triggered' mixed.err); the trace has $preempted preempted waits over 2 ms and no woken one"
		seen="a wakeup's wait over 2 ms triggered, as it should"
	else
		seen="no trigger"
	fi
	ok "a ping-pong beside a spinning thread: $preempted waits over 2 ms after a preemption, ${woken:-0} after a wakeup; $seen${skip_note:+ ($skip_note)}"
fi

# 1d. Rings grown while armed (a ping-pong at full speed, some 5 s here, so
#     that seconds follow the growth a second after arming): the snapshot
#     holds the newest data, to the stop, and no hole where the kernel
#     stopped tracing to grow them; the window, shorter than asked, says it
#     began at the growth.
"$F2T" record --flight-recorder=10 -o grown.pftrace -- taskset -c 0 "$PINGPONG" 1500000 \
	>grown.out 2>grown.err || fail "ping-pong under --flight-recorder=10: exit $?: $(cat grown.err)"
if grep -q "ring buffers grown" grown.err; then
	said=$(sed -n 's/.*snapshot 1: from \([0-9.]*\) s before the trigger (.*/\1/p' grown.err)
	grep -q "warning: snapshot 1: the window begins where the ring buffers were last grown, $said s before the trigger, not [0-9.]* s" grown.err ||
		fail "a window cut by the growth ($said s) is not said: $(cat grown.err)"
	# On CPU 0, the ping-pong's: the longest time without a switch, and how
	# far before the last switch on any CPU its last one is.
	hole=$(q grown.pftrace "select max(ts - prev) / 1000000 from (select ts, lag(ts) over (order by ts) as prev from sched where cpu = 0);")
	short=$(q grown.pftrace "select ((select max(ts) from sched) - (select max(ts) from sched where cpu = 0)) / 1000000;")
	[ "$hole" -lt 50 ] || fail "a hole of $hole ms in CPU 0's switches: $(cat grown.err)"
	[ "$short" -lt 50 ] || fail "CPU 0's switches end $short ms before the trace does: the newest data were not read: $(cat grown.err)"
	no_loss grown.pftrace
	ok "rings grown under a ping-pong: CPU 0's switches to the end, no gap over $hole ms; the window, $said s from the growth, said to begin there"
else
	echo "note: the rings were not grown (the ping-pong too slow here?): $(grep 'flight recorder' grown.err)"
fi

# 2. SIGUSR1: about the last second.
"$F2T" record --flight-recorder=1 -a -o usr1.pftrace 2>usr1.err &
P=$!
sleep 3
kill -USR1 $P
wait $P || fail "SIGUSR1 snapshot: exit $?: $(cat usr1.err)"
span=$(q usr1.pftrace "select (max(ts + dur) - min(ts)) / 1000000 from sched;")
[ "$span" -ge 900 ] && [ "$span" -le 1300 ] || fail "SIGUSR1 snapshot spans $span ms, not about 1100 (1 s + --after)"
[ "$(q usr1.pftrace "select count(*) from instant where name = 'snapshot trigger: SIGUSR1';")" = 1 ] ||
	fail "no SIGUSR1 trigger instant"
no_loss usr1.pftrace
ok "SIGUSR1 during --flight-recorder=1: a snapshot of $span ms"

# 3. Rings far too small for the window under a ping-pong: they overwrite,
#    and what they gave up is not loss.
"$F2T" record --flight-recorder=1 -b 64 -a -o small.pftrace 2>small.err &
P=$!
"$PINGPONG" 400000 >/dev/null &
PP=$!
sleep 2.5
kill -USR1 $P
wait $P || fail "-b 64 snapshot: exit $?: $(cat small.err)"
kill $PP 2>/dev/null
wait $PP 2>/dev/null
grep -q "warning: flight recorder: .* -b [0-9]* holds about" small.err ||
	fail "the rings did not overwrite (no warning that -b 64 is short): $(cat small.err)"
grep -q "snapshot 1: .*, 0 events lost" small.err || fail "overwritten past counted as lost: $(cat small.err)"
least=$(sed -n 's/.*snapshot 1: from [0-9.]* s before the trigger (\([0-9.]*\) s on the CPU whose ring held least).*/\1/p' small.err)
awk -v l="${least:-9}" 'BEGIN { exit !(l < 0.9) }' ||
	fail "a 64 KB ring held ${least:-?} s of a ping-pong's CPU, not less than the 1 s window: $(cat small.err)"
grep -q "lost events: 0 " small.err || fail "the conversion counts the overwritten past as lost: $(cat small.err)"
no_loss small.pftrace
ok "rings that overwrote (-b 64 under a ping-pong): no events lost, no data-loss stat"

# 4. A marker holding the text triggers; one without it does not.
"$F2T" record --flight-recorder=1 --trigger-marker=SLOW -a -o mk.pftrace 2>mk.err &
P=$!
sleep 1.5
echo "a fast one" >"$T/trace_marker"
sleep 0.5
[ -e mk.pftrace ] && fail "a marker without the text triggered: $(cat mk.err)"
echo "request 42 was SLOW" >"$T/trace_marker"
wait $P || fail "marker trigger: exit $?: $(cat mk.err)"
grep -q 'snapshot triggered: marker "request 42 was SLOW" written by' mk.err ||
	fail "the trigger is not the marker: $(cat mk.err)"
[ "$(q mk.pftrace "select count(*) from instant where name like 'snapshot trigger: marker \"request 42 was SLOW\"%';")" = 1 ] ||
	fail "no marker trigger instant"
ok "--trigger-marker: the marker holding SLOW triggered, the other did not"

# 5. Three snapshots: NAME-K.EXT, each its own window, in order.
"$F2T" record --flight-recorder=1 --after=50 --max-snapshots=3 -a -o m.pftrace -o m.json 2>m.err &
P=$!
for i in 1 2 3; do
	sleep 1.5
	kill -USR1 $P
done
wait $P || fail "--max-snapshots=3: exit $?: $(cat m.err)"
[ -e m.pftrace ] && fail "--max-snapshots=3 wrote m.pftrace too"
prev=0
for i in 1 2 3; do
	for f in m-$i.pftrace m-$i.json; do
		[ -s $f ] || fail "no $f: $(cat m.err)"
		no_loss $f
	done
	b=$(q m-$i.pftrace "select min(ts) || ',' || max(ts + dur) from sched;")
	[ "${b%,*}" -gt "$prev" ] || fail "m-$i.pftrace begins at ${b%,*}, before the previous ended ($prev)"
	prev=${b#*,}
done
ok "--max-snapshots=3: m-1, m-2, m-3 (.pftrace and .json), one after the other"

# 6. SIGINT while armed: the stop's window, and nothing of ours left in the kernel.
args=(--flight-recorder=1 -a -o int.pftrace)
[ $bpf = 1 ] && args+=(--trigger-latency=500000 --trigger-marker=NEVER)
"$F2T" record "${args[@]}" 2>int.err &
P=$!
sleep 2
ours_left $P || fail "no instance while recording: $(ls "$T/instances")"
if [ $bpf = 1 ] && command -v bpftool >/dev/null; then
	bpftool prog list | grep -q latency_scan || fail "the latency program is not attached while armed"
fi
kill -INT $P
wait $P || fail "SIGINT while armed: exit $?: $(cat int.err)"
grep -q "snapshot triggered: stop: signal" int.err || fail "no stop window: $(cat int.err)"
[ -s int.pftrace ] || fail "no snapshot at the stop"
ours_left $P && fail "an instance of the run is left: $(ls "$T/instances")"
if [ $bpf = 1 ] && command -v bpftool >/dev/null; then
	bpftool prog list | grep -q latency_scan && fail "the latency program is still loaded"
fi
ok "SIGINT while armed: the window of the stop written, the instances removed, BPF detached"
exit 0
