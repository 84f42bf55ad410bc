#!/usr/bin/env bash
# Outputs (issue 25, item 7):
#  - an output that is the input (by its name, another path, a symlink, a
#    hard link, standard output) is refused before anything is written, and
#    the input is unchanged;
#  - every form of every subcommand that writes to standard output (report
#    text, --json, --csv, --off-cpu, --off-cpu --folded, dump, --help,
#    --version, record --report) exits non-zero with one line naming the
#    file when standard output is /dev/full;
#  - a text input with a CPU past 1023 converts to every format, and one
#    past FXT's 65535 fails the .fxt alone, naming the CPU and the reason,
#    while the other outputs of the same run are written whole.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

fixture=$F2T_TESTS/fixtures/sched-tcp.cap
text=$F2T_TESTS/fixtures/sched-tcp.trace
FULL="No space left on device"

# --- an output that is the input
cp "$fixture" "$TMP/x.cap"
cp "$fixture" "$TMP/orig.cap"
ln -s x.cap "$TMP/sym.cap"
ln "$TMP/x.cap" "$TMP/hard.cap"
for out in "$TMP/x.cap" "$TMP/./x.cap" "$TMP/sym.cap" "$TMP/hard.cap"; do
	"$F2T" convert -q "$TMP/x.cap" --format json -o "$out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -ne 0 ] || fail "convert X -o $out: exit 0"
	cmp -s "$TMP/x.cap" "$TMP/orig.cap" || fail "convert X -o $out: the input changed"
	[ -L "$TMP/sym.cap" ] || fail "convert X -o $out: the symlink was replaced"
	grep -q "input" "$TMP/err" || fail "convert X -o $out: the error does not say why: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "convert X -o $out: not one line: $(cat "$TMP/err")"
done
ok "convert X -o X (its name, another path, a symlink, a hard link): refused, X unchanged"

"$F2T" convert -q "$TMP/x.cap" -o "$TMP/ok.json" --format json -o "$TMP/hard.cap" 2>"$TMP/err"
[ $? -ne 0 ] || fail "convert with the input as its second output: exit 0"
[ -e "$TMP/ok.json" ] && fail "convert with the input as its second output: the first was written"
cmp -s "$TMP/x.cap" "$TMP/orig.cap" || fail "convert, input as second output: the input changed"
"$F2T" convert -q "$TMP/x.cap" --format json -o - >>"$TMP/x.cap" 2>"$TMP/err"
[ $? -ne 0 ] || fail "convert X -o - >> X: exit 0"
cmp -s "$TMP/x.cap" "$TMP/orig.cap" || fail "convert X -o - >> X: the input changed"
"$F2T" report -o "$TMP/sym.cap" "$TMP/x.cap" >/dev/null 2>"$TMP/err"
[ $? -ne 0 ] || fail "report -o X X: exit 0"
cmp -s "$TMP/x.cap" "$TMP/orig.cap" || fail "report -o X X: the input changed"
ok "an input as a later output, as standard output, as report's -o: refused, unchanged"

# --- standard output on a full device
# full WHAT CMD...: exit 1, one error line naming /dev/full, saying ENOSPC.
full() {
	local what=$1 rc n
	shift
	"$@" >/dev/full 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "$what >/dev/full: exit $rc: $(cat "$TMP/err")"
	n=$(grep -c '^ftrace2trace: error: ' "$TMP/err")
	[ "$n" -eq 1 ] || fail "$what >/dev/full: $n error lines: $(cat "$TMP/err")"
	grep -q "$FULL" "$TMP/err" || fail "$what >/dev/full: does not say '$FULL': $(cat "$TMP/err")"
}
full "report" "$F2T" report "$fixture"
full "report --json" "$F2T" report --json "$fixture"
full "report --csv" "$F2T" report --csv "$fixture"
"$F2T" convert -q "$fixture" -o "$TMP/in.fxt" || fail "cannot convert $fixture"
full "dump" "$F2T" dump "$TMP/in.fxt"
full "--help" "$F2T" --help
full "--version" "$F2T" --version
for c in record convert report dump merge; do
	full "$c --help" "$F2T" "$c" --help
done
ok "report (text, --json, --csv), dump, --help of every subcommand, --version into /dev/full: exit 1, one line"

# --- CPUs past what a format can hold
# A copy of the kernel's text with one more switch, on CPU $1, after line 20.
with_cpu() {
	head -n 20 "$text"
	printf '     migration/0-18      (     18) [%s] d..2.  1848.209330: sched_switch: prev_comm=migration/0 prev_pid=18 prev_prio=0 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n' "$1"
	tail -n +21 "$text"
}
with_cpu 1024 >"$TMP/c1024.txt"
"$F2T" convert -q "$TMP/c1024.txt" -o "$TMP/c.pftrace" -o "$TMP/c.fxt" -o "$TMP/c.json" \
	--format systrace -o "$TMP/c.out.txt" 2>"$TMP/err" ||
	fail "a text with CPU 1024 does not convert: $(cat "$TMP/err")"
