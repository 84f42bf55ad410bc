# Sourced by the scripts/bench-*.sh: medians, the machine, timing, tmpfs outputs, harnesses.

# median N...: the median of integers (the mean of the middle two if even)
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {
	if (NR == 0) exit; if (NR % 2) print v[(NR+1)/2]; else printf "%d\n", (v[NR/2]+v[NR/2+1])/2 }'; }

# pmu_line: which sampling event this machine has, for the figures' header.
# Sampling costs differ in kind: a hardware event bound to a task is
# reprogrammed at each of its context switches (a hypervisor trap in a VM),
# a software clock is not a PMU event at all.
pmu_line() {
	local out
	if command -v perf >/dev/null; then
		out=$(perf stat -x, -e cycles true 2>&1 >/dev/null | grep ',cycles' | head -1)
		case $out in
		[0-9]*) echo "PMU: cycles (a hardware PMU: perf stat counted $(echo "$out" | cut -d, -f1) cycles of true)" ;;
		*) echo "PMU: software only (perf stat -e cycles: ${out%%,*}); samples are cpu-clock" ;;
		esac
	elif ls /sys/bus/event_source/devices 2>/dev/null | grep -Eq '^(cpu|cpu_core|armv.*)$'; then
		echo "PMU: cycles (a CPU PMU is registered in /sys/bus/event_source/devices)"
	else
		echo "PMU: software only (no CPU PMU in /sys/bus/event_source/devices)"
	fi
}

# fmedian: the median of the numbers on standard input (decimals too)
fmedian() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# paired_ratios "A..." "B...": each A over the B of the same round, then the
# median, least and most of those ratios ("MEDIAN MIN MAX"); nothing when
# the rounds do not pair up.  The host's speed drifts between rounds more
# than within one.
paired_ratios() {
	local -a a b
	read -ra a <<<"$1"
	read -ra b <<<"$2"
	[ ${#a[@]} -gt 0 ] && [ ${#a[@]} = ${#b[@]} ] || return 0
	for i in "${!a[@]}"; do echo "${a[$i]} ${b[$i]}"; done | awk '{ print $1 / $2 }' | sort -g |
		awk '{ r[NR] = $1 } END { printf "%.3f %.3f %.3f\n",
			(NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2, r[1], r[NR] }'
}

# load_line: the machine's load, for the figures' header: on a shared
# machine only ratios measured in the same run mean much.
load_line() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"; }

# out_dir PREFIX: a new directory for outputs on a tmpfs (OUT=DIR chooses
# another): written to a disk, a conversion's time is the disk's write-back
# (a 1 GB output took 3.9 s in one run and 8.4 s in the next), and the
# smaller output looks the faster.
out_dir() {
	if [ -n "${OUT:-}" ]; then
		mktemp -d "$OUT/$1.XXXXXX"
	elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		mktemp -d "/dev/shm/$1.XXXXXX"
	else
		echo "bench: no tmpfs at /dev/shm: outputs go to $(dirname "$(mktemp -u)") (set OUT=DIR)" >&2
		mktemp -d "/tmp/$1.XXXXXX"
	fi
}

# cpu_timed STDOUT CMD...: CMD on CPU ${CPU:-1}, its standard output to
# STDOUT; prints its CPU seconds (user + system, to the millisecond: bash's
# time) and its peak RSS in KB.  CPU time, not wall time: waiting for a
# core that others share does not count.
cpu_timed() {
	local o=$1 rss t TIMEFORMAT='%3U %3S'
	shift
	rss=$(mktemp)
	t=$( { time taskset -c "${CPU:-1}" /usr/bin/time -f %M -o "$rss" "$@" >"$o" 2>/dev/null; } 2>&1 )
	awk -v t="$t" -v m="$(tail -1 "$rss")" 'BEGIN { split(t, a, " "); printf "%.3f %s\n", a[1] + a[2], m }'
	rm -f "$rss"
}

# build_harness SRC OUT [TREE]: scripts/SRC (a C harness over the
# project's library) built against TREE's build/libf2t.a (default: this
# tree), as make links the program.
build_harness() {
	local tree=${3:-.} pkgs="libtracefs libtraceevent libtracecmd libelf libdw zlib libzstd"
	make -s -C "$tree" build/libf2t.a
	pkg-config --exists libbpf && pkgs+=" libbpf"
	# shellcheck disable=SC2046,SC2086  # flags are words
	cc -std=c11 -D_GNU_SOURCE -O2 -I"$tree/src" -I"$tree/include" $(pkg-config --cflags $pkgs) \
		-o "$2" "scripts/$1" "$tree/build/libf2t.a" $(pkg-config --libs $pkgs) \
		-lstdc++ -lpthread -lm
}

# alternate RUNS VARIANT...: RUNS rounds, each calling the script's
# run_variant for every VARIANT in turn (alternating, so that the machine's
# load falls on all alike), skipping those whose failed[VARIANT] is set.
alternate() {
	local runs=$1 i v
	shift
	for ((i = 1; i <= runs; i++)); do
		for v in "$@"; do
			[ -n "${failed[$v]:-}" ] || run_variant "$v"
		done
		echo "   round $i/$runs done" >&2
	done
}
