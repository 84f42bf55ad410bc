#!/usr/bin/env bash
# An input changed by another program while it is being converted: cut
# short (truncated) or rewritten with longer lines.  Either way convert
# exits 1 with an error saying the file changed while being read; no
# signal ends it (a mapped file's lost pages raise SIGBUS, a line longer
# than the first pass saw overflowed the line buffer).  The moment is made
# certain, not raced: convert writes to a pipe that is not read until the
# file has changed, so it waits in the middle of its events, the rest of
# the file still to read.  Captures too, when root can record one.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

fixture=$F2T_TESTS/fixtures/sched-tcp.trace
# 150 copies of the fixture's events, a second apart: 28 MB, far more
# output than a pipe and the writer's buffer hold before convert waits.
awk '/^#/ { if (!k) print; next }
     { lines[n++] = $0 }
     END {
	for (k = 0; k < 150; k++)
		for (i = 0; i < n; i++) {
			l = lines[i]
			if (match(l, /[0-9]+\.[0-9]+: /)) {
				ts = substr(l, RSTART, RLENGTH - 2)
				split(ts, p, ".")
				l = substr(l, 1, RSTART - 1) (p[1] + k) "." p[2] substr(l, RSTART + RLENGTH - 2)
			}
			print l
		}
     }' "$fixture" >"$TMP/big.txt"
[ "$(stat -c %s "$TMP/big.txt")" -gt 20000000 ] || fail "the big text is too small"
"$F2T" convert -q "$TMP/big.txt" -o "$TMP/whole.json" || fail "the big text does not convert"

# The same text with, every 1000 lines, a line longer than any of it.
awk 'BEGIN { x = "x"; while (length(x) < 20000) x = x x }
     NR > 2000 && NR % 1000 == 0 && /: sched_/ { print substr($0, 1, index($0, ": ")) " foo_event: " x }
     { print }' "$TMP/big.txt" >"$TMP/longer.txt"

# changing WHAT FILE CHANGE...: convert FILE to standard output; once it
# waits on the pipe, run CHANGE, then read the rest.
changing() {
	local what=$1 file=$2 rc
	shift 2
	"$F2T" convert "$file" --format json -o - 2>"$TMP/err" |
		{ head -c 1 >/dev/null; "$@"; cat >/dev/null; }
	rc=${PIPESTATUS[0]}
	[ "$rc" -lt 128 ] || fail "$what: killed by signal $((rc - 128)): $(tail -3 "$TMP/err")"
	[ "$rc" -eq 1 ] || fail "$what: exit $rc, want 1: $(tail -3 "$TMP/err")"
	grep -q "^ftrace2trace: error: $file: .*changed while being read" "$TMP/err" ||
		fail "$what: no error saying $file changed while being read: $(tail -3 "$TMP/err")"
	ok "$what: exit 1: $(grep -m1 'changed while' "$TMP/err")"
}

cp "$TMP/big.txt" "$TMP/in.txt"
changing "text truncated while converted" "$TMP/in.txt" truncate -s 1000 "$TMP/in.txt"
cp "$TMP/big.txt" "$TMP/in.txt"
changing "text truncated to nothing while converted" "$TMP/in.txt" truncate -s 0 "$TMP/in.txt"
cp "$TMP/big.txt" "$TMP/in.txt"
changing "text rewritten longer while converted" "$TMP/in.txt" cp "$TMP/longer.txt" "$TMP/in.txt"
cp "$TMP/big.txt" "$TMP/in.txt"
changing "text rewritten longer, in place, while converted" "$TMP/in.txt" \
	dd if="$TMP/longer.txt" of="$TMP/in.txt" conv=notrunc status=none

# An output file is not left behind by such a run.
cp "$TMP/big.txt" "$TMP/in.txt"
"$F2T" convert "$TMP/in.txt" -o "$TMP/out.json" --format json -o - 2>"$TMP/err" |
	{ head -c 1 >/dev/null; truncate -s 0 "$TMP/in.txt"; cat >/dev/null; }
rc=${PIPESTATUS[0]}
[ "$rc" -eq 1 ] || fail "two outputs: exit $rc, want 1"
[ ! -e "$TMP/out.json" ] || fail "a run whose input was cut short left $TMP/out.json"
ok "no output file left by a run whose input was cut short"

[ "$(id -u)" -eq 0 ] || { ok "captures: skipped (recording one needs root)"; exit 0; }
need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
"$F2T" record -q -k "$TMP/big.cap" -o "$TMP/rec.fxt" -- "$PINGPONG" 20000 >/dev/null 2>"$TMP/err" ||
	fail "cannot record a capture: $(cat "$TMP/err")"
[ "$(stat -c %s "$TMP/big.cap")" -gt 4000000 ] || fail "the capture is too small to wait in the middle"
cp "$TMP/big.cap" "$TMP/in.cap"
changing "capture truncated while converted" "$TMP/in.cap" truncate -s 16 "$TMP/in.cap"
cp "$TMP/big.cap" "$TMP/in.cap"
changing "capture truncated by half while converted" "$TMP/in.cap" \
	truncate -s $(($(stat -c %s "$TMP/big.cap") / 2)) "$TMP/in.cap"

# trace-cmd's trace.dat, its CPU data read mapped as a capture's is.
command -v trace-cmd >/dev/null && command -v unshare >/dev/null ||
	{ ok "trace.dat: skipped (needs trace-cmd and unshare)"; exit 0; }
"$F2T_TESTS/helpers/trace_cmd_record.sh" -e sched:sched_switch -e sched:sched_waking \
	-o "$TMP/big.dat" -- "$PINGPONG" 20000 >/dev/null 2>"$TMP/err" ||
	fail "trace-cmd record failed: $(tail -3 "$TMP/err")"
[ "$(stat -c %s "$TMP/big.dat")" -gt 1000000 ] || fail "the trace.dat is too small to wait in the middle"
cp "$TMP/big.dat" "$TMP/in.dat"
changing "trace.dat truncated while converted" "$TMP/in.dat" \
	truncate -s $(($(stat -c %s "$TMP/big.dat") / 2)) "$TMP/in.dat"

# The same file read by libtracecmd (as files whose timestamps it converts
# are): it reads a file cut short as one that ends there, a shorter trace
# and no error, unless the end sees that the file changed.
cp "$TMP/big.dat" "$TMP/in.dat"
F2T_TEST_TRACEDAT_LIBTRACECMD=1 changing "trace.dat read by libtracecmd, truncated while converted" \
	"$TMP/in.dat" truncate -s $(($(stat -c %s "$TMP/big.dat") / 2)) "$TMP/in.dat"
