#!/usr/bin/env bash
# A recording that starts while another runs must leave the other's tracefs
# instance alone, however the other's recorder looks from here: a copy of
# the binary under another name, a recorder in another PID namespace (its
# instance is ftrace2trace-1, and pid 1 here is some other program).  The
# first recording keeps tracing: its trace covers its whole run (the last
# sched_switch within half a second of its end, its end marker present),
# and it ends as usual; the second says, in one line, whose instance it
# left alone.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
cd "$TMP" || exit 1
cp "$F2T" othername || fail "cp"

# wait_instance NAME: true once tracefs has instance NAME (up to 10 s).
wait_instance() {
	for _ in $(seq 200); do
		[ -d "$T/instances/$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# span FILE: seconds from the first to the last sched_switch of a text trace.
span() {
	awk '/ sched_switch: / {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1); if (first == "") first = t; last = t }
	} END { if (first == "") print -1; else printf "%.3f\n", last - first }' "$1"
}

# victim NAME ERR TXT: checks what the first recording (of 4 s) wrote.
victim() {
	local s
	s=$(span "$3")
	awk -v s="$s" 'BEGIN { exit !(s >= 3.5) }' ||
		fail "$1: its trace stops after $s s of 4: its tracing was turned off by the second recording"
	grep -q "trace_event_clock_sync: name=ftrace2trace-end-" "$3" ||
		fail "$1: no end marker in its trace: $(grep -i warning "$2" | head -2)"
	grep -q "^ftrace2trace: recorded 4.0" "$2" || fail "$1: $(cat "$2")"
	SPAN=$s
}

# A renamed copy records 4 s; a second recording starts and ends meanwhile.
./othername record -a -d 4 -o a.txt 2>a.err &
first=$!
wait_instance "ftrace2trace-$first" || fail "no instance ftrace2trace-$first: $(cat a.err)"
sleep 0.3
timeout -k 5 30 "$F2T" record -a -d 1 -o b.fxt 2>b.err || fail "second record: $(cat b.err)"
[ -d "$T/instances/ftrace2trace-$first" ] || fail "the running recording's instance was removed"
[ "$(cat "$T/instances/ftrace2trace-$first/tracing_on")" = 1 ] ||
	fail "the running recording's tracing was turned off: $(cat b.err)"
wait "$first" || fail "the renamed recorder: exit $?: $(cat a.err)"
is_fxt b.fxt || fail "the second recording's trace is not whole"
grep -q "instance ftrace2trace-$first belongs to a recording that is still running: left alone" b.err ||
	fail "the second recording did not say it left ftrace2trace-$first alone: $(cat b.err)"
[ "$(grep -c "ftrace2trace-$first" b.err)" -eq 1 ] || fail "said more than once: $(cat b.err)"
victim "renamed binary" a.err a.txt
ok "a renamed recorder's instance left alone by a second record (said once); its trace covers $SPAN s of 4"

# The same from another PID namespace, where the recorder is pid 1.
if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
	echo "(no PID namespace here: unshare --pid --fork fails; that half is not run)"
	exit 0
fi
[ -d "$T/instances/ftrace2trace-1" ] && skip "an instance ftrace2trace-1 exists already"
unshare --pid --fork --mount-proc "$F2T" record -a -d 4 -o c.txt 2>c.err &
ns=$!
wait_instance ftrace2trace-1 || fail "no instance ftrace2trace-1 from the namespaced recorder: $(cat c.err)"
sleep 0.3
timeout -k 5 30 "$F2T" record -a -d 1 -o d.fxt 2>d.err || fail "second record: $(cat d.err)"
[ "$(cat "$T/instances/ftrace2trace-1/tracing_on" 2>/dev/null)" = 1 ] ||
	fail "the namespaced recording's tracing was turned off: $(cat d.err)"
wait "$ns" || fail "the namespaced recorder: exit $?: $(cat c.err)"
grep -q "instance ftrace2trace-1 belongs to a recording that is still running: left alone" d.err ||
	fail "the second recording did not say it left ftrace2trace-1 alone: $(cat d.err)"
victim "PID namespace" c.err c.txt
ok "a recorder in another PID namespace (pid 1 there) left alone; its trace covers $SPAN s of 4"
exit 0
