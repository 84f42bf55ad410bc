#!/usr/bin/env bash
# Converts captures with this tree's ./ftrace2trace and with the binary built
# from an earlier commit, and compares what each writes: a change meant to
# leave outputs alone proves it here.
#
#   scripts/compare-with-commit.sh COMMIT INPUT...
#
# Builds COMMIT in a temporary worktree (removed afterwards), converts each
# input (a capture, a trace.dat, ftrace text) to .pftrace, .fxt, .json and
# .txt with both binaries, runs `report`, `report --csv` and, on captures
# with off-CPU episodes, `report --off-cpu` and `--off-cpu --folded`, and
# prints one line per output: "same" (byte for byte), "same records" (only
# the encoding differs: string and thread tables, the order of names;
# scripts/compare-traces.py), "same tables" (.pftrace and .fxt: what
# Perfetto's trace processor makes of both files is the same, every row of
# scripts/trace-tables.sql) or "DIFFERS" with the first difference.  Exits 1
# when anything differs beyond the encoding.  Set OLD=path to reuse an
# already built old binary; TRACE_PROCESSOR=path to compare tables (without
# it a .pftrace that is not the same bytes is a difference).
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

tp=${TRACE_PROCESSOR:-}
tables=$top/scripts/trace-tables.sql

# same_tables OLD NEW: the trace processor's rows of both files are the same.
same_tables() {
	[ -n "$tp" ] || return 1
	"$tp" -q "$tables" "$1" >"$work/old.rows" 2>/dev/null || return 1
	"$tp" -q "$tables" "$2" >"$work/new.rows" 2>/dev/null || return 1
	cmp -s "$work/old.rows" "$work/new.rows" && return 0
	diff "$work/old.rows" "$work/new.rows" | sed -n '2p;/^---/{n;p;q}' | cut -c1-300 | tr '\n' ' '
	return 1
}

# compare NAME OLD NEW: one line for this output.
compare() {
	local name=$1 o=$2 n=$3 diff
	if cmp -s "$o" "$n"; then
		echo "$name: same ($(stat -c %s "$n") bytes)"
		return
	fi
	case $name in
	*.pftrace)
		if diff=$(same_tables "$o" "$n"); then
			echo "$name: same tables ($(stat -c %s "$o") -> $(stat -c %s "$n") bytes)"
			return
		fi ;;
	*.fxt|*.json|*.txt)
		if diff=$("$top/scripts/compare-traces.py" "$new" "$o" "$n"); then
			if [ "${name##*.}" = fxt ] && [ -n "$tp" ] && ! diff=$(same_tables "$o" "$n"); then
				:
			else
				echo "$name: same records ($(stat -c %s "$o") -> $(stat -c %s "$n") bytes)"
				return
			fi
		fi ;;
	# diff says 1 for files that differ: not the end of this script (set -e, pipefail).
	*) diff=$(diff "$o" "$n" | sed -n '2p;/^---/{n;p;q}' | cut -c1-300 | tr '\n' ' ' || true) ;;
	esac
	echo "$name: DIFFERS: $diff"
	status=1
}

status=0
for cap in "$@"; do
	name=$(basename "$cap")
	name=${name%.*}
	for ext in pftrace fxt json txt; do
		"$old" convert -q "$cap" -o "$work/old.$ext" 2>/dev/null || { echo "$name.$ext: old binary failed"; status=1; continue; }
		"$new" convert -q "$cap" -o "$work/new.$ext" 2>/dev/null || { echo "$name.$ext: new binary failed"; status=1; continue; }
		compare "$name.$ext" "$work/old.$ext" "$work/new.$ext"
	done
	reports=("report" "report --csv")
	"$old" report -q --off-cpu "$cap" >/dev/null 2>&1 &&
		reports+=("report --off-cpu" "report --off-cpu --folded")
	for r in "${reports[@]}"; do
		# shellcheck disable=SC2086 # the words of $r are the options
		"$old" $r -q "$cap" >"$work/old.rep" 2>&1 || { echo "$name $r: old binary failed"; status=1; continue; }
		# shellcheck disable=SC2086
		"$new" $r -q "$cap" >"$work/new.rep" 2>&1 || { echo "$name $r: new binary failed"; status=1; continue; }
		compare "$name ${r// /}" "$work/old.rep" "$work/new.rep"
	done
done
exit $status
