#!/usr/bin/env bash
# ftrace2trace merge, without root: synthetic traces on two clocks (the
# app's 1000 s ahead) joined through clock_sync pairs; refusal without a
# common sync id unless --offset; bad JSON; the bare-array form; memory that
# does not grow with the input.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v python3 >/dev/null || { echo "SKIP: python3 needed for the checks"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1

# trace.json: kernel-side, reference clock (what `record -o x.json` writes,
# roughly).  app.json: the program's own trace, its clock 1000 s ahead; two
# clock_sync issuer events whose midpoints are exactly 1000 s ahead of the
# kernel's receiver events.
python3 - <<'EOF'
import json
AHEAD = 1000 * 1000000  # us
kernel = {
    "displayTimeUnit": "ns",
    "traceEvents": [
        {"name": "clock_sync", "ph": "c", "ts": 50.0, "pid": 0, "tid": 0, "args": {"sync_id": "kernel-only"}},
        {"name": "clock_sync", "ph": "c", "ts": 2000.5, "pid": 0, "tid": 0, "args": {"sync_id": "sync-1"}},
        {"name": "clock_sync", "ph": "c", "ts": 8000.25, "pid": 0, "tid": 0, "args": {"sync_id": "sync-2"}},
        {"name": "process_name", "ph": "M", "pid": 700, "tid": 700, "args": {"name": "app"}},
        {"name": "thread_name", "ph": "M", "pid": 700, "tid": 701, "args": {"name": "worker"}},
        {"name": "tick", "ph": "i", "s": "t", "ts": 3000.125, "pid": 700, "tid": 701, "sf": 1},
    ],
    "systemTraceEvents": "# tracer: nop\n#\n          app-701   (  700) [001] .... 0.003000: sched_switch: x\n",
    "stackFrames": {"1": {"name": "kmain", "category": "kernel"}},
    "otherData": {"version": "ftrace2trace JSON 1", "clock": "mono"},
}
app = {
    "traceEvents": [
        {"name": "frame", "cat": "app", "ph": "B", "ts": AHEAD + 3000.5, "pid": 700, "tid": 701, "sf": 2},
        {"name": "frame", "cat": "app", "ph": "E", "ts": AHEAD + 3500.75, "pid": 700, "tid": 701},
        {"name": "load", "ph": "X", "ts": AHEAD + 4000, "dur": 250, "pid": 700, "tid": 702},
        {"name": "queue", "ph": "C", "ts": AHEAD + 4100, "pid": 700, "args": {"depth": 3}},
        {"name": "req", "cat": "app", "ph": "b", "id": "0x1", "ts": AHEAD + 4200, "pid": 700, "tid": 702},
        {"name": "req", "cat": "app", "ph": "e", "id": "0x1", "ts": AHEAD + 4300, "pid": 700, "tid": 702},
        {"name": "clock_sync", "ph": "c", "ts": AHEAD + 2001.0, "pid": 700, "tid": 701,
         "args": {"sync_id": "sync-1", "issue_ts": AHEAD + 2000.0}},
        {"name": "clock_sync", "ph": "c", "ts": AHEAD + 8000.5, "pid": 700, "tid": 701,
         "args": {"sync_id": "sync-2", "issue_ts": AHEAD + 8000.0}},
        {"name": "clock_sync", "ph": "c", "ts": AHEAD + 9000, "pid": 700, "tid": 701,
         "args": {"sync_id": "app-only", "issue_ts": AHEAD + 8999}},
    ],
    "samples": [{"cpu": 1, "tid": 701, "ts": AHEAD + 3100, "name": "cycles", "sf": 2, "weight": 1}],
    "stackFrames": {"1": {"name": "main", "category": "app"},
                    "2": {"name": "draw", "category": "app", "parent": 1}},
    "otherData": {"version": "app 2.1"},
}
json.dump(kernel, open("trace.json", "w"), indent=1)
json.dump(app, open("app.json", "w"))
# Exact digits: a timestamp with ns precision and more digits than a double keeps.
with open("precise.json", "w") as f:
    f.write('{"traceEvents":[{"name":"p","ph":"i","ts":1000000123.456789,"pid":1,"tid":1},'
            '{"name":"q","ph":"i","ts":1000000000.0000000001,"pid":1,"tid":1},'
            '{"name":"clock_sync","ph":"c","ts":1000002000.5,"pid":1,"tid":1,'
            '"args":{"sync_id":"sync-1"}}]}')
EOF
[ -s app.json ] || fail "could not build the inputs"

"$F2T" merge -o merged.json trace.json app.json 2>err.txt || fail "merge failed: $(cat err.txt)"
grep -q "app.json: shifted by -1000.000000000 s, from 2 clock_sync ids shared with trace.json" err.txt ||
	fail "summary does not give the offset: $(cat err.txt)"
