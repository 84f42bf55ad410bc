#!/usr/bin/env bash
# <ftrace2trace/marker.h> in a real recording (root).  marker_demo writes,
# from several threads, nested B/E slices ("step" inside "round"), a counter,
# an instant and an async pair per round, reading CLOCK_MONOTONIC around
# every call.  In both the FXT file (read back with `ftrace2trace dump`) and
# the JSON file, every marker must be the right record on the thread that
# wrote it, with its process, nesting, name, value and cookie, stamped within
# 2 us of the demo's own clock reads; the JSON text must not carry them a
# second time; the recorder's own sync points must be there.  Then the
# demo's own trace, on a clock 1000 s ahead, merged through the demo-sync
# clock sync alone (no --offset), must land within 10 us of the kernel's
# times for the same slices.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v python3 >/dev/null || skip "python3 needed for the checks"
DEMO=$B/tests/helpers/marker_demo
[ -x "$DEMO" ] || fail "$DEMO not built (make tests)"
[ -e "$T/options/copy_trace_marker" ] ||
	skip "this kernel cannot copy top-level trace_marker writes into an instance"

"$F2T" record -q -o "$TMP/k.json" -o "$TMP/k.fxt" -- "$DEMO" -t 4 -n 50 -j "$TMP/app.json" \
	>"$TMP/demo.out" || fail "record of marker_demo failed"
"$F2T" dump "$TMP/k.fxt" >"$TMP/k.dump" || fail "dump of the FXT file failed"

python3 - "$TMP" <<'EOF' || exit 1
import collections, json, re, sys
d = sys.argv[1]
SLACK = 2000  # ns between the demo's clock reads and the kernel's stamp

# What the demo did, per thread, in order: (call, before, after).
calls = collections.defaultdict(list)
for line in open(d + "/demo.out"):
    m = re.match(r"marker_demo: (\w+) tid=(\d+) before=(\d+) after=(\d+) rc=0$", line)
    if m:
        calls[int(m.group(2))].append((m.group(1), int(m.group(3)), int(m.group(4))))
last = open(d + "/demo.out").read().splitlines()[-1]
m = re.match(r"marker_demo: tgid=(\d+) threads=(\d+) rounds=(\d+) failures=0$", last)
if not m:
    sys.exit("FAIL: demo summary: " + last)
tgid, nthreads, rounds = map(int, m.groups())
workers = {t: c for t, c in calls.items() if t != tgid}
if len(workers) != nthreads:
    sys.exit("FAIL: %d worker threads reported, want %d" % (len(workers), nthreads))

# Each call's expected record: (kind, name, value).  Per round: begin round,
# counter progress=r, begin step, instant tick, end, async begin/end request
# (cookie tid*100000+r), end.
def expected(tid):
    out = []
    for r in range(rounds):
        cookie = tid * 100000 + r
        out += [("B", "round", None), ("C", "progress", r), ("B", "step", None),
                ("i", "tick", None), ("E", None, None), ("b", "request", cookie),
                ("e", "request", cookie), ("E", None, None)]
    return out

def check(fmt, recs):
    """recs: tid -> [(kind, name, value, ts_ns, pid, id)] in time order."""
    n = 0
    for tid, cs in workers.items():
        got, want = recs.get(tid, []), expected(tid)
        if len(got) != len(want) or len(cs) != len(want):
            sys.exit("FAIL: %s: tid %d: %d records, %d calls, want %d"
                     % (fmt, tid, len(got), len(cs), len(want)))
        stack, depth_of = [], {}
        open_async = {}
        for (call, before, after), (k, name, value), g in zip(cs, want, got):
            gk, gname, gvalue, ts, pid, aid = g
            if gk != k or (name is not None and gname != name):
                sys.exit("FAIL: %s: tid %d: %s call recorded as %r, want %r"
                         % (fmt, tid, call, g, (k, name)))
            if pid != tgid:
                sys.exit("FAIL: %s: tid %d: process %d, want %d" % (fmt, tid, pid, tgid))
            if not before - SLACK <= ts <= after + SLACK:
                sys.exit("FAIL: %s: tid %d: %s at %d ns, outside [%d, %d] +- %d"
                         % (fmt, tid, call, ts, before, after, SLACK))
            if value is not None and gvalue != value:
                sys.exit("FAIL: %s: tid %d: %s value %r, want %r" % (fmt, tid, name, gvalue, value))
            if k == "B":
                stack.append((gname, ts))
            elif k == "E":
                bname, bts = stack.pop()
                # "step" always ends inside "round": the nesting is kept.
                want_depth = 1 if bname == "step" else 0
                if len(stack) != want_depth:
                    sys.exit("FAIL: %s: tid %d: %s ended at depth %d" % (fmt, tid, bname, len(stack)))
                n += 1
            elif k == "b":
                open_async[aid] = gname
            elif k == "e":
                if open_async.pop(aid, None) != gname:
                    sys.exit("FAIL: %s: tid %d: async end %r pairs with no begin" % (fmt, tid, g))
        if stack or open_async:
            sys.exit("FAIL: %s: tid %d: left open: %r %r" % (fmt, tid, stack, open_async))
    return n

