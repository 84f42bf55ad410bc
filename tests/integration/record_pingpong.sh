#!/usr/bin/env bash
# Recording the ping-pong workload end to end: exit status, a capture kept
# with -k, an FXT output that names both threads, nothing lost.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

"$F2T" record -k "$TMP/pp.cap" -o "$TMP/pp.fxt" -- "$PINGPONG" 5000 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$TMP/err")"
grep -q "^pingpong: 5000 round trips" "$TMP/out" || fail "workload did not run: $(cat "$TMP/out")"
grep -q "recorded .* 0 events lost" "$TMP/err" || fail "no summary, or events lost: $(cat "$TMP/err")"
is_fxt "$TMP/pp.fxt" || fail "not an FXT file"
for name in ping pong pingpong; do
	grep -aq "$name" "$TMP/pp.fxt" || fail "thread/process name '$name' missing from the FXT"
done
[ "$(head -c 7 "$TMP/pp.cap")" = "F2TCAPT" ] || fail "-k capture missing or not a capture"
ok "ping-pong recorded: $(grep recorded "$TMP/err")"

# The kept capture converts again, without root.
"$F2T" convert -q "$TMP/pp.cap" -o "$TMP/again.fxt" || fail "convert of the kept capture failed"
is_fxt "$TMP/again.fxt" || fail "convert of the kept capture: not FXT"
ok "kept capture converts"

# -d bounds a run; -p stops when the process exits.
sleep 30 &
spid=$!
start=$(date +%s%N)
"$F2T" record -q -p "$spid" -d 0.5 -o "$TMP/p.fxt" 2>"$TMP/err" || fail "-p/-d: $(cat "$TMP/err")"
ms=$((($(date +%s%N) - start) / 1000000))
kill "$spid" 2>/dev/null
[ "$ms" -lt 5000 ] || fail "-d 0.5 took ${ms} ms"
sleep 0.5 &
spid=$!
"$F2T" record -q -p "$spid" -o "$TMP/p.fxt" 2>"$TMP/err" || fail "-p: $(cat "$TMP/err")"
is_fxt "$TMP/p.fxt" || fail "-p: no valid output"
ok "-d and -p stop the recording"
exit 0
