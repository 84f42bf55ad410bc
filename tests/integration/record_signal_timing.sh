#!/usr/bin/env bash
# 50 recordings, each sent SIGINT or SIGTERM at a random moment of its first
# 2 s: some in its first 150 ms (before tracing starts), some just after the
# conversion begins, the others anywhere.  Each must exit with the status
# ftrace2trace-record(1) documents for the moment the signal came, leave
# each output either absent or whole and valid (FXT read to its end by our
# dump, and by Perfetto's trace_processor_shell when found through
# $TRACE_PROCESSOR or PATH; JSON parsed by python3 or jq), leave no other
# file (no temporary one), and no tracefs instance.  Three run at a time.
# F2T_SEED=N replays a run.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
if command -v python3 >/dev/null; then
	json_ok() { python3 -m json.tool "$1" >/dev/null 2>&1; }
elif command -v jq >/dev/null; then
	json_ok() { jq -e .traceEvents "$1" >/dev/null 2>&1; }
else
	skip "neither python3 nor jq to check the JSON outputs"
fi
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell)}
[ -n "$TP" ] && [ -x "$TP" ] || { TP=; echo "note: no trace_processor_shell (TRACE_PROCESSOR); FXT checked by dump only"; }
echo "select count(*) from stats where severity = 'error' and value > 0;" >"$TMP/errors.sql"

seed=${F2T_SEED:-$(date +%s)}
RANDOM=$seed
echo "seed $seed (F2T_SEED=$seed replays the delays)"
RUNS=50

# fxt_whole FILE: dump reads it to the end, whose last record is the stats
# instant the writer ends with; trace_processor imports it without error.
fxt_whole() {
	"$F2T" dump "$1" 2>/dev/null | tail -n 1 | grep -q 'name="ftrace2trace_stats"' || return 1
	[ -z "$TP" ] && return 0
	[ "$("$TP" -q "$TMP/errors.sql" "$1" 2>/dev/null | tail -n 1)" = 0 ]
}

# one RUN SIG DELAY: records into $TMP/run-RUN, sends SIG after DELAY ms
# (conv+N: N ms after the conversion begins), writes RUN's verdict line
# "PHASE STATUS OUTPUTS" (or "FAIL why") to $TMP/run-RUN/verdict.
one() {
	local i=$1 sig=$2 delay=$3 dir=$TMP/run-$1 what pid rc want phase outs=""
	mkdir "$dir"
	case $((i % 3)) in
	0) what=(-- sleep 1) ;;
	1) what=(-a -d 1) ;;
	2) what=(-F 4999 -- "$PINGPONG" 60000) ;;
	esac
	"$F2T" record -v -o "$dir/out.fxt" -o "$dir/out.json" "${what[@]}" \
		>/dev/null 2>"$dir/err" &
	pid=$!
	if [ "${delay#conv+}" != "$delay" ]; then
		for _ in $(seq 300); do
			grep -q '^ftrace2trace: recorded ' "$dir/err" && break
			sleep 0.01
		done
		sleep "0.$(printf %03d "${delay#conv+}")"
	else
		sleep "$((delay / 1000)).$(printf %03d $((delay % 1000)))"
	fi
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?

	# Where the signal landed, from what the run said (-v), and what it
	# must exit with then (ftrace2trace-record(1), EXIT STATUS).
	local killed=$((128 + $(kill -l "$sig")))
	if ! grep -q '^ftrace2trace: ' "$dir/err"; then
		phase=start want=$killed		# before the handlers were set
	elif grep -q 'before recording started' "$dir/err"; then
		phase=start want=$killed
	elif grep -q 'stopping: signal' "$dir/err"; then
		phase=recording
		[ "${what[0]}" = -a ] && want=0 || want="0 143"	# the command gets SIGTERM
	elif [ "$rc" -eq "$killed" ]; then
		phase=conversion want=$killed
	else
		phase=finished want=0
	fi
	case " $want " in
	*" $rc "*) ;;
	*) echo "FAIL run $i (${what[*]}, SIG$sig at $delay ms): $phase: exit $rc, want $want: $(tr '\n' '|' <"$dir/err")" >"$dir/verdict"
	   return ;;
	esac
	for f in out.fxt out.json; do
		if [ ! -e "$dir/$f" ]; then
			if [ "$rc" -ne "$killed" ]; then
				echo "FAIL run $i ($phase): exit $rc but no $f" >"$dir/verdict"
				return
			fi
			outs+=" $f:absent"
			continue
		fi
		case $f in
		*.fxt) fxt_whole "$dir/$f" ;;
		*.json) json_ok "$dir/$f" ;;
		esac || { echo "FAIL run $i ($phase): $f is not a whole, valid trace" >"$dir/verdict"; return; }
		outs+=" $f:valid"
	done
	local extra
	extra=$(ls -A "$dir" | grep -Ev '^(out\.fxt|out\.json|err|verdict)$')
	if [ -n "$extra" ]; then
		echo "FAIL run $i ($phase): left behind: $extra" >"$dir/verdict"
		return
	fi
	if instance_left "$pid"; then
		echo "FAIL run $i ($phase): instance ftrace2trace-$pid left behind" >"$dir/verdict"
		return
	fi
	echo "$phase $rc$outs" >"$dir/verdict"
}

sigs=() delays=()
for ((i = 0; i < RUNS; i++)); do
	sigs+=("$([ $((RANDOM % 2)) -eq 0 ] && echo INT || echo TERM)")
	case $((i % 10)) in
	0|1) delays+=($((RANDOM % 150))) ;;		# before tracing starts, mostly
	2|3) delays+=(conv+$((RANDOM % 150))) ;;	# during the conversion, mostly
	*) delays+=($((RANDOM % 2000))) ;;
	esac
done
start=$(date +%s)
for ((i = 0; i < RUNS; i += 3)); do
	for ((k = i; k < i + 3 && k < RUNS; k++)); do
		one "$k" "${sigs[k]}" "${delays[k]}" &
	done
	wait
done
secs=$(($(date +%s) - start))

cat "$TMP"/run-*/verdict >"$TMP/verdicts"
if grep '^FAIL' "$TMP/verdicts"; then
	fail "$(grep -c '^FAIL' "$TMP/verdicts") of $RUNS runs (seed $seed)"
fi
[ "$(wc -l <"$TMP/verdicts")" -eq "$RUNS" ] || fail "only $(wc -l <"$TMP/verdicts") verdicts for $RUNS runs"
for phase in start recording conversion finished; do
	grep "^$phase " "$TMP/verdicts" | awk -v p="$phase" '
		{ n++; st[$2]++; for (i = 3; i <= NF; i++) { split($i, a, ":"); o[a[2]]++ } }
		END { if (!n) { printf "%-10s  0 runs\n", p; exit }
		      printf "%-10s %2d runs, exit", p, n; for (s in st) printf " %s x%d", s, st[s]
		      printf "; outputs %d valid, %d absent\n", o["valid"], o["absent"] }'
done
ok "$RUNS interrupted recordings in $secs s: each exit status as documented, no partial output, no temporary file, no instance left"
exit 0
