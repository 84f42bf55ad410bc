#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `record --report` is about the command: while a neighbour outside it burns
# more CPU than it does, the command's workload is the first row of both
# tables, a process it started is listed before the others, and the others
# are one "N others, M threads" row; the tables fit 80 columns (standard
# output is not a terminal, no $COLUMNS) and say what they left out.
# `report` on the capture kept says the same (the capture names the
# command's process); --all-processes lists the neighbour after the
# command's processes; --wide has every column and the waits' tails inline;
# $COLUMNS widens the tables.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
. "$F2T_TESTS/helpers/report-common.bash"

# The neighbour: a busy loop, not started by the command.
bash -c 'while :; do :; done' &
neighbour=$!
trap 'kill $neighbour 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.2
# The command: a shell starting schedload busy-sleep and a sleep.
"$F2T" record --report --no-sample -k "$TMP/r.cap" -o "$TMP/r.fxt" -- \
	bash -c "sleep 0.3 & $LOAD busy-sleep 5 5 4; wait" >"$TMP/r.out" 2>"$TMP/r.err" ||
	fail "record --report: $(cat "$TMP/r.err")"
kill $neighbour

# rows FILE TITLE: the data rows of the table under the line starting with TITLE.
rows() {
	awk -v t="$2" 'index($0, t) == 1 { on = 1; next }
		on && /^ +PID +TID +COMM/ { data = 1; next }
		data && (/^$/ || /^\(left out/) { exit }
		data && /^ +[-0-9]/ { print }' "$1"
}
check() {
	local what=$1 file=$2 first
	for title in "Where each thread's time went" "Context switches"; do
		first=$(rows "$file" "$title" | head -1)
		[[ $first =~ ^\ +[0-9]+\ +(-|[0-9]+)\ +schedload\  ]] ||
			fail "$what: the first row of '$title' is not the command's schedload: '$first'"
	done
	rows "$file" "Where each thread's time went" | grep -qE "^ +[0-9]+ +[0-9]+  sleep " ||
		fail "$what: the command's child sleep is not listed: $(rows "$file" "Where each")"
}

check "record --report" "$TMP/r.out"
rows "$TMP/r.out" "Where each thread's time went" | grep -qE "^ +$neighbour " &&
	fail "record --report: the neighbour is listed, not summed with the others"
rows "$TMP/r.out" "Where each thread's time went" | tail -1 | grep -qE '^ +- +- +[0-9]+ others, [0-9]+ threads ' ||
	fail "record --report: no 'others' row last: $(rows "$TMP/r.out" "Where each" | tail -2)"
long=$(sed -n '/^Where each thread/,/^CPUs/p' "$TMP/r.out" | awk 'length($0) > 80')
[ -z "$long" ] || fail "record --report: table lines wider than 80 columns: $long"
grep -q "^(left out to fit the width: OTHER(I,T,P)" "$TMP/r.out" ||
	fail "record --report: does not say which columns it left out"
ok "record --report: schedload (the workload) first in both tables, its sleep listed, the neighbour summed, 80 columns"

"$F2T" report "$TMP/r.cap" >"$TMP/rep.txt" 2>"$TMP/err" || fail "report: $(cat "$TMP/err")"
check "report of the capture" "$TMP/rep.txt"
"$F2T" report --all-processes "$TMP/r.cap" >"$TMP/all.txt" || fail "report --all-processes"
check "report --all-processes" "$TMP/all.txt"
rows "$TMP/all.txt" "Where each thread's time went" | grep -qE "^ +$neighbour " ||
	fail "report --all-processes does not list the neighbour"
grep -q " others, " "$TMP/all.txt" && fail "report --all-processes still sums others"
ok "report of the capture: the same; --all-processes lists the neighbour after the command's"

"$F2T" report --wide -n all "$TMP/r.cap" >"$TMP/wide.txt" || fail "report --wide"
for h in LIFE OTHER "(I,T,P)" UNKNOWN "SW:INV" P90 "THE MAX: WHEN"; do
	grep -qF "$h" "$TMP/wide.txt" || fail "report --wide lacks $h"
done
grep -q "left out" "$TMP/wide.txt" && fail "report --wide left columns out"
COLUMNS=200 "$F2T" report "$TMP/r.cap" >"$TMP/c200.txt" || fail "COLUMNS=200 report"
grep -q "^ *PID.*SLEEPING(S)" "$TMP/c200.txt" || fail "COLUMNS=200: no SLEEPING(S) column"
ok "--wide: every column, tails inline; COLUMNS=200 widens the tables"
exit 0
