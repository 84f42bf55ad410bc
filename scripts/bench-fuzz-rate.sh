#!/usr/bin/env bash
# Fuzzing rate, like for like: TARGET of two fuzz builds (OLD_DIR and
# NEW_DIR, e.g. a copy of build/fuzz made before a change, and build/fuzz)
# fuzzing the same corpus for SECS seconds each, alternating, RUNS rounds,
# with make fuzz's options and the target's -max_len and flags (fuzz.mk).
# Where bench-fuzz.sh replays a corpus, this counts what a fuzzing run
# does: loading the corpus, then mutating, with libFuzzer's own bookkeeping.
# Round N runs both builds with -seed=N; new inputs go to a scratch
# directory, so the corpus stays as it was.  Figures: executions per second
# of each run, the median of each build and of the per-round ratios
# new/old, and the cov: and ft: of each build's INITED line (the coverage
# of the same corpus: a change that keeps every parser and writer running
# keeps them, or raises them).  Prints figures; asserts nothing.  Run it
# with the machine's other fuzzers paused, on a core of its own.
#
# usage: scripts/bench-fuzz-rate.sh OLD_DIR TARGET CORPUS_DIR
# environment: RUNS=3, SECS=60, CPU=1 (the core the runs use), NEW_DIR=build/fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
[ $# -eq 3 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
OLD_DIR=$1 TARGET=$2 CORPUS=$3
NEW_DIR=${NEW_DIR:-build/fuzz}
RUNS=${RUNS:-3}
SECS=${SECS:-60}
for v in "$OLD_DIR" "$NEW_DIR"; do
	[ -x "$v/$TARGET" ] || { echo "bench-fuzz-rate: no harness $v/$TARGET" >&2; exit 1; }
done
# fuzz.mk's -max_len and flags of the target.
mk_var() { sed -n "s/^$1 *[:?]\?= *//p" tests/fuzz/fuzz.mk; }
MAX_LEN=$(mk_var "FUZZ_MAX_LEN_$TARGET")
read -ra FLAGS <<<"$(mk_var "FUZZ_FLAGS_$TARGET")"
export ASAN_OPTIONS=$(mk_var FUZZ_ASAN_OPTIONS)
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
declare -A rate cov
run_variant() {
	local log=$scratch/log n
	rm -rf "$scratch/new" && mkdir "$scratch/new"
	taskset -c "${CPU:-1}" "$1/$TARGET" -seed="$round" -max_total_time="$SECS" -timeout=1500 \
		-rss_limit_mb=2048 -max_len="${MAX_LEN:-4096}" "${FLAGS[@]}" -print_final_stats=1 \
		-artifact_prefix="$scratch/new/" "$scratch/new" "$CORPUS" >"$log" 2>&1 || true
	n=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	rate[$1]+=" $(( ${n:-0} / SECS ))"
	cov[$1]=$(grep -a -m1 INITED "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' || echo "no INITED line")
}
echo "bench-fuzz-rate: $TARGET, $(ls "$CORPUS" | wc -l) inputs, $RUNS rounds of $SECS s; $(load_line)"
round=0
for ((r = 0; r < RUNS; r++)); do
	round=$((r + 1))
	for v in "$OLD_DIR" "$NEW_DIR"; do
		run_variant "$v"
	done
done
read -ra o <<<"${rate[$OLD_DIR]}"
read -ra n <<<"${rate[$NEW_DIR]}"
ratios=$(for ((i = 0; i < ${#o[@]}; i++)); do awk -v a="${o[i]}" -v b="${n[i]}" 'BEGIN { printf "%.3f\n", a ? b / a : 0 }'; done)
printf '| build | exec/s (median) | runs | INITED |\n| --- | --- | --- | --- |\n'
printf '| %s | %s | %s | %s |\n' "$OLD_DIR" "$(median "${o[@]}")" "${o[*]}" "${cov[$OLD_DIR]}" \
	"$NEW_DIR" "$(median "${n[@]}")" "${n[*]}" "${cov[$NEW_DIR]}"
echo "new/old: $(echo "$ratios" | fmedian) (median of per-round ratios)"
