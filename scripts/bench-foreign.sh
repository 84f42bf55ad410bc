#!/usr/bin/env bash
# Conversion of what others recorded: events/s from trace-cmd's trace.dat
# and from ftrace text to .fxt and .pftrace (binary) and to .txt (text, the
# kernel's own format), on one core, beside `trace-cmd report` (text) on the
# same trace.dat, run for run alternating, medians of ROUNDS runs of CPU
# time (user + system), every output (trace-cmd's included) written to a
# tmpfs.  Compare text with text: binary output is not what trace-cmd
# report does.  Prints figures; asserts nothing.
#
# usage: scripts/bench-foreign.sh [FILE.dat] [ROUNDS]     (default 7 rounds)
#
# Without FILE.dat, one is recorded (needs root and trace-cmd): the
# ping-pong workload, placed by the scheduler, RT round trips (default
# 170000, about a million events; 1700000 for ten million), through
# tests/helpers/trace_cmd_record.sh, compressed as trace-cmd does by default
# (zstd) or COMPRESSION=none, while our own recorder records the same run:
# its capture converted to .fxt is timed too, for what the pipeline after
# the input (tracker, model, FXT writer) costs by itself.  The text input is
# our text of that trace.dat (the kernel's trace format, TGID column
# included).
# WORKLOAD=mixed records a system-wide mix instead, irq and softirq events
# on (SECONDS_MIXED, default 6 s, of a file walk piped to gzip, tar piped
# to xz, and short processes started one after the other): most of its
# events are not context switches.
# CPU: taskset -c ${CPU:-1}.
set -euo pipefail
cd "$(dirname "$0")/.."
DAT=${1:-}
ROUNDS=${2:-7}
RT=${RT:-170000}
CPU=${CPU:-1}
F2T=$PWD/ftrace2trace
W=$(mktemp -d /tmp/f2t-bench-foreign.XXXXXX)
trap 'rm -rf "$W"' EXIT
make -s ftrace2trace build/tests/helpers/pingpong
command -v trace-cmd >/dev/null || { echo "$0: needs trace-cmd" >&2; exit 1; }

. scripts/bench-lib.bash
median() { fmedian; }
O=$(out_dir f2t-bench-foreign)
trap 'rm -rf "$W" "$O"' EXIT
# CPU seconds of one run on one pinned core, its standard output on the tmpfs.
timed() { rm -f "$O"/out.*; cpu_timed "$O/out.stdout" "$@" | cut -d' ' -f1; }

CAP=
# The mixed workload: what a system-wide recording of a busy machine holds.
mixed() {
	local end=$((SECONDS + ${SECONDS_MIXED:-6}))

	(while [ $SECONDS -lt $end ]; do
		find /usr/share -type f 2>/dev/null | head -3000 | xargs -n 50 cat 2>/dev/null | gzip -1 >/dev/null
	done) &
	(while [ $SECONDS -lt $end ]; do
		for _ in $(seq 50); do /bin/true; done
		sleep 0.01
	done) &
	(while [ $SECONDS -lt $end ]; do tar cf - src 2>/dev/null | xz -1 -T2 >/dev/null; done) &
	wait
}
export -f mixed
if [ -z "$DAT" ]; then
	DAT=$W/pp.dat
	CAP=$W/pp.cap
	events=(-e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup
		-e sched:sched_wakeup_new -e sched:sched_process_fork -e sched:sched_process_exec
		-e sched:sched_process_exit -e task)
	workload=(build/tests/helpers/pingpong "$RT")
	if [ "${WORKLOAD:-pingpong}" = mixed ]; then
		events+=(-e irq)
		workload=(bash -c mixed)
	fi
	"$F2T" record -q --no-sample -k "$CAP" -o "$W/rec.fxt" -- \
	tests/helpers/trace_cmd_record.sh --compression "${COMPRESSION:-any}" -B "f2t-bench-$$" -C mono \
		"${events[@]}" -b 65536 -o "$DAT" -- "${workload[@]}" >/dev/null 2>&1
fi
nrec=$(trace-cmd report -N "$DAT" 2>/dev/null | grep -c ': [a-z_]*: ' || true)
"$F2T" convert -q "$DAT" -o "$W/in.txt"
formats=(fxt pftrace txt)
load_line
echo "== $DAT: $nrec records (trace-cmd report -N), $(stat -c %s "$DAT") bytes; text $(stat -c %s "$W/in.txt") bytes"
echo "   $ROUNDS rounds, each: trace-cmd report, then every conversion; one core (cpu $CPU); $(nproc) CPUs, $(uname -r)"

declare -A t
runs=("tc")
if [ -n "$CAP" ]; then
	cap_events=$("$F2T" convert "$CAP" -o "$W/cap.fxt" 2>&1 | sed -n 's/^ftrace2trace: \([0-9]*\) events.*/\1/p')
	runs+=("cap")
fi
for f in "${formats[@]}"; do runs+=("dat-$f" "txt-$f"); done
for _ in $(seq "$ROUNDS"); do
	t[tc]+="$(timed trace-cmd report "$DAT") "
	[ -n "$CAP" ] && t[cap]+="$(timed "$F2T" convert -q "$CAP" -o "$O/out.fxt") "
	for f in "${formats[@]}"; do
		t[dat-$f]+="$(timed "$F2T" convert -q "$DAT" -o "$O/out.$f") "
		t[txt-$f]+="$(timed "$F2T" convert -q "$W/in.txt" -o "$O/out.$f") "
	done
done
base=$(printf '%s\n' ${t[tc]} | median)
for r in "${runs[@]}"; do
	s=$(printf '%s\n' ${t[$r]} | median)
	n=$nrec
	case $r in
	tc) what="trace-cmd report (trace.dat), text" ;;
	cap) what="ftrace2trace capture -> .fxt *"; n=$cap_events ;;
	dat-*) what="ftrace2trace trace.dat -> .${r#dat-}" ;;
	txt-*) what="ftrace2trace text -> .${r#txt-}" ;;
	esac
	case $r in *-txt) what+=", text" ;; cap | *-fxt | *-pftrace) what+=", binary" ;; esac
	printf '%-44s median %7.3f s CPU  %6.2f M events/s  %6.1fx trace-cmd report  (runs: %s)\n' \
		"$what" "$s" "$(echo "$n / $s / 1000000" | bc -l)" "$(echo "$base / $s" | bc -l)" \
		"${t[$r]% }"
done
[ -n "$CAP" ] && echo "* our recorder's capture of the same run: $cap_events events (system-wide, a longer span): events/s is the figure to compare"
true
