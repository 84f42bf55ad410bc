#!/usr/bin/env bash
# Off-CPU recording overhead: the ping-pong workload (two threads bouncing a
# byte over pipes: every round trip blocks each thread once, so every round
# trip is two off-CPU episodes, the worst case) run untraced, under
# `ftrace2trace record`, `record --off-cpu`, and `perf record -a -g -e
# sched:sched_switch` (perf's way to get the stacks threads switch out
# with), in alternating rounds, pinned to CPU 0.  Prints the median round
# trips/s of each, the cost of each (untraced rate / rate - 1: the time it
# adds per round trip), the cost --off-cpu adds to record against perf's
# cost, and the capture bytes per off-CPU episode.
#
# usage: sudo scripts/bench-offcpu.sh
# environment: ROUNDS=100000 RUNS=5 F2T=./ftrace2trace
#              PINGPONG=build/tests/helpers/pingpong
#              OFFCPU_MIN=USECS   --off-cpu-min for the off-CPU runs (default: the tool's)
set -u
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-100000}
RUNS=${RUNS:-5}
F2T=${F2T:-$PWD/ftrace2trace}
PINGPONG=${PINGPONG:-$PWD/build/tests/helpers/pingpong}
OFFCPU=(--off-cpu ${OFFCPU_MIN:+--off-cpu-min "$OFFCPU_MIN"})

die() { echo "bench-offcpu: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (tracing, BPF)"
[ -x "$F2T" ] || die "$F2T not built (make)"
[ -x "$PINGPONG" ] || die "$PINGPONG not built (make tests)"
command -v taskset >/dev/null || die "taskset (util-linux) needed"
command -v python3 >/dev/null || die "python3 needed"

TMP=$(mktemp -d /tmp/bench-offcpu.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

rate_of() { sed -n 's/^pingpong: .*(\([0-9]*\)\/s).*/\1/p' "$1" | tail -1; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {
	if (NR == 0) exit; if (NR % 2) print v[(NR+1)/2]; else printf "%d\n", (v[NR/2]+v[NR/2+1])/2 }'; }

# Capture bytes of the off-CPU records (OFFCPU_* record data) per episode.
offcpu_bytes() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, data, stacks, episodes = 16, 0, 0, 0
while off + 16 <= len(d):
    t, a, n = struct.unpack_from("<IIQ", d, off)
    if t == 15:
        data += 16 + ((n + 7) & ~7)
        episodes += n // 56
    elif t in (14, 16):
        stacks += 16 + ((n + 7) & ~7)
    if t == 0xffff:
        break
    off += 16 + ((n + 7) & ~7)
print("%d %d %d" % (episodes, data, stacks))
PY
}

declare -A rates failed
variants=(untraced record off-cpu perf)
work=(taskset -c 0 "$PINGPONG" "$ROUNDS")
bytes_line=

run_variant() {
	local v=$1 out=$TMP/out err=$TMP/err rc r
	case $v in
	untraced) "${work[@]}" >"$out" 2>"$err" ;;
	record) "$F2T" record -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	off-cpu) "$F2T" record "${OFFCPU[@]}" -k "$TMP/x.cap" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	perf)
		command -v perf >/dev/null || { failed[$v]="not installed"; return; }
		perf record -q -a -g -e sched:sched_switch -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>"$err" ;;
	esac
	rc=$?
	r=$(rate_of "$out")
	if [ "$rc" -ne 0 ] || [ -z "$r" ]; then
		failed[$v]="exit $rc: $(grep -v '^\s*$' "$err" | tail -2 | tr '\n' ' ')"
		return
	fi
	rates[$v]+="$r "
	if [ "$v" = off-cpu ]; then
		grep -q "0 lost (ring buffer full), 0 lost (blocked-task map full)" "$err" ||
			echo "   off-cpu run lost episodes: $(grep 'off-CPU episodes of' "$err")" >&2
		[ -n "$bytes_line" ] || bytes_line=$(offcpu_bytes "$TMP/x.cap")
	fi
	rm -f "$TMP/x.fxt" "$TMP/x.cap" "$TMP/perf.data"
}

echo "== $ROUNDS round trips, $RUNS alternating rounds, workload pinned to CPU 0 ($(nproc) CPUs, $(uname -r)), ${OFFCPU[*]}"
for ((i = 1; i <= RUNS; i++)); do
	for v in "${variants[@]}"; do
		[ -n "${failed[$v]:-}" ] || run_variant "$v"
	done
	echo "   round $i/$RUNS done" >&2
done
base=$(median ${rates[untraced]:-})
declare -A cost
printf '%-10s %12s %10s  %s\n' variant "median rt/s" cost "runs (rt/s)"
for v in "${variants[@]}"; do
	if [ -n "${failed[$v]:-}" ]; then
		printf '%-10s %s\n' "$v" "failed (${failed[$v]})"
		continue
	fi
	m=$(median ${rates[$v]})
	cost[$v]=$(awk -v m="$m" -v b="${base:-0}" 'BEGIN { if (m > 0) printf "%.3f", b / m - 1; else print "-" }')
	printf '%-10s %12s %10s  %s\n' "$v" "$m" "${cost[$v]}" "${rates[$v]}"
done
if [ -n "${cost[off-cpu]:-}" ] && [ -n "${cost[record]:-}" ] && [ -n "${cost[perf]:-}" ]; then
	awk -v o="${cost[off-cpu]}" -v r="${cost[record]}" -v p="${cost[perf]}" 'BEGIN {
		a = o - r
		printf "off-CPU cost (record --off-cpu minus record): %.3f; perf record -a -g -e sched:sched_switch: %.3f; ratio %.2f (goal: at most 0.33)\n", a, p, (p > 0 ? a / p : 0) }'
fi
if [ -n "$bytes_line" ]; then
	read -r n data stacks <<<"$bytes_line"
	awk -v n="$n" -v d="$data" -v s="$stacks" 'BEGIN {
		if (n > 0) printf "capture: %d episodes, %d bytes of episode records (%.1f per episode), %d bytes of stacks and info (%.2f per episode)\n", n, d, d / n, s, s / n }'
fi
# Where the time goes: the kernel's own per-program run time (bpf_stats) in
# one more run, read while the programs are loaded.
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
if [ -x "$BPFTOOL" ] && [ -w /proc/sys/kernel/bpf_stats_enabled ]; then
	old=$(cat /proc/sys/kernel/bpf_stats_enabled)
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	"$F2T" record -q "${OFFCPU[@]}" -o "$TMP/x.fxt" -- taskset -c 0 "$PINGPONG" $((ROUNDS * 4)) >/dev/null 2>&1 &
	sleep 1
	"$BPFTOOL" prog show 2>/dev/null | awk '/name offcpu_/ {
		for (i = 1; i < NF; i++) { if ($i == "name") n = $(i + 1); if ($i == "run_time_ns") t = $(i + 1); if ($i == "run_cnt") c = $(i + 1) }
		if (c > 0) printf "bpf_stats: %-14s %8d runs, %6.0f ns per run\n", n, c, t / c }'
	wait
	echo "$old" >/proc/sys/kernel/bpf_stats_enabled
fi
echo "note: a shared, noisy VM: compare the ratios of one run, not figures across runs"
