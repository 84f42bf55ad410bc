#!/usr/bin/env bash
# CPU sampling: what it costs while recording, what it costs to convert,
# and how big it makes the outputs.
#
# 1. Recording overhead: a fixed amount of CPU-bound work (burn --work,
#    which times itself) run untraced, under `ftrace2trace record` with
#    sampling off, by default (999 Hz), with --sample-all, at 9999 Hz, and
#    under `perf record -g` (perf's defaults: cycles, or cpu-clock without
#    a PMU, 4000 Hz, events that follow the task), `perf record -e
#    cpu-clock -g` and `perf record -a -g`, in alternating rounds; with
#    F2T_OLD set, that build's default too.  Prints which PMU the machine
#    has, the median work time of each and its ratio to the untraced median.
# 2. Symbolization speed: one capture with many samples converted to FXT
#    and to JSON, and with sampling stripped (-F 0 run of the same length)
#    for the baseline; samples per second of the difference.
# 3. Profiler data per sample: FXT profiler records, JSON samples +
#    stackFrames, and capture bytes, each divided by the samples.
#
# usage: sudo scripts/bench-sample.sh
# environment: RUNS=5 WORK=1000 (million rounds, ~2.5 s here)
#              F2T=./ftrace2trace F2T_OLD= BURN=build/tests/helpers/burn
set -u
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
RUNS=${RUNS:-5}
WORK=${WORK:-1000}
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

us_of() { sed -n 's/^burn: work .* in \([0-9]*\) us$/\1/p' "$1" | tail -1; }

declare -A times
variants=(untraced f2t-nosample f2t-999Hz f2t-sample-all f2t-9999Hz perf-rec perf-rec-clock perf-a-g)
[ -n "$F2T_OLD" ] && variants+=(f2t-old-999Hz)
run_variant() {
	local v=$1 out=$TMP/out
	local work=("$BURN" --work "$WORK")
	# The previous run's files are not written back during this one.
	sync
	case $v in
	perf-*) command -v perf >/dev/null || return ;;
	esac
	case $v in
	untraced) "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-nosample) "$F2T" record -q --no-sample -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-999Hz) "$F2T" record -q -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-old-999Hz) "$F2T_OLD" record -q -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-sample-all) "$F2T" record -q --sample-all -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	f2t-9999Hz) "$F2T" record -q -F 9999 -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>/dev/null ;;
	perf-rec) perf record -q -B -g -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>/dev/null ;;
	perf-rec-clock) perf record -q -B -e cpu-clock -g -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>/dev/null ;;
	perf-a-g) perf record -q -B -a -g -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>/dev/null ;;
	esac
	local us
	us=$(us_of "$out")
	[ -n "$us" ] && times[$v]="${times[$v]:-} $us"
}

echo "== recording overhead: burn --work $WORK, $RUNS alternating rounds ($(nproc) CPUs, $(uname -r))"
pmu_line
for ((r = 0; r < RUNS; r++)); do
	for v in "${variants[@]}"; do run_variant "$v"; done
done
# shellcheck disable=SC2086
base=$(median ${times[untraced]})
for v in "${variants[@]}"; do
	[ -n "${times[$v]:-}" ] || { echo "$v: no result"; continue; }
	# shellcheck disable=SC2086
	m=$(median ${times[$v]})
	printf '%-15s median %8d us  %+.2f%%  (runs:%s)\n' "$v" "$m" \
		"$(echo "($m - $base) * 100 / $base" | bc -l)" "${times[$v]}"
done

echo "== symbolization and size: burn 3 s at 9999 Hz, every task sampled"
"$F2T" record -q -F 9999 --sample-all -k "$TMP/s.cap" -o "$TMP/s.fxt" -- "$BURN" 3 >/dev/null
"$F2T" record -q --no-sample -k "$TMP/n.cap" -o "$TMP/n.fxt" -- "$BURN" 3 >/dev/null
t() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(((e - s) / 1000)); }
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
