#!/usr/bin/env bash
# with_ref_instance.sh OUT.trace -- COMMAND...
#
# Runs COMMAND (typically an `ftrace2trace record`) while a second tracefs
# instance of its own records the same scheduling events with the same clock
# (mono) and record-tgid on, then saves that instance's `trace` file, which
# the kernel formats itself, as OUT.trace and removes the instance.
# Tracepoints write to every instance that enabled them, so OUT.trace holds
# the kernel's own text for every event COMMAND's recording saw.  Needs root.
# Exits with COMMAND's status.  REF_EVENTS adds events ("timer/hrtimer_start ...").
set -u
out=${1:?usage: $0 OUT.trace -- COMMAND...}
shift
[ "${1:-}" = "--" ] && shift
tracefs=/sys/kernel/tracing
[ -d "$tracefs/instances" ] || tracefs=/sys/kernel/debug/tracing
ref="$tracefs/instances/f2t-test-ref-$$"
events="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
	sched/sched_process_fork sched/sched_process_exec sched/sched_process_exit
	sched/sched_process_free task/task_rename task/task_newtask ftrace/print ${REF_EVENTS:-}"

trap '[ -d "$ref" ] && rmdir "$ref" 2>/dev/null' EXIT
mkdir "$ref" || exit 1
echo mono > "$ref/trace_clock" || exit 1
echo 1 > "$ref/options/record-tgid" || exit 1
# Markers written to the top-level trace_marker, as the recorder takes them.
[ -e "$ref/options/copy_trace_marker" ] && echo 1 > "$ref/options/copy_trace_marker"
echo 16384 > "$ref/buffer_size_kb"
for e in $events; do
	[ -e "$ref/events/$e/enable" ] && echo 1 > "$ref/events/$e/enable"
done
echo 1 > "$ref/tracing_on"
"$@"
rc=$?
echo 0 > "$ref/tracing_on"
cat "$ref/trace" > "$out"
exit $rc
