#!/usr/bin/env bash
# Off-CPU recording cost: the ping-pong workload (two threads bouncing a
# byte over pipes, pinned to one CPU: about one off-CPU episode a round
# trip, as the woken thread mostly preempts its waker, which then finds its
# byte without blocking; a switch and a wakeup every few microseconds, the
# worst case) run untraced, under
# `ftrace2trace record --no-sample`, `record`, `record --off-cpu` of the
# reference binary (REF) and of this one, this one without the waker's
# stacks (off-cpu-nw: the test hook F2T_TEST_OFFCPU_WAKER_STACKS=0, the
# waker's tid only; what taking them costs), with the programs attached but
# returning at once (off-cpu-bare, F2T_TEST_OFFCPU_BARE=1: the floor under
# any design that runs a program at each switch and waking), and
# `perf record -a -g -e sched:sched_switch` (perf's way to get the stacks
# threads switch out with), in alternating rounds, pinned to CPU 0, each
# whole command (recorder and workload) at nice NICE (-20: the machine's
# other work, a nice-19 fuzzer and builds, takes little of CPU 0 from it).
#
# Prints the median round trips/s of each, its ratio to untraced, its
# cost (1 - ratio: the share of the workload's speed it takes) and its
# added time (1 / ratio - 1: the time it adds to a round trip, against an
# untraced one's; issue 31 measured the goal this way), and the off-CPU
# goal, whole cost against whole cost: `record --off-cpu`'s against perf's,
# at most a third, by both measures; and the episodes' own cost, `--off-cpu`'s
# time added less `record`'s, against perf's (perf records stacks at switches
# and nothing else).  The same from the workload's own CPU time per
# round trip (user + system, /usr/bin/time), which the machine's other load
# disturbs less than the rate: the tracing done in its context (the
# tracepoints, the BPF programs, perf's stack walks) is in it, the
# recorder's reading on the other CPU is not; with the workload's
# voluntary and involuntary context switches per round trip (tracing
# changes how often the woken thread preempts its waker, so the variants
# do not do quite the same work: compare the switches with the rates).
# What each records: `record` the sched events and 999 Hz samples;
# `record --off-cpu` the same and the off-CPU episodes; perf a stack per
# switch only.  So `record --no-sample`'s cost is a floor under
# `--off-cpu`'s, and the script says what share of perf's it is already.
# Then what an episode costs, part by part: the BPF programs' run time
# (kernel.bpf_stats_enabled: run_time_ns / run_cnt) with the default user
# stack copy (to the frame pointer's frame, 128 bytes here), none, 512
# bytes and 8 KB (--call-graph dwarf's), with a reused site's kernel stack
# checked by a copy (as on kernels before 6.2) rather than by direct
# reads, with every site walked (what the stack walks cost), without the
# waker's stacks and without handing episodes to the ring (its cost); the
# ring's bytes per episode in the capture; the recorder's CPU time while
# recording (the reader), per episode.
#
# usage: sudo scripts/bench-offcpu.sh
# environment: ROUNDS=100000 RUNS=7 NICE=-20 F2T=./ftrace2trace
#              REF=/path/to/an/older/ftrace2trace  (default: none, not run)
#              PINGPONG=build/tests/helpers/pingpong
set -u
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-100000}
RUNS=${RUNS:-7}
NICE=${NICE:--20}
F2T=${F2T:-$PWD/ftrace2trace}
REF=${REF:-}
PINGPONG=${PINGPONG:-$PWD/build/tests/helpers/pingpong}

die() { echo "bench-offcpu: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (tracing, BPF)"
[ -x "$F2T" ] || die "$F2T not built (make)"
[ -x "$PINGPONG" ] || die "$PINGPONG not built (make tests)"
[ -z "$REF" ] || [ -x "$REF" ] || die "REF=$REF is not an executable"
command -v taskset >/dev/null || die "taskset (util-linux) needed"
command -v python3 >/dev/null || die "python3 needed"
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) needed"

