#!/usr/bin/env bash
# The flight recorder's CPU samples and off-CPU episodes (record
# --flight-recorder with sampling on, as by default, and --off-cpu), as root:
# - a CPU-bound command (burn 3) beside one that blocks (offwait), under
#   --flight-recorder=1 --off-cpu: the snapshot at the command's exit holds
#   the samples of about its last second only (Perfetto's perf_sample: none
#   before the window (its trigger less the second), burn's spanning the
#   second, named (burn's spin())), and offwait's off-CPU slices, none
#   begun before the window, its process named though begun after the
#   arming and gone at the stop;
# - --max-snapshots=2 during one long burn: each snapshot has burn's samples
#   of its own window, named (the second one's mappings come from /proc, not
#   from the perf records overwritten with the first window);
# - a real loss inside the window is still one: the recorder stopped
#   (SIGSTOP) for half a second while every CPU is sampled with 8 KB stack
#   copies, so the kernel drops samples its perf rings have no room for;
#   the snapshot taken after it says so (the summary's sample records lost,
#   and Perfetto's data-loss stats), where the overwritten past is none.
# Read by Perfetto's trace_processor, not by us.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BURN=$B/tests/helpers/burn
OFFWAIT=$B/tests/helpers/offwait
[ -x "$BURN" ] && [ -x "$OFFWAIT" ] || skip "the test helpers are not built (make tests)"
need_trace_processor
cd "$TMP" || exit 1
q() { tp_q "$@"; }
# The window's start in FILE: its trigger instant less the window (1 s in
# every run here).  Not the first scheduling event: a CPU-bound burn beside
# an idle CPU can go 20 ms into the window before the first switch is
# recorded (this kernel records no switch from idle on CPU 1).
WINDOW_START="(select min(ts) - 1000000000 from instant where name like 'snapshot trigger:%')"
# Samples of burn in FILE: "COUNT,FIRST_MS,LAST_MS,NAMED" with times from the
# window's start, NAMED those whose innermost frame is burn's own
# (spin(), called by burn_one() and burn_three()).
burn_samples() {
	q "$1" "with w as (select $WINDOW_START as t0)
		select count(*) || ',' || coalesce((min(s.ts) - w.t0) / 1000000, 'none') || ',' ||
		       coalesce((max(s.ts) - w.t0) / 1000000, 'none') || ',' ||
		       sum(f.name = 'spin' or f.name like 'burn_%')
		from w, perf_sample s join thread t using (utid)
		left join stack_profile_callsite c on c.id = s.callsite_id
		left join stack_profile_frame f on f.id = c.frame_id
		where t.name = 'burn';"
}
# Samples and off-CPU slices of FILE before its window (-5 ms).
before_window() {
	q "$1" "with w as (select $WINDOW_START - 5000000 as t0)
		select (select count(*) from perf_sample, w where ts < w.t0) +
		       (select count(*) from slice, w where ts < w.t0 and name like '% %');"
}

# 1. Samples and off-CPU episodes of the last second.
args=(--flight-recorder=1)
bpf=1
if "$F2T" record --flight-recorder=1 --off-cpu -o probe.pftrace -- true 2>probe.err; then
	args+=(--off-cpu)
else
	grep -q "built without BPF\|no BTF\|not permitted" probe.err || fail "--off-cpu probe: $(cat probe.err)"
	bpf=0
	echo "note: no off-CPU recording here: $(tail -1 probe.err)"
fi
"$F2T" record "${args[@]}" -o w.pftrace -- sh -c "$OFFWAIT 1000 & $BURN 3; kill \$!; wait" \
	>w.out 2>w.err || fail "flight recorder with samples: exit $?: $(cat w.err)"
grep -q "snapshot triggered: stop: the command exited" w.err || fail "no snapshot at the exit: $(cat w.err)"
IFS=, read -r n first last named < <(burn_samples w.pftrace)
[ "${n:-0}" -ge 300 ] || fail "w.pftrace: $n samples of burn in its last second: $(cat w.err)"
[ "$first" -ge -5 ] && [ "$first" -le 100 ] && [ "$last" -ge 800 ] ||
	fail "w.pftrace: burn's samples from $first to $last ms of the window, not within it and spanning it"
