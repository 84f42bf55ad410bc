#!/usr/bin/env bash
# What the pipeline after the input costs by itself (tracker, model, the
# .fxt and .pftrace writers, the output): scripts/bench-pipeline.c decodes
# every event of INPUT first, then times only the pipeline over them (CPU
# time, the output on a tmpfs), REPS passes a run; RUNS runs, on one pinned
# core, medians printed.  With OTHER=TREE (another checkout, built), the
# same for its build/libf2t.a, run for run alternating, and the ratio.
# Prints figures; asserts nothing.
#
# usage: scripts/bench-pipeline.sh INPUT [RUNS] [REPS]   (default 7 runs of 5 passes)
# OUT=DIR: the output there instead of a directory on /dev/shm
# CPU: taskset -c ${CPU:-0}.
set -euo pipefail
cd "$(dirname "$0")/.."
IN=${1:?usage: $0 INPUT [RUNS] [REPS]}
RUNS=${2:-7}
REPS=${3:-5}
CPU=${CPU:-0}
W=$(mktemp -d /tmp/f2t-bench-pipeline.XXXXXX)
trap 'rm -rf "$W"' EXIT

. scripts/bench-lib.bash
O=$(out_dir f2t-bench-pipeline)
trap 'rm -rf "$W" "$O"' EXIT
median() { fmedian; }
bench() { build_harness bench-pipeline.c "$2" "$1"; }
run() { taskset -c "$CPU" "$1" "$IN" "$O/out" "$2" "$REPS" | sed 's/.*median \([0-9.]*\) .*/\1/'; }

bench . "$W/this"
[ -n "${OTHER:-}" ] && bench "$OTHER" "$W/other"
load_line
echo "pipeline alone on $IN: median of $RUNS runs of the median of $REPS passes, CPU time on CPU $CPU"
for fmt in fxt perfetto; do
	: >"$W/a"; : >"$W/b"
	for _ in $(seq "$RUNS"); do
		run "$W/this" $fmt >>"$W/a"
		[ -n "${OTHER:-}" ] && run "$W/other" $fmt >>"$W/b"
	done
	a=$(median <"$W/a")
	if [ -n "${OTHER:-}" ]; then
		b=$(median <"$W/b")
		printf '%-9s this %7.2f ms   %s %7.2f ms   this/other %.3f\n' $fmt "$a" "$OTHER" "$b" \
			"$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
	else
		printf '%-9s %7.2f ms\n' $fmt "$a"
	fi
done
