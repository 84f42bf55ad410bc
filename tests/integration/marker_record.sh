#!/usr/bin/env bash
# <ftrace2trace/marker.h> in a real recording (root): marker_demo's markers
# reach the kernel trace from the top-level trace_marker, on the thread that
# wrote them, stamped between the CLOCK_MONOTONIC reads taken around each
# call; and its own trace, on a clock 1000 s ahead, merges onto the kernel
# trace so each of its rounds covers the markers of that round.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v python3 >/dev/null || skip "python3 needed for the checks"
DEMO=$B/tests/helpers/marker_demo
[ -x "$DEMO" ] || fail "$DEMO not built (make tests)"
[ -e "$T/options/copy_trace_marker" ] ||
	skip "this kernel cannot copy top-level trace_marker writes into an instance"

"$F2T" record -q -o "$TMP/k.json" -- "$DEMO" -t 4 -n 50 -j "$TMP/app.json" >"$TMP/demo.out" ||
	fail "record of marker_demo failed"
python3 - "$TMP" <<'EOF' || exit 1
import collections, json, re, sys
d = sys.argv[1]
calls = collections.defaultdict(list)
for line in open(d + "/demo.out"):
    m = re.match(r"marker_demo: (\w+) tid=(\d+) before=(\d+) after=(\d+) rc=0$", line)
    if m:
        calls[int(m.group(2))].append((m.group(1), int(m.group(3)), int(m.group(4))))
tgid = int(re.search(r"tgid=(\d+)", open(d + "/demo.out").read().splitlines()[-1]).group(1))
k = json.load(open(d + "/k.json"))
marks = collections.defaultdict(list)
for e in k["traceEvents"]:
    name = e.get("name", "")
    if e.get("pid") == tgid and re.match(r"([BECISF]\|\d+|trace_event_clock_sync:)", name):
        marks[e["tid"]].append((name, round(e["ts"] * 1000)))
first = {"begin": "B", "end": "E", "counter": "C", "instant": "I", "async_begin": "S",
         "async_end": "F", "clock_sync": "t"}
SLACK = 10000  # ns: the trace clock and clock_gettime() may differ a hair
n = 0
for tid, cs in calls.items():
    ms = marks.get(tid, [])
    if len(ms) != len(cs):
        sys.exit("FAIL: tid %d: %d markers in the trace, %d calls" % (tid, len(ms), len(cs)))
    for (call, before, after), (name, ts) in zip(cs, ms):
        if name[0] != first[call]:
            sys.exit("FAIL: tid %d: %s recorded as %r" % (tid, call, name))
        if not before - SLACK <= ts <= after + SLACK:
            sys.exit("FAIL: tid %d: %s at %d ns, outside [%d, %d]" % (tid, call, ts, before, after))
        n += 1
print("ok: %d markers on their threads, each inside its call's clock reads" % n)
EOF

# The app's own trace: placed by its clock_sync when the kernel trace has
# the matching clock_sync event, else by the known offset.
if grep -q '"sync_id":"demo-sync"' "$TMP/k.json"; then
	"$F2T" merge -q -o "$TMP/merged.json" "$TMP/k.json" "$TMP/app.json" || fail "merge failed"
	how="clock_sync"
else
	echo "note: the kernel trace has no clock_sync event for the demo's marker yet; merging with --offset"
	"$F2T" merge -q -o "$TMP/merged.json" --offset "$TMP/app.json=-1000" "$TMP/k.json" "$TMP/app.json" ||
		fail "merge failed"
	how="--offset"
fi
python3 - "$TMP" "$how" <<'EOF' || exit 1
import collections, json, re, sys
d, how = sys.argv[1:]
m = json.load(open(d + "/merged.json"))
begins, ends = collections.defaultdict(list), collections.defaultdict(list)
rounds = []
for e in m["traceEvents"]:
    name = e.get("name", "")
    if re.match(r"B\|\d+\|round$", name) or e.get("ph") == "B" and name == "round":
        begins[e["tid"]].append(e["ts"])
    elif re.match(r"E\|\d+$", name) or e.get("ph") == "E" and e.get("cat") != "app":
        ends[e["tid"]].append(e["ts"])
    elif name.startswith("app round"):
        rounds.append(e)
if not rounds:
    sys.exit("FAIL: no app rounds in the merged trace")
SLACK = 10  # us
for r in rounds:
    i = int(r["name"].split()[-1])
    b, e = begins[r["tid"]][i], ends[r["tid"]][i]
    if not (r["ts"] - SLACK <= b and e <= r["ts"] + r["dur"] + SLACK):
        sys.exit("FAIL: app round %d on tid %d [%s, +%s] does not cover its markers [%s, %s]"
                 % (i, r["tid"], r["ts"], r["dur"], b, e))
print("ok: %d app rounds (aligned by %s) cover their kernel-recorded markers" % (len(rounds), how))
EOF
exit 0
