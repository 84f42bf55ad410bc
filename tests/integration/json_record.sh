#!/usr/bin/env bash
# Records a workload to FXT and JSON in one run, as root, while a second
# tracefs instance records the kernel's own text of the same window.  Then:
# the JSON parses and meets what the viewers need (check_json_trace.py);
# its ftrace text is the kernel's for the same events, none missing; its
# sched_switch lines are as many as the FXT file's context-switch records
# (`ftrace2trace dump --stats`) and as the kernel's over the same span.
# Last, a recording stopped by SIGINT still leaves a complete JSON file.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "needs root to record"; exit 77; }
[ -z "${F2T_TRACEFS_STUCK:-}" ] || { echo "SKIP: $F2T_TRACEFS_STUCK"; exit 77; }
[ -d /sys/kernel/tracing/instances ] || [ -d /sys/kernel/debug/tracing/instances ] ||
	{ echo "no tracefs instances here"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
work=("$B/tests/helpers/pingpong" 3000)
[ -x "${work[0]}" ] || work=(sh -c 'for i in 1 2 3 4 5; do ls / > /dev/null; sleep 0.01; done')

"$here/../helpers/with_ref_instance.sh" "$out/kernel.trace" -- \
	"$F2T" record -q -o "$out/x.fxt" -o "$out/x.json" -- "${work[@]}" > /dev/null || exit 1
python3 "$here/check_json_trace.py" "$out/x.json" || exit 1
python3 - "$out/x.json" "$out/x.txt" <<'PY' || exit 1
import json, sys
open(sys.argv[2], 'w', encoding='utf-8').write(json.load(open(sys.argv[1]))['systemTraceEvents'])
PY
python3 "$here/compare_ftrace_text.py" --live "$out/x.txt" "$out/kernel.trace" || exit 1
in_text=$(grep -c ' sched_switch: ' "$out/x.txt")
in_fxt=$("$F2T" dump --stats "$out/x.fxt" | awk '$1 == "context_switch" { print $2 }')
in_json=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["otherData"]["sched_switch"])' "$out/x.json")
echo "sched_switch: $in_text lines in systemTraceEvents, $in_fxt FXT context switches, otherData says $in_json"
[ "$in_text" -gt 0 ] && [ "$in_text" = "$in_fxt" ] && [ "$in_text" = "$in_json" ] || exit 1

# Ctrl-C: the recorder drains the capture and the writer closes every bracket.
"$F2T" record -q -a -o "$out/int.json" > /dev/null 2>&1 &
pid=$!
# Signal only once it records (its tracefs instance exists): a background
# job starts with SIGINT ignored until the recorder installs its handler.
for _ in $(seq 50); do
	ls -d /sys/kernel/tracing/instances/ftrace2trace-"$pid" \
		/sys/kernel/debug/tracing/instances/ftrace2trace-"$pid" > /dev/null 2>&1 && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
for _ in $(seq 300); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
kill -0 "$pid" 2> /dev/null && { kill -TERM "$pid"; echo "FAIL SIGINT did not stop the recorder"; exit 1; }
wait "$pid"
python3 "$here/check_json_trace.py" "$out/int.json" > "$out/int.log" ||
	{ cat "$out/int.log"; echo "FAIL the JSON of a recording stopped by SIGINT"; exit 1; }
echo "ok   a recording stopped by SIGINT is complete JSON ($(stat -c %s "$out/int.json") bytes)"
