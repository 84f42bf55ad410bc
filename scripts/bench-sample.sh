#!/usr/bin/env bash
# CPU sampling: what it costs while recording, what it costs to convert,
# how big it makes the outputs, and what it costs per CPU.
#
# 1. Recording overhead, at the same rate for every sampler: a fixed amount
#    of CPU-bound work (burn --work, which times itself) run untraced, under
#    `ftrace2trace record` with sampling off, by default (999 Hz per CPU),
#    with --sample-all, and under `perf record -F 999 -g` (perf's task-bound
#    events: cycles, or cpu-clock without a PMU) and `perf record -F 999 -a
#    -g` (per-CPU events, as ours), in alternating rounds; then the same at
#    perf's default rate, 4000 Hz, against `ftrace2trace record -F 4000`
#    (RATES="999 4000" chooses).  With F2T_OLD set, that build's default
#    too.  The work is pinned to one CPU (PIN, default 0) and each whole
#    command (recorder and work) runs at nice NICE (default -20), so that
#    the machine's other jobs take little of that CPU from any variant.
#    Prints which PMU the machine has, the median work time of each, its
#    slowdown against the untraced median, and the median of each round's
#    slowdown against that round's untraced run (the figure to quote:
#    rounds differ more than variants on a shared machine).
# 2. Symbolization speed: one capture with many samples converted to FXT
#    and to JSON, and with sampling stripped (-F 0 run of the same length)
#    for the baseline; samples per second of the difference, from CPU time
#    (user + system) on one core.
# 3. Profiler data per sample: FXT profiler records, JSON samples +
#    stackFrames, and capture bytes, each divided by the samples.
# 4. The cost per CPU (MODEL=0 skips it): the work on one CPU with the
#    other idle, then on both, under each sampler at 999 Hz, 3 alternating
#    rounds: per second, each CPU's local timer interrupts
#    (/proc/interrupts LOC, which a cpu-clock sample is), the recorder's
#    wake-ups (voluntary context switches of all its threads) and its CPU
#    time while the work ran.
#
# usage: sudo scripts/bench-sample.sh
# environment: RUNS=7 WORK=1000 (million rounds, ~2.5 s here) RATES="999 4000"
#              PIN=0 NICE=-20 F2T=./ftrace2trace F2T_OLD= BURN=build/tests/helpers/burn
set -u
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
RUNS=${RUNS:-7}
WORK=${WORK:-1000}
RATES=${RATES:-999 4000}
PIN=${PIN:-0}
NICE=${NICE:--20}
F2T=${F2T:-$PWD/ftrace2trace}
F2T_OLD=${F2T_OLD:-}
BURN=${BURN:-$PWD/build/tests/helpers/burn}

die() { echo "bench-sample: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (tracing)"
[ -x "$F2T" ] || die "$F2T not built (make)"
[ -x "$BURN" ] || die "$BURN not built (make tests)"
[ -z "$F2T_OLD" ] || [ -x "$F2T_OLD" ] || die "F2T_OLD=$F2T_OLD is not an executable"

TMP=$(mktemp -d /tmp/bench-sample.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
load_line

us_of() { sed -n 's/^burn: work .* in \([0-9]*\) us$/\1/p' "$1" | tail -1; }

declare -A times
run_variant() { # NAME HZ
	local v=$1 hz=$2 out=$TMP/out
	local work=(taskset -c "$PIN" "$BURN" --work "$WORK") n=(nice -n "$NICE")
	# The previous run's files are not written back during this one.
	sync
	case $v in
	perf-*) command -v perf >/dev/null || return ;;
	esac
	case $v in
	untraced) "${n[@]}" "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-no-sample) "${n[@]}" "$F2T" record -q --no-sample -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t) "${n[@]}" "$F2T" record -q -F "$hz" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-old) "${n[@]}" "$F2T_OLD" record -q -F "$hz" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-sample-all) "${n[@]}" "$F2T" record -q -F "$hz" --sample-all -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	perf-task) "${n[@]}" perf record -q -B -F "$hz" -g -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>/dev/null ;;
	perf-a) "${n[@]}" perf record -q -B -F "$hz" -a -g -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>/dev/null ;;
	esac
	local us
	us=$(us_of "$out")
	times[$v]="${times[$v]:-} ${us:--}"
}