"$F2T" dump "$TMP/c.fxt" | grep -q "context_switch ts=1848209330000 cpu=1024 out_state=blocked(3) out=18 in=0" ||
	fail "CPU 1024: the .fxt has no switch on CPU 1024"
grep -q '^ *migration/0-18 .*\[1024\] d..2.  1848.209330: sched_switch: prev_comm=migration/0' "$TMP/c.out.txt" ||
	fail "CPU 1024: the text output lost the line"
python3 - "$TMP/c.json" <<'EOF' || fail "CPU 1024: the .json lost the line"
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if "[1024] d..2.  1848.209330: sched_switch" in t["systemTraceEvents"] else 1)
EOF
PROTOC=${PROTOC:-$(command -v protoc)}
if [ -n "$PROTOC" ]; then
	"$PROTOC" --proto_path="$F2T_TESTS/fixtures/perfetto" --decode=f2t_subset.Trace \
		trace_subset.proto <"$TMP/c.pftrace" >"$TMP/c.pf.txt" ||
		fail "CPU 1024: protoc cannot decode the .pftrace"
	grep -A2 '^    cpu: 1024$' "$TMP/c.pf.txt" | grep -q 'timestamp: 1848209330000' ||
		fail "CPU 1024: the .pftrace has no bundle of CPU 1024 with the switch"
	ok "a text with CPU 1024: every format holds its switch (.pftrace read by protoc)"
else
	ok "a text with CPU 1024: every format holds its switch (.pftrace not decoded: no protoc)"
fi

with_cpu 70000 >"$TMP/c70000.txt"
"$F2T" convert -q "$TMP/c70000.txt" -o "$TMP/d.pftrace" -o "$TMP/d.fxt" -o "$TMP/d.json" \
	--format systrace -o "$TMP/d.out.txt" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "CPU 70000: exit $rc"
[ -e "$TMP/d.fxt" ] && fail "CPU 70000: a .fxt was written"
ls -A "$TMP" | grep -q '^\.d\.' && fail "CPU 70000: a temporary file was left: $(ls -A "$TMP")"
grep -q "^ftrace2trace: error: $TMP/d.fxt: CPU 70000: FXT holds CPUs up to 65535" "$TMP/err" ||
	fail "CPU 70000: the error does not name the .fxt and the CPU: $(cat "$TMP/err")"
[ "$(grep -c '^ftrace2trace: error: ' "$TMP/err")" -eq 1 ] || fail "CPU 70000: more than one error: $(cat "$TMP/err")"
grep -q '\[70000\] d..2.  1848.209330: sched_switch' "$TMP/d.out.txt" || fail "CPU 70000: the text output is not whole"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/d.json" || fail "CPU 70000: the .json is not whole"
[ -n "$PROTOC" ] && { "$PROTOC" --proto_path="$F2T_TESTS/fixtures/perfetto" --decode=f2t_subset.Trace \
	trace_subset.proto <"$TMP/d.pftrace" | grep -q '^    cpu: 70000$' || fail "CPU 70000: the .pftrace is not whole"; }
ok "a text with CPU 70000: the .fxt alone fails ($(cat "$TMP/err")), the others are written, exit 1"

# --- root: the off-CPU report, record --report
[ "$(id -u)" -eq 0 ] || skip "the off-CPU and record --report checks record (root)"
need_root
"$F2T" record -q --off-cpu -k "$TMP/off.cap" -o "$TMP/off.fxt" -- sh -c 'sleep 0.05; sleep 0.05' \
	2>"$TMP/err" || skip "cannot record off-CPU episodes here: $(cat "$TMP/err")"
full "report --off-cpu" "$F2T" report --off-cpu "$TMP/off.cap"
full "report --off-cpu --folded" "$F2T" report --off-cpu --folded "$TMP/off.cap"
ok "report --off-cpu [--folded] into /dev/full: exit 1, one line"

rec "$TMP/err" -q --report -o "$TMP/r.fxt" -- sleep 0.1 >/dev/full
[ "$RC" -eq 1 ] || fail "record --report >/dev/full: exit $RC: $(cat "$TMP/err")"
grep -q "$FULL" "$TMP/err" || fail "record --report >/dev/full: does not say '$FULL': $(cat "$TMP/err")"
is_fxt "$TMP/r.fxt" || fail "record --report >/dev/full: the trace was not written"
ok "record --report into /dev/full: exit 1, the trace written: $(cat "$TMP/err")"
exit 0