TMP=$(mktemp -d /tmp/bench-offcpu.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

. scripts/bench-lib.bash	# median, alternate
rate_of() { sed -n 's/^pingpong: .*(\([0-9]*\)\/s).*/\1/p' "$1" | tail -1; }

# "EPISODES DATA_BYTES STACK_BYTES" of a capture's off-CPU records
# (capture/capture.h: 16-byte header, then {u32 type, u32 arg, u64 len}
# records padded to 8; OFFCPU_DATA 15, OFFCPU_INFO 14, OFFCPU_STACKS 16).
offcpu_bytes() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, data, stacks, episodes, size = 16, 0, 0, 0, 56
while off + 16 <= len(d):
    t, a, n = struct.unpack_from("<IIQ", d, off)
    if t == 0xffff:
        break
    body = d[off + 16:off + 16 + n]
    if t == 14 and a == 0:
        for kv in body.decode(errors="replace").split("\n"):
            if kv.startswith("record_size="):
                size = int(kv.split("=")[1])
    if t == 15:
        data += 16 + ((n + 7) & ~7)
        p = 0
        while p + size <= n:
            copy = struct.unpack_from("<I", body, p + 80)[0] if size >= 88 else 0
            p += size + ((copy + 7) & ~7)
            episodes += 1
    elif t in (14, 16):
        stacks += 16 + ((n + 7) & ~7)
    off += 16 + ((n + 7) & ~7)
print("%d %d %d" % (episodes, data, stacks))
PY
}

declare -A rates cpus vols invs failed
variants=(untraced no-sample record off-cpu-bare off-cpu off-cpu-nw perf)
[ -z "$REF" ] || variants=(untraced no-sample record off-cpu-bare off-cpu-ref off-cpu off-cpu-nw perf)
work=(/usr/bin/time -o "$TMP/cpu" -f "%U %S %w %c" taskset -c 0 "$PINGPONG" "$ROUNDS")
declare -A bytes_line

run_variant() {
	local v=$1 out=$TMP/out err=$TMP/err rc r n=(nice -n "$NICE")
	rm -f "$TMP/cpu"
	case $v in
	untraced) "${n[@]}" "${work[@]}" >"$out" 2>"$err" ;;
	no-sample) "${n[@]}" "$F2T" record --no-sample -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	record) "${n[@]}" "$F2T" record -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	off-cpu) "${n[@]}" "$F2T" record --off-cpu -k "$TMP/x.cap" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	off-cpu-nw) F2T_TEST_OFFCPU_WAKER_STACKS=0 "${n[@]}" "$F2T" record --off-cpu -k "$TMP/x.cap" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	off-cpu-bare) F2T_TEST_OFFCPU_BARE=1 "${n[@]}" "$F2T" record --off-cpu -k "$TMP/x.cap" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	off-cpu-ref) "${n[@]}" "$REF" record --off-cpu -k "$TMP/x.cap" -o "$TMP/x.fxt" -- "${work[@]}" >"$out" 2>"$err" ;;
	perf)
		command -v perf >/dev/null || { failed[$v]="not installed"; return; }
		"${n[@]}" perf record -q -a -g -e sched:sched_switch -o "$TMP/perf.data" -- "${work[@]}" >"$out" 2>"$err" ;;
	esac
	rc=$?
	r=$(rate_of "$out")
	if [ "$rc" -ne 0 ] || [ -z "$r" ]; then
		failed[$v]="exit $rc: $(grep -v '^\s*$' "$err" | tail -2 | tr '\n' ' ')"
		return
	fi
	rates[$v]+="$r "
	cpus[$v]+="$(awk '{ printf "%.0f", ($1 + $2) * 1e9 / '"$ROUNDS"' }' "$TMP/cpu") "
	vols[$v]+="$(awk '{ printf "%.0f", $3 * 1000 / '"$ROUNDS"' }' "$TMP/cpu") "
	invs[$v]+="$(awk '{ printf "%.0f", $4 * 1000 / '"$ROUNDS"' }' "$TMP/cpu") "
	case $v in
	off-cpu-bare) ;;
	off-cpu*)
		grep -Eq "0 lost \(ring buffer full\), 0 lost \((no task storage for the thread|blocked-task map full)\)" "$err" ||
			echo "   $v run lost episodes: $(grep 'off-CPU episodes of' "$err")" >&2
		[ -n "${bytes_line[$v]:-}" ] || bytes_line[$v]=$(offcpu_bytes "$TMP/x.cap") ;;
	esac
	rm -f "$TMP/x.fxt" "$TMP/x.cap" "$TMP/perf.data"
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), load average $load at start"
echo "== $ROUNDS round trips, $RUNS alternating rounds, the workload pinned to CPU 0, nice $NICE"
alternate "$RUNS" "${variants[@]}"
base=$(median ${rates[untraced]:-})
declare -A cost added
printf '%-12s %12s %7s %7s %7s  %s\n' variant "median rt/s" ratio cost added "runs (rt/s)"
for v in "${variants[@]}"; do
	if [ -n "${failed[$v]:-}" ]; then
		printf '%-12s %s\n' "$v" "failed (${failed[$v]})"
		continue
	fi
	m=$(median ${rates[$v]})
	cost[$v]=$(awk -v m="$m" -v b="${base:-0}" 'BEGIN { printf "%.3f", (b > 0 ? 1 - m / b : 0) }')
	added[$v]=$(awk -v m="$m" -v b="${base:-0}" 'BEGIN { printf "%.3f", (m > 0 ? b / m - 1 : 0) }')
	awk -v v="$v" -v m="$m" -v b="${base:-0}" -v c="${cost[$v]}" -v a="${added[$v]}" -v runs="${rates[$v]}" \
		'BEGIN { printf "%-12s %12d %7.3f %7s %7s  %s\n", v, m, (b > 0 ? m / b : 0), c, a, runs }'
