#!/usr/bin/env bash
# Conversion benchmark, like for like: every tool on recordings of the same
# run (the ping-pong pinned to CPU 0: our capture, trace-cmd's trace.dat
# and perf's perf.data all recorded at once, so the same events), of about
# 1 M and 10 M events; binary outputs set against binary, text against
# text, each said; outputs on a tmpfs; CPU time (user + system) on one
# core.  The floor is scripts/bench-floor.c: libtraceevent's kbuffer walk of
# the capture reading each event's numeric fields, and nothing more.
# Rounds alternate the variants; each figure is the median of RUNS, each
# ratio the median of the per-round ratios to the floor (or to trace-cmd
# report).  Prints figures (a Markdown table per size); asserts nothing.
#
# usage: sudo scripts/bench-convert.sh record DIR   record the inputs into DIR
#        scripts/bench-convert.sh time DIR          time the conversions of them
#        sudo scripts/bench-convert.sh              both, in a temporary DIR
# Recording takes a minute (10 M events); a machine shared with other
# recorders should serialize it with theirs.
# environment: RUNS=7 SIZES="1M 10M" CPU=1 (the core conversions run on)
#              OLD=path/to/ftrace2trace (an earlier build, timed too)
#              OUT=DIR (outputs there instead of a directory on /dev/shm)
#              SKIP="tc-report perf-script ..." (variants left out, said in
#              the figures: the peers' text takes minutes a round at 10 M)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.bash
RUNS=${RUNS:-7}
SIZES=${SIZES:-1M 10M}
F2T=${F2T:-$PWD/ftrace2trace}
PP=$PWD/build/tests/helpers/pingpong
SCHED=(sched_switch sched_waking sched_wakeup sched_wakeup_new sched_process_fork
       sched_process_exec sched_process_exit)
die() { echo "bench-convert: $*" >&2; exit 1; }

# The ping-pong makes about 4.25 events per round trip pinned to one CPU.
round_trips() { case $1 in 1M) echo 235000 ;; 10M) echo 2350000 ;; *) die "size $1: 1M or 10M" ;; esac; }

# record_inputs DIR: for each size, one run of the ping-pong recorded by
# ftrace2trace (DIR/S.cap, no samples), trace-cmd (DIR/S.dat, -C mono, the
# same sched events, uncompressed) and perf (DIR/S.perf.data, the same
# tracepoints, system-wide), the three nested.
record_inputs() {
	local d=$1 s pe=() te=()
	[ "$(id -u)" -eq 0 ] || die "recording needs root"
	command -v trace-cmd >/dev/null || die "needs trace-cmd"
	command -v perf >/dev/null || die "needs perf"
	make -s ftrace2trace build/tests/helpers/pingpong
	for e in "${SCHED[@]}"; do pe+=(-e "sched:$e"); te+=(-e "$e"); done
	mkdir -p "$d"
	for s in $SIZES; do
		"$F2T" record -q --no-sample -k "$d/$s.cap" -o "$d/$s.rec.fxt" -- \
			tests/helpers/trace_cmd_record.sh --compression none -B "f2t-bench-$$" -C mono \
			"${te[@]}" -b 65536 -o "$d/$s.dat" -- \
			perf record -q -a -m 16M "${pe[@]}" -o "$d/$s.perf.data" -- \
			taskset -c 0 "$PP" "$(round_trips "$s")" >"$d/$s.log" 2>&1 ||
			{ cat "$d/$s.log" >&2; die "recording $s failed"; }
		rm -f "$d/$s.rec.fxt"
		echo "$s: recorded $(ls -s --block-size=M "$d/$s.cap" "$d/$s.dat" "$d/$s.perf.data" | tr '\n' ' ')"
	done
}

# The records each tool says its input holds: ours as convert counts them,
# trace-cmd's and perf's as the lines they print.
count_events() { # KIND FILE
	case $1 in
	cap) "$F2T" convert "$2" -o "$O/count.fxt" 2>&1 |
		sed -n 's/^ftrace2trace: decoded \([0-9]*\) ring-buffer records.*/\1/p' ;;
	dat) trace-cmd report "$2" 2>/dev/null | grep -c ': sched_' ;;
	perf) perf script -i "$2" 2>/dev/null | wc -l ;;
	esac
}

# wanted VARIANT...: is any of them timed (not in SKIP)?
wanted() {
	local v
	for v in "$@"; do [[ " ${SKIP:-} " == *" $v "* ]] || return 0; done
	return 1
}

