#!/usr/bin/env bash
# Perfetto traces as inputs: `ftrace2trace report` of a capture's .pftrace
# against `report` of the capture itself (the peer, measured in the same
# run), and `convert` of each to JSON.  Prints figures; asserts nothing;
# records nothing (no root).
#
# Each figure is the median of ROUNDS runs (at least 7), the two inputs
# alternating run for run, each pinned to CPU 1, from the CPU time (user +
# system) the run took, which waiting for the core while others use it does
# not inflate.  Peak memory is the peak resident set of one run of each
# (GNU time's maximum resident set): the .pftrace's index holds 48 bytes an
# event, the capture is read as it goes.  The JSON outputs go to a tmpfs.
# Compare the ratios of one run of this script rather than absolute figures
# across runs.
#
# usage: scripts/bench-pftrace.sh [ROUNDS] [CAPTURE...]   (default 7, tests/fixtures/sched-tcp.cap)
# OUT=DIR: outputs there instead of a directory on /dev/shm
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
[ "$ROUNDS" -ge 7 ] || ROUNDS=7
shift || true
[ $# -gt 0 ] || set -- tests/fixtures/sched-tcp.cap
F2T=$PWD/ftrace2trace
W=$(mktemp -d /tmp/f2t-bench-pftrace.XXXXXX)
trap 'rm -rf "$W"' EXIT
make -s ftrace2trace
. scripts/bench-lib.bash
O=$(out_dir f2t-bench-pftrace)
trap 'rm -rf "$W" "$O"' EXIT

median() { fmedian; }
cpu() { cpu_timed /dev/null "$@" | cut -d' ' -f1; }
rss() { cpu_timed /dev/null "$@" | cut -d' ' -f2; }

load_line
echo "$ROUNDS rounds, alternating"
printf '%-16s %9s %9s %9s %7s %9s %9s %7s %9s %9s\n' INPUT EVENTS "REP CAP" "REP PF" RATIO \
	"JSON CAP" "JSON PF" RATIO "RSS CAP" "RSS PF"
for cap in "$@"; do
	pf=$W/$(basename "$cap").pftrace
	"$F2T" convert -q "$cap" -o "$pf"
	events=$("$F2T" convert "$pf" -o "$W/x.json" 2>&1 | awk '/ events from / {print $2; exit}')
	: > "$W/rc"; : > "$W/rp"; : > "$W/jc"; : > "$W/jp"
	for _ in $(seq "$ROUNDS"); do
		cpu "$F2T" report -q "$cap" >> "$W/rc"
		cpu "$F2T" report -q "$pf" >> "$W/rp"
		cpu "$F2T" convert -q "$cap" -o "$O/c.json" >> "$W/jc"
		cpu "$F2T" convert -q "$pf" -o "$O/p.json" >> "$W/jp"
	done
	rc=$(median < "$W/rc"); rp=$(median < "$W/rp"); jc=$(median < "$W/jc"); jp=$(median < "$W/jp")
	printf '%-16s %9s %8ss %8ss %6.2fx %8ss %8ss %6.2fx %7sKB %7sKB\n' "$(basename "$cap")" "$events" \
		"$rc" "$rp" "$(echo "$rp $rc" | awk '{print $2 ? $1 / $2 : 0}')" "$jc" "$jp" \
		"$(echo "$jp $jc" | awk '{print $2 ? $1 / $2 : 0}')" \
		"$(rss "$F2T" report -q "$cap")" "$(rss "$F2T" report -q "$pf")"
done
echo "(RATIO: the .pftrace's CPU time over the capture's)"
