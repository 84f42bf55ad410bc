#!/usr/bin/env bash
# `ftrace2trace report` on the fixture capture, without root: the command is
# listed, the text has its sections, the CSV its documented columns, the
# JSON says the same as the CSV, each thread's states add up to its life,
# each CPU's busy, idle and unknown to the window; every thread's voluntary
# and involuntary switch counts equal those in the kernel's own text of the
# same events (tests/fixtures/sched-tcp.trace, a second tracefs instance);
# filters and windows select; bad input gives one error line naming the
# file, exit 1, and leaves no report file behind (damaged captures:
# convert_damaged.sh).
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
here=$(cd "$(dirname "$0")" && pwd)
CAP=$here/../fixtures/sched-tcp.cap
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

"$F2T" --help | grep -q '^  report ' || fail "ftrace2trace --help does not list report"
"$F2T" report --help | grep -q -- '--slow USECS' || fail "report --help lacks --slow"

"$F2T" report --slow 500 "$CAP" >"$TMP/r.txt" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "report wrote to stderr: $(cat "$TMP/err")"
for section in "Where each thread's time went" "Context switches, migrations, wakeup latency" \
	"CPUs (% of" "Wakeup latency of all threads:" "usecs" "Waits for a CPU longer than 500.0us"; do
	grep -qF "$section" "$TMP/r.txt" || fail "the text has no '$section'"
done
ok "the text report has its sections"

"$F2T" report --csv "$CAP" >"$TMP/r.csv" || fail "report --csv failed"
"$F2T" report --json --slow 500 "$CAP" >"$TMP/r.json" || fail "report --json failed"
python3 - "$TMP/r.csv" "$TMP/r.json" "$here/../fixtures/sched-tcp.trace" <<'PY' || fail "see above"
import csv, json, re, sys

header = ("tid,pid,comm,life_ns,running_ns,runnable_woken_ns,runnable_preempted_ns,sleeping_ns,"
          "blocked_ns,idle_ns,stopped_ns,unknown_ns,switches_voluntary,switches_involuntary,"
          "migrations,wakeups,wakeup_p50_ns,wakeup_p90_ns,wakeup_p99_ns,wakeup_max_ns,"
          "wakeup_max_at_ns,wakeup_max_cpu,preempted_waits,preempted_wait_max_ns,"
          "process,input,host,kernel,kernel_version,machine,boot_id,ncpus,cpu_model,"
          "start_time,start_realtime_ns,tz_offset_min,start_ns,clock,cmdline,recorder,converter")
text = open(sys.argv[1]).read()
if text.splitlines()[0] != header:
    sys.exit(f"CSV header changed: {text.splitlines()[0]}")
rows = list(csv.DictReader(text.splitlines()))
doc = json.load(open(sys.argv[2]))
threads = {str(t['tid']): t for p in doc['processes'] for t in p['threads']}
# The columns after the figures: the process's name, the input and its recording's identity.
for p in doc['processes']:
    for t in p['threads']:
        t.update(doc['recording'], process=p['comm'], input=doc['input'])
states = ['running_ns', 'runnable_woken_ns', 'runnable_preempted_ns', 'sleeping_ns',
          'blocked_ns', 'idle_ns', 'stopped_ns', 'unknown_ns']
for r in rows:
    if int(r['life_ns']) != sum(int(r[k]) for k in states):
        sys.exit(f"{r['tid']}: states add to {sum(int(r[k]) for k in states)}, life {r['life_ns']}")
    for k, v in r.items():
        j = threads[r['tid']][k]
        if (str(j) if j is not None else '') != v:
            sys.exit(f"{r['tid']} {k}: CSV {v!r}, JSON {j!r}")
if len(rows) != len(threads):
    sys.exit(f"{len(rows)} CSV rows, {len(threads)} JSON threads")
window = doc['trace']['window_to_ns'] - doc['trace']['window_from_ns']
for c in doc['cpus']:
    if c['busy_ns'] + c['idle_ns'] + c['unknown_ns'] != window:
        sys.exit(f"cpu {c['cpu']}: busy + idle + unknown != {window}")
