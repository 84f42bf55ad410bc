#!/usr/bin/env bash
# trace-cmd's trace.dat converted without root, checked against trace-cmd's
# own reading of the same files (tests/fixtures/make-tracedat-fixture.sh):
# tracedat-v6.dat (file version 6, the top buffer and an instance) and
# tracedat-v7.dat (version 7, zstd).  Every record of `trace-cmd report -N`
# is in our text, with the same CPU, pid, time, event and fields; the JSON
# meets the viewers' needs; Perfetto's trace processor (TRACE_PROCESSOR,
# when set or on PATH) finds as many scheduling slices in the FXT as there
# are sched_switch records to a task other than the idle one, and in the
# Perfetto protobuf output (.pftrace) as many as there are sched_switch
# records.  Then trace-cmd report's own output, read as
# ftrace text, gives the scheduling records of the trace.dat itself (to the
# microsecond, which is all the text keeps).  `report` reads both.  Our
# reading of the pages gives what libtracecmd's reading of the records gives.
# Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../fixtures
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tp=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}

for v in v6 v7; do
	dat=$fx/tracedat-$v.dat
	"$F2T" convert -q "$dat" -o "$out/$v.txt" -o "$out/$v.fxt" -o "$out/$v.json" -o "$out/$v.pftrace" ||
		fail "$v: convert failed"
	zcat "$fx/tracedat-$v.report.gz" > "$out/$v.report"
	echo "$v: against the committed trace-cmd report -N"
	python3 "$here/compare_tracecmd_report.py" "$out/$v.report" "$out/$v.txt" || fail "$v: text"
	if command -v trace-cmd >/dev/null; then
		echo "$v: against this machine's trace-cmd report -N"
		trace-cmd report -N "$dat" > "$out/$v.live" 2>/dev/null || fail "$v: trace-cmd report failed"
		python3 "$here/compare_tracecmd_report.py" "$out/$v.live" "$out/$v.txt" || fail "$v: text"
	else
		echo "$v: trace-cmd is not installed: compared with the committed report only"
	fi
	python3 "$here/check_json_trace.py" "$out/$v.json" --systrace "$out/$v.txt" ||
		fail "$v: JSON"
	switches=$(grep ' sched_switch: ' "$out/$v.report" | grep -vc ' next_pid=0 ')
	if [ -n "$tp" ] && [ -x "$tp" ]; then
		echo "select count(*) as n from sched_slice;" > "$out/q.sql"
		slices=$("$tp" -q "$out/q.sql" "$out/$v.fxt" 2>/dev/null | tail -1)
		[ "$slices" = "$switches" ] ||
			fail "$v: Perfetto finds $slices scheduling slices, trace-cmd $switches switches to a task"
		echo "ok: $v: Perfetto reads $slices scheduling slices, one per sched_switch to a task"
		all=$(grep -c ' sched_switch: ' "$out/$v.report")
		slices=$("$tp" -q "$out/q.sql" "$out/$v.pftrace" 2>/dev/null | tail -1)
		[ "$slices" = "$all" ] || fail "$v: Perfetto finds $slices scheduling slices in the .pftrace, trace-cmd $all switches"
		echo "ok: $v: Perfetto reads $slices scheduling slices in the .pftrace, one per sched_switch"
	else
		echo "$v: no trace processor (set TRACE_PROCESSOR): Perfetto's reading not checked"
	fi
done

# What trace-cmd report prints, read back as text: with the kernel's formats
# (-N), and with trace-cmd's plugins, whose task states come from a table of
# their own (so those are left out of the comparison).
"$F2T" dump "$out/v7.fxt" | python3 "$here/sched_records.py" --us > "$out/dat.sched"
"$F2T" dump "$out/v7.fxt" | python3 "$here/sched_records.py" --us --no-state > "$out/dat.nostate"
[ -s "$out/dat.sched" ] || fail "no scheduling records in the trace.dat's FXT"
"$F2T" convert -q "$out/v7.report" -o "$out/report.fxt" || fail "report as text: convert failed"
"$F2T" dump "$out/report.fxt" | python3 "$here/sched_records.py" --us > "$out/report.sched"
diff -u "$out/dat.sched" "$out/report.sched" | head -5
cmp -s "$out/dat.sched" "$out/report.sched" || fail "trace-cmd report -N as text: other scheduling records"
zcat "$fx/tracedat-v7.report-plugins.gz" > "$out/plugins.txt"
"$F2T" convert -q "$out/plugins.txt" -o "$out/plugins.fxt" || fail "plugins report: convert failed"
"$F2T" dump "$out/plugins.fxt" | python3 "$here/sched_records.py" --us --no-state > "$out/plugins.sched"
cmp -s "$out/dat.nostate" "$out/plugins.sched" || fail "trace-cmd report as text: other scheduling records"
echo "ok: trace-cmd report's text (with and without plugins) gives the trace.dat's $(wc -l < "$out/dat.sched") scheduling records"

