#!/usr/bin/env bash
# Recording overhead: the ping-pong workload (two threads bouncing a byte
# over pipes: every round trip is two wake-ups and two context switches, the
# worst case for a scheduling recorder, and for a sampler whose events
# follow the sampled tasks) run untraced and under each recorder below, in
# alternating rounds.  Prints which PMU the machine has, the median round
# trips/s of each variant and its ratio to the untraced median, the
# recorder's own CPU time while the workload ran (its share of one CPU: on a
# machine with an idle CPU the reader runs there, with every CPU busy it
# runs instead of the workload; ftrace2trace's and perf's, not trace-cmd's,
# whose readers are processes of their own), the events ftrace2trace lost
# in each run, the two goals (the default costs at most 10 points more than
# --no-sample, and --no-sample is at or above the best peer recording the
# same sched events), and where each recorder of those events stands
# against the kernel's floor.
#
#   kernel-floor     the same sched events enabled in a tracefs instance of
#                    our own on the mono clock, with no reader at all: what
#                    the kernel's tracepoints cost by themselves, the floor
#                    of any recorder of them
#   f2t              ftrace2trace record: sched events + 999 Hz samples
#                    (per-CPU events, the command's samples kept)
#   f2t-sample-all   ftrace2trace record --sample-all
#   f2t-no-sample    ftrace2trace record --no-sample: sched events only
#   f2t-old          $F2T_OLD record, when F2T_OLD names another build
#                    (e.g. one whose samples came from task-bound events)
#   perf-sched       perf sched record: sched events
#   trace-cmd        trace-cmd record -e (the same sched events), its
#                    default clock (local)
#   trace-cmd-mono   the same with -C mono, the clock ftrace2trace records
#                    on (what merging with user traces needs: CLOCK_MONOTONIC
#                    costs more per event than local's bare sched_clock)
#   perf-rec         perf record -F 999 -g: our rate, perf's events (cycles,
#                    or cpu-clock without a PMU; events that follow the task)
#   perf-rec-clock   perf record -F 999 -e cpu-clock -g
#   perf-rec-a       perf record -F 999 -a -g: per-CPU events sampling every
#                    task, as ours do (the peer of f2t-sample-all)
#
# usage: sudo scripts/bench-record.sh
# environment:
#   ROUNDS=200000   round trips per run
#   NICE=-20        each whole command (recorder and workload) at this nice
#                   level, every variant alike: the machine's other jobs
#                   then take little of the workload's CPUs from any of them
#   RUNS=7          alternating rounds (each runs every variant once)
#   MODES="pinned busy free"
#                   pinned: the workload on CPU 0 only (stable figures:
#                   both threads on one CPU, pure context-switch cost;
#                   the other CPUs free for the recorder's reader);
#                   busy: one ping-pong pinned to each CPU, every CPU busy,
#                   round trips/s summed (the per-CPU cost when no CPU is
#                   left idle for the reader, as on a loaded many-CPU host);
#                   free: the scheduler places the threads (cross-CPU
#                   wake-ups, realistic but noisy in a VM)
#   VARIANTS="..."  only those (and untraced), e.g. "kernel-floor f2t-no-sample trace-cmd";
#                   also f2t-flight and f2t-flight-latency (record
#                   --flight-recorder=10, idle and with --trigger-latency=4000
#                   armed), which only VARIANTS runs
#   F2T=./ftrace2trace  F2T_OLD=  PINGPONG=build/tests/helpers/pingpong
set -u
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
ROUNDS=${ROUNDS:-200000}
NICE=${NICE:--20}
RUNS=${RUNS:-7}
MODES=${MODES:-pinned busy free}
F2T=${F2T:-$PWD/ftrace2trace}
F2T_OLD=${F2T_OLD:-}
PINGPONG=${PINGPONG:-$PWD/build/tests/helpers/pingpong}
SCHED_EVENTS=(sched_switch sched_waking sched_wakeup sched_wakeup_new
	      sched_process_fork sched_process_exec sched_process_exit)