# round_median V: the median over rounds of V's time against that round's
# untraced time, as a slowdown in %
round_median() {
	paste <(printf '%s\n' ${times[untraced]}) <(printf '%s\n' ${times[$1]}) |
		awk '$1 != "-" && $2 != "-" { printf "%.4f\n", ($2 - $1) * 100 / $1 }' | fmedian
}

for hz in $RATES; do
	variants=(untraced f2t-no-sample f2t f2t-sample-all perf-task perf-a)
	[ -n "$F2T_OLD" ] && variants+=(f2t-old)
	times=()
	echo "== recording overhead at $hz Hz for every sampler: burn --work $WORK on CPU $PIN, nice $NICE, $RUNS alternating rounds ($(nproc) CPUs, $(uname -r))"
	load_line
	pmu_line
	for ((r = 0; r < RUNS; r++)); do
		for v in "${variants[@]}"; do run_variant "$v" "$hz"; done
	done
	# shellcheck disable=SC2086
	base=$(median ${times[untraced]//-/})
	for v in "${variants[@]}"; do
		[ -n "${times[$v]//[ -]/}" ] || { echo "$v: no result"; continue; }
		case $v in
		untraced | f2t-no-sample) what="$v" ;;
		f2t*) what="$v -F $hz (per CPU)" ;;
		perf-task) what="perf record -F $hz -g (task-bound)" ;;
		perf-a) what="perf record -F $hz -a -g (per CPU)" ;;
		esac
		# shellcheck disable=SC2086
		m=$(median ${times[$v]//-/})
		printf '%-40s median %8d us  %+.2f%%  per round %+.2f%%  (runs:%s)\n' "$what" "$m" \
			"$(echo "($m - $base) * 100 / $base" | bc -l)" "$(round_median "$v")" "${times[$v]}"
	done
done

echo "== symbolization and size: burn 3 s at 9999 Hz, every task sampled"
"$F2T" record -q -F 9999 --sample-all -k "$TMP/s.cap" -o "$TMP/s.fxt" -- "$BURN" 3 >/dev/null
"$F2T" record -q --no-sample -k "$TMP/n.cap" -o "$TMP/n.fxt" -- "$BURN" 3 >/dev/null
t() { cpu_timed /dev/null "$@" | awk '{ printf "%d\n", $1 * 1e6 }'; }
"$F2T" convert "$TMP/s.cap" -o "$TMP/s.json" 2>"$TMP/conv.err"
samples=$(sed -n 's/^ftrace2trace: \([0-9]*\) CPU samples, \([0-9]*\) frames.*/\1/p' "$TMP/conv.err")
frames=$(sed -n 's/^ftrace2trace: \([0-9]*\) CPU samples, \([0-9]*\) frames.*/\2/p' "$TMP/conv.err")
for fmt in fxt json; do
	a=() b=()
	for ((r = 0; r < 3; r++)); do
		a+=("$(t "$F2T" convert -q "$TMP/s.cap" -o "$TMP/s.$fmt")")
		b+=("$(t "$F2T" convert -q "$TMP/n.cap" -o "$TMP/n.$fmt")")
	done
	# shellcheck disable=SC2068
	ma=$(median ${a[@]}) mb=$(median ${b[@]})
	printf '%-5s convert: %d us with %d samples (%d frames), %d us without: %.0f samples/s\n' \
		"$fmt" "$ma" "$samples" "$frames" "$mb" \
		"$(echo "$samples * 1000000 / ($ma - $mb)" | bc -l)"
done
prof=$("$F2T" dump --stats "$TMP/s.fxt" | awk '/^profiler_/ {b += $3} END {print b}')
jbytes=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(len(json.dumps(d["samples"], separators=(",", ":"))) + len(json.dumps(d["stackFrames"], separators=(",", ":"))))' "$TMP/s.json")
capbytes=$(python3 -c 'import struct,sys
d=open(sys.argv[1],"rb").read(); off=16; n=0
while off < len(d):
    t,a,l=struct.unpack_from("<IIQ",d,off)
    if t == 0xffff: break
    if t == 10: n += l
    off += 16 + ((l + 7) & ~7)
print(n)' "$TMP/s.cap")
printf 'per sample: FXT profiler records %.1f bytes, JSON samples+stackFrames %.1f bytes (compact), capture perf data %.1f bytes\n' \
	"$(echo "$prof / $samples" | bc -l)" "$(echo "$jbytes / $samples" | bc -l)" \
	"$(echo "$capbytes / $samples" | bc -l)"

[ "${MODEL:-1}" = 0 ] && exit 0
# The cost per CPU.  The work is `burn 3` on each CPU of BUSY; the script
# around it, the recorder's child, reads the recorder's threads and every
# CPU's timer interrupts before and after, while the recorder records.
cat >"$TMP/model.sh" <<'EOS'
#!/usr/bin/env bash
# model.sh OUT BURN CPU...: burn 3 s on each CPU; OUT gets the counts.
out=$1 burn=$2; shift 2
rec=$PPID
snap() { # the recorder's voluntary switches and CPU ticks, all its threads
	cat /proc/"$rec"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {v += $2} END {printf "%d ", v}'
	cat /proc/"$rec"/task/*/stat 2>/dev/null | awk '{sub(/.*\) /, ""); t += $12 + $13} END {print t}'
}
loc() { awk '$1 == "LOC:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf "%s,", $i }' /proc/interrupts; }
read -r v0 t0 < <(snap); l0=$(loc); s0=$EPOCHREALTIME
for c in "$@"; do taskset -c "$c" "$burn" 3 >/dev/null & done
wait
read -r v1 t1 < <(snap); l1=$(loc); s1=$EPOCHREALTIME
echo "$v0 $v1 $t0 $t1 $s0 $s1 $l0 $l1" >"$out"
EOS
chmod +x "$TMP/model.sh"
tck=$(getconf CLK_TCK)
model_run() { # VARIANT CPU...
	local v=$1; shift
	local m=("$TMP/model.sh" "$TMP/counts" "$BURN" "$@")
	rm -f "$TMP/counts"
	case $v in
	untraced) "${m[@]}" ;;
	f2t-no-sample) "$F2T" record -q --no-sample -o "$TMP/x.fxt" -- "${m[@]}" ;;
	f2t) "$F2T" record -q -o "$TMP/x.fxt" -- "${m[@]}" ;;
	perf-task) perf record -q -B -F 999 -g -o "$TMP/perf.data" -- "${m[@]}" ;;
	perf-a) perf record -q -B -F 999 -a -g -o "$TMP/perf.data" -- "${m[@]}" ;;
	esac >/dev/null 2>&1
	[ -s "$TMP/counts" ] || return
	# per second: LOC on each CPU, the recorder's wake-ups, its CPU share
	awk -v tck="$tck" -v self="$([ "$v" = untraced ] && echo 1 || echo 0)" '{
		s = $6 - $5; n = split($7, a, ","); split($8, b, ",")
		for (i = 1; i < n; i++) printf "cpu%d %.0f/s  ", i - 1, (b[i] - a[i]) / s
		if (self) print "(no recorder)"
		else printf "wake-ups %.0f/s  CPU %.1f%%\n", ($2 - $1) / s, 100 * ($4 - $3) / tck / s }' "$TMP/counts"
}
echo "== the cost per CPU: burn 3 s, per second while it runs (timer interrupts per CPU, the recorder's wake-ups and CPU)"
for busy in "0" "0 1"; do
	for r in 1 2 3; do
		for v in untraced f2t-no-sample f2t perf-task perf-a; do
			case $v in perf-*) command -v perf >/dev/null || continue ;; esac
			printf '%-4s busy %-14s run %d  ' "$busy" "$v" "$r"
			# shellcheck disable=SC2086  # the CPUs, a word each
			model_run "$v" $busy || echo "failed"
		done
	done
done
load_line
