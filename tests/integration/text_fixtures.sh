#!/usr/bin/env bash
# ftrace text converted without root.  tests/fixtures/sched-tcp.trace is the
# kernel's own trace file for the window of sched-tcp.cap (a second tracefs
# instance, record-tgid on; make-kernel-text-fixture.sh):
# - converted to text, it gives back every line the kernel wrote, but
#   task_newtask (folded into the fork that follows, as for captures);
# - as the same file without the TGID column, with 4-column latency flags
#   (older kernels), with none (irq-info off), as an atrace dump ("TRACE:"
#   first) and inside a systrace HTML file after a JSON block, it gives the
#   same scheduling records;
# - the capture itself and its kernel text give the same scheduling records
#   (to the microsecond, all the text keeps), and capture -> .txt -> convert
#   -> .txt gives the same text back (but for the line of counts at its end).
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../fixtures/sched-tcp
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sched() { "$F2T" dump "$1" | python3 "$here/sched_records.py" --us; }

"$F2T" convert -q "$fx.trace" -o "$out/k.txt" -o "$out/k.fxt" -o "$out/k.pftrace" || fail "kernel text: convert failed"
grep -v '^#' "$fx.trace" | grep -v ' task_newtask: ' > "$out/want"
grep -v '^#' "$out/k.txt" | grep -v 'trace_event_clock_sync: parent_ts=' > "$out/got"
diff -u "$out/want" "$out/got" | head -8
cmp -s "$out/want" "$out/got" || fail "the kernel's text does not come back line for line"
echo "ok: the kernel's text comes back line for line ($(wc -l < "$out/got") lines, task_newtask folded into forks)"
n=$(grep -c ' sched_switch: ' "$fx.trace")
[ "$(grep -c ' sched_switch: ' "$out/k.txt")" = "$n" ] || fail "sched_switch count differs"
sched "$out/k.fxt" > "$out/k.sched"
[ "$(grep -c '^context_switch' "$out/k.sched")" = "$n" ] || fail "FXT holds other than $n switches"
echo "ok: $n sched_switch lines, $n context switches in the FXT"
tp=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}
if [ -n "$tp" ] && [ -x "$tp" ]; then
	echo "select count(*) as n from sched_slice;" > "$out/q.sql"
	slices=$("$tp" -q "$out/q.sql" "$out/k.pftrace" 2>/dev/null | tail -1)
	[ "$slices" = "$n" ] || fail "Perfetto finds $slices scheduling slices in the .pftrace, the text has $n switches"
	echo "ok: Perfetto reads $n scheduling slices in the .pftrace"
else
	echo "no trace processor (set TRACE_PROCESSOR): the .pftrace is not checked"
fi

# The same text in the other forms ftrace text comes in.
sed -E 's/^(.*-[0-9]+) +\( *[-0-9]+\) (\[[0-9]+\])/\1 \2/' "$fx.trace" > "$out/notgid.txt"
sed -E 's/(\[[0-9]+\]) (....)\. /\1 \2 /' "$fx.trace" > "$out/flags4.txt"
sed -E 's/(\[[0-9]+\]) ..... /\1 /' "$fx.trace" > "$out/noflags.txt"
{ echo "TRACE:"; cat "$fx.trace"; } > "$out/atrace.txt"
{
	echo '<!DOCTYPE html>'
	echo '<html><head><script>var x = "[0] 1.0: not: this";</script></head><body>'
	echo '<script class="trace-data" type="application/text">{"traceEvents": []}</script>'
	echo '<script class="trace-data" type="application/text">'
	cat "$fx.trace"
	echo '</script></body></html>'
} > "$out/systrace.html"
grep -q '(  ' "$out/notgid.txt" && fail "the TGID column was not removed"
for form in notgid flags4 noflags atrace; do
	"$F2T" convert -q "$out/$form.txt" -o "$out/$form.fxt" || fail "$form: convert failed"
done
"$F2T" convert -q "$out/systrace.html" -o "$out/html.fxt" || fail "html: convert failed"
# Without the TGID column threads are their own processes until a fork says otherwise.
sched "$out/k.fxt" | sed 's/ args:.*//' > "$out/k.sw"
for form in notgid flags4 noflags atrace html; do
	sched "$out/$form.fxt" | sed 's/ args:.*//' > "$out/$form.sw"
	cmp -s "$out/k.sw" "$out/$form.sw" || { diff "$out/k.sw" "$out/$form.sw" | head -4; fail "$form: other scheduling records"; }
done
echo "ok: without TGID, with 4 or no latency columns, as atrace and in systrace HTML: the same scheduling records"

# The capture and its kernel text; a capture's text read back.
"$F2T" convert -q "$fx.cap" -o "$out/c.txt" -o "$out/c.fxt" || fail "capture: convert failed"
sched "$out/c.fxt" > "$out/c.sched"
# Two instances: compare without timestamps where both hold records (same_sched.py).
python3 "$here/same_sched.py" "$out/c.sched" "$out/k.sched" --margin 20 ||
	fail "the capture and its kernel text give other scheduling records"
"$F2T" convert -q "$out/c.txt" -o "$out/c2.txt" -o "$out/c2.fxt" || fail "round trip: convert failed"
# The last line counts the conversion's records (a text has no task_newtask
# lines, no kernel count of what was read): the rest is the same text.
cmp <(grep -v '^# ftrace2trace: ' "$out/c.txt") <(grep -v '^# ftrace2trace: ' "$out/c2.txt") ||
	fail "round trip: the text changed"
sched "$out/c2.fxt" > "$out/c2.sched"
cmp -s "$out/c.sched" "$out/c2.sched" || fail "round trip: other scheduling records"
echo "ok: capture -> .txt -> convert: the same text and the same $(wc -l < "$out/c.sched") scheduling records"
