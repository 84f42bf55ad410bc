#!/usr/bin/env bash
# Whose samples a recording keeps (root), while a competing busy process
# runs: by default only the command's processes (itself and the children it
# forks, whose pids it writes down itself) or the -p process, none of the
# competitor's, though the per-CPU events sampled it; --sample-all keeps
# the competitor's too.  Samples are read back from the FXT dump (pid/tid)
# and the JSON (tid) outputs.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BURN=$B/tests/helpers/burn
[ -x "$BURN" ] || skip "$BURN not built (make tests)"
command -v python3 >/dev/null || skip "python3 not installed"

# samples_by_pid FXT JSON: "PID COUNT" lines from the FXT, checked against
# the JSON: both hold as many samples of each thread.
samples_by_pid() {
	"$F2T" dump "$1" >"$TMP/dump" || fail "dump of $1 failed"
	python3 - "$TMP/dump" "$2" 2>&1 <<-'EOF'
	import collections, json, re, sys
	pids, tids = collections.Counter(), collections.Counter()
	for line in open(sys.argv[1]):
	    m = re.search(r"profiler_backtrace .*thread=(\d+)/(\d+)", line)
	    if m:
	        pids[int(m.group(1))] += 1
	        tids[int(m.group(2))] += 1
	jtids = collections.Counter(s["tid"] for s in json.load(open(sys.argv[2])).get("samples", []))
	if jtids != tids:
	    sys.exit("JSON samples by tid %s differ from FXT's %s" % (dict(jtids), dict(tids)))
	for pid, n in sorted(pids.items()):
	    print(pid, n)
	EOF
}

# count PID: samples of PID in $TMP/by_pid
count() { awk -v p="$1" '$1 == p { print $2; f = 1 } END { if (!f) print 0 }' "$TMP/by_pid"; }

"$BURN" 10 >/dev/null &
rival=$!
trap 'kill $rival 2>/dev/null; rm -rf "$TMP"' EXIT

# The command forks two workers and writes down its own pid and theirs.
cmd="echo \$\$ >$TMP/pids; $BURN 0.7 & echo \$! >>$TMP/pids; $BURN 0.7 & echo \$! >>$TMP/pids; wait"
"$F2T" record -o "$TMP/c.fxt" -o "$TMP/c.json" -- sh -c "$cmd" >/dev/null 2>"$TMP/err" ||
	fail "record COMMAND: $(cat "$TMP/err")"
samples_by_pid "$TMP/c.fxt" "$TMP/c.json" >"$TMP/by_pid" || fail "COMMAND: $(cat "$TMP/by_pid")"
others=$(awk 'NR == FNR { ours[$1] = 1; next } !($1 in ours)' "$TMP/pids" "$TMP/by_pid")
[ -z "$others" ] || fail "COMMAND: samples of other processes (pid count): $others (ours: $(tr '\n' ' ' <"$TMP/pids"))"
for w in $(tail -n 2 "$TMP/pids"); do
	[ "$(count "$w")" -ge 50 ] || fail "COMMAND: worker $w has $(count "$w") samples"
done
grep -q "CPU samples of processes outside the command or -p left out" "$TMP/err" ||
	fail "COMMAND: no count of the samples left out: $(cat "$TMP/err")"
ok "COMMAND: samples of the command and its children only ($(tr '\n' ' ' <"$TMP/by_pid")), none of pid $rival"

"$F2T" record --sample-all -o "$TMP/a.fxt" -o "$TMP/a.json" -- "$BURN" 0.5 >/dev/null 2>"$TMP/err" ||
	fail "record --sample-all: $(cat "$TMP/err")"
samples_by_pid "$TMP/a.fxt" "$TMP/a.json" >"$TMP/by_pid" || fail "--sample-all: $(cat "$TMP/by_pid")"
[ "$(count "$rival")" -ge 50 ] ||
	fail "--sample-all: the competitor $rival has $(count "$rival") samples: $(cat "$TMP/by_pid")"
ok "--sample-all: the competitor's samples are kept ($(count "$rival"))"

"$BURN" 3 >/dev/null &
target=$!
"$F2T" record -p "$target" -d 0.5 -o "$TMP/p.fxt" -o "$TMP/p.json" 2>"$TMP/err"
rc=$?
kill "$target" 2>/dev/null
wait "$target" 2>/dev/null
[ "$rc" -eq 0 ] || fail "record -p: $(cat "$TMP/err")"
samples_by_pid "$TMP/p.fxt" "$TMP/p.json" >"$TMP/by_pid" || fail "-p: $(cat "$TMP/by_pid")"
others=$(awk -v t="$target" '$1 != t' "$TMP/by_pid")
[ -z "$others" ] || fail "-p: samples of other processes (pid count): $others"
[ "$(count "$target")" -ge 50 ] || fail "-p: $target has $(count "$target") samples"
ok "-p: samples of pid $target only ($(count "$target")), none of pid $rival"
exit 0
