#!/usr/bin/env bash
# Converts captures with this tree's ./ftrace2trace and with the binary built
# from an earlier commit, and compares every output byte for byte: a change
# meant to leave outputs alone proves it here.
#
#   scripts/compare-with-commit.sh COMMIT CAPTURE...
#
# Builds COMMIT in a temporary worktree (removed afterwards), converts each
# capture to .fxt, .json and .txt with both binaries, and prints one line per
# output: "same" (byte for byte), "same records" (only the encoding differs:
# string and thread tables, the order of names; scripts/compare-traces.py)
# or "DIFFERS" with the first differing record.  Exits 1 when anything
# differs beyond the encoding.  Set OLD=path to reuse an already built old
# binary.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 COMMIT CAPTURE..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
commit=$1; shift
work=$(mktemp -d)
trap 'git -C "$top" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

old=${OLD:-}
if [ -z "$old" ]; then
	git -C "$top" worktree add --detach "$work/tree" "$commit" >/dev/null
	make -C "$work/tree" -s -j2 ftrace2trace >/dev/null
	old=$work/tree/ftrace2trace
fi
new=$top/ftrace2trace
[ -x "$new" ] || make -C "$top" -s -j2 ftrace2trace >/dev/null

status=0
for cap in "$@"; do
	name=$(basename "$cap" .cap)
	for ext in fxt json txt; do
		"$old" convert -q "$cap" -o "$work/old.$ext" 2>/dev/null || { echo "$name.$ext: old binary failed"; status=1; continue; }
		"$new" convert -q "$cap" -o "$work/new.$ext" 2>/dev/null || { echo "$name.$ext: new binary failed"; status=1; continue; }
		if cmp -s "$work/old.$ext" "$work/new.$ext"; then
			echo "$name.$ext: same ($(stat -c %s "$work/new.$ext") bytes)"
		elif diff=$("$top/scripts/compare-traces.py" "$new" "$work/old.$ext" "$work/new.$ext"); then
			echo "$name.$ext: same records ($(stat -c %s "$work/old.$ext") -> $(stat -c %s "$work/new.$ext") bytes)"
		else
			echo "$name.$ext: DIFFERS: $diff"
			status=1
		fi
	done
done
exit $status
