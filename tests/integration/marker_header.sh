#!/usr/bin/env bash
# include/ftrace2trace/marker.h, without root: marker_demo writes its markers
# to a plain file (F2T_TRACE_MARKER) from several threads at once; every
# line must be one whole, well-formed marker (one write() per call, never
# interleaved), and the counts must match what the demo says it did.
set -u
: "${B:?B must point at the build directory}"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }

DEMO=$B/tests/helpers/marker_demo
[ -x "$DEMO" ] || fail "$DEMO not built (make tests)"
command -v python3 >/dev/null || { echo "SKIP: python3 needed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

: >"$TMP/markers"
F2T_TRACE_MARKER=$TMP/markers "$DEMO" -t 8 -n 200 -j "$TMP/app.json" >"$TMP/out" ||
	fail "marker_demo failed: $(tail -3 "$TMP/out")"
python3 - "$TMP/markers" "$TMP/out" "$TMP/app.json" <<'EOF' || exit 1
import json, re, sys
markers, out, app = sys.argv[1:]
last = open(out).read().splitlines()[-1]
m = re.match(r"marker_demo: tgid=(\d+) threads=(\d+) rounds=(\d+) failures=0$", last)
assert m, "bad summary: " + last
tgid, threads, rounds = map(int, m.groups())
forms = {
    "B": rf"B\|{tgid}\|(round|step)", "E": rf"E\|{tgid}", "C": rf"C\|{tgid}\|progress\|\d+",
    "I": rf"I\|{tgid}\|tick", "S": rf"S\|{tgid}\|request\|\d+", "F": rf"F\|{tgid}\|request\|\d+",
    "sync": r"trace_event_clock_sync: name=demo-sync",
}
counts = dict.fromkeys(forms, 0)
data = open(markers).read()
assert data.endswith("\n"), "last marker has no newline"
for line in data.splitlines():
    kind = next((k for k, rx in forms.items() if re.fullmatch(rx, line)), None)
    if kind is None:
        sys.exit("FAIL: torn or malformed marker line: %r" % line)
    counts[kind] += 1
want = threads * rounds
for k in "BECISF":
    # Two slices a round, one nested in the other.
    n = want * (2 if k in "BE" else 1)
    if counts[k] != n:
        sys.exit("FAIL: %d %s markers, want %d" % (counts[k], k, n))
if counts["sync"] != 1:
    sys.exit("FAIL: %d clock sync markers, want 1" % counts["sync"])
# Async cookies pair up.
s = sorted(re.findall(r"^S\|\d+\|request\|(\d+)$", data, re.M))
f = sorted(re.findall(r"^F\|\d+\|request\|(\d+)$", data, re.M))
assert s == f and len(set(s)) == want, "async cookies do not pair"
# The clock reads around each call are ordered.
for line in open(out).read().splitlines()[:-1]:
    t = re.search(r"before=(\d+) after=(\d+) rc=0$", line)
    assert t and int(t.group(1)) <= int(t.group(2)), "bad timing line: " + line
a = json.load(open(app))
sync = [e for e in a["traceEvents"] if e.get("ph") == "c"]
assert len(sync) == 1 and sync[0]["args"]["sync_id"] == "demo-sync"
assert sync[0]["args"]["issue_ts"] <= sync[0]["ts"]
assert sum(1 for e in a["traceEvents"] if e.get("ph") == "X") == want
print("ok: %d threads x %d rounds: %d whole marker lines, app trace valid" %
      (threads, rounds, sum(counts.values())))
EOF

# No marker file: every call fails with the open() error, nothing crashes.
F2T_TRACE_MARKER=$TMP/does-not-exist "$DEMO" -t 2 -n 1 >"$TMP/out2"
[ $? -eq 1 ] || fail "demo without a marker file should report failures"
grep -q "rc=-2$" "$TMP/out2" || fail "want rc=-ENOENT without a marker file: $(head -2 "$TMP/out2")"
ok "no marker file: calls return -ENOENT"
exit 0
