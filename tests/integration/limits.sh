#!/usr/bin/env bash
# Limits (issue 25, item 8): out of memory or descriptors anywhere is one
# line naming what failed and exit 1; never a crash (a signal: exit >= 128),
# never exit 0 with an output missing or partial, never a second line.
#
# For each command: the lowest `ulimit -v` (KB) at which the binary loads
# at all and the lowest at which the command succeeds are found by bisection,
# then every limit between them is tried, in steps small enough to land in
# each allocation of the run's start (a few dozen runs per command).  The
# same for `ulimit -n` (every value), record under both as root.
set -u
. "$F2T_TESTS/helpers/record-common.bash"

fixtures=$F2T_TESTS/fixtures
OUT=$TMP/out
mkdir "$OUT"
VERR=$TMP/err

# run KIND LIMIT CMD...: CMD under ulimit -KIND LIMIT, stdout to /dev/null,
# stderr to $VERR (redirected before the limit: the shell needs descriptors too).
run() {
	local kind=$1 lim=$2
	shift 2
	(exec 2>"$VERR" >/dev/null; ulimit -"$kind" "$lim"; exec "$@")
}

# lowest KIND LO HI CMD...: the lowest limit in (LO, HI] at which CMD exits 0
# (HI must be one), by bisection.
lowest() {
	local kind=$1 lo=$2 hi=$3 mid
	shift 3
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(( (lo + hi) / 2 ))
		if run "$kind" "$mid" "$@"; then hi=$mid; else lo=$mid; fi
	done
	echo "$hi"
}

# outputs_ok: every output there and whole
outputs_ok() {
	[ -s "$OUT/o.pftrace" ] && [ -s "$OUT/o.txt" ] &&
		"$F2T" dump --stats "$OUT/o.fxt" >/dev/null 2>&1 &&
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT/o.json" 2>/dev/null
}

# judge WHAT LIMIT RC: exit 0 with every output whole, or exit 1 with one
# error line and nothing left in $OUT; anything else fails the test.
judge() {
	local what=$1 lim=$2 rc=$3 left
	left=$(ls -A "$OUT")
	if [ "$rc" -eq 0 ]; then
		outputs_ok || fail "$what, limit $lim: exit 0 with outputs missing or partial: $left"
		return 0
	fi
	[ "$rc" -lt 128 ] || fail "$what, limit $lim: killed by signal $((rc - 128)): $(cat "$VERR")"
	[ "$rc" -eq 1 ] || fail "$what, limit $lim: exit $rc: $(cat "$VERR")"
	[ "$(wc -l <"$VERR")" -eq 1 ] && grep -q '^ftrace2trace: error: ' "$VERR" ||
		fail "$what, limit $lim: not one error line: $(cat "$VERR")"
	[ -z "$left" ] || fail "$what, limit $lim: exit 1 but left: $left"
	errors="$errors$(sed 's/^ftrace2trace: error: //' "$VERR")"$'\n'
}

# sweep KIND WHAT STEP CMD...: every limit from the lowest success down to
# the lowest at which the binary loads.
sweep() {
	local kind=$1 what=$2 step=$3 load ok lim rc n=0
	shift 3
	if [ "$kind" = v ]; then
		load=$(lowest v 1024 1048576 "$F2T" --version)
		ok=$(lowest v "$load" 4194304 "$@")
	else
		load=$(lowest n 0 64 "$F2T" --version)
		ok=$(lowest n "$load" 1024 "$@")
	fi
	errors=
	for ((lim = ok + step; lim >= load; lim -= step)); do
		rm -rf "$OUT" && mkdir "$OUT"
		run "$kind" "$lim" "$@"
		rc=$?
		judge "$what" "$lim" "$rc"
		n=$((n + 1))
	done
	ok "$what under ulimit -$kind: $n limits from $((ok + step)) down to $load (the binary loads; the run succeeds from $ok): $(echo "$errors" | grep -c .) runs said one error, the others wrote every output"
}

outs=(-o "$OUT/o.pftrace" -o "$OUT/o.json" -o "$OUT/o.fxt" -o "$OUT/o.txt")
for input in "$fixtures/sched-tcp.cap" "$fixtures/tracedat-v7.dat" "$fixtures/sched-tcp.trace"; do
	sweep v "convert $(basename "$input")" 128 "$F2T" convert -q "$input" "${outs[@]}"
	sweep n "convert $(basename "$input")" 1 "$F2T" convert -q "$input" "${outs[@]}"
done

need_root
# record: each run records 0.1 s and converts; the step is coarser.
outs=(-o "$OUT/o.pftrace" -o "$OUT/o.json" -o "$OUT/o.fxt" -o "$OUT/o.txt")
sweep v "record -a" 1024 "$F2T" record -q -a -d 0.1 "${outs[@]}"
sweep n "record -a" 1 "$F2T" record -q -a -d 0.1 "${outs[@]}"
exit 0
