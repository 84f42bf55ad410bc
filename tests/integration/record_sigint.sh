#!/usr/bin/env bash
# record -a stopped by SIGINT (and a command run stopped by SIGTERM): exit
# cleanly, a valid output file, no tracefs instance left.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root

"$F2T" record -a -o "$TMP/int.fxt" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail "SIGINT: exit $rc: $(cat "$TMP/err")"
instance_left "$pid" && fail "SIGINT: instance ftrace2trace-$pid left behind"
is_fxt "$TMP/int.fxt" || fail "SIGINT: $TMP/int.fxt is not a valid FXT file"
ok "SIGINT: exit 0, $(stat -c %s "$TMP/int.fxt") bytes of FXT, instance removed"

# SIGTERM while a command runs: we stop, end the command, still convert.
start=$(date +%s)
"$F2T" record -q -o "$TMP/term.fxt" -- sleep 60 2>"$TMP/err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $(($(date +%s) - start)) -lt 20 ] || fail "SIGTERM: took too long to stop"
# The command is still running when we stop: it gets SIGTERM from us, and
# its status (128 + 15, as a shell reports it) is ours.
[ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc, want 143 (sleep ended by SIGTERM): $(cat "$TMP/err")"
instance_left "$pid" && fail "SIGTERM: instance left behind"
is_fxt "$TMP/term.fxt" || fail "SIGTERM: no valid output"
ok "SIGTERM: exit $rc (the command's), output valid, instance removed"
exit 0
