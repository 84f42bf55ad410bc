#!/usr/bin/env bash
# The sched-tcp fixture as .pftrace, read by Perfetto's trace processor
# (TRACE_PROCESSOR or trace_processor_shell on PATH), against the kernel's
# own text of that recording (tests/fixtures/sched-tcp.trace): no root.
#  - every thread state a switch-out leaves, Sleeping, Uninterruptible,
#    Runnable (Preempted), Idle, Dead, Zombie, as often as the kernel's
#    prev_state letters (trace processor decodes the raw bits by the
#    kernel release the file names);
#  - one sched slice per sched_switch, and the same count from the JSON;
#  - the threads' names and processes as the JSON gives them.
set -u
: "${F2T:?}"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell)}
[ -n "$TP" ] && [ -x "$TP" ] ||
	skip "no Perfetto trace processor (set TRACE_PROCESSOR, or put trace_processor_shell on PATH)"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
tp() { "$TP" -q <(echo "$2") "$1" 2>/dev/null | sed '1d; s/"//g'; }
KTEXT=$F2T_TESTS/fixtures/sched-tcp.trace

"$F2T" convert -q "$F2T_TESTS/fixtures/sched-tcp.cap" -o "$TMP/t.pftrace" -o "$TMP/t.json" ||
	fail "convert failed"
for s in S D R+ I X Z; do
	got=$(tp "$TMP/t.pftrace" "select count(*) from thread_state where state = '$s'")
	want=$(grep -cE "sched_switch: .* prev_state=${s/+/\\+} " "$KTEXT")
	[ "$want" -gt 0 ] || fail "the fixture has no prev_state=$s"
	[ "$got" -eq "$want" ] || fail "state $s: $got in thread_state, $want in the kernel's text"
	states="${states:-}$s:$got "
done
ok "thread states as the kernel's prev_state: $states"

got=$(tp "$TMP/t.pftrace" "select count(*) from sched")
json=$(tp "$TMP/t.json" "select count(*) from sched")
want=$(grep -c "sched_switch:" "$KTEXT")
[ "$got" -eq "$want" ] && [ "$json" -eq "$want" ] ||
	fail "$got sched slices from the .pftrace, $json from the .json, $want sched_switch in the kernel's text"
ok "$got sched slices, one per sched_switch, as from the JSON"

q="select tid, name, (select pid from process p where p.upid = t.upid) from thread t
	where tid != 0 and name is not null order by tid"
tp "$TMP/t.pftrace" "$q" >"$TMP/pf.threads"
tp "$TMP/t.json" "$q" >"$TMP/json.threads"
[ "$(wc -l <"$TMP/pf.threads")" -gt 50 ] || fail "few named threads: $(wc -l <"$TMP/pf.threads")"
diff "$TMP/json.threads" "$TMP/pf.threads" >"$TMP/diff" ||
	fail "threads (tid, name, process) differ from the JSON's: $(head -20 "$TMP/diff")"
ok "$(wc -l <"$TMP/pf.threads") threads named and in their processes as from the JSON"
exit 0
