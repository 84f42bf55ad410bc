#!/usr/bin/env bash
# `ftrace2trace report --diff A B` on two recordings of one workload whose
# second run waits about twice as long for the CPU (tests/helpers/schedload
# rivals): "victim" must use 1000 ms of CPU on CPU 0 while one "rival" (A)
# or two (B) spin there, all SCHED_RR at one priority so other load on the
# machine does not decide who waits (round robin: the victim waits about
# 1000 ms, then about 2000 ms); "bystander", alone on CPU 1, does the same in
# both.  The diff must match threads by name across runs (their pids
# differ): the victim's runnable time up by 50% to 250% (round robin
# slices of 100 ms, a slice more or less at each end: with 200 ms of work
# A waited 1 to 3 slices and B 2 to 4, and +33% was seen; with 1000 ms, A
# waits 9 to 11 and B 18 to 22, +64% to +144%), each run's equal
# (within 10%) to what the victim measured itself (its life less its CPU
# time); the bystander's sleeping time unchanged (within 10%) and its
# switches the same within three (20 sleeps and its end, and a preemption
# now and then: 22 -> 21 and 21 -> 23 seen); the
# rivals 1 then 2; CSV and JSON agree.  With --off-cpu in this build, the
# --folded diff's two columns are each run's own `report --off-cpu
# --folded` lines (difffolded.pl's form).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
. "$F2T_TESTS/helpers/report-common.bash"
command -v chrt >/dev/null || skip "chrt (util-linux) is not installed"
cd "$TMP" || exit 1

# run NAME RIVALS: the workload recorded into NAME.cap, its own figures in NAME.out.
run() {
	"$F2T" record -q -b 32768 --no-sample "${offcpu[@]}" -k "$1.cap" -o "$1.json" -- \
		chrt -r 1 "$LOAD" rivals 1000 "$2" >"$1.out" 2>"$1.err"
}
offcpu=(--off-cpu)
if ! run A 1; then
	grep -q "built without BPF" A.err || fail "record A: $(cat A.err)"
	offcpu=()
	run A 1 || fail "record A: $(cat A.err)"
fi
run B 2 || fail "record B: $(cat B.err)"
"$F2T" report --diff --json A.cap B.cap >diff.json 2>err || fail "report --diff --json: $(cat err)"
"$F2T" report --diff --csv A.cap B.cap >diff.csv 2>err || fail "report --diff --csv: $(cat err)"
"$F2T" report --diff A.cap B.cap >diff.txt 2>err || fail "report --diff: $(cat err)"
grep -q "^  thread victim$" diff.txt || fail "the text has no 'thread victim': $(head -30 diff.txt)"
grep -q "^B: B.cap$" diff.txt || fail "the text does not name B"

python3 - <<'PY' || fail "see above"
import csv, json, sys

d = json.load(open('diff.json'))
own = {}
for run in 'AB':
    for line in open(f'{run}.out'):
        f = dict(kv.split('=') for kv in line.split()[1:])
        own.setdefault(run, {})[line.split()[0]] = {k: int(v) for k, v in f.items()}
threads = {t['thread']: t['metrics'] for p in d['processes'] for t in p['threads']
           if p['process'] == 'schedload'}
bad = []

def need(ok, what):
    print(('ok: ' if ok else 'BAD: ') + what)
    if not ok:
        bad.append(what)

v = threads['victim']['runnable_ns']
for run, side in (('A', 'a'), ('B', 'b')):
    o = own[run]['victim']
    want = o['life_ns'] - o['cpu_ns']
    need(abs(v[side] - want) <= 0.1 * want,
         f"victim runnable in {run}: {v[side] / 1e6:.1f} ms, it measured {want / 1e6:.1f} ms")
need(v['change'] == v['b'] - v['a'], 'change = B - A')
need(50 <= v['change_pct'] <= 250,
     f"victim waited {v['change_pct']:+.0f}% longer for the CPU with a second rival")
# Not its running time: on CPU 1 this kernel records no switch from the idle
# task, so a thread there that wakes an idle CPU runs for a time the trace
# cannot tell (the report's "unknown"; seen: 11 and 8.5 of its 100 ms), and
# its wakeups are counted where the switch in was seen (seen: 2 and 3).
b = threads['bystander']['sleeping_ns']
need(abs(b['change_pct']) <= 10, f"bystander sleeping_ns: {b['a'] / 1e6:.1f} -> {b['b'] / 1e6:.1f} ms"
     f" ({b['change_pct']:+.1f}%)")
b = threads['bystander']['switches']
# Its own 20 sleeps and its end, plus whatever of higher priority took CPU 1
# from it now and then (21 -> 23 seen in CI; what it was is not known).
need(abs(b['a'] - b['b']) <= 3 and min(b['a'], b['b']) >= 20, f"bystander switches: {b['a']} -> {b['b']}")
r = threads['rival']['threads']
need((r['a'], r['b'], r['change']) == (1, 2, 1), f"rivals: {r['a']} -> {r['b']}")
need(d['a']['input'] == 'A.cap' and d['b']['input'] == 'B.cap' and
     d['a']['boot_id'] == open('/proc/sys/kernel/random/boot_id').read().strip(),
     'A and B carry their identity')
rows = {(r['kind'], r['thread'], r['metric']): r for r in csv.DictReader(open('diff.csv'))}
c = rows[('thread', 'victim', 'runnable_ns')]
need((int(c['a']), int(c['b']), int(c['change'])) == (v['a'], v['b'], v['change']),
     'the CSV says what the JSON says')
sys.exit(1 if bad else 0)
PY
ok "report --diff: the victim's wait for the CPU doubled, the bystander's time did not change"

[ ${#offcpu[@]} -gt 0 ] || skip "this build has no BPF: the off-CPU diff is not checked"
"$F2T" report --diff --folded A.cap B.cap >diff.folded 2>err || fail "--diff --folded: $(cat err)"
"$F2T" report --off-cpu --folded A.cap >A.folded 2>err || fail "A --folded: $(cat err)"
"$F2T" report --off-cpu --folded B.cap >B.folded 2>err || fail "B --folded: $(cat err)"
python3 - <<'PY' || fail "see above"
import sys

def folded(path):
    out = {}
    for line in open(path):
        stack, us = line.rstrip('\n').rsplit(' ', 1)
        out[stack] = int(us)
    return out

a, b = folded('A.folded'), folded('B.folded')
diff = {}
for line in open('diff.folded'):
    stack, x, y = line.rstrip('\n').rsplit(' ', 2)
    diff[stack] = (int(x), int(y))
want = {s: (a.get(s, 0), b.get(s, 0)) for s in set(a) | set(b)}
if diff != want:
    sys.exit(f"--diff --folded is not A's and B's folded lines side by side: "
             f"{sorted(set(diff.items()) ^ set(want.items()))[:5]}")
if not any(s.startswith('bystander;') for s in diff):
    sys.exit("no stack of the bystander's sleeps")
print(f"ok: {len(diff)} stacks, 'STACK A_US B_US', each column its run's report --off-cpu --folded")
PY
ok "report --diff --folded: difffolded.pl's two columns"
