#!/usr/bin/env bash
# A trace.dat made here, converted.  `ftrace2trace record` runs
# `trace-cmd record` (through tests/helpers/trace_cmd_record.sh: trace-cmd
# 3.1.6 aborts where lockdown refuses the function tracer) which runs the
# ping-pong workload: two recorders, two tracefs instances, the same
# tracepoints at once.  Then, for the trace.dat:
# - as many sched_switch records in our text as `trace-cmd report` counts,
#   and every record of `trace-cmd report -N` in our text, field for field;
# - the ping and pong threads named, in the pingpong process (from the
#   trace's task_newtask and fork records: a trace.dat saves no tgids), as
#   in our own capture;
# - the same scheduling records in its FXT as in our recorder's FXT of the
#   same run, CPU by CPU, where both recorded.
# And a trace.dat of timer events, whose function= fields name kernel
# functions from the file's kallsyms (read only then): as trace-cmd report.
# The records are compared from 5 ms after the later recorder started to
# 5 ms before the earlier stopped.
# Needs root and trace-cmd.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
here=$F2T_TESTS/integration
need_root
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v unshare >/dev/null || skip "unshare is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

inst=f2t-test-tc-$$
events=(-e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new
	-e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit -e task)
"$F2T" record --no-sample -k "$TMP/ours.cap" -o "$TMP/ours.fxt" -- \
	"$F2T_TESTS/helpers/trace_cmd_record.sh" -B "$inst" -C mono "${events[@]}" -o "$TMP/tc.dat" \
	-- "$PINGPONG" 20000 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ -d "$T/instances/$inst" ] && fail "trace-cmd's instance $inst was left behind"
[ "$rc" -eq 0 ] || fail "exit $rc: $(tail -5 "$TMP/err")"
line=$(grep '^pingpong: ' "$TMP/out") || fail "workload did not run: $(tail -5 "$TMP/out")"
tgid=$(sed -E 's/.* tgid=([0-9]+).*/\1/' <<<"$line")
ping=$(sed -E 's/.* ping=([0-9]+).*/\1/' <<<"$line")
pong=$(sed -E 's/.* pong=([0-9]+).*/\1/' <<<"$line")

"$F2T" convert -q "$TMP/tc.dat" -o "$TMP/tc.txt" -o "$TMP/tc.fxt" || fail "convert of the trace.dat failed"
trace-cmd report "$TMP/tc.dat" > "$TMP/tc.report" 2>/dev/null || fail "trace-cmd report failed"
want=$(grep -c ' sched_switch: ' "$TMP/tc.report")
got=$(grep -c ' sched_switch: ' "$TMP/tc.txt")
[ "$want" -gt 20000 ] || fail "trace-cmd report shows only $want switches for 20000 round trips"
[ "$got" = "$want" ] || fail "$got sched_switch records in our text, $want in trace-cmd report"
ok "$got sched_switch records, as trace-cmd report counts"
trace-cmd report -N "$TMP/tc.dat" > "$TMP/tc.reportN" 2>/dev/null
python3 "$here/compare_tracecmd_report.py" "$TMP/tc.reportN" "$TMP/tc.txt" || fail "records differ"

# thread TID's last name and process in an FXT dump
thread() {
	"$F2T" dump "$1" | grep -E "kernel_object type=thread\(2\) koid=$2 " | tail -1 |
		sed -E 's/.* name="([^"]*)" args: process=koid:([0-9]+).*/\1 \2/'
}
for t in "ping $ping" "pong $pong"; do
	set -- $t
	for f in tc ours; do
		got=$(thread "$TMP/$f.fxt" "$2")
		[ "$got" = "$1 $tgid" ] || fail "$f.fxt: thread $2 is '$got', not '$1 $tgid'"
	done
done
ok "ping ($ping) and pong ($pong) named, in process $tgid, in both FXT files"

# trace-cmd's buffer can fill on a busy machine: what it dropped (counted
# above, as trace-cmd counts it) cannot be compared.
dropped=$(grep -c 'EVENTS DROPPED\]' "$TMP/tc.reportN")
if [ "$dropped" -gt 0 ]; then
	echo "note: trace-cmd dropped events on $dropped occasions: the trace.dat is not compared with our capture"
else
	"$F2T" dump "$TMP/ours.fxt" | python3 "$here/sched_records.py" > "$TMP/ours.sched"
	"$F2T" dump "$TMP/tc.fxt" | python3 "$here/sched_records.py" > "$TMP/tc.sched"
	python3 "$here/same_sched.py" "$TMP/tc.sched" "$TMP/ours.sched" --min 5000 --margin 5000000 ||
		fail "the trace.dat and our capture of the same run give other scheduling records"
fi

# Timer events print their callback (%ps): named from the file's kallsyms,
# which are read only when such a field is printed (version 7 keeps them in
# a compressed section, version 6 plain), once for all the file's buffers
# (given twice, libtraceevent freed past its function table).
inst2=f2t-test-tc2-$$
for how in "version 6" "version 7" "two buffers"; do
	case $how in
	"version 6") args=(--file-version 6 -C mono -e timer:hrtimer_start -e timer:timer_start) ;;
	"version 7") args=(--file-version 7 -C mono -e timer:hrtimer_start -e timer:timer_start) ;;
	*) args=(-C mono -e timer:hrtimer_start -B "$inst2" -C mono -e timer:hrtimer_start) ;;
	esac
	"$F2T_TESTS/helpers/trace_cmd_record.sh" "${args[@]}" -o "$TMP/timer.dat" -- sleep 0.2 \
		>"$TMP/out" 2>"$TMP/err" ||
		fail "trace-cmd record of timer events ($how) failed: $(tail -3 "$TMP/err")"
	"$F2T" convert -q "$TMP/timer.dat" -o "$TMP/timer.txt" || fail "convert of the timer trace.dat failed"
	trace-cmd report -N "$TMP/timer.dat" > "$TMP/timer.reportN" 2>/dev/null
	python3 "$here/compare_tracecmd_report.py" "$TMP/timer.reportN" "$TMP/timer.txt" ||
		fail "timer records ($how) differ"
	named=$(grep -Ec ' function=[a-z_][a-z_0-9.]* ' "$TMP/timer.txt")
	[ "$named" -ge 10 ] || fail "only $named timer callbacks named in our text ($how)"
	ok "$how: $named timer callbacks named from the file's kallsyms, every record as trace-cmd report -N prints it"
done
[ ! -d "$T/instances/$inst2" ] || fail "trace-cmd's instance $inst2 was left behind"
