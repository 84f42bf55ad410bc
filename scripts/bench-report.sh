#!/usr/bin/env bash
# Report benchmark: `ftrace2trace report` speed in events/s on one core and
# its peak memory, on captures of about 1 M and 10 M events (the ping-pong
# workload placed by the scheduler: 170 000 and 1 700 000 round trips,
# which make 1.2 M and 12 M here), beside `ftrace2trace
# convert` to FXT of the same capture and `perf sched latency` / `perf sched
# timehist -s` on perf's recording of the same run (`perf sched record`
# around `ftrace2trace record`).  Prints figures; asserts nothing.  Needs
# root (it records).
#
# The machine may be shared: every figure is the median of ROUNDS runs, the
# tools alternating run for run, each pinned to CPU 1.  Speed is given from
# the CPU time (user + system) the run took on that core, which waiting for
# the core while others use it does not inflate, and from wall time.  Peak
# memory is the peak resident set (which counts the capture's pages mapped
# while they are read) and the peak of anonymous memory (what the program
# allocated, which grows with the threads in the capture: the number is
# printed), sampled every 10 ms in a run of its own.  Outputs go to a
# tmpfs.  Compare the ratios of one run of this script rather than absolute
# figures across runs.
#
# usage: scripts/bench-report.sh [ROUNDS]      (default 7)
# OUT=DIR: outputs there instead of a directory on /dev/shm
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
F2T=$PWD/ftrace2trace
PP=$PWD/build/tests/helpers/pingpong
W=$(mktemp -d /tmp/f2t-bench-report.XXXXXX)
trap 'rm -rf "$W"' EXIT
. scripts/bench-lib.bash
O=$(out_dir f2t-bench-report)
trap 'rm -rf "$W" "$O"' EXIT
load_line
make -s ftrace2trace build/tests/helpers/pingpong
PERF=$(command -v perf || true)

median() { fmedian; }

# CPU seconds (user + system) and wall seconds of one run on one pinned core,
# to the millisecond (bash's time; time(1) gives hundredths).
timed() {
	local TIMEFORMAT='%3U %3S %3R'
	{ time taskset -c 1 "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2, $3 }'
}

# Peak resident and peak anonymous memory in KB of one run, sampled.
memory() {
	local pid rss=0 anon=0 r a
	taskset -c 1 "$@" >/dev/null 2>&1 &
	pid=$!
	while read -r r a < <(awk '/^VmHWM:/ { h = $2 } /^RssAnon:/ { a = $2 }
			END { if (a != "") print h, a }' "/proc/$pid/status" 2>/dev/null) &&
	      [ -n "$a" ]; do
		rss=$r
		[ "$a" -gt "$anon" ] && anon=$a
		sleep 0.01
	done
	wait "$pid"
	echo "$rss $anon"
}

# line LABEL EVENTS CPU-SECONDS... WALL-SECONDS... COMMAND...: one figure's medians.
line() {
	local label=$1 events=$2 c w rss anon
	c=$(printf '%s\n' $3 | median)
	w=$(printf '%s\n' $4 | median)
	shift 4
	read -r rss anon < <(memory "$@")
	printf '%-4s %-26s events=%-8s cpu %6.3f s %5.2f M/s  wall %6.3f s %5.2f M/s  peak RSS %7s KB, anon %7s KB\n' \
		"$name" "$label" "$events" "$c" "$(echo "$events / $c / 1000000" | bc -l)" \
		"$w" "$(echo "$events / $w / 1000000" | bc -l)" "$rss" "$anon"
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
	read -r lost gaps threads < <("$F2T" report --json "$W/$name.cap" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["events"]["lost"], d["events"]["sched_gaps"], sum(len(p["threads"]) for p in d["processes"]))')
	echo "$name: capture of $events events, $threads threads, $lost lost, $gaps scheduling gaps"
	pevents=
	if [ -s "$W/$name.data" ]; then
		pevents=$("$PERF" script -i "$W/$name.data" 2>/dev/null | wc -l)
		echo "$name: perf.data of $pevents events ($(grep -o 'Captured and wrote [^(]*' "$W/$name.perf.err" || true))"
	fi
	report=("$F2T" report -q "$W/$name.cap")
	convert=("$F2T" convert -q "$W/$name.cap" -o "$O/out.fxt")
	latency=("$PERF" sched latency -i "$W/$name.data")
	timehist=("$PERF" sched timehist -s -i "$W/$name.data")
	rc=() rw=() cc=() cw=() lc=() lw=() tc=() tw=()
	for _ in $(seq "$ROUNDS"); do
		read -r c w < <(timed "${report[@]}")
		rc+=("$c") rw+=("$w")
		read -r c w < <(timed "${convert[@]}")
		cc+=("$c") cw+=("$w")
		if [ -n "$pevents" ]; then
			read -r c w < <(timed "${latency[@]}")
			lc+=("$c") lw+=("$w")
			read -r c w < <(timed "${timehist[@]}")
			tc+=("$c") tw+=("$w")
		fi
	done
	line "ftrace2trace report" "$events" "${rc[*]}" "${rw[*]}" "${report[@]}"
	line "ftrace2trace convert (fxt)" "$events" "${cc[*]}" "${cw[*]}" "${convert[@]}"
	if [ -n "$pevents" ]; then
		line "perf sched latency" "$pevents" "${lc[*]}" "${lw[*]}" "${latency[@]}"
		line "perf sched timehist -s" "$pevents" "${tc[*]}" "${tw[*]}" "${timehist[@]}"
	fi
	rm -f "$W/$name.data" "$W/$name.rec.fxt" "$W/$name.fxt" "$O/out.fxt"
done
load_line