python3 - <<'EOF' || exit 1
import json, sys
AHEAD = 1000 * 1000000
kernel, app, m = (json.load(open(f)) for f in ("trace.json", "app.json", "merged.json"))
ev = m["traceEvents"]
def fail(msg): sys.exit("FAIL: " + msg)
# Kernel events untouched (but for stack frame ids: both inputs have
# frames, so ids are renamed per input), in order, first.
nk = len(kernel["traceEvents"])
strip = lambda es: [{k: v for k, v in e.items() if k != "sf"} for e in es]
if strip(ev[:nk]) != strip(kernel["traceEvents"]):
    fail("reference events changed")
# App events: same everything, ts within 10 us of the expected (exact, in fact).
rest = [e for e in ev[nk:]]
want = [e for e in app["traceEvents"]
        if not (e["name"] == "clock_sync" and e["args"]["sync_id"] in ("sync-1", "sync-2"))]
if len(rest) != len(want):
    fail("%d app events in the output, want %d" % (len(rest), len(want)))
for got, orig in zip(rest, want):
    if abs(got["ts"] - (orig["ts"] - AHEAD)) > 10:
        fail("%s at %s, want %s" % (orig["name"], got["ts"], orig["ts"] - AHEAD))
    for k in ("pid", "tid", "name", "ph", "dur", "args", "id", "cat"):
        if k in orig and k != "args" and got.get(k) != orig[k]:
            fail("%s: %s changed" % (orig["name"], k))
# The app slice sits on the kernel's thread, over the kernel's tick.
frame = next(e for e in rest if e["name"] == "frame" and e["ph"] == "B")
if (frame["pid"], frame["tid"]) != (700, 701) or abs(frame["ts"] - 3000.5) > 10:
    fail("app slice not on the kernel's thread/time: %r" % frame)
# Each sync id once; the kept app-only sync has its issue_ts shifted too.
ids = [e["args"]["sync_id"] for e in ev if e.get("ph") == "c"]
if sorted(ids) != sorted(set(ids)) or set(ids) != {"kernel-only", "sync-1", "sync-2", "app-only"}:
    fail("clock_sync ids: %r" % ids)
only = next(e for e in ev if e.get("ph") == "c" and e["args"]["sync_id"] == "app-only")
if abs(only["ts"] - 9000) > 10 or abs(only["args"]["issue_ts"] - 8999) > 10:
    fail("app-only clock_sync not shifted: %r" % only)
# Carried over: ftrace text verbatim, samples shifted, frames renamed and resolvable.
if m["systemTraceEvents"] != kernel["systemTraceEvents"]:
    fail("systemTraceEvents changed")
frames = m["stackFrames"]
if set(frames) != {"1:1", "2:1", "2:2"} or frames["2:2"]["parent"] != "2:1":
    fail("stackFrames not renamed per input: %r" % frames)
s = m["samples"]
if len(s) != 1 or abs(s[0]["ts"] - 3100) > 10 or s[0]["sf"] not in frames or s[0]["tid"] != 701:
    fail("samples: %r" % s)
tick = next(e for e in ev if e["name"] == "tick")
if tick["sf"] != "1:1" or frame["sf"] != "2:2":
    fail("event sf not renamed: %r %r" % (tick.get("sf"), frame.get("sf")))
od = m["otherData"]
if od.get("version") != "ftrace2trace JSON 1" or od.get("version@2") != "app 2.1" or od.get("clock") != "mono":
    fail("otherData not merged: %r" % od)
info = od["ftrace2trace_merge"]["inputs"][1]
if info["offset_ns"] != -AHEAD * 1000 or info["aligned_by"] != "clock_sync" or info["dropped_clock_syncs"] != 2:
    fail("merge record: %r" % info)
if m.get("displayTimeUnit") != "ns":
    fail("displayTimeUnit lost")
print("ok: app events within 10 us of the kernel clock, one clock_sync per id, pids/tids kept")
EOF

# ns precision survives exactly, in the text itself (no float round trip).
"$F2T" merge -q -o precise-out.json trace.json precise.json || fail "merge of precise.json failed"
grep -q '"ts":123.456789,' precise-out.json || fail "precise ts not exact: $(grep -o '"ts":[^,]*' precise-out.json)"
grep -q '"ts":0.0000000001,' precise-out.json || fail "sub-ns ts not exact"
ok "timestamps shifted digit for digit"

# No common sync id: refused, nothing written; accepted with --offset.
python3 -c '
import json
json.dump({"traceEvents":[{"name":"x","ph":"i","ts":1000000500,"pid":5,"tid":6},
  {"name":"clock_sync","ph":"c","ts":1000000000,"pid":5,"tid":6,"args":{"sync_id":"elsewhere"}}]},
  open("nosync.json","w"))'
"$F2T" merge -o refused.json trace.json nosync.json 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "no common sync id: exit $rc, want 1"
grep -q "nosync.json: none of its clock_sync ids" err.txt && grep -q -- "--offset nosync.json=SECONDS" err.txt ||
	fail "no common sync id: unclear message: $(cat err.txt)"
[ -e refused.json ] && fail "no common sync id: output written anyway"
ls refused.json.tmp-* >/dev/null 2>&1 && fail "temporary file left behind"
ok "no common sync id refused: $(head -1 err.txt)"
"$F2T" merge -q -o offset.json --offset nosync.json=-1000 trace.json nosync.json ||
	fail "--offset not accepted"
