#!/usr/bin/env bash
# Replays every fuzz seed (tests/fuzz/corpus/TARGET/) and every reproducer of
# a crash once found and fixed (tests/fuzz/crashes/TARGET/) through its
# libFuzzer harness, built with AddressSanitizer and UBSan by `make check`
# (fuzz-build), so a fixed crash stays fixed.  Skips when clang cannot build
# the harnesses.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
fb=${B:-$root/build}/fuzz
if [ -e "$fb/unavailable" ]; then
	echo "skip: $(cat "$fb/unavailable")"
	exit 77
fi
export LSAN_OPTIONS=suppressions=$root/tests/fuzz/lsan.supp
fail=0 total=0
for dir in "$root"/tests/fuzz/corpus/* "$root"/tests/fuzz/crashes/*; do
	[ -d "$dir" ] || continue
	t=$(basename "$dir")
	files=("$dir"/*)
	[ -e "${files[0]}" ] || continue
	if [ ! -x "$fb/$t" ]; then
		echo "FAIL: $dir has no harness $fb/$t (make fuzz-build)"
		fail=1
		continue
	fi
	if ! out=$(F2T_TESTS="$root/tests" "$fb/$t" -timeout=30 -rss_limit_mb=2048 "${files[@]}" 2>&1); then
		printf '%s\n' "$out" | grep -v '^Running: \|^Executed ' | tail -40
		echo "FAIL: $t crashed on one of ${#files[@]} inputs of $dir"
		fail=1
		continue
	fi
	echo "$t: ${#files[@]} inputs of ${dir#"$root"/} ran clean"
	total=$((total + ${#files[@]}))
done
echo "fuzz replay: $total inputs"
exit $fail
