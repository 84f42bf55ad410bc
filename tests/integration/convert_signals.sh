#!/usr/bin/env bash
# convert and merge stopped by SIGINT or SIGTERM end as the signal would (a
# shell sees 130 or 143) and leave no file behind, not even a temporary one.
# convert is held at a known point by a FIFO: it blocks opening its second
# output (a FIFO nobody reads), with the first one begun.  merge (which
# refuses FIFOs: it reads its inputs twice) gets a large input and the
# signal as soon as its output is begun, again if it finished first.
# Needs no root.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v mkfifo >/dev/null || { echo "SKIP: no mkfifo"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fixture=$(cd "$(dirname "$0")/.." && pwd)/fixtures/sched-tcp.cap

# big_input N: $TMP/big.json, a JSON trace of N events (kept while N stays).
big_input() {
	[ "$(cat "$TMP/big.n" 2>/dev/null)" = "$1" ] && return
	awk -v n="$1" 'BEGIN {
		printf "{\"traceEvents\":["
		for (i = 0; i < n; i++)
			printf "%s{\"name\":\"e\",\"ph\":\"X\",\"ts\":%d,\"dur\":1,\"pid\":1,\"tid\":%d}",
			       i ? "," : "", i, i % 7
		printf "]}\n"
	}' >"$TMP/big.json" || fail "cannot write $TMP/big.json"
	echo "$1" >"$TMP/big.n"
}

# wait_for DIR REGEX: until an entry of DIR matches (the output begun).
wait_for() {
	for _ in $(seq 1000); do
		ls -A "$1" | grep -Eq "$2" && return 0
		sleep 0.01
	done
	fail "$1: nothing matching $2 appeared"
}

# stop PID SIG WHAT: sends SIG, waits at most 5 s; sets RC.
stop() {
	kill -"$2" "$1"
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1"
		wait "$1" 2>/dev/null
		fail "$3: still running 5 s after SIG$2"
	fi
	wait "$1"
	RC=$?
}

for sig in INT TERM; do
	want=$((128 + $(kill -l "$sig")))

	dir=$TMP/convert-$sig
	mkdir "$dir"
	mkfifo "$dir/held.json"
	"$F2T" convert -q "$fixture" -o "$dir/out.fxt" -o "$dir/held.json" 2>"$TMP/err" &
	pid=$!
	wait_for "$dir" 'out\.fxt'
	sleep 0.2	# blocked in the FIFO's open() by now
	stop "$pid" "$sig" "convert"
	[ "$RC" -eq "$want" ] || fail "convert, SIG$sig: exit $RC, want $want: $(cat "$TMP/err")"
	left=$(ls -A "$dir" | grep -v '^held\.json$')
	[ -z "$left" ] || fail "convert, SIG$sig: left behind: $left"
	ok "convert, SIG$sig: exit $RC, nothing left"

	dir=$TMP/merge-$sig
	mkdir "$dir"
	for events in 1500000 3000000 6000000; do
		big_input "$events"
		"$F2T" merge -q -o "$dir/out.json" "$TMP/big.json" 2>"$TMP/err" &
		pid=$!
		wait_for "$dir" 'out\.json'
		stop "$pid" "$sig" "merge"
		[ "$RC" -eq 0 ] || break
		rm -f "$dir/out.json"	# done before the signal came: again, bigger
	done
	[ "$RC" -eq "$want" ] || fail "merge, SIG$sig: exit $RC, want $want: $(cat "$TMP/err")"
	left=$(ls -A "$dir")
	[ -z "$left" ] || fail "merge, SIG$sig: left behind: $left"
	ok "merge of $events events, SIG$sig: exit $RC, nothing left"
done
exit 0
