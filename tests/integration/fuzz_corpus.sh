#!/usr/bin/env bash
# Every fuzzing harness (tests/fuzz/fuzz_NAME.c) runs once over each file of
# its corpus (tests/fuzz/corpus/NAME/), built without libFuzzer: what once
# made a harness fail (kept there) must not fail again.  `make fuzz` builds
# the real fuzzers.  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=0
for src in "$here"/../fuzz/fuzz_*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	bin=$B/tests/$name-replay
	[ -x "$bin" ] || { echo "FAIL: $bin not built (make tests)"; exit 1; }
	corpus=$here/../fuzz/corpus/${name#fuzz_}
	[ -d "$corpus" ] || { echo "FAIL: no corpus $corpus"; exit 1; }
	"$bin" "$corpus"/* || { echo "FAIL: $name on its corpus"; exit 1; }
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "SKIP: no fuzzing harness"; exit 77; }
echo "ok: $n harnesses replayed their corpora"
