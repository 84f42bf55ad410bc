#!/usr/bin/env bash
# Perfetto traces (.pftrace) as inputs of convert and report, without root:
# - every fixture converted to .pftrace reports as the fixture itself does,
#   thread by thread (the whole --csv row: running, runnable, sleeping,
#   wakeup counts, percentiles and maximum...);
# - a trace written by hand from Perfetto's protos (make_pftrace.py: compact
#   sched in two bundles out of time order, a process tree, perf samples with
#   interned stacks and an incremental state cleared between them, a track
#   event slice on CLOCK_MONOTONIC) reports the figures worked out by hand
#   below; converted, its JSON is read by Trace Viewer's importer and its
#   .pftrace by Perfetto's, with the samples' stacks and the slice where
#   they were;
# - a trace without wakeups says the wakeup latency is unknown;
# - damaged traces: a clear error, a non-zero exit, no output file;
# - merge, which reads JSON, converts a .pftrace first.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$F2T_TESTS/helpers/fixture-common.bash"
fx=$FIX out=$TMP

# Round trips: the report of FILE and of FILE converted to .pftrace, row by row, every
# column but the input's name (the recording's identity included: the .pftrace carries it).
no_input() { python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="latin-1")))
c = rows[0].index("input")
csv.writer(sys.stdout).writerows(r[:c] + r[c + 1:] for r in rows)' "$1"; }
for f in "$fx"/sched-tcp.cap "$fx"/weird-comm.cap "$fx"/tracedat-v6.dat "$fx"/sched-tcp.trace; do
	n=$(basename "$f")
	"$F2T" convert -q "$f" -o "$out/$n.pftrace" || fail "$n: convert to .pftrace failed"
	"$F2T" report -q --csv "$f" > "$out/want.raw" || fail "$n: report failed"
	"$F2T" report -q --csv "$out/$n.pftrace" > "$out/got.raw" || fail "$n.pftrace: report failed"
	no_input "$out/want.raw" > "$out/want.csv"
	no_input "$out/got.raw" > "$out/got.csv"
	rows=$(($(wc -l < "$out/want.csv") - 1))
	[ "$rows" -gt 2 ] || fail "$n: only $rows threads in its report"
	if ! cmp -s "$out/want.csv" "$out/got.csv"; then
		diff "$out/want.csv" "$out/got.csv" | head -6
		fail "$n: the .pftrace's report differs from the input's"
	fi
	echo "ok: $n as .pftrace reports as itself, thread by thread ($rows threads)"
done

python3 "$here/make_pftrace.py" sched "$out/h.pftrace" || fail "make_pftrace.py sched"
"$F2T" report -q --csv "$out/h.pftrace" > "$out/h.csv" || fail "report of the hand-written trace failed"
# Timeline (make_pftrace.py), boot clock, ns, one CPU:
#   1000 idle -> app(100)   2000 app wakes worker(101)   3000 app sleeps -> worker
#   7000 worker wakes app   9000 worker sleeps -> app    12000 app sleeps -> idle
# app:    running 1000-3000 + 9000-12000 = 5000, sleeping 3000-7000 = 4000,
#         woken and waiting 7000-9000 = 2000: one wakeup, its latency 2000
# worker: woken and waiting 2000-3000 = 1000 (one wakeup), running 3000-9000 = 6000,
#         sleeping 9000-12000 = 3000, before its first event 1000-2000 unknown
# Its name comes from the process tree; app's from the process's cmdline (/usr/bin/app).
row() { awk -F, -v t="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == t { print $c["pid"], $c["comm"], $c["running_ns"], $c["runnable_woken_ns"],
	  $c["sleeping_ns"], $c["unknown_ns"], $c["wakeups"], $c["wakeup_max_ns"] }' "$out/h.csv"; }
got=$(row 100)
[ "$got" = "100 app 5000 2000 4000 0 1 2000" ] || fail "app: $got (pid comm running woken sleeping unknown wakeups max)"
got=$(row 101)
[ "$got" = "100 worker 6000 1000 3000 1000 1 1000" ] || fail "worker: $got"
echo "ok: the hand-written trace reports the figures worked out by hand"

"$F2T" convert -q "$out/h.pftrace" -o "$out/h.json" -o "$out/h2.pftrace" || fail "convert of the hand-written trace failed"
ttv=${TTV_CHECK:-}
if [ -n "$ttv" ] && [ -x "$ttv" ]; then
	"$ttv" "$out/h.json" > "$out/ttv" || fail "ttv-check: $(head -c 400 "$out/ttv")"
	grep -q '"ok":true' "$out/ttv" || fail "ttv-check: $(head -c 400 "$out/ttv")"
	grep -q '"globalSamples":2' "$out/ttv" || fail "ttv-check finds other than 2 samples: $(head -c 300 "$out/ttv")"
	echo "ok: its JSON is read by Trace Viewer's importer, 2 samples"
