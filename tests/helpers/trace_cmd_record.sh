#!/usr/bin/env bash
# trace_cmd_record.sh ARGS...   (as `trace-cmd record ARGS...`)
#
# Runs `trace-cmd record ARGS...` on a kernel that refuses the function
# tracer (lockdown), where trace-cmd 3.1.6 aborts: it writes
# /proc/sys/kernel/ftrace_enabled and the set_ftrace_*/set_graph_* files of
# every buffer it uses, and gives up when a write fails.  Here those files
# are covered, in a mount namespace of trace-cmd's own, by empty files that
# take any write: the kernel's files and every other process's view of them
# stay as they were.  Each instance named with -B is created first, so that
# its files exist to be covered, and is removed at the end if trace-cmd has
# not removed it.  KALLSYMS=FILE puts FILE where trace-cmd reads
# /proc/kallsyms (small test files).  Needs root and unshare(1).
# Exits with trace-cmd's status.
set -u
tracefs=/sys/kernel/tracing
[ -d "$tracefs/instances" ] || tracefs=/sys/kernel/debug/tracing
instances=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	[ "${args[i]}" = -B ] && instances+=("${args[i + 1]}")
done
cleanup() {
	for inst in "${instances[@]}"; do
		[ -d "$tracefs/instances/$inst" ] && rmdir "$tracefs/instances/$inst" 2>/dev/null
	done
}
trap cleanup EXIT
for inst in "${instances[@]}"; do
	[ -d "$tracefs/instances/$inst" ] && { echo "$0: instance $inst exists already" >&2; exit 1; }
	mkdir "$tracefs/instances/$inst" || exit 1
done

# The files to cover, at the top and in each instance, where they exist.
covered=(/proc/sys/kernel/ftrace_enabled)
for dir in "$tracefs" "${instances[@]/#/$tracefs/instances/}"; do
	for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid \
		 set_graph_function set_graph_notrace; do
		[ -e "$dir/$f" ] && covered+=("$dir/$f")
	done
done
blank=$(mktemp -d)
binds=()
for f in "${covered[@]}"; do binds+=(/dev/null "$f"); done
[ -n "${KALLSYMS:-}" ] && binds+=("$KALLSYMS" /proc/kallsyms)
trap 'cleanup; rm -rf "$blank"' EXIT
# shellcheck disable=SC2016
unshare -m --propagation private bash -c '
	blank=$1; shift; n=0
	while [ "$1" != -- ]; do
		src=$1
		if [ "$src" = /dev/null ]; then	# a file of its own that takes writes
			n=$((n + 1)); src=$blank/$n; : > "$src"
		fi
		mount --bind "$src" "$2" || exit 1
		shift 2
	done
	shift
	exec trace-cmd record "$@"' bash "$blank" "${binds[@]}" -- "$@"
