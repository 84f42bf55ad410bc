#!/usr/bin/env bash
# Perfetto output benchmark.  Prints figures; asserts nothing.  Needs root
# (it records).
#  - size: bytes per context switch of a whole .pftrace (ping-pong, no
#    samples), next to the .fxt and .json of the same capture;
#  - speed: events/s from a capture to .pftrace on one core, alternating
#    run for run with the same capture to .fxt (the peer, same machine
#    load), medians, their ratio and the median of each round's ratio, by
#    CPU time (user + system), which other processes sharing the core do
#    not inflate, the outputs written to a tmpfs: on a disk, the larger
#    file's write-back made the format with the smaller file look the
#    faster;
#  - memory: peak RSS of that conversion for ~1 M and ~10 M events;
#  - loading: how much CPU time Perfetto's trace processor takes to load
#    the same recording as .pftrace, .fxt and .json (TRACE_PROCESSOR or
#    trace_processor_shell on PATH; skipped without), alternating.
# The machine's load average is printed before and after: figures taken
# while others run are noisy, which is why medians and ratios are given.
#
# usage: sudo scripts/bench-perfetto.sh [ROUNDS]   (default 7 runs per figure)
# OUT=DIR: outputs there instead of a directory on /dev/shm
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
F2T=$PWD/ftrace2trace
PP=$PWD/build/tests/helpers/pingpong
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}
. scripts/bench-lib.bash
W=$(mktemp -d /tmp/f2t-bench-perfetto.XXXXXX)
O=$(out_dir f2t-bench-perfetto)
trap 'rm -rf "$W" "$O"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-perfetto: needs root (it records)" >&2; exit 1; }
make -s ftrace2trace build/tests/helpers/pingpong

median() { fmedian; }
load() { load_line; }

load
# A capture of ping-pong round trips on one CPU, no samples; prints events and switches.
capture() { # name roundtrips
	"$F2T" record -q --no-sample -k "$W/$1.cap" -o "$W/$1.rec.fxt" -- taskset -c 0 "$PP" "$2" >/dev/null
	"$F2T" convert "$W/$1.cap" -o "$W/$1.pftrace" -o "$W/$1.fxt" -o "$W/$1.json" 2>&1 |
		sed -n 's/^ftrace2trace: \([0-9]*\) events .*: \([0-9]*\) sched_switch.*/\1 \2/p'
}

for size in 1M:235000 10M:2350000; do
	name=${size%%:*} rt=${size##*:}
	read -r events switches < <(capture "$name" "$rt")
	for fmt in pftrace fxt json; do
		bytes=$(stat -c %s "$W/$name.$fmt")
		printf '%-3s size %-7s %11s bytes  %6.1f bytes per context switch (%s switches, %s events)\n' \
			"$name" "$fmt" "$bytes" "$(echo "$bytes / $switches" | bc -l)" "$switches" "$events"
	done
	declare -A cpu=() rss=() med_cpu=()
	for _ in $(seq "$ROUNDS"); do
		for fmt in pftrace fxt; do
			rm -f "$O/out.$fmt"
			read -r c m < <(cpu_timed /dev/null "$F2T" convert -q "$W/$name.cap" -o "$O/out.$fmt")
			cpu[$fmt]+=" $c" rss[$fmt]+=" $m"
		done
	done
	for fmt in pftrace fxt; do
		# shellcheck disable=SC2086
		c=$(printf '%s\n' ${cpu[$fmt]} | median) m=$(printf '%s\n' ${rss[$fmt]} | median)
		med_cpu[$fmt]=$c
		printf '%-3s speed %-7s CPU median %.3f s %5.2f M events/s; peak RSS %s KB (CPU runs:%s)\n' \
			"$name" "$fmt" "$c" "$(echo "$events / $c / 1000000" | bc -l)" "$m" "${cpu[$fmt]}"
	done
	# shellcheck disable=SC2086
	printf '%-3s speed pftrace/fxt ratio of CPU medians %.2f, median of the rounds'"'"' ratios %.2f (outputs on a tmpfs)\n' \
		"$name" "$(echo "${med_cpu[pftrace]} / ${med_cpu[fxt]}" | bc -l)" \
		"$(paste <(printf '%s\n' ${cpu[pftrace]}) <(printf '%s\n' ${cpu[fxt]}) | awk '{ print $1 / $2 }' | median)"
	rm -f "$O/out.pftrace" "$O/out.fxt"
done

if [ -n "$TP" ] && [ -x "$TP" ]; then
	echo 'select count(*) from sched;' >"$W/q.sql"
	declare -A t=()
	for _ in $(seq "$ROUNDS"); do
		for fmt in pftrace fxt json; do
			read -r s _ < <(cpu_timed /dev/null "$TP" -q "$W/q.sql" "$W/1M.$fmt")
			t[$fmt]="${t[$fmt]:-} $s"
		done
	done
	for fmt in pftrace fxt json; do
		s=$(printf '%s\n' ${t[$fmt]} | median)
		printf '1M  trace processor loads %-7s median %.2f s of CPU (runs:%s)\n' "$fmt" "$s" "${t[$fmt]}"
	done
else
	echo "no trace processor (TRACE_PROCESSOR or trace_processor_shell on PATH): load times not measured"
fi
load
