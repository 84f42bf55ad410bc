#!/usr/bin/env bash
# A big compressed trace.dat (trace-cmd's default: zstd) has its chunks
# inflated by our page reader, no copy made: it converts to what its
# uncompressed copy (`trace-cmd convert --compression none`) converts to,
# to what libtracecmd's reading of its records gives, and holds as many
# sched_switch records as `trace-cmd report` counts.  libtracecmd older than
# 1.5.1 reads compressed files in quadratic time, so where libtracecmd
# reads the records (the test hook here; files whose options shift the
# timestamps for users) a big one is read through our uncompressed copy in
# $TMPDIR, and nothing is left there.  A file recorded with --date (an
# option that shifts every timestamp) is read by libtracecmd, to the same
# records and times as trace-cmd report shows.
# Needs root and trace-cmd.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

# 500000 round trips: about 3 M records, 7.7 MB compressed (a copy is made
# from 6 MiB on).
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
grep -q 'libtracecmd reads it (\|copying it uncompressed' "$TMP/z.err" &&
	fail "not read by our page reader: $(grep -v '^ftrace2trace: [0-9]' "$TMP/z.err" | head -3)"
[ -z "$(ls -A "$TMP/tmpdir")" ] || fail "left in \$TMPDIR: $(ls -A "$TMP/tmpdir")"
"$F2T" convert -q "$TMP/plain.dat" -o "$TMP/plain.txt" || fail "convert of the uncompressed copy failed"
cmp -s "$TMP/z.txt" "$TMP/plain.txt" || fail "the compressed and uncompressed files convert differently"
want=$(trace-cmd report "$TMP/z.dat" 2>/dev/null | grep -c ' sched_switch: ')
got=$(grep -c ' sched_switch: ' "$TMP/z.txt")
[ "$got" = "$want" ] || fail "$got sched_switch records in our text, $want in trace-cmd report"
ok "inflated by our reader, no copy: $got sched_switch records, as trace-cmd report counts; the same text as from its uncompressed copy"

F2T_TEST_TRACEDAT_LIBTRACECMD=1 TMPDIR=$TMP/tmpdir "$F2T" convert -v "$TMP/z.dat" -o "$TMP/lib.txt" \
	2>"$TMP/lib.err" || fail "convert through libtracecmd failed: $(tail -3 "$TMP/lib.err")"
if pkg-config --atleast-version=1.5.1 libtracecmd; then
	grep -q 'copying it uncompressed' "$TMP/lib.err" && fail "copied although libtracecmd reads it well"
	how="directly (libtracecmd $(pkg-config --modversion libtracecmd))"
else
	grep -q "copying it uncompressed into $TMP/tmpdir/" "$TMP/lib.err" ||
		fail "libtracecmd's reading not through a copy in \$TMPDIR: $(grep -v '^ftrace2trace: [0-9]' "$TMP/lib.err" | head -3)"
	how="through an uncompressed copy (libtracecmd $(pkg-config --modversion libtracecmd))"
fi
[ -z "$(ls -A "$TMP/tmpdir")" ] || fail "left in \$TMPDIR: $(ls -A "$TMP/tmpdir")"
cmp -s "$TMP/z.txt" "$TMP/lib.txt" || fail "libtracecmd's reading of the records gives another text than ours"
ok "libtracecmd's reading, $how, gives the same text"

# --date: every timestamp shifted to the time of day; libtracecmd applies it.
"$F2T_TESTS/helpers/trace_cmd_record.sh" --date -B "f2t-test-tcd-$$" -C mono -e sched:sched_switch \
	-o "$TMP/date.dat" -- taskset -c 0 "$PINGPONG" 200 >"$TMP/out" 2>"$TMP/err" ||
	fail "trace-cmd record --date failed: $(tail -3 "$TMP/err")"
"$F2T" convert -v "$TMP/date.dat" -o "$TMP/date.txt" 2>"$TMP/date.err" || fail "convert of the --date file failed"
grep -q 'libtracecmd reads it (its options shift or scale the timestamps)' "$TMP/date.err" ||
	fail "the --date file was not left to libtracecmd: $(head -3 "$TMP/date.err")"
trace-cmd report -N "$TMP/date.dat" > "$TMP/date.report" 2>/dev/null || fail "trace-cmd report failed"
python3 "$F2T_TESTS/integration/compare_tracecmd_report.py" "$TMP/date.report" "$TMP/date.txt" ||
	fail "the --date file: other records or times than trace-cmd report's"
ok "a --date trace.dat is read by libtracecmd, with trace-cmd report's times"
