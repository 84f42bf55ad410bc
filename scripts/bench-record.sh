#!/usr/bin/env bash
# Recording overhead: the ping-pong workload (two threads bouncing a byte
# over pipes: every round trip is two wake-ups and two context switches, the
# worst case for a scheduling recorder) run untraced, under ftrace2trace
# record, perf sched record and trace-cmd record, in alternating rounds.
# Prints the median round trips/s of each variant and its ratio to the
# untraced median, and the events ftrace2trace lost in each run.
#
# usage: sudo scripts/bench-record.sh
# environment:
#   ROUNDS=200000   round trips per run
#   RUNS=5          alternating rounds (each runs every variant once)
#   MODES="pinned free"
#                   pinned: the workload on CPU 0 only (stable figures:
#                   both threads on one CPU, pure context-switch cost);
#                   free: the scheduler places the threads (cross-CPU
#                   wake-ups, realistic but noisy in a VM)
#   F2T=./ftrace2trace  PINGPONG=build/tests/helpers/pingpong
set -u
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-200000}
RUNS=${RUNS:-5}
MODES=${MODES:-pinned free}
F2T=${F2T:-$PWD/ftrace2trace}
PINGPONG=${PINGPONG:-$PWD/build/tests/helpers/pingpong}
SCHED_EVENTS=(sched_switch sched_waking sched_wakeup sched_wakeup_new
	      sched_process_fork sched_process_exec sched_process_exit)

die() { echo "bench-record: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (tracing)"
[ -x "$F2T" ] || die "$F2T not built (make)"
[ -x "$PINGPONG" ] || die "$PINGPONG not built (make tests)"

TMP=$(mktemp -d /tmp/bench-record.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# rate_of FILE: the round trips/s the workload printed, or nothing
rate_of() { sed -n 's/^pingpong: .*(\([0-9]*\)\/s).*/\1/p' "$1" | tail -1; }

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {
	if (NR == 0) exit; if (NR % 2) print v[(NR+1)/2]; else printf "%d\n", (v[NR/2]+v[NR/2+1])/2 }'; }

declare -A rates failed lost
# ftrace2trace samples CPUs at 999 Hz by default; perf sched and trace-cmd
# record scheduling only, so "sched-only" is the like-for-like comparison.
variants=(untraced ftrace2trace sched-only perf trace-cmd)

# run_variant NAME WORKLOAD...: one run, appends its rate or a failure reason
run_variant() {
	local v=$1; shift
	local out=$TMP/out err=$TMP/err rc
	case $v in
	untraced) "$@" >"$out" 2>"$err" ;;
	ftrace2trace) "$F2T" record -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	sched-only) "$F2T" record --no-sample -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	perf)
		command -v perf >/dev/null || { failed[$v]="not installed"; return; }
		perf sched record -o "$TMP/perf.data" -- "$@" >"$out" 2>"$err" ;;
	trace-cmd)
		command -v trace-cmd >/dev/null || { failed[$v]="not installed"; return; }
		local ev=()
		for e in "${SCHED_EVENTS[@]}"; do ev+=(-e "$e"); done
		# trace-cmd 3.1.6 aborts on some kernels (lockdown refuses
		# ftrace_enabled) or crashes; a timeout keeps a hang from
		# stalling the benchmark.
		timeout 120 trace-cmd record -o "$TMP/tc.dat" "${ev[@]}" -- "$@" >"$out" 2>"$err" ;;
	esac
	rc=$?
	local r
	r=$(rate_of "$out")
	if [ "$rc" -ne 0 ] || [ -z "$r" ]; then
		local why
		why=$(grep -v '^\s*$' "$err" | tail -2 | tr '\n' ' ' | sed 's/  */ /g; s/ $//')
		[ "$rc" -gt 128 ] && why="killed by signal $((rc - 128)) ${why}"
		failed[$v]="exit $rc: ${why:-no output}"
		return
	fi
	rates[$v]+="$r "
	if [ "$v" = ftrace2trace ] || [ "$v" = sched-only ]; then
		local l
		l=$(sed -n 's/.*captured from .* CPUs, \([0-9]*\) events lost.*/\1/p' "$err")
		lost[$v]+="${l:-?} "
	fi
	rm -f "$TMP/x.fxt" "$TMP/perf.data" "$TMP/tc.dat"
}

for mode in $MODES; do
	case $mode in
	pinned) work=(taskset -c 0 "$PINGPONG" "$ROUNDS"); what="workload pinned to CPU 0" ;;
	free) work=("$PINGPONG" "$ROUNDS"); what="workload placed by the scheduler" ;;
	*) die "unknown mode $mode" ;;
	esac
	command -v taskset >/dev/null || [ "$mode" = free ] || die "taskset needed for pinned mode"
	rates=() failed=() lost=()
	echo "== $ROUNDS round trips, $RUNS alternating rounds, $what ($(nproc) CPUs, $(uname -r))"
	for ((i = 1; i <= RUNS; i++)); do
		for v in "${variants[@]}"; do
			[ -n "${failed[$v]:-}" ] && continue
			run_variant "$v" "${work[@]}"
		done
		echo "   round $i/$RUNS done" >&2
	done
	base=$(median ${rates[untraced]:-})
	printf '%-14s %12s %12s  %s\n' variant "median rt/s" "vs untraced" "runs (rt/s)"
	for v in "${variants[@]}"; do
		if [ -n "${failed[$v]:-}" ]; then
			printf '%-14s %s\n' "$v" "failed (${failed[$v]})"
			continue
		fi
		m=$(median ${rates[$v]})
		ratio=$(awk -v m="$m" -v b="${base:-0}" 'BEGIN { if (b > 0) printf "%.2f", m / b; else print "-" }')
		printf '%-14s %12s %12s  %s\n' "$v" "$m" "$ratio" "${rates[$v]}"
	done
	echo "ftrace2trace lost events per run: ${lost[ftrace2trace]:-none recorded}"
	echo "ftrace2trace --no-sample lost events per run: ${lost[sched-only]:-none recorded}"
	spread=$(printf '%s\n' ${rates[untraced]:-} | sort -n |
		 awk 'NR == 1 {lo = $1} {hi = $1} END { if (lo > 0) printf "%.1f", hi / lo }')
	if awk -v s="${spread:-0}" 'BEGIN { exit !(s > 2) }'; then
		echo "note: untraced runs differ ${spread}x (both threads on one CPU vs on two,"
		echo "      where every wake-up is a cross-CPU interrupt): medians in this mode"
		echo "      measure placement luck more than tracing cost; compare the pinned figures"
	fi
	echo
done
