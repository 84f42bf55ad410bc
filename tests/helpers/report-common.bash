# Sourced by the report tests that record tests/helpers/schedload (after
# record-common.bash and need_root): LOAD, and record() that makes a
# recording again when it lost events or left much of the workload's time
# unknown (see report_workload.sh).
LOAD=$B/tests/helpers/schedload
[ -x "$LOAD" ] || skip "$LOAD not built (make tests)"
command -v python3 >/dev/null || skip "python3 is not installed"

# unknown_share NAME: the largest unknown share of a workload thread's life, in %.
unknown_share() {
	local tids
	tids=$(sed -n 's/.* tid=\([0-9]*\) .*/\1/p' "$TMP/$1.out" | paste -sd,)
	[ -n "$tids" ] || { echo 100; return; }
	"$F2T" report --csv --tid "$tids" "$TMP/$1.cap" |
		python3 -c 'import csv, sys
print(max(100 * int(r["unknown_ns"]) / max(int(r["life_ns"]), 1) for r in csv.DictReader(sys.stdin)))'
}

# record NAME COMMAND...: records COMMAND (schedload, or a shell running it)
# into $TMP/NAME.cap and $TMP/NAME.fxt, the workload's own figures in
# $TMP/NAME.out; runs it under ${WRAP[@]} when set (e.g. perf sched record).
record() {
	local name=$1 try share
	shift
	for try in 1 2 3; do
		${WRAP[@]+"${WRAP[@]}"} "$F2T" record -b 32768 --no-sample -k "$TMP/$name.cap" \
			-o "$TMP/$name.fxt" -- "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
			fail "record $name: $(cat "$TMP/$name.err")"
		share=$(unknown_share "$name")
		if ! grep -q "lost events: 0 " "$TMP/$name.err"; then
			echo "note: $name, try $try: $(grep 'lost events' "$TMP/$name.err")"
		elif python3 -c "import sys; sys.exit(float('$share') > 1)"; then
			return 0
		else
			echo "note: $name, try $try: ${share}% of a thread's life unknown"
		fi
	done
}

