#!/usr/bin/env bash
# Fuzz harness speed, like for like: every file of a fixed corpus run once
# through a harness of two fuzz builds (build/fuzz/TARGET of this tree and
# of OLD_DIR), alternating, RUNS rounds.  A replay, not a fuzzing run: no
# mutations and no corpus growing, so both builds do the same inputs and
# only the harness and the code under it differ.  Figures: CPU time (user +
# system) per input in microseconds, the median of RUNS, and the median of
# the per-round ratios old/new.  The process's start (sanitizers, the
# harness's once-per-process setup) counts too, spread over the inputs: use
# hundreds of them.  Prints figures; asserts nothing.
#
# usage: scripts/bench-fuzz.sh OLD_DIR TARGET CORPUS_DIR...
#   OLD_DIR: another build's fuzz directory (e.g. a copy of build/fuzz made
#   before a change); CORPUS_DIR: inputs, e.g. tests/fuzz/corpus/TARGET or a
#   fuzzing run's corpus
# environment: RUNS=7, CPU=1 (the core the replays run on), NEW_DIR=build/fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
[ $# -ge 3 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
OLD_DIR=$1 TARGET=$2
shift 2
NEW_DIR=${NEW_DIR:-build/fuzz}
RUNS=${RUNS:-7}
files=()
for d in "$@"; do
	for f in "$d"/*; do
		[ -f "$f" ] && files+=("$f")
	done
done
[ ${#files[@]} -gt 0 ] || { echo "bench-fuzz: no inputs in $*" >&2; exit 1; }
for v in "$OLD_DIR" "$NEW_DIR"; do
	[ -x "$v/$TARGET" ] || { echo "bench-fuzz: no harness $v/$TARGET" >&2; exit 1; }
done
# make fuzz's options: the figures are what a fuzzing run pays.
export ASAN_OPTIONS=malloc_context_size=0:quarantine_size_mb=8
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
declare -A us failed
run_variant() {
	local t
	t=$(cpu_timed /dev/null "$1/$TARGET" -timeout=1500 -rss_limit_mb=2048 "${files[@]}" | cut -d' ' -f1)
	us[$1]+=" $(awk -v t="$t" -v n=${#files[@]} 'BEGIN { printf "%d", t * 1e6 / n }')"
}
echo "bench-fuzz: $TARGET, ${#files[@]} inputs, $RUNS rounds; $(load_line)"
alternate "$RUNS" "$OLD_DIR" "$NEW_DIR"
read -ra o <<<"${us[$OLD_DIR]}"
read -ra n <<<"${us[$NEW_DIR]}"
ratios=$(for ((i = 0; i < ${#o[@]}; i++)); do awk -v a="${o[i]}" -v b="${n[i]}" 'BEGIN { printf "%.3f\n", a / b }'; done)
printf '| build | CPU us/input (median) | runs |\n| --- | --- | --- |\n'
printf '| %s | %s | %s |\n' "$OLD_DIR" "$(median "${o[@]}")" "${o[*]}" "$NEW_DIR" "$(median "${n[@]}")" "${n[*]}"
echo "old/new: $(echo "$ratios" | fmedian) (median of per-round ratios)"
