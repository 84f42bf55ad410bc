#!/usr/bin/env bash
# Losses (issue 25, item 9): one count in the summary, and the kernel's own
# "CPU:N [LOST M EVENTS]" line in the text output where the loss happened.
#  - the kernel's text with two LOST lines (written here by hand, in the
#    format of kernel/trace/trace.c print_trace_line()) converts to a .txt
#    holding both lines, in their places, and a summary with one count, their
#    sum;
#  - as root, a recording into a ring buffer far too small for a busy
#    workload: record's "N events lost" and the conversion's "lost events: N"
#    are one number, the marked part plus the part the kernel alone counted;
#    the .txt's LOST lines add up to the marked part.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

text=$F2T_TESTS/fixtures/sched-tcp.trace
{
	head -n 20 "$text"
	echo "CPU:1 [LOST 123 EVENTS]"
	sed -n 21,40p "$text"
	echo "CPU:0 [LOST EVENTS]"
	tail -n +41 "$text"
} >"$TMP/lost.txt"
"$F2T" convert "$TMP/lost.txt" -o "$TMP/out.txt" 2>"$TMP/err" || fail "cannot convert: $(cat "$TMP/err")"
# The lines in order, each before the event line that followed it in the input.
grep -v '^#' "$TMP/out.txt" | grep -n "LOST" >"$TMP/lines"
want_after() { # LOSTLINE INPUTLINENO: the line after LOSTLINE in the output is input line N
	local next
	next=$(grep -v '^#' "$TMP/out.txt" | grep -A1 -F -x "$1" | sed -n 2p)
	[ "$next" = "$(sed -n "$2p" "$text")" ] || fail "'$1' is not before input line $2: $next"
}
[ "$(wc -l <"$TMP/lines")" -eq 2 ] || fail "the .txt has $(wc -l <"$TMP/lines") LOST lines, want 2: $(cat "$TMP/lines")"
want_after "CPU:1 [LOST 123 EVENTS]" 21
want_after "CPU:0 [LOST EVENTS]" 41
grep -q "^ftrace2trace: lost events: 123 (123 marked in the trace where they were lost, in 2 places)$" "$TMP/err" ||
	fail "the summary does not give one count of 123: $(grep lost "$TMP/err")"
[ "$(grep -c "lost events" "$TMP/err")" -eq 1 ] || fail "more than one loss line: $(grep lost "$TMP/err")"
ok "text with two LOST lines: both in the .txt in their places; $(grep "lost events" "$TMP/err")"

need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
"$PINGPONG" 3000000 >/dev/null &
load=$!
trap 'kill $load 2>/dev/null; rm -rf "$TMP"' EXIT
# 4 KB per CPU (the kernel rounds it up to a few pages) for a ping-pong
# and the irq events: losses are certain.
"$F2T" record -a -d 1 -b 4 -F 0 -e irq -k "$TMP/lost.cap" -o "$TMP/rec.txt" 2>"$TMP/err" ||
	fail "record failed: $(cat "$TMP/err")"
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null
recorded=$(sed -n 's/^ftrace2trace: recorded .*, \([0-9]*\) events lost$/\1/p' "$TMP/err")
[ -n "$recorded" ] || fail "record's summary gives no loss count: $(cat "$TMP/err")"
[ "$recorded" -gt 0 ] || skip "no events lost with a 4 KB buffer here"
line=$(grep '^ftrace2trace: lost events: ' "$TMP/err")
[ "$(echo "$line" | wc -l)" -eq 1 ] || fail "not one loss line in the conversion summary: $line"
total=$(echo "$line" | sed -n 's/^ftrace2trace: lost events: \([0-9]*\) (.*/\1/p')
marked=$(echo "$line" | sed -n 's/.* (\([0-9]*\) marked in the trace.*/\1/p')
more=$(echo "$line" | sed -n 's/.*; \([0-9]*\) more the kernel counted at stop.*/\1/p')
[ "$total" = "$recorded" ] ||
	fail "record says $recorded events lost, the conversion $total: $(cat "$TMP/err")"
[ -n "$marked" ] && [ -n "$more" ] && [ $((marked + more)) -eq "$total" ] ||
	fail "the parts do not add up to $total: $line"
sum=$(grep -v '^#' "$TMP/rec.txt" | sed -n 's/^CPU:[0-9]* \[LOST \([0-9]*\) EVENTS\]$/\1/p' |
	awk '{ s += $1 } END { print s + 0 }')
[ "$sum" -eq "$marked" ] || fail "the .txt's LOST lines add up to $sum, the summary says $marked marked"
# Each LOST line is followed by an event of its CPU (where the kernel's text puts it).
grep -v '^#' "$TMP/rec.txt" | awk '
	/^CPU:[0-9]+ \[LOST/ { split($1, a, ":"); want = sprintf("[%03d]", a[2]); next }
	want != "" { if (index($0, want) == 0) { print "after a LOST line of " want ": " $0; bad = 1 } want = "" }
	END { exit bad }' || fail "a LOST line is not followed by an event of its CPU"
ok "a lossy recording: record and the summary say $total lost ($marked marked + $more counted by the kernel alone); the .txt's LOST lines add up to $marked"
exit 0
