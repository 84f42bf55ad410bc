#!/usr/bin/env bash
# What the recorder opens to sample (root, strace): one event per online
# CPU, bound to no task (perf_event_open pid -1, no inherit, no
# enable_on_exec), for a COMMAND, for -p and with --call-graph dwarf alike.
# A task-bound event is switched with its task at every context switch,
# which in a VM with a PMU traps to the hypervisor each time.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BURN=$B/tests/helpers/burn
[ -x "$BURN" ] || skip "$BURN not built (make tests)"
command -v strace >/dev/null || skip "strace not installed (scripts/install-deps)"
ncpus=$(getconf _NPROCESSORS_ONLN)

# check_opens LABEL LOG: every event strace saw opened is a per-CPU one
check_opens() {
	local label=$1 log=$2 opened bound
	opened=$(grep -c '^perf_event_open(.*) = [0-9]' "$log")
	[ "$opened" -eq "$ncpus" ] ||
		fail "$label: $opened sampling events opened, not one per CPU ($ncpus): $(cat "$log")"
	# The arguments after the attributes: pid, cpu, group fd, flags.
	bound=$(grep '^perf_event_open(.*) = [0-9]' "$log" | grep -Ev '\}, -1, [0-9]+, -1, ')
	[ -z "$bound" ] || fail "$label: events bound to a task: $bound"
	bound=$(grep -E '^perf_event_open\(.*(inherit|enable_on_exec)=1' "$log")
	[ -z "$bound" ] || fail "$label: events that follow a task: $bound"
}

strace -e trace=perf_event_open -o "$TMP/cmd.log" \
	"$F2T" record -q -o "$TMP/c.fxt" -- "$BURN" 0.3 >/dev/null 2>"$TMP/err" ||
	fail "record COMMAND: $(cat "$TMP/err")"
check_opens COMMAND "$TMP/cmd.log"
ok "COMMAND: $ncpus per-CPU events, none bound to a task"

"$BURN" 3 >/dev/null &
target=$!
strace -e trace=perf_event_open -o "$TMP/pid.log" \
	"$F2T" record -q -p "$target" -d 0.3 -o "$TMP/p.fxt" 2>"$TMP/err"
rc=$?
kill "$target" 2>/dev/null
wait "$target" 2>/dev/null
[ "$rc" -eq 0 ] || fail "record -p: $(cat "$TMP/err")"
check_opens "-p" "$TMP/pid.log"
ok "-p: per-CPU events, none bound to a task"

strace -e trace=perf_event_open -o "$TMP/dwarf.log" \
	"$F2T" record -q --call-graph dwarf -o "$TMP/d.fxt" -- "$BURN" 0.3 >/dev/null 2>"$TMP/err" ||
	fail "record --call-graph dwarf: $(cat "$TMP/err")"
check_opens "--call-graph dwarf" "$TMP/dwarf.log"
ok "--call-graph dwarf: per-CPU events, none bound to a task"
exit 0
