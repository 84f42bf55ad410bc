#!/usr/bin/env bash
# The Perfetto output read by protoc, a decoder we did not write, against
# tests/fixtures/perfetto/trace_subset.proto (the fields we write, by
# Perfetto's numbers):
#  - each packet builder, fed made-up facts by the unit test test_perfetto,
#    decodes to the hand-written tests/fixtures/perfetto/NAME.txt (the
#    identity's converter there is @VERSION@, this build's version);
#  - a whole .pftrace of the sched-tcp fixture decodes, and holds one
#    sched_switch (compact or whole) per line of the kernel's own text of
#    that recording (tests/fixtures/sched-tcp.trace);
#  - as root: a recording with CPU samples holds as many samples as the
#    FXT of the same conversion has profiler backtraces, and as the summary
#    counted.
# protoc is found through PROTOC or PATH (Debian: protobuf-compiler).
set -u
: "${F2T:?}" "${B:?}"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
PROTOC=${PROTOC:-$(command -v protoc)}
[ -n "$PROTOC" ] && [ -x "$PROTOC" ] || skip "protoc not found (PROTOC or PATH; Debian: protobuf-compiler)"
UNIT=$B/tests/test_perfetto
[ -x "$UNIT" ] || skip "$UNIT not built (make tests)"
FIX=$F2T_TESTS/fixtures/perfetto
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

decode() { "$PROTOC" --proto_path="$FIX" --decode=f2t_subset.Trace trace_subset.proto; }

PF_DUMP_DIR=$TMP "$UNIT" >"$TMP/unit.out" 2>&1 || fail "test_perfetto failed: $(cat "$TMP/unit.out")"
n=0
# The converter's version, which the identity packet names, is this build's (@VERSION@ in the files).
version=$("$F2T" --version | sed 's/^ftrace2trace //')
for want in "$FIX"/*.txt; do
	name=$(basename "$want" .txt)
	[ -s "$TMP/$name.pb" ] || fail "test_perfetto wrote no $name.pb"
	decode <"$TMP/$name.pb" >"$TMP/$name.got" 2>"$TMP/err" || fail "$name: protoc: $(cat "$TMP/err")"
	sed "s/@VERSION@/$version/" "$want" | diff -u - "$TMP/$name.got" >"$TMP/diff" ||
		fail "$name decodes otherwise than expected: $(cat "$TMP/diff")"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n builders checked"
ok "$n packet builders decode as worked out by hand"

# switches FILE: sched_switch events in a decoded trace, compact and whole.
switches() { grep -cE '^ *(switch_timestamp:|sched_switch \{)' "$1"; }

"$F2T" convert -q "$F2T_TESTS/fixtures/sched-tcp.cap" -o "$TMP/tcp.pftrace" || fail "convert failed"
decode <"$TMP/tcp.pftrace" >"$TMP/tcp.txt" 2>"$TMP/err" || fail "the whole file: protoc: $(cat "$TMP/err")"
got=$(switches "$TMP/tcp.txt")
want=$(grep -c "sched_switch:" "$F2T_TESTS/fixtures/sched-tcp.trace")
[ "$got" -eq "$want" ] || fail "$got sched_switch in the .pftrace, the kernel's text has $want"
ok "sched-tcp: the whole file decodes; $got sched_switch, as the kernel's own text"

[ "$(id -u)" -eq 0 ] || { echo "SKIP (part): recording with samples needs root"; exit 0; }
[ -z "${F2T_TRACEFS_STUCK:-}" ] || { echo "SKIP (part): $F2T_TRACEFS_STUCK"; exit 0; }
BURN=$B/tests/helpers/burn
[ -x "$BURN" ] || fail "$BURN not built (make tests)"
"$F2T" record -F 499 -o "$TMP/b.pftrace" -o "$TMP/b.fxt" -- "$BURN" 0.5 >/dev/null 2>"$TMP/rec" ||
	fail "record: $(cat "$TMP/rec")"
decode <"$TMP/b.pftrace" >"$TMP/b.txt" 2>"$TMP/err" || fail "recording: protoc: $(cat "$TMP/err")"
pf=$(awk '/^  perf_sample \{/ {s=1; lost=0} s && /kernel_records_lost/ {lost=1}
	  s && /^  \}/ {s=0; if (!lost) n++} END {print n+0}' "$TMP/b.txt")
fxt=$("$F2T" dump --stats "$TMP/b.fxt" | awk '$1 == "profiler_backtrace" {print $2}')
summary=$(sed -n 's/.*: \([0-9]*\) CPU samples, .*/\1/p' "$TMP/rec")
[ "$pf" -gt 20 ] || fail "only $pf samples in the .pftrace"
[ "$pf" -eq "$fxt" ] && [ "$pf" -eq "$summary" ] ||
	fail "$pf samples in the .pftrace, $fxt backtraces in the FXT, $summary in the summary"
ok "burn: $pf samples in the .pftrace, as many as FXT backtraces and the summary"
sw=$(switches "$TMP/b.txt")
want=$(sed -n 's/.* events from .*: \([0-9]*\) sched_switch.*/\1/p' "$TMP/rec")
[ "$sw" -eq "$want" ] || fail "$sw sched_switch in the .pftrace, $want decoded"
ok "burn: $sw sched_switch, as many as decoded"
exit 0
