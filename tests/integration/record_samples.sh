#!/usr/bin/env bash
# CPU samples end to end (root): a program spending three quarters of its
# time in one function and a quarter in another is seen so in both FXT and
# JSON; a syscall loop shows named kernel frames; both formats carry the
# same number of samples; the same program without frame pointers gets its
# callers with --call-graph dwarf only; -F 0 and --no-sample turn sampling off.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BURN=$B/tests/helpers/burn
[ -x "$BURN" ] || skip "$BURN not built (make tests)"
command -v nm >/dev/null || skip "nm (binutils) not installed"
command -v python3 >/dev/null || skip "python3 not installed"
CHECK=$F2T_TESTS/integration/check_samples.py

"$F2T" record -F 999 -o "$TMP/b.fxt" -o "$TMP/b.json" -- "$BURN" 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "burn: exit $rc: $(cat "$TMP/err")"
grep -q "CPU samples" "$TMP/err" || fail "no sample summary: $(cat "$TMP/err")"
"$F2T" dump "$TMP/b.fxt" >"$TMP/b.dump" || fail "dump of the FXT failed"
python3 "$CHECK" "$TMP/b.json" "$TMP/b.dump" "$BURN" burn || fail "burn profile"
ok "3:1 profile seen in FXT and JSON"

"$F2T" record -F 999 -o "$TMP/s.fxt" -o "$TMP/s.json" -- "$BURN" --syscalls 1 >"$TMP/out" 2>"$TMP/err" ||
	fail "syscalls: $(cat "$TMP/err")"
"$F2T" dump "$TMP/s.fxt" >"$TMP/s.dump" || fail "dump of the FXT failed"
python3 "$CHECK" "$TMP/s.json" "$TMP/s.dump" "$BURN" syscalls || fail "kernel frames"
ok "kernel frames named"

# The same program built without frame pointers: with --call-graph dwarf the
# user stacks are unwound from the copied registers and stack (burn_three and
# burn_one still 3:1, main their caller); with the kernel's frame-pointer walk
# (the default) main is never found, so the callers come from the CFI.
NOFP=$B/tests/helpers/burn_nofp
[ -x "$NOFP" ] || fail "$NOFP not built (make tests)"
"$F2T" record -F 999 --call-graph dwarf -o "$TMP/d.fxt" -o "$TMP/d.json" -- "$NOFP" 2 >"$TMP/out" 2>"$TMP/err" ||
	fail "dwarf: $(cat "$TMP/err")"
grep -q "user stacks unwound with DWARF CFI" "$TMP/err" || fail "dwarf: no unwinding summary: $(cat "$TMP/err")"
"$F2T" dump "$TMP/d.fxt" >"$TMP/d.dump" || fail "dump of the FXT failed"
python3 "$CHECK" "$TMP/d.json" "$TMP/d.dump" "$NOFP" callers || fail "dwarf: burn_nofp callers"
"$F2T" record -F 999 -o "$TMP/p.fxt" -o "$TMP/p.json" -- "$NOFP" 1 >"$TMP/out" 2>"$TMP/err" ||
	fail "fp: $(cat "$TMP/err")"
"$F2T" dump "$TMP/p.fxt" >"$TMP/p.dump" || fail "dump of the FXT failed"
python3 "$CHECK" "$TMP/p.json" "$TMP/p.dump" "$NOFP" nocallers || fail "fp: burn_nofp got callers"
ok "no frame pointers: callers found by --call-graph dwarf, not by frame pointers"

for off in "-F 0" "--no-sample"; do
	# shellcheck disable=SC2086
	"$F2T" record -q $off -o "$TMP/n.fxt" -o "$TMP/n.json" -- "$BURN" 0.2 >/dev/null 2>"$TMP/err" ||
		fail "$off: $(cat "$TMP/err")"
	"$F2T" dump "$TMP/n.fxt" | grep -q profiler && fail "$off: profiler records in the FXT"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit("samples" in d)' "$TMP/n.json" ||
		fail "$off: samples in the JSON"
done
ok "-F 0 and --no-sample record no samples"
exit 0
