#!/usr/bin/env bash
# The kernel's own text, converted.  While `ftrace2trace record` records the
# ping-pong workload, a reference tracefs instance records the same
# scheduling events and its `trace` file is saved (the kernel formats it
# itself: tests/helpers/with_ref_instance.sh).  That text converted holds
# as many sched_switch records as the kernel wrote, and the same scheduling
# records as our own capture of the run, CPU by CPU; our capture converted
# to text and back gives the same text and scheduling records.
# The records are compared from 5 ms after the later recorder started to
# 5 ms before the earlier stopped.
# Needs root.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
here=$F2T_TESTS/integration
need_root
command -v python3 >/dev/null || skip "python3 is not installed"
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

"$F2T_TESTS/helpers/with_ref_instance.sh" "$TMP/ref.trace" -- \
	"$F2T" record --no-sample -k "$TMP/ours.cap" -o "$TMP/ours.fxt" -- "$PINGPONG" 5000 \
	>"$TMP/out" 2>"$TMP/err" || fail "record failed: $(tail -5 "$TMP/err")"
"$F2T" convert -q "$TMP/ref.trace" -o "$TMP/k.txt" -o "$TMP/k.fxt" || fail "convert of the kernel text failed"
want=$(grep -c ' sched_switch: ' "$TMP/ref.trace")
[ "$want" -gt 5000 ] || fail "the kernel's text has only $want switches for 5000 round trips"
[ "$(grep -c ' sched_switch: ' "$TMP/k.txt")" = "$want" ] || fail "sched_switch lines differ"
"$F2T" dump "$TMP/k.fxt" | python3 "$here/sched_records.py" > "$TMP/k.sched"
got=$(grep -c '^context_switch' "$TMP/k.sched")
[ "$got" = "$want" ] || fail "$got context switches in the FXT, $want sched_switch lines in the text"
ok "$want sched_switch lines in the kernel's text, as many in our text and FXT"

"$F2T" dump "$TMP/ours.fxt" | python3 "$here/sched_records.py" > "$TMP/ours.sched"
# The reference instance overwrites its oldest events when its buffer fills
# (a busy machine): what it dropped, CPU by CPU, cannot be compared.
kept=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$TMP/ref.trace")
if [ -n "$kept" ] && [ "${kept% *}" != "${kept#* }" ]; then
	echo "note: the reference instance kept only ${kept% *} of ${kept#* } events (its buffer filled): not compared with our capture"
else
	python3 "$here/same_sched.py" "$TMP/k.sched" "$TMP/ours.sched" --min 1000 --margin 5000000 ||
		fail "the kernel's text and our capture give other scheduling records"
fi

"$F2T" convert -q "$TMP/ours.cap" -o "$TMP/c.txt" -o "$TMP/c.fxt" || fail "convert of the capture failed"
"$F2T" convert -q "$TMP/c.txt" -o "$TMP/c2.txt" -o "$TMP/c2.fxt" || fail "convert of its text failed"
# (but for the line of counts at the end: a text has no task_newtask lines)
cmp -s <(grep -v '^# ftrace2trace: ' "$TMP/c.txt") <(grep -v '^# ftrace2trace: ' "$TMP/c2.txt") ||
	fail "capture -> .txt -> convert -> .txt changed the text"
"$F2T" dump "$TMP/c.fxt" | python3 "$here/sched_records.py" --us > "$TMP/c.sched"
"$F2T" dump "$TMP/c2.fxt" | python3 "$here/sched_records.py" --us > "$TMP/c2.sched"
cmp -s "$TMP/c.sched" "$TMP/c2.sched" || fail "capture -> .txt -> convert: other scheduling records"
ok "capture -> .txt -> convert: the same text and $(wc -l < "$TMP/c.sched") scheduling records"
