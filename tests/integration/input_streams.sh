#!/usr/bin/env bash
# Inputs that are not regular files.  ftrace text from a pipe ("-" and
# /dev/stdin), from a FIFO with a writer and from a tracefs trace file
# (size 0, content read on demand) converts to exactly what the same text
# in a regular file does.  A FIFO with no writer, a device and a directory
# are a one-line error at once (not a wait, not a read without end), for
# convert, report, dump and merge; dump /dev/zero stays within a small
# address space.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

text=$F2T_TESTS/fixtures/sched-tcp.trace
# The same text in a regular file: what every stream must match.
cp "$text" "$TMP/in.txt"
"$F2T" convert -q "$TMP/in.txt" -o "$TMP/file.json" -o "$TMP/file.fxt" ||
	fail "cannot convert $text"
# Worked out from the text, not by the program: every sched_switch line is one.
switches=$(grep -c ' sched_switch: ' "$text")
[ "$switches" -gt 100 ] || fail "the fixture has $switches sched_switch lines"
# The JSON carries the kernel's text of every event (systemTraceEvents).
n=$(grep -o ' sched_switch: ' "$TMP/file.json" | wc -l)
[ "$n" -eq "$switches" ] || fail "the file's conversion has $n sched_switch lines, the text $switches"

same() {	# WHAT OUT: OUT is what the regular file gave
	cmp -s "$TMP/file.json" "$2" || fail "$1: output differs from the regular file's"
	ok "$1: same output as the regular file"
}

cat "$text" | "$F2T" convert -q - -o "$TMP/dash.json" || fail "convert - from a pipe failed"
same "convert - (a pipe)" "$TMP/dash.json"

cat "$text" | "$F2T" convert -q /dev/stdin -o "$TMP/stdin.json" || fail "convert /dev/stdin failed"
same "convert /dev/stdin (a pipe)" "$TMP/stdin.json"

mkfifo "$TMP/fifo"
cat "$text" >"$TMP/fifo" &
timeout 10 "$F2T" convert -q "$TMP/fifo" -o "$TMP/fifo.json" || fail "convert of a FIFO with a writer failed"
wait
same "a FIFO with a writer" "$TMP/fifo.json"

# A writer that comes only after the reader is waiting (the usual order of
# "writer > fifo &" in a script) and writes late is waited for.
(sleep 0.3; exec cat "$text") >"$TMP/fifo" &
timeout 10 "$F2T" convert -q "$TMP/fifo" -o "$TMP/late.json" || fail "convert of a FIFO with a late writer failed"
wait
same "a FIFO whose writer writes late" "$TMP/late.json"

cat "$TMP/file.fxt" | "$F2T" dump - >"$TMP/dash.dump" || fail "dump - failed"
"$F2T" dump "$TMP/file.fxt" >"$TMP/file.dump" || fail "dump of the file failed"
cmp -s "$TMP/dash.dump" "$TMP/file.dump" || fail "dump - differs from dump of the file"
ok "dump - (a pipe): same as the file's"

# quick WHAT WANT CMD...: exit 1 within 5 s (timeout's 124 on a wait), one
# error line saying WANT.
quick() {
	local what=$1 want=$2 rc start end
	shift 2
	start=$(date +%s%N)
	timeout 10 "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	end=$(date +%s%N)
	[ "$rc" -eq 1 ] || fail "$what: exit $rc, want 1: $(cat "$TMP/err")"
	[ $(((end - start) / 1000000)) -lt 5000 ] || fail "$what: took $(((end - start) / 1000000)) ms"
	grep -q "^ftrace2trace: error: .*$want" "$TMP/err" || fail "$what: no error saying '$want': $(cat "$TMP/err")"
	ok "$what: exit 1 at once: $(grep -m1 error "$TMP/err")"
}

mkfifo "$TMP/lonely"
quick "convert of a FIFO with no writer" "no program writing" "$F2T" convert "$TMP/lonely" -o "$TMP/x.json"
quick "report of a FIFO with no writer" "no program writing" "$F2T" report "$TMP/lonely"
quick "dump of a FIFO with no writer" "no program writing" "$F2T" dump "$TMP/lonely"
quick "merge of a FIFO with no writer" "not a regular file" "$F2T" merge "$TMP/lonely" "$TMP/file.json" -o "$TMP/m.json"
quick "dump /dev/zero in 1 GB of address space" "a device" bash -c 'ulimit -v 1000000; exec "$@"' sh "$F2T" dump /dev/zero
quick "convert /dev/zero in 1 GB of address space" "a device" bash -c 'ulimit -v 1000000; exec "$@"' sh "$F2T" convert /dev/zero -o "$TMP/x.json"
quick "convert of a directory" "Is a directory" "$F2T" convert "$TMP" -o "$TMP/x.json"
[ ! -e "$TMP/x.json" ] || fail "an output was left behind by a refused input"

# A tracefs trace file: size 0, its text made as it is read.
[ "$(id -u)" -eq 0 ] || { ok "tracefs trace file: skipped (needs root)"; exit 0; }
[ -z "${F2T_TRACEFS_STUCK:-}" ] || { ok "tracefs trace file: skipped ($F2T_TRACEFS_STUCK)"; exit 0; }
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d/instances" ] && { T=$d; break; }
done
[ -n "$T" ] || { ok "tracefs trace file: skipped (no tracefs)"; exit 0; }
inst=$T/instances/f2t-input-streams-$$
mkdir "$inst" || fail "cannot make the instance $inst"
trap 'rmdir "$inst" 2>/dev/null; rm -rf "$TMP"' EXIT
echo mono >"$inst/trace_clock" 2>/dev/null
for m in first second third; do echo "marker-$m" >"$inst/trace_marker"; done
[ "$(stat -c %s "$inst/trace")" -eq 0 ] || fail "$inst/trace does not say size 0 (the case under test)"
cat "$inst/trace" >"$TMP/tracefs.txt"
[ "$(grep -c 'marker-' "$TMP/tracefs.txt")" -eq 3 ] || fail "the instance's trace does not hold the 3 markers"
"$F2T" convert -q "$TMP/tracefs.txt" -o "$TMP/copy.json" || fail "cannot convert the copy of $inst/trace"
"$F2T" convert -q "$inst/trace" -o "$TMP/tracefs.json" || fail "cannot convert $inst/trace"
[ "$(grep -o 'marker-[a-z]*' "$TMP/tracefs.json" | sort -u | wc -l)" -eq 3 ] ||
	fail "the conversion of $inst/trace lacks the markers"
cmp -s "$TMP/copy.json" "$TMP/tracefs.json" || fail "$inst/trace converts otherwise than its copy"
ok "a tracefs trace file (size 0): its 3 markers, same output as its copy"