# JSON.
k = json.load(open(d + "/k.json"))
recs = collections.defaultdict(list)
syncs = {}
for e in k["traceEvents"]:
    ph = e.get("ph")
    if ph == "c":
        sid = e["args"]["sync_id"]
        if sid in syncs:
            sys.exit("FAIL: json: clock_sync id %s twice" % sid)
        syncs[sid] = round(e["ts"] * 1000)
    if e.get("pid") != tgid or ph not in ("B", "E", "C", "i", "b", "e"):
        continue
    value = e.get("args", {}).get("value") if ph == "C" else e.get("args", {}).get("cookie")
    recs[e["tid"]].append((ph, e.get("name"), value, round(e["ts"] * 1000), e["pid"], e.get("id")))
for tid in recs:
    recs[tid].sort(key=lambda r: r[3])
slices = check("json", recs)
if "tracing_mark_write" in k["systemTraceEvents"]:
    sys.exit("FAIL: json: markers in systemTraceEvents too (viewers would show them twice)")
o = k["otherData"]
for key in ("markers_malformed", "markers_unmatched_ends", "markers_unmatched_async_ends",
            "markers_repeated_sync_ids", "markers_open_slices", "markers_open_async"):
    if o.get(key) != 0:
        sys.exit("FAIL: json: otherData %s = %r, want 0" % (key, o.get(key)))
sc = [c for c in calls[tgid] if c[0] == "clock_sync"]
if "demo-sync" not in syncs or not sc[0][1] - SLACK <= syncs["demo-sync"] <= sc[0][2] + SLACK:
    sys.exit("FAIL: json: no clock_sync demo-sync inside its call: %r %r" % (syncs.get("demo-sync"), sc))
for which in ("start", "end"):
    sid = o.get("sync_%s_id" % which)
    if sid not in syncs or o["sync_%s_trace_ns" % which] != syncs[sid]:
        sys.exit("FAIL: json: the recorder's %s sync point %r is not a clock_sync event" % (which, sid))
    # The clocks were read just before the marker was written.
    lag = syncs[sid] - o["sync_%s_mono_ns" % which]
    if not 0 <= lag < 50000000:
        sys.exit("FAIL: json: %s sync marker %d ns after its clock reads" % (which, lag))
    if not o["sync_%s_realtime_ns" % which] or not o["sync_%s_boottime_ns" % which]:
        sys.exit("FAIL: json: %s sync point without realtime/boottime" % which)
if not o["start_ns"] <= syncs[o["sync_start_id"]] <= syncs["demo-sync"] <= syncs[o["sync_end_id"]]:
    sys.exit("FAIL: json: sync points out of order")
print("ok: json: %d nested slices, counters, instants, async pairs on %d threads, "
      "within %d ns of the demo's clock reads; sync points %s" % (slices, len(workers), SLACK,
                                                                  ", ".join(sorted(syncs))))

# FXT, through dump.
kinds = {"duration_begin": "B", "duration_end": "E", "counter": "C", "instant": "i",
         "async_begin": "b", "async_end": "e"}