else
	echo "SKIP (part): TTV_CHECK not set"
fi
tp=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}
if [ -n "$tp" ] && [ -x "$tp" ]; then
	# The leaf of each sample: the same iid 1 named compute, then (state cleared) other.
	cat > "$out/q.sql" <<'SQL'
select ps.ts, ps.utid > 0 as t, f.name from perf_sample ps
  join stack_profile_callsite c on ps.callsite_id = c.id
  join stack_profile_frame f on c.frame_id = f.id order by ps.ts;
SQL
	got=$("$tp" -q "$out/q.sql" "$out/h2.pftrace" 2>/dev/null | tail -n +2 | tr '\n' ' ')
	[ "$got" = '5000,1,"compute" 6000,1,"other" ' ] || fail "Perfetto reads the samples as: $got"
	echo "select ts, dur from slice where name = 'work';" > "$out/s.sql"
	got=$("$tp" -q "$out/s.sql" "$out/h2.pftrace" 2>/dev/null | tail -1)
	[ "$got" = "4000,2000" ] || fail "Perfetto reads the slice 'work' at $got, not 4000,2000"
	echo "ok: converted back to .pftrace, Perfetto reads its samples' stacks and its slice where they were"
else
	echo "SKIP (part): trace_processor_shell not found (TRACE_PROCESSOR)"
fi

python3 "$here/make_pftrace.py" nowaking "$out/nw.pftrace" || fail "make_pftrace.py nowaking"
"$F2T" report -q "$out/nw.pftrace" > "$out/nw.txt" || fail "report of a trace without wakeups failed"
grep -q '^Wakeup latency: unknown: the trace has no sched_waking or sched_wakeup events' "$out/nw.txt" ||
	fail "a trace without wakeups: $(grep -i 'wakeup latency' "$out/nw.txt")"
echo "ok: a trace without wakeups: the wakeup latency is said to be unknown"

# Damage: cut inside a packet, a length made to run past the end, a packet that is no message.
size=$(stat -c %s "$out/h.pftrace")
head -c $((size - 7)) "$out/h.pftrace" > "$out/cut.pftrace"
python3 - "$out/h.pftrace" "$out/long.pftrace" "$out/notmsg.pftrace" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
# The first packet's length, one byte (< 128), made 127: past the packets it covered.
assert data[0] == 0x0a and data[1] < 0x80
open(sys.argv[2], "wb").write(data[:1] + b"\x7f" + data[2:])
# Field 1 as a varint: a packet that is not a message, after a whole first packet.
n = 2 + data[1]
open(sys.argv[3], "wb").write(data[:n] + b"\x08\x05" + data[n:])
PY
for bad in cut long notmsg; do
	"$F2T" convert -q "$out/$bad.pftrace" -o "$out/$bad.json" 2> "$out/err" && fail "$bad: convert succeeded"
	grep -q "damaged Perfetto trace" "$out/err" || fail "$bad: $(cat "$out/err")"
	[ ! -e "$out/$bad.json" ] || fail "$bad: an output was left"
	"$F2T" report -q "$out/$bad.pftrace" > /dev/null 2>&1 && fail "$bad: report succeeded"
done
echo "ok: damaged traces: 'damaged Perfetto trace' with the offset, exit non-zero, no output"

# merge reads JSON: a .pftrace is converted first, and merges as its conversion does; the
# messages and --offset name it as given; nothing is left in TMPDIR.
printf '{"traceEvents":[{"name":"app","ph":"X","ts":1000,"dur":50,"pid":1,"tid":1}]}' > "$out/app.json"
mkdir "$out/tmp"
TMPDIR=$out/tmp "$F2T" merge -o "$out/m.json" "$out/h.pftrace" "$out/app.json" --offset "$out/app.json=1" \
	2> "$out/err" || fail "merge of a .pftrace failed: $(cat "$out/err")"
grep -q "^ftrace2trace: $out/h.pftrace: the reference clock" "$out/err" || fail "merge names: $(cat "$out/err")"
[ -z "$(ls -A "$out/tmp")" ] || fail "merge left $(ls "$out/tmp") in TMPDIR"
"$F2T" merge -q -o "$out/m2.json" "$out/h.json" "$out/app.json" --offset "$out/app.json=1" ||
	fail "merge of the .pftrace's conversion failed"
python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(not all(a.get(k) == b.get(k) for k in ("traceEvents", "systemTraceEvents")))' "$out/m.json" "$out/m2.json" ||
	fail "merging the .pftrace gives other events than merging its conversion"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not any(e.get("name") == "app" and e["ts"] == 1001000 for e in d["traceEvents"]))' "$out/m.json" ||
	fail "the app event is not at 1 s + 1000 us in the merge"
echo "ok: merge converts a .pftrace first: the same merge as of its conversion, named as given, nothing left"