# Interrupts from the text as from the file: v6 holds irq and softirq lines
# ("softirq_entry: vec=9 [action=RCU]", where vec's value runs on through the
# bracket), to the microsecond (trace-cmd rounds).
slices() { "$F2T" dump "$1" | grep -E ' duration_(begin|end) ' | grep 'category="irq"' |
	sed -E 's/^[0-9]+ //; s/\(#[0-9]+\)//' |
	awk '{ sub(/^ts=/, "", $2); $2 = "us=" int(($2 + 500) / 1000); print }'; }
"$F2T" convert -q "$fx/tracedat-v6.dat" -o "$out/v6dat.fxt" || fail "v6: convert failed"
"$F2T" convert "$out/v6.report" -o "$out/v6report.fxt" 2>"$out/v6report.err" || fail "v6 report: convert failed"
grep -q 'not an ftrace event line' "$out/v6report.err" && fail "v6 report: lines skipped: $(head -2 "$out/v6report.err")"
slices "$out/v6dat.fxt" > "$out/v6dat.irq"
slices "$out/v6report.fxt" > "$out/v6report.irq"
[ -s "$out/v6dat.irq" ] || fail "v6: no irq slices in the trace.dat's FXT"
diff -u "$out/v6dat.irq" "$out/v6report.irq" | head -5
cmp -s "$out/v6dat.irq" "$out/v6report.irq" || fail "v6: trace-cmd report's text gives other irq slices"
echo "ok: trace-cmd report's text gives the trace.dat's $(grep -c begin "$out/v6dat.irq") irq and softirq slices, no line skipped"

# report: the thread-state analysis reads a trace.dat and text as it reads captures.
for f in "$fx/tracedat-v7.dat" "$out/v7.report"; do
	"$F2T" report "$f" > "$out/report.out" 2>"$out/report.err" || fail "report $f: $(cat "$out/report.err")"
	grep -Eq ' ping +[0-9]' "$out/report.out" && grep -Eq ' pong +[0-9]' "$out/report.out" ||
		fail "report $f: no line for the ping and pong threads"
done
echo "ok: report reads the trace.dat and trace-cmd report's text"

# Our reading of the file (the layout walk's metadata, tracedat_tep.c, the
# pages by tracedat_pages.c) against libtracecmd's opening and reading of
# it: every output the same, byte for byte (the JSON holds the clock, host,
# kernel and recorder), and the same messages.
for v in v6 v7 local; do
	for how in ours libtracecmd; do
		hook=()
		[ "$how" = libtracecmd ] && hook=(env F2T_TEST_TRACEDAT_LIBTRACECMD=1)
		"${hook[@]}" "$F2T" convert -v "$fx/tracedat-$v.dat" -o "$out/$how.txt" -o "$out/$how.fxt" \
			-o "$out/$how.pftrace" -o "$out/$how.json" 2>"$out/$how.err" || fail "$v ($how): convert failed"
	done
	grep -q 'libtracecmd reads it (' "$out/ours.err" && fail "$v: not read by us"
	grep -q 'libtracecmd reads it (' "$out/libtracecmd.err" || fail "$v: the test hook did nothing"
	for ext in txt fxt pftrace json; do
		cmp -s "$out/ours.$ext" "$out/libtracecmd.$ext" || fail "$v: our reading gives another .$ext than libtracecmd's"
	done
	diff <(grep -v "libtracecmd reads it\|wrote\| events from " "$out/ours.err") \
		<(grep -v "libtracecmd reads it\|wrote\| events from " "$out/libtracecmd.err") >/dev/null ||
		fail "$v: other messages than with libtracecmd's reading: $(diff "$out/ours.err" "$out/libtracecmd.err")"
	echo "ok: $v: our reading gives the same .txt, .fxt, .pftrace, .json and messages as libtracecmd's ($(grep -c . "$out/ours.txt") text lines)"
done

# The clock: trace-cmd records on "local" unless told -C mono; said, and kept.
"$F2T" convert "$fx/tracedat-local.dat" -o "$out/local.json" -o "$out/local.txt" 2>"$out/local.err" ||
	fail "local clock: convert failed"
grep -q "trace clock 'local', not CLOCK_MONOTONIC" "$out/local.err" || fail "no warning for the local clock"
grep -q '^# trace_clock: local ' "$out/local.txt" || fail "the text does not say its clock is local"
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["otherData"]["clock"] != "local")' \
	"$out/local.json" || fail "the JSON does not say its clock is local"
"$F2T" convert "$fx/tracedat-v7.dat" -o "$out/mono.fxt" 2>"$out/mono.err" || fail "convert failed"
grep -q 'trace clock' "$out/mono.err" && fail "a warning for the mono clock: $(cat "$out/mono.err")"
echo "ok: a trace.dat on the local clock is said to be, in the warning, the text and the JSON; mono is not"
