#!/usr/bin/env bash
# A big compressed trace.dat (trace-cmd's default: zstd) converts to what
# its uncompressed copy converts to, made by `trace-cmd convert
# --compression none`, and holds as many sched_switch records as `trace-cmd
# report` counts.  Where libtracecmd is older than 1.5.1 (it reads compressed
# files in quadratic time) it is read through our own uncompressed copy,
# in $TMPDIR, and nothing is left there.
# Needs root and trace-cmd.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v unshare >/dev/null || skip "unshare is not installed"
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

# 500000 round trips: about 3 M records, 7.7 MB compressed (the copy is
# made from 6 MiB on).
"$F2T_TESTS/helpers/trace_cmd_record.sh" -B "f2t-test-tcz-$$" -C mono -e sched:sched_switch \
	-e sched:sched_waking -e sched:sched_wakeup -o "$TMP/z.dat" \
	-- taskset -c 0 "$PINGPONG" 500000 >"$TMP/out" 2>"$TMP/err" ||
	fail "trace-cmd record failed: $(tail -3 "$TMP/err")"
size=$(stat -c %s "$TMP/z.dat")
[ "$size" -ge $((6 << 20)) ] || fail "the trace.dat is $size bytes: too small to be read through a copy"
trace-cmd convert -i "$TMP/z.dat" -o "$TMP/plain.dat" --compression none >/dev/null 2>&1 ||
	fail "trace-cmd convert --compression none failed"
[ "$(stat -c %s "$TMP/plain.dat")" -gt $((size * 2)) ] || fail "z.dat was not compressed"

mkdir "$TMP/tmpdir"
TMPDIR=$TMP/tmpdir "$F2T" convert -v "$TMP/z.dat" -o "$TMP/z.txt" 2>"$TMP/z.err" ||
	fail "convert of the compressed trace.dat failed: $(tail -3 "$TMP/z.err")"
if pkg-config --atleast-version=1.5.1 libtracecmd; then
	grep -q 'copying it uncompressed' "$TMP/z.err" && fail "copied although libtracecmd reads it well"
	ok "read directly (libtracecmd $(pkg-config --modversion libtracecmd))"
else
	grep -q "copying it uncompressed into $TMP/tmpdir/" "$TMP/z.err" ||
		fail "not read through a copy in \$TMPDIR: $(grep -v '^ftrace2trace: [0-9]' "$TMP/z.err" | head -3)"
	ok "read through an uncompressed copy (libtracecmd $(pkg-config --modversion libtracecmd))"
fi
[ -z "$(ls -A "$TMP/tmpdir")" ] || fail "left in \$TMPDIR: $(ls -A "$TMP/tmpdir")"

"$F2T" convert -q "$TMP/plain.dat" -o "$TMP/plain.txt" || fail "convert of the uncompressed copy failed"
cmp -s "$TMP/z.txt" "$TMP/plain.txt" || fail "the compressed and uncompressed files convert differently"
want=$(trace-cmd report "$TMP/z.dat" 2>/dev/null | grep -c ' sched_switch: ')
got=$(grep -c ' sched_switch: ' "$TMP/z.txt")
[ "$got" = "$want" ] || fail "$got sched_switch records in our text, $want in trace-cmd report"
ok "$got sched_switch records, as trace-cmd report counts; the same text as from its uncompressed copy"
