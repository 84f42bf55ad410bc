#!/usr/bin/env bash
# `report --diff` without root, on the fixtures: a capture against itself
# changes nothing, and its A column is the capture's own report (each
# thread name's running time summed from `report --json`); a capture
# against a trace.dat of another recording reads both; the usage errors
# exit 2, an input that cannot be read or a --folded diff with no off-CPU
# episode exits 1 with one error line, and leaves no -o file.
set -u
. "$(dirname "$0")/../helpers/fixture-common.bash"

"$F2T" report --diff --json "$FIX/sched-tcp.cap" "$FIX/sched-tcp.cap" >self.json 2>err ||
	fail "--diff of a capture with itself: $(cat err)"
"$F2T" report --json "$FIX/sched-tcp.cap" >own.json 2>err || fail "report --json: $(cat err)"
python3 - <<'PY' || fail "see above"
import json, sys
d, own = json.load(open('self.json')), json.load(open('own.json'))
running = {}
for p in own['processes']:
    for t in p['threads']:
        k = (p['comm'], t['comm'])
        running[k] = running.get(k, 0) + t['running_ns']
got = {(p['process'], t['thread']): t['metrics'] for p in d['processes'] for t in p['threads']}
if set(got) != set(running):
    sys.exit(f"threads by name: {sorted(set(got) ^ set(running))[:5]}")
for k, m in got.items():
    if m['running_ns']['a'] != running[k]:
        sys.exit(f"{k}: A's running {m['running_ns']['a']}, the report's {running[k]}")
    for name, v in m.items():
        if v['a'] != v['b'] or v['change'] not in (0, None):
            sys.exit(f"{k} {name}: {v} against itself")
for c in d['cpus']:
    if any(v['change'] not in (0, None) for v in c['metrics'].values()):
        sys.exit(f"cpu {c['cpu']} changed against itself: {c}")
print(f"ok: {len(got)} thread names and {len(d['cpus'])} CPUs, A = the report's, no change")
PY
"$F2T" report --diff "$FIX/sched-tcp.cap" "$FIX/tracedat-v7.dat" >two.txt 2>err ||
	fail "--diff of a capture and a trace.dat: $(cat err)"
grep -q "^B: .*tracedat-v7.dat$" two.txt && grep -q "^cpu 1$" two.txt ||
	fail "the text names neither B nor the CPUs: $(head -20 two.txt)"
ok "a capture and a trace.dat compared"

usage() {
	"$F2T" report "$@" >/dev/null 2>err
	[ $? -eq 2 ] || fail "report $*: not a usage error: $(cat err)"
}
usage --diff "$FIX/sched-tcp.cap"
usage --diff --ndjson "$FIX/sched-tcp.cap" "$FIX/sched-tcp.cap"
usage --diff --off-cpu "$FIX/sched-tcp.cap" "$FIX/sched-tcp.cap"
usage "$FIX/sched-tcp.cap" "$FIX/sched-tcp.cap"
usage --folded "$FIX/sched-tcp.cap"
usage --diff --sort wakeups "$FIX/sched-tcp.cap" "$FIX/sched-tcp.cap"
"$F2T" report --diff --folded -o out "$FIX/sched-tcp.cap" "$FIX/tracedat-v7.dat" >/dev/null 2>err
[ $? -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "no off-CPU episodes" err && [ ! -e out ] ||
	fail "--diff --folded without off-CPU episodes: $(cat err)"
"$F2T" report --diff -o out "$FIX/sched-tcp.cap" nonexistent >/dev/null 2>err
[ $? -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q nonexistent err && [ ! -e out ] ||
	fail "--diff of a missing input: $(cat err)"
"$F2T" report --ndjson -o out "$FIX/sched-tcp.cap" nonexistent >/dev/null 2>err
[ $? -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && [ ! -e out ] ||
	fail "--ndjson with a missing input: $(cat err)"
ok "usage errors exit 2; unreadable inputs and an empty --folded diff exit 1, one line, no file"
