#!/usr/bin/env bash
# record's error paths: each fails clearly, before tracing where it can, and
# leaves no tracefs instance and no output file behind.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

# Not root: one line saying what is needed.  As root, try it as nobody.
check_nonroot() {
	local out rc
	out=$("$@" "$F2T" record -a -d 1 -o "$TMP/nonroot.fxt" 2>&1)
	rc=$?
	[ "$rc" -eq 1 ] || fail "non-root: exit $rc, want 1"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "non-root: want one line, got: $out"
	printf '%s' "$out" | grep -q "root" || fail "non-root: message does not say root is needed: $out"
	ok "non-root: $out"
}
if [ "$(id -u)" -ne 0 ]; then
	check_nonroot env
	skip "the other checks need root"
fi
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$TMP"
	check_nonroot setpriv --reuid=65534 --regid=65534 --clear-groups
else
	echo "note: no setpriv able to drop to nobody; non-root message not tested"
fi

need_root

# Nothing to record: usage error.
"$F2T" record >"$TMP/out" 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "no command/-a/-p: exit 0"
grep -q "usage" "$TMP/out" || fail "no command/-a/-p: no usage printed"
ok "no command: exit $rc with usage"

# Command not found, by path and through PATH.
for cmd in "$TMP/no-such-command" "no-such-command-$$"; do
	rec "$TMP/err" -o "$TMP/nf.fxt" -- "$cmd" arg
	[ "$RC" -ne 0 ] || fail "$cmd: exit 0"
	grep -q "error: cannot run $cmd: No such file or directory" "$TMP/err" ||
		fail "$cmd: wrong message: $(cat "$TMP/err")"
	instance_left "$RPID" && fail "$cmd: instance ftrace2trace-$RPID left behind"
	[ -e "$TMP/nf.fxt" ] && fail "$cmd: output file left behind"
	ok "command not found ($cmd): exit $RC, $(cat "$TMP/err")"
done

# Unwritable output: refused before any instance exists (-v names the
# instance when it creates one).
rec "$TMP/err" -v -a -d 1 -o /nonexistent/dir/x.fxt
[ "$RC" -ne 0 ] || fail "unwritable output: exit 0"
grep -q "/nonexistent/dir/x.fxt" "$TMP/err" || fail "unwritable output: message does not name it"
grep -q "instance ftrace2trace" "$TMP/err" && fail "unwritable output: tracing was set up first"
instance_left "$RPID" && fail "unwritable output: instance left behind"
ok "unwritable output: $(grep error "$TMP/err")"

# A second output unwritable: the first one must not be left behind.
rec "$TMP/err" -a -d 1 -o "$TMP/first.fxt" -o /nonexistent/dir/y.fxt
[ "$RC" -ne 0 ] || fail "second output unwritable: exit 0"
[ -e "$TMP/first.fxt" ] && fail "second output unwritable: first output left behind"
ok "second output unwritable: nothing left behind"

# Unknown -e event: named, with a close match suggested.
rec "$TMP/err" -a -d 1 -e sched:sched_swich -o "$TMP/e.fxt"
[ "$RC" -ne 0 ] || fail "unknown event: exit 0"
grep -q "sched:sched_swich" "$TMP/err" || fail "unknown event not named: $(cat "$TMP/err")"
grep -q "sched:sched_switch" "$TMP/err" || fail "no close match suggested: $(cat "$TMP/err")"
instance_left "$RPID" && fail "unknown event: instance left behind"
[ -e "$TMP/e.fxt" ] && fail "unknown event: output file left behind"
ok "unknown event: $(cat "$TMP/err")"

rec "$TMP/err" -a -d 1 -e nosuchsystem_xyz -o "$TMP/e.fxt"
[ "$RC" -ne 0 ] || fail "unknown system: exit 0"
grep -q "nosuchsystem_xyz" "$TMP/err" || fail "unknown system not named"
ok "unknown system: $(cat "$TMP/err")"

# A stale instance of ours (its recorder was SIGKILLed) is removed.
stale=$T/instances/ftrace2trace-999999
if [ -e /proc/999999 ]; then
	echo "note: pid 999999 exists; stale-instance check skipped"
else
	mkdir "$stale" || fail "cannot create $stale"
	rec "$TMP/err" -q -a -d 0.2 -o "$TMP/stale.fxt"
	if [ -d "$stale" ]; then
		rmdir "$stale"
		fail "stale instance ftrace2trace-999999 not removed"
	fi
	[ "$RC" -eq 0 ] || fail "run after a stale instance: exit $RC: $(cat "$TMP/err")"
	ok "stale instance removed"
fi

# A run killed with SIGKILL leaves its instance; the next run removes it.
"$F2T" record -q -a -o "$TMP/killed.fxt" 2>/dev/null &
kpid=$!
for _ in $(seq 50); do instance_left "$kpid" && break; sleep 0.1; done
sleep 0.3
kill -KILL "$kpid"
wait "$kpid" 2>/dev/null
if instance_left "$kpid"; then
	rec "$TMP/err" -q -a -d 0.2 -o "$TMP/after.fxt"
	instance_left "$kpid" && fail "instance of SIGKILLed run $kpid not removed by the next run"
	ok "SIGKILLed run's instance removed by the next run"
else
	# Another recorder running at the same time may have removed it first.
	echo "note: the SIGKILLed run's instance was already gone (a concurrent run removed it)"
fi

# The command's exit status is record's.
rec "$TMP/err" -q -o "$TMP/st.fxt" -- sh -c 'exit 3'
[ "$RC" -eq 3 ] || fail "command exit 3: record exited $RC: $(cat "$TMP/err")"
ok "command exit status passed through"
exit 0