recs = collections.defaultdict(list)
fsync = {}
for line in open(d + "/k.dump"):
    m = re.match(r'\d+ (\w+) ts=(\d+) thread=(\d+)/(\d+)\S* category="([^"]*)" name="([^"]*)"'
                 r'(?: counter_id=\d+| id=(\d+))?(?: args: (.*))?$', line.rstrip("\n"))
    if not m or m.group(1) not in kinds or m.group(5) != "marker":
        continue
    kind, ts, pid, tid, cat, name, aid, args = m.groups()
    args = dict(a.split("=", 1) for a in (args or "").split(" ") if "=" in a)
    if name == "clock_sync":
        fsync[args["sync_id"].split(":", 1)[1].strip('"')] = int(ts)
        continue
    if int(pid) != tgid:
        continue
    val = args.get("value" if kind == "counter" else "cookie")
    val = int(val.split(":", 1)[1]) if val else None
    recs[int(tid)].append((kinds[kind], name or None, val, int(ts), int(pid), aid))
check("fxt", recs)
# Every sync marker, as an instant; the JSON writer's own clock_sync has none.
if fsync != {s: t for s, t in syncs.items() if s != o["clock_sync_id"]}:
    sys.exit("FAIL: fxt: clock sync instants %r differ from the json's %r" % (fsync, syncs))
print("ok: fxt: the same records, nesting, values and times")
EOF

# The demo's own trace, on its clock 1000 s ahead, placed through demo-sync.
"$F2T" merge -q -o "$TMP/merged.json" "$TMP/k.json" "$TMP/app.json" || fail "merge failed"
python3 - "$TMP" <<'EOF' || exit 1
import collections, json, re, sys
d = sys.argv[1]
SLACK = 10000  # ns
# The demo's own CLOCK_MONOTONIC reads around each round: before its
# "begin round" call, after its "end" call (8 calls a round).
calls = collections.defaultdict(list)
sync_call = None
for line in open(d + "/demo.out"):
    m = re.match(r"marker_demo: (\w+) tid=(\d+) before=(\d+) after=(\d+) rc=0$", line)
    if m:
        calls[int(m.group(2))].append((int(m.group(3)), int(m.group(4))))
        if m.group(1) == "clock_sync":
            sync_call = (int(m.group(3)), int(m.group(4)))
# The app's clock is tied to the kernel's by one write, stamped somewhere
# between its clock reads: a write preempted on a busy machine moves every
# app event by up to its length, which no tool can know.
if sync_call:
    SLACK = max(SLACK, sync_call[1] - sync_call[0] + 2000)
m = json.load(open(d + "/merged.json"))
rounds, stack = [], collections.defaultdict(list)
kslices = collections.defaultdict(list)
for e in m["traceEvents"]:
    if e.get("cat") == "marker" and e.get("ph") == "B":
        stack[e["tid"]].append(e)
    elif e.get("ph") == "E" and e.get("cat") == "marker" and stack.get(e["tid"]):
        b = stack[e["tid"]].pop()
        if b["name"] == "round":
            kslices[e["tid"]].append((round(b["ts"] * 1000), round(e["ts"] * 1000)))
    elif e.get("name", "").startswith("app round"):
        rounds.append(e)
if not rounds:
    sys.exit("FAIL: no app rounds in the merged trace")
worst = 0
for r in rounds:
    i, tid = int(r["name"].split()[-1]), r["tid"]
    start, end = round(r["ts"] * 1000), round((r["ts"] + r["dur"]) * 1000)
    # The app stamped its round with its clock's reading of the same
    # moments the demo printed: after the merge they must be those times.
    off = max(abs(start - calls[tid][8 * i][0]), abs(end - calls[tid][8 * i + 7][1]))
    worst = max(worst, off)
    if off > SLACK:
        sys.exit("FAIL: app round %d on tid %d lands %d ns from the kernel clock's time" % (i, tid, off))
    # And so it covers the kernel's slice of that round.
    b, e = kslices[tid][i]
    if not (start - SLACK <= b and e <= end + SLACK):
        sys.exit("FAIL: app round %d on tid %d [%d, %d] does not cover its kernel slice [%d, %d]"
                 % (i, tid, start, end, b, e))
print("ok: %d app rounds from a clock 1000 s ahead, merged through clock_sync alone, "
      "within %d ns of the kernel clock and over their kernel slices" % (len(rounds), worst))
EOF
exit 0
