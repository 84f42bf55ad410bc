#!/usr/bin/env bash
# Report benchmark: `ftrace2trace report` speed in events/s on one core and
# its peak memory, on captures of about 1 M and 10 M events (the ping-pong
# workload, as scripts/bench-convert.sh makes them), beside `ftrace2trace
# convert` to FXT of the same capture and `perf sched latency` / `perf sched
# timehist -s` on perf's recording of the same run (`perf sched record`
# around `ftrace2trace record`).  Prints figures; asserts nothing.  Needs
# root (it records).
#
# The machine may be shared: every figure is the median of ROUNDS runs, the
# tools alternating run for run, each pinned to CPU 1; compare the ratios
# of one run of this script rather than absolute figures across runs.
#
# usage: scripts/bench-report.sh [ROUNDS]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
F2T=$PWD/ftrace2trace
PP=$PWD/build/tests/helpers/pingpong
W=$(mktemp -d /tmp/f2t-bench-report.XXXXXX)
trap 'rm -rf "$W"' EXIT
make -s ftrace2trace build/tests/helpers/pingpong
PERF=$(command -v perf || true)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Seconds of wall time on one pinned core, and peak RSS in KB.
timed() { /usr/bin/time -f '%e %M' taskset -c 1 "$@" 2>&1 >/dev/null | tail -1; }

# line LABEL EVENTS SECONDS... / KB...: one figure's medians.
line() {
	local label=$1 events=$2 s m
	s=$(printf '%s\n' $3 | median)
	m=$(printf '%s\n' $4 | median)
	printf '%-5s %-26s events=%-9s median %7.3f s  %6.2f M events/s  peak RSS %7s KB\n' \
		"$name" "$label" "$events" "$s" "$(echo "$events / $s / 1000000" | bc -l)" "$m"
}

for size in 1M:170000 10M:1700000; do
	name=${size%%:*} rt=${size##*:}
	rec=("$F2T" record -q -b 65536 --no-sample -k "$W/$name.cap" -o "$W/$name.rec.fxt" -- "$PP" "$rt")
	if [ -n "$PERF" ]; then
		"$PERF" sched record -o "$W/$name.data" -- "${rec[@]}" >/dev/null 2>"$W/$name.perf.err"
	else
		"${rec[@]}" >/dev/null
	fi
	events=$("$F2T" convert "$W/$name.cap" -o "$W/$name.fxt" 2>&1 |
		sed -n 's/^ftrace2trace: \([0-9]*\) events.*/\1/p')
	lost=$("$F2T" report --json "$W/$name.cap" | python3 -c 'import json, sys
e = json.load(sys.stdin)["events"]; print(e["lost"], e["sched_gaps"])')
	echo "$name: capture of $events events (lost, scheduling gaps: $lost)"
	pevents=
	if [ -s "$W/$name.data" ]; then
		pevents=$("$PERF" script -i "$W/$name.data" 2>/dev/null | wc -l)
		echo "$name: perf.data of $pevents events ($(grep -o 'Captured and wrote [^(]*' "$W/$name.perf.err" || true))"
	fi
	rs=() rm=() cs=() cm=() ls=() lm=() ts=() tm=()
	for _ in $(seq "$ROUNDS"); do
		read -r s m < <(timed "$F2T" report -q "$W/$name.cap")
		rs+=("$s") rm+=("$m")
		read -r s m < <(timed "$F2T" convert -q "$W/$name.cap" -o "$W/out.fxt")
		cs+=("$s") cm+=("$m")
		if [ -n "$pevents" ]; then
			read -r s m < <(timed "$PERF" sched latency -i "$W/$name.data")
			ls+=("$s") lm+=("$m")
			read -r s m < <(timed "$PERF" sched timehist -s -i "$W/$name.data")
			ts+=("$s") tm+=("$m")
		fi
	done
	line "ftrace2trace report" "$events" "${rs[*]}" "${rm[*]}"
	line "ftrace2trace convert (fxt)" "$events" "${cs[*]}" "${cm[*]}"
	if [ -n "$pevents" ]; then
		line "perf sched latency" "$pevents" "${ls[*]}" "${lm[*]}"
		line "perf sched timehist -s" "$pevents" "${ts[*]}" "${tm[*]}"
	fi
	rm -f "$W/$name.data" "$W/$name.rec.fxt" "$W/$name.fxt" "$W/out.fxt"
done