done
[ -n "${cost[no-sample]:-}" ] && [ -n "${cost[perf]:-}" ] &&
	awk -v f="${cost[no-sample]}" -v p="${cost[perf]}" 'BEGIN {
		printf "floor: record --no-sample (the sched events alone, which --off-cpu records too) costs %.3f, %.2f of perf'"'"'s whole\n", f, (p > 0 ? f / p : 0) }'
[ -n "${added[no-sample]:-}" ] && [ -n "${added[perf]:-}" ] &&
	awk -v f="${added[no-sample]}" -v p="${added[perf]}" 'BEGIN {
		printf "floor by added time: record --no-sample adds %.3f, %.2f of what perf adds\n", f, (p > 0 ? f / p : 0) }'
[ -n "${added[off-cpu-bare]:-}" ] && [ -n "${added[perf]:-}" ] &&
	awk -v f="${added[off-cpu-bare]}" -v r="${added[record]:-0}" -v p="${added[perf]}" -v rt="${base:-0}" 'BEGIN {
		us = (rt > 0 ? 1e6 / rt : 0)
		printf "floor for --off-cpu by added time: record with the off-CPU programs attached but returning at once (off-cpu-bare) adds %.3f, %.2f of what perf adds;\n", f, (p > 0 ? f / p : 0)
		printf "  a third of perf leaves %.2f us a round trip over record (%.3f of a round trip) for all of --off-cpu'"'"'s work, the bare programs'"'"' run included (the rates cannot tell it: see its BPF time below)\n", (p / 3 - r) * us, p / 3 - r }'
for v in off-cpu-ref off-cpu off-cpu-nw; do
	[ -n "${cost[$v]:-}" ] && [ -n "${cost[perf]:-}" ] || continue
	awk -v v="$v" -v o="${cost[$v]}" -v p="${cost[perf]}" -v r="${cost[record]:-0}" 'BEGIN {
		printf "%s: whole cost %.3f against perf'"'"'s whole %.3f: %.2f (goal: at most 0.33); its increment over record %.3f\n", v, o, p, (p > 0 ? o / p : 0), o - r }'
	awk -v v="$v" -v o="${added[$v]}" -v p="${added[perf]}" 'BEGIN {
		printf "%s by added time: %.3f of a round trip against perf'"'"'s %.3f: %.2f (goal: at most 0.33)\n", v, o, p, (p > 0 ? o / p : 0) }'
	awk -v v="$v" -v o="${added[$v]}" -v r="${added[record]:-0}" -v p="${added[perf]}" 'BEGIN {
		printf "%s, the off-CPU episodes alone (its time added less record'"'"'s, against perf'"'"'s stacks at switches): %.3f against %.3f: %.2f\n", v, o - r, p, (p > 0 ? (o - r) / p : 0) }'
done
cbase=$(median ${cpus[untraced]:-})
declare -A ccost
printf '%-12s %12s %7s  %s\n' variant "ns CPU/rt" cost "runs (ns of the workload's CPU per round trip)"
for v in "${variants[@]}"; do
	[ -z "${failed[$v]:-}" ] || continue
	m=$(median ${cpus[$v]})
	ccost[$v]=$(awk -v m="$m" -v b="${cbase:-0}" 'BEGIN { printf "%.3f", (m > 0 ? 1 - b / m : 0) }')
	printf '%-12s %12s %7s  %s\n' "$v" "$m" "${ccost[$v]}" "${cpus[$v]}"
done
printf '%-12s %12s %12s\n' variant voluntary involuntary
for v in "${variants[@]}"; do
	[ -z "${failed[$v]:-}" ] || continue
	awk -v v="$v" -v a="$(median ${vols[$v]})" -v b="$(median ${invs[$v]})" 'BEGIN {
		printf "%-12s %12.3f %12.3f  switches of the workload per round trip\n", v, a / 1000, b / 1000 }'
done
for v in off-cpu-ref off-cpu off-cpu-nw; do
	[ -n "${ccost[$v]:-}" ] && [ -n "${ccost[perf]:-}" ] || continue
	awk -v v="$v" -v o="${ccost[$v]}" -v p="${ccost[perf]}" 'BEGIN {
		printf "%s by CPU time: whole cost %.3f against perf'"'"'s whole %.3f: %.2f (goal: at most 0.33)\n", v, o, p, (p > 0 ? o / p : 0) }'
