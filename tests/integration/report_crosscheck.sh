#!/usr/bin/env bash
# `ftrace2trace report` against tools we did not write, on one run of one
# workload (two threads pinned to CPU 0 competing, and a thread busy 5 ms /
# asleep 10 ms, at the same time):
#  - `perf sched record` records the same run, around `ftrace2trace record`;
#    `perf sched latency -p` gives each thread's runtime (the kernel's own
#    sched_stat_runtime) and its longest delay (switch in minus wakeup, or
#    minus the switch out when it was preempted).  The report's running time
#    must be within 1% of perf's, except for the time it calls unknown (which
#    perf attributes to a task); its longest wait (after a wakeup or a
#    preemption) within 1% + 50 us of perf's longest delay, or shorter by at
#    most its unknown time (a wait whose end the trace does not show).
#  - Perfetto's trace processor reads the FXT written from the same capture:
#    each thread's time in its `sched` table must be within 0.1% + 50 us of
#    the report's running time.
# Either part is skipped, saying why, when its tool is missing.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
. "$F2T_TESTS/helpers/report-common.bash"
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}
PERF=$(command -v perf || true)
[ -n "$PERF" ] || [ -x "$TP" ] || skip "neither perf nor Perfetto's trace processor (TRACE_PROCESSOR) is here"

WRAP=()
if [ -n "$PERF" ]; then
	if "$PERF" sched record -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
		WRAP=("$PERF" sched record -o "$TMP/perf.data" --)
	else
		echo "SKIP (part): perf sched record does not work here"
		PERF=
	fi
fi
record both sh -c "'$LOAD' compete 600 & '$LOAD' busy-sleep 5 10 40; wait"
tids=$(sed -n 's/.* tid=\([0-9]*\) .*/\1/p' "$TMP/both.out" | paste -sd,)
[ "$(tr ',' '\n' <<<"$tids" | wc -l)" -eq 3 ] || fail "the workload printed: $(cat "$TMP/both.out")"
"$F2T" report --csv --tid "$tids" "$TMP/both.cap" >"$TMP/both.csv" || fail "report failed"

rc=0
if [ -n "$PERF" ]; then
	"$PERF" sched latency -p -i "$TMP/perf.data" >"$TMP/latency.txt" 2>"$TMP/latency.err" ||
		fail "perf sched latency: $(cat "$TMP/latency.err")"
	python3 - "$TMP/both.csv" "$TMP/latency.txt" <<'PY' || rc=1
import csv, re, sys

rows = {r['tid']: r for r in csv.DictReader(open(sys.argv[1]))}
perf = {}
for line in open(sys.argv[2]):
    m = re.match(r'\s*(.+?):(\d+)\s*\|\s*([\d.]+) ms\s*\|\s*(\d+)\s*\|\s*avg:\s*([\d.]+) ms'
                 r'\s*\|\s*max:\s*([\d.]+) ms', line)
    if m:
        perf[m.group(2)] = (float(m.group(3)) * 1e6, float(m.group(6)) * 1e6)
bad = 0
for tid, r in rows.items():
    if tid not in perf:
        print(f"{tid} {r['comm']}: not in perf sched latency's output")
        bad = 1
        continue
    run, unknown = int(r['running_ns']), int(r['unknown_ns'])
    waits = [int(r[k]) for k in ('wakeup_max_ns', 'preempted_wait_max_ns') if r[k]]
    wait = max(waits) if waits else 0
    prun, pmax = perf[tid]
    ok_run = run <= prun * 1.01 + 2e5 and run + unknown >= prun * 0.99 - 2e5
    ok_max = wait <= pmax * 1.01 + 5e4 and (wait >= pmax * 0.99 - 5e4 or wait + unknown >= pmax)
    print(f"{tid} {r['comm']}: running {run / 1e6:.3f} ms (+ {unknown / 1e6:.3f} unknown),"
          f" perf {prun / 1e6:.3f} ms{'' if ok_run else '  <-- differ'};"
          f" longest wait {wait / 1e6:.3f} ms, perf max delay {pmax / 1e6:.3f} ms"
          f"{'' if ok_max else '  <-- differ'}")
    bad |= not (ok_run and ok_max)
sys.exit(bad)
PY
	[ "$rc" = 0 ] && ok "running time and longest wait agree with perf sched latency"
fi

if [ -x "$TP" ]; then
	echo "select t.tid, sum(s.dur) from sched s join thread t using (utid) where t.tid in ($tids) group by t.tid;" >"$TMP/q.sql"
	"$TP" -q "$TMP/q.sql" "$TMP/both.fxt" >"$TMP/tp.txt" 2>"$TMP/tp.err" ||
		fail "trace processor: $(tail -3 "$TMP/tp.err")"
	python3 - "$TMP/both.csv" "$TMP/tp.txt" <<'PY' || rc=1
import csv, sys

rows = {r['tid']: r for r in csv.DictReader(open(sys.argv[1]))}
tp = dict(line.strip().split(',') for line in open(sys.argv[2]) if line[:1].isdigit())
bad = 0
for tid, r in rows.items():
    run, got = int(r['running_ns']), int(tp.get(tid, -1))
    ok = abs(run - got) <= run * 0.001 + 5e4
    print(f"{tid} {r['comm']}: running {run / 1e6:.3f} ms, Perfetto's sched {got / 1e6:.3f} ms"
          f"{'' if ok else '  <-- differ'}")
    bad |= not ok
sys.exit(bad)
PY
	[ "$rc" = 0 ] && ok "running time agrees with Perfetto's sched table of the same capture"
else
	echo "SKIP (part): no Perfetto trace processor (set TRACE_PROCESSOR)"
fi
[ "$rc" = 0 ] || fail "the report and the other tools differ (above)"
exit 0
