#!/usr/bin/env bash
# On a kernel that refuses the function tracer (lockdown, policy, no
# CONFIG_FUNCTION_TRACER), --function and --function-graph fail before
# tracing starts: one line saying what was refused and why, exit 1, no
# instance and no output left.  Where the kernel allows the tracer this test
# has nothing to check and skips.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root

checked=0
for opt in "--function=vfs_*" "--function-graph"; do
	out=$TMP/f.fxt
	rec "$TMP/err" $opt -o "$out" -- true
	if [ "$RC" -eq 0 ]; then
		echo "note: $opt is allowed by this kernel"
		continue
	fi
	[ "$RC" -eq 1 ] || fail "$opt: exit $RC, expected 1: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$opt: expected one line, got: $(cat "$TMP/err")"
	grep -qE "refused the function(_graph)? tracer .*: (kernel lockdown|a security policy)|has no function(_graph)? tracer" "$TMP/err" ||
		fail "$opt: message does not say what was refused and why: $(cat "$TMP/err")"
	instance_left "$RPID" && fail "$opt: instance ftrace2trace-$RPID left behind"
	[ -e "$out" ] && fail "$opt: $out left behind"
	ok "$opt refused cleanly: $(cat "$TMP/err")"
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || skip "this kernel allows the function tracers; nothing refused to check"
exit 0
