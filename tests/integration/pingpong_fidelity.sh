#!/usr/bin/env bash
# The FXT of a ping-pong recording against the kernel's own account of the
# same run: a second tracefs instance records the same events meanwhile, and
# its `trace` file (formatted by the kernel) is the reference.  For the two
# ping-pong threads, the switch-outs, switch-ins and wakeups in the FXT must
# equal the kernel's, one for one: nothing lost, nothing invented.  Names and
# the shared process must be right, and each wakeup must name its waker.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
# On one CPU every hand-over is a switch, so each thread is switched out
# at least once per round trip.
N=3000

bash "$F2T_TESTS/helpers/with_ref_instance.sh" "$TMP/ref.trace" -- \
	"$F2T" record -o "$TMP/pp.fxt" -- taskset -c 0 "$PINGPONG" "$N" >"$TMP/out" 2>"$TMP/err" ||
	fail "record failed: $(cat "$TMP/err")"
read -r tgid ping pong < <(sed -n 's/.*tgid=\([0-9]*\) ping=\([0-9]*\) pong=\([0-9]*\).*/\1 \2 \3/p' "$TMP/out")
[ -n "${pong:-}" ] || fail "no ping-pong summary line: $(cat "$TMP/out")"
grep -q "lost events: 0 " "$TMP/err" || fail "events were lost: $(cat "$TMP/err")"
"$F2T" dump "$TMP/pp.fxt" >"$TMP/dump" || fail "dump failed"

# count PATTERN FILE
count() { grep -cE -- "$1" "$2"; }

for who in ping pong; do
	tid=${!who}
	fxt_out=$(count "context_switch .* out=$tid in=" "$TMP/dump")
	fxt_in=$(count "context_switch .* in=$tid args" "$TMP/dump")
	ker_out=$(count "sched_switch: .* prev_pid=$tid prev_prio" "$TMP/ref.trace")
	ker_in=$(count "sched_switch: .* next_pid=$tid next_prio" "$TMP/ref.trace")
	[ "$fxt_out" -ge "$N" ] || fail "$who ($tid): $fxt_out switch-outs for $N round trips"
	[ "$fxt_out" -eq "$ker_out" ] || fail "$who: $fxt_out switch-outs in the FXT, the kernel recorded $ker_out"
	[ "$fxt_in" -eq "$ker_in" ] || fail "$who: $fxt_in switch-ins in the FXT, the kernel recorded $ker_in"
	ok "$who: $fxt_out switch-outs and $fxt_in switch-ins, as the kernel recorded"

	# Named, and in the ping-pong's process.
	grep -qE "kernel_object type=thread\(2\) koid=$tid name=\"$who\" args: process=koid:$tgid\$" "$TMP/dump" ||
		fail "no thread record naming $tid \"$who\" in process $tgid"
done
grep -qE "kernel_object type=process\(1\) koid=$tgid name=\"pingpong\"" "$TMP/dump" ||
	fail "process $tgid not named pingpong"
ok "threads named ping and pong, both in process pingpong ($tgid)"

# Ping is woken by pong and the other way round; the kernel's sched_waking
# lines carry the waker as the line's TASK-PID.  Not every round trip needs a
# wakeup (a wakee preempted before it blocked is still runnable), so the
# count to match is the kernel's.
for pair in "$ping $pong" "$pong $ping"; do
	read -r wakee waker <<<"$pair"
	fxt=$(count "thread_wakeup .* koid=$wakee args: .*waker=koid:$waker\$" "$TMP/dump")
	ker=$(count "^ *[^ ].*-$waker +\(.*sched_waking: comm=.* pid=$wakee prio" "$TMP/ref.trace")
	[ "$fxt" -ge $((N / 4)) ] || fail "$wakee woken by $waker only $fxt times for $N round trips"
	[ "$fxt" -eq "$ker" ] || fail "$wakee woken by $waker: $fxt in the FXT, $ker in the kernel's trace"
	ok "$wakee woken by $waker $fxt times, as the kernel recorded"
done

# Whole-trace count: every record our instance's ring buffer handed out was
# decoded (the kernel's own per-CPU "read events" count), and every
# sched_switch decoded became one context-switch record.
grep -q "decoded [0-9]* ring-buffer records, as many as the kernel handed out" "$TMP/err" ||
	fail "records decoded differ from the kernel's count: $(cat "$TMP/err")"
decoded=$(sed -n 's/.* events from .*: \([0-9]*\) sched_switch.*/\1/p' "$TMP/err")
records=$("$F2T" dump --stats "$TMP/pp.fxt" | awk '$1 == "context_switch" {print $2}')
[ -n "$decoded" ] && [ "$decoded" -eq "$records" ] ||
	fail "$decoded sched_switch decoded, $records context-switch records written"
ok "all $records sched_switch events the kernel handed out are in the FXT"
exit 0