time_inputs() {
	local d=$1 s v r
	[ -x "$F2T" ] || die "$F2T not built (make)"
	O=$(out_dir f2t-bench-convert)
	CLEAN+=" $O"
	build_harness bench-floor.c "$O/floor"
	echo "== conversion of the ping-pong, CPU time on CPU $CPU, $RUNS alternating rounds, outputs on $O"
	load_line
	for s in $SIZES; do
		[ -s "$d/$s.cap" ] || die "$d/$s.cap missing: record first"
		local -A n=() cpu=() rss=() ratio=() what=() kind=()
		n[cap]=$(count_events cap "$d/$s.cap")
		[ -s "$d/$s.dat" ] && wanted dat-pftrace dat-txt tc-report &&
			n[dat]=$(count_events dat "$d/$s.dat")
		[ -s "$d/$s.perf.data" ] && wanted perf-script &&
			n[perf]=$(count_events perf "$d/$s.perf.data")
		local vs=(floor source pftrace fxt json txt)
		what[floor]="floor: kbuffer walk + numeric fields (libtraceevent)"; kind[floor]="none"
		what[source]="our source alone: decode + merge by time"; kind[source]="none"
		what[pftrace]="ftrace2trace convert capture -> .pftrace"; kind[pftrace]=binary
		what[fxt]="ftrace2trace convert capture -> .fxt"; kind[fxt]=binary
		what[json]="ftrace2trace convert capture -> .json"; kind[json]=text
		what[txt]="ftrace2trace convert capture -> .txt"; kind[txt]=text
		if [ -n "${OLD:-}" ]; then
			vs+=(old-pftrace old-fxt)
			what[old-pftrace]="OLD convert capture -> .pftrace"; kind[old-pftrace]=binary
			what[old-fxt]="OLD convert capture -> .fxt"; kind[old-fxt]=binary
		fi
		if [ -n "${n[dat]:-}" ]; then
			vs+=(dat-pftrace dat-txt tc-report)
			what[dat-pftrace]="ftrace2trace convert trace.dat -> .pftrace"; kind[dat-pftrace]=binary
			what[dat-txt]="ftrace2trace convert trace.dat -> .txt"; kind[dat-txt]=text
			what[tc-report]="trace-cmd report trace.dat"; kind[tc-report]=text
		fi
		if [ -n "${n[perf]:-}" ]; then
			vs+=(perf-script)
			what[perf-script]="perf script perf.data"; kind[perf-script]=text
		fi
		local kept=() v2
		for v2 in "${vs[@]}"; do
			case " ${SKIP:-} " in *" $v2 "*) ;; *) kept+=("$v2") ;; esac
		done
		vs=("${kept[@]}")
		for ((r = 1; r <= RUNS; r++)); do
			local floor_cpu=
			for v in "${vs[@]}"; do
				rm -f "$O"/out.*
				case $v in
				floor) set -- "$O/floor" "$d/$s.cap" ;;
				source) set -- "$O/floor" --source "$d/$s.cap" ;;
				pftrace | fxt | json | txt) set -- "$F2T" convert -q "$d/$s.cap" -o "$O/out.$v" ;;
				old-*) set -- "$OLD" convert -q "$d/$s.cap" -o "$O/out.${v#old-}" ;;
				dat-*) set -- "$F2T" convert -q "$d/$s.dat" -o "$O/out.${v#dat-}" ;;
				tc-report) set -- trace-cmd report "$d/$s.dat" ;;
				perf-script) set -- perf script -i "$d/$s.perf.data" ;;
				esac
				read -r c m < <(cpu_timed "$O/out.stdout" "$@")
				cpu[$v]+="$c " rss[$v]+="$m "
				[ "$v" = floor ] && floor_cpu=$c
				ratio[$v]+="$(awk -v a="$c" -v b="$floor_cpu" 'BEGIN { print a / b }') "
			done
			echo "   $s round $r/$RUNS done" >&2
		done
		rm -f "$O"/out.*
		echo
		echo "$s: capture ${n[cap]} records; trace.dat ${n[dat]:-(none)}; perf.data ${n[perf]:-(none)} (each as its own tool counts them)"
		[ -z "${SKIP:-}" ] || echo "$s: left out (SKIP): $SKIP"
		echo
		echo "| $s events | output | M events/s (CPU) | CPU time vs the floor | peak RSS |"
		echo "| --- | --- | --- | --- | --- |"
		for v in "${vs[@]}"; do
			local ev=${n[cap]} c m q
			case $v in dat-* | tc-report) ev=${n[dat]} ;; perf-script) ev=${n[perf]} ;; esac
			c=$(printf '%s\n' ${cpu[$v]} | fmedian)
			m=$(printf '%s\n' ${rss[$v]} | fmedian)
			q=$(printf '%s\n' ${ratio[$v]} | fmedian)
			printf '| %s | %s | %.2f | %.2fx | %.0f MB |\n' "${what[$v]}" "${kind[$v]}" \
				"$(awk -v e="$ev" -v c="$c" 'BEGIN { print e / c / 1e6 }')" "$q" \
				"$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
		done
		for v in pftrace fxt; do
			[ -n "${OLD:-}" ] || break
			paste -d' ' <(printf '%s\n' ${cpu[$v]}) <(printf '%s\n' ${cpu[old-$v]}) |
				awk '{ print $1 / $2 }' | fmedian |
				xargs printf 'this build / OLD, .%s: %.3f (median of the rounds'"'"' CPU time ratios)\n' "$v"
		done
		echo
		echo "CPU seconds per run:"
		for v in "${vs[@]}"; do printf '  %-12s %s\n' "$v" "${cpu[$v]}"; done
	done
	echo "The floor's peak RSS counts the whole capture, mapped and never released."
	load_line
}

CPU=${CPU:-1}
CLEAN=
# shellcheck disable=SC2086  # the directories made, one a word
trap 'rm -rf $CLEAN' EXIT
case ${1:-} in
record) record_inputs "${2:?usage: $0 record DIR}" ;;
time) time_inputs "${2:?usage: $0 time DIR}" ;;
'')
	D=$(mktemp -d /tmp/f2t-bench-convert.XXXXXX)
	CLEAN+=" $D"
	record_inputs "$D"
	time_inputs "$D"
	;;
*) die "usage: $0 [record DIR | time DIR]" ;;
esac