for p in doc['processes']:
    for k in ('running_ns', 'life_ns', 'wakeups', 'switches_voluntary'):
        if p[k] < sum(t[k] for t in p['threads']):
            sys.exit(f"process {p['pid']}: {k} {p[k]} below its threads'")
unknown = doc['unknown_ns']
if unknown['total'] != sum(v for k, v in unknown.items() if k != 'total'):
    sys.exit(f"unknown_ns parts do not add up: {unknown}")
if not doc['slow_waits'] or any(w['wait_ns'] <= 500000 for w in doc['slow_waits']):
    sys.exit("slow_waits: none, or one not over 500 us")

# The kernel's own text of the same events (times cut to the microsecond):
# switches out in R (R+) are involuntary, in any other state voluntary.
first = doc['trace']['first_event_ns'] / 1e9
last = first + doc['trace']['duration_ns'] / 1e9
kernel = {}
for line in open(sys.argv[3]):
    m = re.search(r'\s(\d+\.\d+): sched_switch: .* prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+)', line)
    if m and first - 1e-6 < float(m.group(1)) <= last and m.group(2) != '0':
        vol, inv = kernel.get(m.group(2), (0, 0))
        kernel[m.group(2)] = (vol, inv + 1) if m.group(3).startswith('R') else (vol + 1, inv)
n = 0
for r in rows:
    got = (int(r['switches_voluntary']), int(r['switches_involuntary']))
    if got != kernel.get(r['tid'], (0, 0)):
        sys.exit(f"{r['tid']} {r['comm']}: switches {got}, the kernel's text {kernel.get(r['tid'])}")
    n += sum(got)
if n != sum(v + i for v, i in kernel.values()):
    sys.exit(f"{n} switches in the report, {sum(v + i for v, i in kernel.values())} in the kernel's text")
print(f"{len(rows)} threads, {n} switches as in the kernel's text")
PY
ok "CSV columns, JSON = CSV, states add up, switch counts equal the kernel's text"

# Filters and the window.
tid=$(sed -n '2s/,.*//p' "$TMP/r.csv")
[ "$("$F2T" report --csv --tid "$tid" "$CAP" | wc -l)" -eq 2 ] || fail "--tid $tid: not one row"
[ "$("$F2T" report --csv --comm bash "$CAP" | tail -n +2 | cut -d, -f3 | sort -u)" = bash ] ||
	fail "--comm bash selects other names"
n=$("$F2T" report --csv --top 2 "$CAP" | tail -n +2 | cut -d, -f2 | sort -u | wc -l)
[ "$n" -le 2 ] || fail "--top 2: $n processes"
"$F2T" report --csv --from 0.02 --to 0.05 "$CAP" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    assert int(r["life_ns"]) <= 30000000, r' || fail "--from 0.02 --to 0.05: a life longer than the window"
"$F2T" report --csv --sort wakeups "$CAP" | python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(sys.stdin)]
assert int(rows[0]["wakeups"]) == max(int(r["wakeups"]) for r in rows)' || fail "--sort wakeups: not first"
ok "--tid, --comm, --top, --from/--to, --sort"

# Bad input: one line naming the file, exit 1, no report file left.
echo "not a capture" >"$TMP/bad.cap"
"$F2T" report -o "$TMP/out.txt" "$TMP/bad.cap" >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "$TMP/bad.cap" "$TMP/err" ||
	fail "not a capture: $(cat "$TMP/err")"
[ ! -e "$TMP/out.txt" ] || fail "not a capture: a report file was left"
"$F2T" report --top 0 "$CAP" >/dev/null 2>&1 && fail "--top 0 accepted"
"$F2T" report --slow x "$CAP" >/dev/null 2>&1 && fail "--slow x accepted"
ok "bad input: one error line naming the file, exit 1, nothing left"
exit 0