python3 -c '
import json, sys
m = json.load(open("offset.json"))
x = next(e for e in m["traceEvents"] if e["name"] == "x")
sys.exit(0 if abs(x["ts"] - 500) < 10 and (x["pid"], x["tid"]) == (5, 6) else "FAIL: --offset not applied: %r" % x)' || exit 1
ok "--offset nosync.json=-1000 applied"
"$F2T" merge -q -o x.json --offset other.json=1 trace.json 2>err.txt && fail "--offset for a non-input accepted"
grep -q "not one of the inputs" err.txt || fail "--offset for a non-input: $(cat err.txt)"

# Bad JSON: one line naming file, line and column; old output untouched.
echo '{"keep": true}' >old.json
printf '{"traceEvents":[\n  {"name":"a","ts":1,},\n]}\n' >bad.json
"$F2T" merge -o old.json trace.json bad.json 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "bad JSON: exit $rc"
grep -qx 'ftrace2trace: error: bad.json: line 2 col 22: expected a member name (a string), found .}.' err.txt ||
	fail "bad JSON: message: $(cat err.txt)"
[ "$(cat old.json)" = '{"keep": true}' ] || fail "bad JSON: existing output overwritten"
ok "bad JSON: $(cat err.txt)"
printf '{"traceEvents":[{"ts":1}' >torn.json
"$F2T" merge -o t.json torn.json 2>err.txt && fail "torn object form accepted"
grep -q "torn.json: line 1 col 25: expected ',' or ']', found end of file" err.txt || fail "torn: $(cat err.txt)"
"$F2T" merge -o t.json missing.json 2>err.txt && fail "missing input accepted"
grep -q "missing.json: No such file or directory" err.txt || fail "missing input: $(cat err.txt)"
ok "torn and missing inputs refused"

# An output that is not a regular file is written through, never replaced
# by a renamed temporary file (think -o /dev/null as root).
mkfifo out.fifo && ln -s real.json link.json || fail "cannot make a FIFO or a symlink"
cat out.fifo >fifo-got.json &
"$F2T" merge -q -o out.fifo trace.json app.json || fail "merge into a FIFO failed"
wait
[ -p out.fifo ] || fail "the FIFO was replaced"
python3 -c 'import json; json.load(open("fifo-got.json"))' || fail "FIFO output is not JSON"
"$F2T" merge -q -o link.json trace.json app.json || fail "merge through a symlink failed"
[ -L link.json ] && [ -s real.json ] || fail "the symlink was replaced, not written through"
ok "FIFO and symlink outputs written through"

# The bare array form, cut short as a killed program leaves it: accepted.
printf '[{"name":"a","ph":"i","ts":1000000700,"pid":9,"tid":9},\n{"name":"clock_sync","ph":"c","ts":1000002000.5,"pid":9,"tid":9,"args":{"sync_id":"sync-1"}},\n' >array.json
"$F2T" merge -o arr.json trace.json array.json 2>err.txt || fail "array form: $(cat err.txt)"
grep -q "no closing ']'" err.txt || fail "array form cut short: no warning"
python3 -c '
import json, sys
m = json.load(open("arr.json"))
a = next(e for e in m["traceEvents"] if e["name"] == "a")
sys.exit(0 if abs(a["ts"] - 700) < 10 else "FAIL: array form: %r" % a)' || exit 1
ok "bare array form, cut short"

# Streaming: a large input costs no more memory than a small one.
python3 - <<'EOF'
with open("big.json", "w") as f:
    f.write('{"traceEvents":[\n')
    f.write('{"name":"clock_sync","ph":"c","ts":1000002000.5,"pid":1,"tid":1,"args":{"sync_id":"sync-1"}}')
    line = ',\n{"name":"work item %d","cat":"app","ph":"X","ts":%d.%03d,"dur":1.5,"pid":1,"tid":%d,"args":{"n":%d,"s":"' + "x" * 100 + '"}}'
    for i in range(300000):
        f.write(line % (i, 1000000000 + i, i % 1000, 2 + i % 7, i))
    f.write('\n],"systemTraceEvents_not":"' + "y" * (8 << 20) + '"}\n')
EOF
python3 - "$F2T" <<'EOF' || exit 1
import os, resource, subprocess, sys
f2t = sys.argv[1]
size = os.path.getsize("big.json")
subprocess.run([f2t, "merge", "-q", "-o", "big-out.json", "trace.json", "big.json"], check=True)
rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if rss_kb * 1024 > size / 4 or rss_kb > 64 * 1024:
    sys.exit("FAIL: merging %d MB took %d MB of memory" % (size >> 20, rss_kb >> 10))
import json
m = json.load(open("big-out.json"))
n = sum(1 for e in m["traceEvents"] if e["name"].startswith("work item"))
if n != 300000:
    sys.exit("FAIL: %d of 300000 events" % n)
print("ok: %d MB input merged in %d MB of memory" % (size >> 20, rss_kb >> 10))
EOF
exit 0