done
for v in off-cpu-ref off-cpu off-cpu-nw; do
	[ -n "${bytes_line[$v]:-}" ] || continue
	read -r n data stacks <<<"${bytes_line[$v]}"
	awk -v v="$v" -v n="$n" -v d="$data" -v s="$stacks" 'BEGIN {
		if (n > 0) printf "%s capture: %d episodes (%.2f per round trip), %.1f bytes of episode records each, %.2f of stacks and info\n", v, n, n / '"$ROUNDS"', d / n, s / n }'
done

# Where an episode's time goes, in one longer run per case, read while the
# programs are loaded: the kernel's own per-program run time (bpf_stats),
# and the recorder's CPU time until the workload ends (the ring's reader).
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$BPFTOOL" ] && [ -w /proc/sys/kernel/bpf_stats_enabled ] || {
	echo "note: bpftool or kernel.bpf_stats_enabled missing: no per-part costs"
	exit 0
}
old=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
trap 'echo "$old" >/proc/sys/kernel/bpf_stats_enabled; rm -rf "$TMP"' EXIT
ticks=$(getconf CLK_TCK)
# part LABEL BIN [ENV=VALUE...] -- RECORD ARGS: one run of 4 x ROUNDS.
part() {
	local label=$1 bin=$2 out=$TMP/pout pid cpu
	shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	: >"$out"
	env "${envs[@]}" nice -n "$NICE" "$bin" record -q "$@" -o "$TMP/p.fxt" -- taskset -c 0 "$PINGPONG" $((ROUNDS * 4)) >"$out" 2>/dev/null &
	pid=$!
	sleep 1
	"$BPFTOOL" -j prog show 2>/dev/null >"$TMP/progs.json"
	while kill -0 "$pid" 2>/dev/null && ! grep -q '^pingpong:' "$out"; do sleep 0.01; done
	cpu=$(awk -v t="$ticks" '{ printf "%.0f", ($14 + $15) * 1000 / t }' /proc/$pid/stat 2>/dev/null)
	wait "$pid"
	python3 - "$TMP/progs.json" "$label" "${cpu:-0}" "$((ROUNDS * 4))" <<'PY'
import json, sys
progs = json.load(open(sys.argv[1]))
parts, total, switches = [], 0, 0
for p in progs:
    if p.get("name", "").startswith("offcpu_") and p.get("run_cnt"):
        parts.append("%s %.0f ns x %d" % (p["name"][7:], p["run_time_ns"] / p["run_cnt"], p["run_cnt"]))
        total += p["run_time_ns"]
        if p["name"].startswith("offcpu_switch"):
            switches = p["run_cnt"]
# Two switches a round trip (the table above): the programs' time per round trip.
per_rt = "; BPF %.2f us per round trip: " % (total / 1000 / (switches / 2)) if switches else ""
print("%-28s reader %5s ms, %.2f us per round trip%s%s" % (
    sys.argv[2], sys.argv[3], int(sys.argv[3]) * 1000 / int(sys.argv[4]), per_rt, ", ".join(parts)))
PY
}
echo "per part, one run of $((ROUNDS * 4)) round trips each: the recorder's CPU until the workload ended (the reader), the BPF programs' run time in its first second:"
part "record" "$F2T" -- 
part "record --off-cpu" "$F2T" -- --off-cpu
part "  with no user stack copy" "$F2T" F2T_TEST_OFFCPU_USTACK=0 -- --off-cpu
part "  with a 512-byte copy" "$F2T" F2T_TEST_OFFCPU_USTACK=512 -- --off-cpu
part "  with an 8 KB copy" "$F2T" F2T_TEST_OFFCPU_USTACK=8192 -- --off-cpu
part "  kernel stack check by copy" "$F2T" F2T_TEST_OFFCPU_STACK_COPY=1 -- --off-cpu
part "  every site walked" "$F2T" F2T_TEST_OFFCPU_RECHECK=1 -- --off-cpu
part "  without the waker's stacks" "$F2T" F2T_TEST_OFFCPU_WAKER_STACKS=0 -- --off-cpu
part "  without the ring output" "$F2T" F2T_TEST_OFFCPU_RING=0 -- --off-cpu
part "  bare (programs return at once)" "$F2T" F2T_TEST_OFFCPU_BARE=1 -- --off-cpu
[ -z "$REF" ] || part "REF record --off-cpu" "$REF" -- --off-cpu
echo "note: a shared, noisy VM: compare the ratios of one run, not figures across runs"