[ $((named * 2)) -ge "$n" ] || fail "w.pftrace: only $named of burn's $n samples end in burn's spin()"
left=$(before_window w.pftrace)
[ "$left" = 0 ] || fail "w.pftrace: $left samples or off-CPU slices before the window"
if [ $bpf = 1 ]; then
	sl=$(q w.pftrace "select count(*) from slice s join thread_track tt on s.track_id = tt.id join thread t using (utid) where t.name in ('reader', 'writer', 'sleeper', 'syncer') and s.name like 'S %';")
	[ "${sl:-0}" -ge 20 ] || fail "w.pftrace: $sl off-CPU slices of offwait: $(cat w.err)"
	# offwait began after the arming and was gone at the stop: no /proc
	# snapshot saw it, the perf records named it.
	pn=$(q w.pftrace "select group_concat(distinct p.name) from thread t join process p using (upid) where t.name = 'reader';")
	[ "$pn" = offwait ] || fail "w.pftrace: offwait's process is named '$pn'"
	ok "--flight-recorder=1 --off-cpu: $n samples of burn from $first to $last ms of the window ($named named), $sl off-CPU slices of offwait, none before the window"
else
	ok "--flight-recorder=1: $n samples of burn from $first to $last ms of the window ($named named), none before it"
fi

# 2. Two snapshots of one long burn: each its own window's samples, named.
"$F2T" record --flight-recorder=1 --after=50 --max-snapshots=2 -o m.pftrace -- "$BURN" 8 \
	>m.out 2>m.err &
P=$!
sleep 2.5
kill -USR1 $P
sleep 2.5
kill -USR1 $P
wait $P
grep -c "snapshot triggered: SIGUSR1" m.err | grep -qx 2 || fail "two SIGUSR1 snapshots expected: $(cat m.err)"
for i in 1 2; do
	[ -s m-$i.pftrace ] || fail "no m-$i.pftrace: $(cat m.err)"
	IFS=, read -r n first last named < <(burn_samples m-$i.pftrace)
	[ "${n:-0}" -ge 200 ] && [ "$first" -ge -5 ] && [ "$last" -ge 800 ] ||
		fail "m-$i.pftrace: $n samples of burn from $first to $last ms of its window"
	[ $((named * 2)) -ge "$n" ] || fail "m-$i.pftrace: only $named of $n samples end in burn's spin()"
	[ "$(before_window m-$i.pftrace)" = 0 ] || fail "m-$i.pftrace: samples before its window"
done
ok "--max-snapshots=2: each snapshot has burn's samples of its own second, named"

# 3. A loss inside the window: the perf rings overflow while the recorder is stopped.
"$BURN" 6 >/dev/null &
BP=$!
"$F2T" record --flight-recorder=2 --after=50 --call-graph dwarf -F 2000 -a -o l.pftrace 2>l.err &
P=$!
sleep 1.5
kill -STOP $P
sleep 0.5
kill -CONT $P
sleep 0.3
kill -USR1 $P
wait $P || fail "loss snapshot: exit $?: $(cat l.err)"
kill $BP 2>/dev/null
wait $BP 2>/dev/null
lost=$(sed -n 's/.* CPU samples, .*, \([0-9]*\) sample records lost.*/\1/p' l.err)
[ "${lost:-0}" -gt 0 ] || fail "samples dropped inside the window, but the summary says '${lost:-nothing}' sample records lost: $(cat l.err)"
dl=$(q l.pftrace "select coalesce(sum(value), 0) from stats where severity = 'data_loss' and value > 0;")
[ "${dl:-0}" -gt 0 ] || fail "l.pftrace: no data-loss stat in trace_processor for the samples dropped inside the window: $(cat l.err)"
ok "a loss inside the window (the recorder stopped 0.5 s under 2000 Hz DWARF sampling): $lost lost in the summary, data-loss stats $dl"
exit 0