die() { echo "bench-record: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (tracing)"
[ -x "$F2T" ] || die "$F2T not built (make)"
[ -x "$PINGPONG" ] || die "$PINGPONG not built (make tests)"
[ -z "$F2T_OLD" ] || [ -x "$F2T_OLD" ] || die "F2T_OLD=$F2T_OLD is not an executable"

TMP=$(mktemp -d /tmp/bench-record.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
load_line

# rate_of FILE N: the round trips/s the workload's N ping-pongs printed,
# summed, or nothing if not all N printed theirs
rate_of() { sed -n 's/^pingpong: .*(\([0-9]*\)\/s).*/\1/p' "$1" |
	    awk -v n="$2" '{ s += $1 } END { if (NR == n) print s }'; }
# cpu_of FILE: the recorder's CPU time while the workload ran, in % of one CPU
cpu_of() { sed -n 's/^recorder: \([0-9]*\) ticks in \([0-9.]*\) s$/\1 \2/p' "$1" |
	   awk -v hz="$(getconf CLK_TCK)" '$2 > 0 { printf "%.1f\n", 100 * $1 / hz / $2 }'; }

# The workload: work.sh PINGPONG ROUNDS CPU...: one ping-pong per CPU named
# ("-": placed by the scheduler), then the CPU time the recorder (its
# parent, all its threads) used while they ran.
cat >"$TMP/work.sh" <<'EOS'
#!/usr/bin/env bash
pp=$1 n=$2
shift 2
ticks() { cat /proc/"$PPID"/task/*/stat 2>/dev/null | awk '{ sub(/.*\) /, ""); t += $12 + $13 } END { print t + 0 }'; }
t0=$(ticks) s0=$EPOCHREALTIME
for c in "$@"; do
	if [ "$c" = - ]; then "$pp" "$n" & else taskset -c "$c" "$pp" "$n" & fi
done
wait
echo "recorder: $(($(ticks) - t0)) ticks in $(awk -v a="$s0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }') s"
EOS
chmod +x "$TMP/work.sh"

# trace-cmd 3.1.6 aborts when the kernel refuses its writes to
# ftrace_enabled and the function tracer's set_ftrace_* / set_graph_* files
# (kernel lockdown).  Those writes do nothing for sched events, so then it
# runs in a mount namespace of its own where those files are scratch files.
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events" ] || TRACEFS=/sys/kernel/debug/tracing
tc_shim=false
if v=$(cat /proc/sys/kernel/ftrace_enabled 2>/dev/null) &&
   ! (echo "$v" >/proc/sys/kernel/ftrace_enabled) 2>/dev/null; then
	command -v unshare >/dev/null || die "unshare needed to run trace-cmd on this kernel"
	tc_shim=true
	echo "$v" >"$TMP/ftrace_enabled"
	: >"$TMP/empty"
fi
# tc_run ARGS...: trace-cmd ARGS, through the shim when the kernel needs it
tc_run() {
	if ! $tc_shim; then
		timeout 120 nice -n "$NICE" trace-cmd "$@"
		return
	fi
	timeout 120 nice -n "$NICE" unshare -m sh -c '
		mount --make-rprivate / &&
		mount --bind "$1/ftrace_enabled" /proc/sys/kernel/ftrace_enabled || exit 125
		for f in "$2"/set_ftrace_* "$2"/set_graph_*; do
			[ ! -e "$f" ] || mount --bind "$1/empty" "$f" || exit 125
		done
		shift 2
		exec trace-cmd "$@"' sh "$TMP" "$TRACEFS" "$@"
}

# The floor's instance: made for each run, removed after it and at exit.
FLOOR_INST=$TRACEFS/instances/f2t-bench-floor-$$
floor_off() { [ ! -d "$FLOOR_INST" ] || rmdir "$FLOOR_INST" 2>/dev/null || true; }
trap 'floor_off; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
floor_on() {
	mkdir "$FLOOR_INST" || return 1
	echo mono >"$FLOOR_INST/trace_clock" || return 1
	for e in "${SCHED_EVENTS[@]}"; do
		echo 1 >"$FLOOR_INST/events/sched/$e/enable" || return 1
	done
}

declare -A rates failed lost rcpu
# f2t-no-sample, perf-sched and trace-cmd* record the same sched events;
# f2t, f2t-sample-all, f2t-old and perf-rec* sample.
variants=(untraced kernel-floor f2t f2t-sample-all f2t-no-sample perf-sched trace-cmd trace-cmd-mono
	  perf-rec perf-rec-clock perf-rec-a)
[ -n "$F2T_OLD" ] && variants=(untraced kernel-floor f2t f2t-old f2t-sample-all f2t-no-sample
			       perf-sched trace-cmd trace-cmd-mono perf-rec perf-rec-clock perf-rec-a)
[ -n "${VARIANTS:-}" ] && read -ra variants <<<"untraced $VARIANTS"

# run_variant NAME WORKLOAD...: one run, appends its rate or a failure reason
run_variant() {
	local v=$1; shift
	local out=$TMP/out err=$TMP/err rc n=(nice -n "$NICE")
	# The previous run's files are not written back during this one.
	sync
	case $v in
	perf-*) command -v perf >/dev/null || { failed[$v]="not installed"; return; } ;;
	trace-cmd*) command -v trace-cmd >/dev/null || { failed[$v]="not installed"; return; } ;;
	esac
	case $v in
	untraced) "${n[@]}" "$@" >"$out" 2>"$err" ;;
	kernel-floor)
		if floor_on 2>"$err"; then "${n[@]}" "$@" >"$out" 2>>"$err"; else false; fi
		rc=$?
		floor_off
		(exit $rc) ;;
	f2t) "${n[@]}" "$F2T" record -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	f2t-old) "${n[@]}" "$F2T_OLD" record -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	f2t-sample-all) "${n[@]}" "$F2T" record --sample-all -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	f2t-no-sample) "${n[@]}" "$F2T" record --no-sample -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	# The flight recorder armed (the stop writes the window), idle and with
	# its latency trigger at 4 ms, whose timer looks every millisecond, the
	# most often (a wait the host causes may cross it: a snapshot, and on):
	# only with VARIANTS.
	f2t-flight) "${n[@]}" "$F2T" record --flight-recorder=10 -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	f2t-flight-latency) "${n[@]}" "$F2T" record --flight-recorder=10 --trigger-latency=4000 \
		--max-snapshots=1000 -o "$TMP/x.fxt" -- "$@" >"$out" 2>"$err" ;;
	# -B: no build-id pass after the run (perf 6.1's crashed on some
	# machines); the workload has timed itself by then.
	perf-sched) "${n[@]}" perf sched record -B -o "$TMP/perf.data" -- "$@" >"$out" 2>"$err" ;;
	perf-rec) "${n[@]}" perf record -B -F 999 -g -o "$TMP/perf.data" -- "$@" >"$out" 2>"$err" ;;
	perf-rec-clock) "${n[@]}" perf record -B -F 999 -e cpu-clock -g -o "$TMP/perf.data" -- "$@" >"$out" 2>"$err" ;;
	perf-rec-a) "${n[@]}" perf record -B -F 999 -a -g -o "$TMP/perf.data" -- "$@" >"$out" 2>"$err" ;;
	trace-cmd*)
		local ev=()
		for e in "${SCHED_EVENTS[@]}"; do ev+=(-e "$e"); done
		[ "$v" = trace-cmd-mono ] && ev+=(-C mono)
		# A timeout keeps a hang or a crash from stalling the benchmark.
		tc_run record -o "$TMP/tc.dat" "${ev[@]}" -- "$@" >"$out" 2>"$err" ;;
	esac
	rc=$?
	local r
	r=$(rate_of "$out" "$npp")
	if [ "$rc" -ne 0 ] || [ -z "$r" ]; then
		local why
		why=$(grep -v '^\s*$' "$err" | tail -2 | tr '\n' ' ' | sed 's/  */ /g; s/ $//')
		[ "$rc" -gt 128 ] && why="killed by signal $((rc - 128)) ${why}"
		failed[$v]="exit $rc: ${why:-no output}"
		return
	fi
	rates[$v]+="$r "
	# trace-cmd's readers are processes of their own, not its threads
	case $v in f2t* | perf-*) rcpu[$v]+="$(cpu_of "$out") " ;; esac
	if [[ $v == f2t* ]]; then
		local l
		# Summed over the snapshots an armed flight recorder may write.
		l=$(sed -n 's/.*captured from .* CPUs, \([0-9]*\) events lost.*/\1/p' "$err" |
			awk '{ n += $1 } END { if (NR) print n }')
		lost[$v]+="${l:-?} "
	fi
	rm -f "$TMP/x.fxt" "$TMP"/x-*.fxt "$TMP/perf.data" "$TMP/tc.dat"
}

for mode in $MODES; do
	case $mode in
	pinned) cpus=(0); what="one ping-pong pinned to CPU 0" ;;
	busy) mapfile -t cpus < <(seq 0 $(($(nproc) - 1)))
	      what="one ping-pong pinned to each CPU, round trips/s summed" ;;
	free) cpus=(-); what="one ping-pong placed by the scheduler" ;;
	*) die "unknown mode $mode" ;;
	esac
	command -v taskset >/dev/null || [ "$mode" = free ] || die "taskset needed for $mode mode"
	work=("$TMP/work.sh" "$PINGPONG" "$ROUNDS" "${cpus[@]}")
	npp=${#cpus[@]}
	rates=() failed=() lost=() rcpu=()
	echo "== $ROUNDS round trips, $RUNS alternating rounds, $what, nice $NICE ($(nproc) CPUs, $(uname -r))"
	load_line
	pmu_line
	$tc_shim && echo "trace-cmd: run with its ftrace_enabled/set_ftrace_*/set_graph_* writes made harmless (the kernel refuses them)"
	for ((i = 1; i <= RUNS; i++)); do
		for v in "${variants[@]}"; do
			[ -n "${failed[$v]:-}" ] && continue
			run_variant "$v" "${work[@]}"
		done
		echo "   round $i/$RUNS done" >&2
	done
	base=$(median ${rates[untraced]:-})
	declare -A ratio=()
	printf '%-15s %12s %12s %13s  %s\n' variant "median rt/s" "vs untraced" "recorder CPU" "runs (rt/s)"
	for v in "${variants[@]}"; do
		if [ -n "${failed[$v]:-}" ]; then
			printf '%-15s %s\n' "$v" "failed (${failed[$v]})"
			continue
		fi
		m=$(median ${rates[$v]})
		ratio[$v]=$(awk -v m="$m" -v b="${base:-0}" 'BEGIN { if (b > 0) printf "%.2f", m / b; else print "-" }')
		c=-
		[ -z "${rcpu[$v]:-}" ] || c="$(printf '%s\n' ${rcpu[$v]} | fmedian)%"
		printf '%-15s %12s %12s %13s  %s\n' "$v" "$m" "${ratio[$v]}" "$c" "${rates[$v]}"
	done
	for v in "${variants[@]}"; do
		[[ $v == f2t* ]] && printf '%-15s events lost per run: %s\n' "$v" "${lost[$v]:-none recorded}"
	done
	# Each variant against f2t (`record`) in the same round, the median and
	# range of those ratios: the host's speed drifts between rounds more
	# than within one.
	for v in "${variants[@]}"; do
		[ "$v" = f2t ] || [ "$v" = untraced ] || [ -n "${failed[$v]:-}" ] && continue
		read -r m lo hi < <(paired_ratios "${rates[$v]:-}" "${rates[f2t]:-}")
		[ -n "${m:-}" ] && printf '%-15s against f2t round by round: median %s, from %s to %s\n' \
			"$v" "$m" "$lo" "$hi"
	done
	if [ -n "${ratio[f2t]:-}" ] && [ -n "${ratio[f2t-no-sample]:-}" ]; then
		awk -v d="${ratio[f2t]}" -v n="${ratio[f2t-no-sample]}" 'BEGIN {
			p = (n - d) * 100; printf "goal: the default costs %.0f points more than --no-sample (at most 10: %s)\n", p, (p <= 10 ? "met" : "missed") }'
	fi
	best=
	for v in perf-sched trace-cmd trace-cmd-mono; do
		[ -n "${ratio[$v]:-}" ] || continue
		[ -z "$best" ] || awk -v a="${ratio[$v]}" -v b="${ratio[$best]}" 'BEGIN { exit !(a > b) }' && best=$v
	done
	if [ -n "$best" ] && [ -n "${ratio[f2t-no-sample]:-}" ]; then
		awk -v n="${ratio[f2t-no-sample]}" -v b="${ratio[$best]}" -v who="$best" 'BEGIN {
			printf "goal: --no-sample %.2f vs the best peer recording the same events, %s, %.2f (at or above: %s)\n", n, who, b, (n >= b ? "met" : "missed") }'
	fi
	for v in f2t-no-sample trace-cmd-mono trace-cmd; do
		[ -n "${ratio[kernel-floor]:-}" ] && [ -n "${ratio[$v]:-}" ] || continue
		awk -v n="${ratio[$v]}" -v f="${ratio[kernel-floor]}" -v who="$v" 'BEGIN {
			printf "floor: %s %.2f vs the tracepoints alone, no reader, %.2f (%.0f%% of the floor'"'"'s speed)\n", who, n, f, 100 * n / f }'
	done
	if [ -n "${ratio[trace-cmd-mono]:-}" ] && [ -n "${ratio[f2t-no-sample]:-}" ]; then
		awk -v n="${ratio[f2t-no-sample]}" -v b="${ratio[trace-cmd-mono]}" 'BEGIN {
			printf "      on the same clock (mono): --no-sample %.2f vs trace-cmd -C mono %.2f (%s)\n", n, b, (n >= b ? "at or above" : "below") }'
	fi
	spread=$(printf '%s\n' ${rates[untraced]:-} | sort -n |
		 awk 'NR == 1 {lo = $1} {hi = $1} END { if (lo > 0) printf "%.1f", hi / lo }')
	if awk -v s="${spread:-0}" 'BEGIN { exit !(s > 2) }'; then
		if [ "$mode" = free ]; then
			echo "note: untraced runs differ ${spread}x (both threads on one CPU vs on two,"
			echo "      where every wake-up is a cross-CPU interrupt): medians in this mode"
			echo "      measure placement luck more than tracing cost; compare the pinned figures"
		else
			echo "note: untraced runs differ ${spread}x with the workload pinned: something"
			echo "      else ran on this machine; trust only large differences"
		fi
	fi
	echo
done
