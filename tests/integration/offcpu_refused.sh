#!/usr/bin/env bash
# When the kernel will not load the off-CPU BPF programs, an explicit
# --off-cpu fails before tracing starts: one line saying what is missing,
# exit 1, no output file, no -k capture, our tracefs instance removed.
# Two real refusals: bpf() without CAP_BPF/CAP_SYS_ADMIN (setpriv drops them
# from the bounding set), and a stack map of 0 entries, which the kernel
# refuses to create (the loader's test hook F2T_TEST_OFFCPU_STACK_ENTRIES).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root

probe_err=$TMP/probe.err
"$F2T" record -q --off-cpu --no-sample -o "$TMP/probe.json" -- true 2>"$probe_err"
grep -q "built without BPF" "$probe_err" && skip "this build has no BPF: $(cat "$probe_err")"
[ -s "$TMP/probe.json" ] || skip "--off-cpu does not work here: $(cat "$probe_err")"

# refused NAME CMD...: runs CMD (a record --off-cpu), checks the failure; the
# rest of the line is what the message must say.
refused() {
	local name=$1 want=$2; shift 2
	rm -f "$TMP/out.json" "$TMP/keep.cap"
	# setpriv and env exec the recorder: its pid names its instance.
	"$@" --off-cpu --no-sample -k "$TMP/keep.cap" -o "$TMP/out.json" -- true 2>"$TMP/err" &
	RPID=$!
	wait "$RPID"
	RC=$?
	[ "$RC" -eq 1 ] || fail "$name: exit $RC, expected 1: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$name: not one line: $(cat "$TMP/err")"
	grep -q -- "--off-cpu: .*$want" "$TMP/err" || fail "$name: message: $(cat "$TMP/err")"
	[ -e "$TMP/out.json" ] && fail "$name: left an output"
	[ -e "$TMP/keep.cap" ] && fail "$name: left the capture"
	instance_left "$RPID" && fail "$name: left its tracefs instance"
	ok "$name: $(cat "$TMP/err")"
}

if command -v setpriv >/dev/null; then
	refused "no permission" "not permitted" setpriv --bounding-set -bpf,-perfmon,-sys_admin -- "$F2T" record
else
	echo "note: setpriv (util-linux) missing: the permission case is not checked"
fi
refused "map refused" "map 'kstacks': failed to create" env F2T_TEST_OFFCPU_STACK_ENTRIES=0 "$F2T" record
exit 0
