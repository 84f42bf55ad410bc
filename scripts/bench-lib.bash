# Sourced by the scripts/bench-*.sh that time recordings.

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
