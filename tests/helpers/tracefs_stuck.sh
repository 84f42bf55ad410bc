#!/usr/bin/env bash
# Prints why recording cannot run here, or nothing.  A kernel bug (see
# docs/kernel.md, "copy_trace_marker") can leave tracefs's instance lock held
# by a task the kernel killed: every mkdir or rmdir of an instance, and so
# every recording, then sleeps for good, unkillable.  Asked once, bounded in
# time, so that the recording tests skip with the reason instead of hanging.
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d/instances" ] && { T=$d; break; }
done
[ -n "$T" ] || exit 0
probe=$T/instances/f2t-probe-$$
# Its own descriptors: a probe stuck for good must hold no pipe of ours open.
(mkdir "$probe" && rmdir "$probe") </dev/null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		exit 0
	fi
	sleep 0.1
done
echo "tracefs does not answer: creating an instance has waited 20 s (a task holds its lock for good; dmesg may show a kernel BUG); recording needs a reboot"
