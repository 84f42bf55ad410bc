#!/usr/bin/env bash
# Off-CPU stacks reused, not walked, when a thread blocks again where it
# blocked before (bpf/stacks.bpf.h), and never given where the stacks
# differ (root, BPF).  tests/helpers/sites blocks at places that share
# their user registers: read() from one call site on a pipe and on a socket
# (the kernel paths differ), nanosleep from two callers at one depth (the
# user callers differ).  report --off-cpu must put each place's time under
# its own stack; with every reuse checked by a walk (the loader's test hook
# F2T_TEST_OFFCPU_RECHECK=1), no reuse may have given a stack other than the
# walk's, here and on the blocker workload (fdatasync in D state included),
# with the kernel stack checked by direct reads (bpf_rdonly_cast) and by a
# copy (F2T_TEST_OFFCPU_STACK_COPY=1: the programs a kernel before 6.2 gets).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
SITES=$B/tests/helpers/sites
BLOCKER=$B/tests/helpers/blocker
[ -x "$SITES" ] && [ -x "$BLOCKER" ] || skip "helpers not built (make tests)"
cd "$TMP" || exit 1

# reuse_counts ERRFILE: "REUSED RECHECKED STALE" from record's summary.
reuse_counts() {
	sed -n 's/.*stacks reused \([0-9]*\) times, \([0-9]*\) checked by a walk, \([0-9]*\) of them stale$/\1 \2 \3/p' "$1"
}

# Pinned to CPU 0, as record_offcpu.sh is: this kernel records no switch
# from the idle task on CPU 1 (docs/kernel.md).
"$F2T" record --off-cpu -k s.cap -o s.fxt -- taskset -c 0 "$SITES" 40 >out 2>err
rc=$?
grep -q "built without BPF" err && skip "this build has no BPF: $(grep -- --off-cpu err)"
[ "$rc" -eq 0 ] || fail "record --off-cpu: exit $rc: $(cat err)"
read -r reused rechecked stale <<<"$(reuse_counts err)"
[ "${reused:-0}" -gt 100 ] || fail "stacks reused ${reused:-?} times, expected most of 240 episodes: $(cat err)"
[ "${stale:-1}" -eq 0 ] || fail "$stale stale reuses: $(cat err)"
ok "stacks reused $reused times ($rechecked checked by a walk, none stale)"

# Each place's time under its own stack (folded: user frames, then kernel).
"$F2T" report --off-cpu --folded s.cap >folded 2>rerr || fail "report --folded: $(cat rerr)"
python3 - folded <<'PY' || fail "stacks mixed up: $(grep '^sites;' folded | cut -c1-300)"
import sys
places = {  # (user frame, kernel frame): blocked at least (us), of 40 rounds
    ("read", "anon_pipe_read"): 40 * 500,
    ("read", "unix_stream_read_generic"): 40 * 1500,
    ("sleep_a", "do_nanosleep"): 40 * 500,
    ("sleep_b", "do_nanosleep"): 40 * 500,
}
got = dict.fromkeys(places, 0)
for line in open(sys.argv[1]):
    stack, us = line.rsplit(" ", 1)
    frames = stack.split(";")
    if frames[0] != "sites":
        continue
    for user, kernel in places:
        if user in frames and kernel in frames:
            got[(user, kernel)] += int(us)
bad = [p for p in places if got[p] < places[p]]
for p in places:
    print("%s: %s+%s %d us" % ("ok" if p not in bad else "FAIL", p[0], p[1], got[p]))
sys.exit(1 if bad else 0)
PY
ok "pipe and socket reads from one call site, and sleeps from two callers, each under its own stack"

# Every reuse checked by a walk: none may have differed.
for w in sites blocker sites-copy; do
	case $w in
	sites*) cmd=("$SITES" 40) ;;
	blocker) cmd=("$BLOCKER" 20 "$TMP/blocker.dat") ;;
	esac
	copy=0
	[ "$w" = sites-copy ] && copy=1
	F2T_TEST_OFFCPU_RECHECK=1 F2T_TEST_OFFCPU_STACK_COPY=$copy "$F2T" record --off-cpu -o r.fxt -- taskset -c 0 "${cmd[@]}" >out 2>err ||
		fail "record --off-cpu ($w, every reuse checked): $(cat err)"
	read -r reused rechecked stale <<<"$(reuse_counts err)"
	[ "${reused:-1}" -eq 0 ] && [ "${rechecked:-0}" -gt 10 ] ||
		fail "$w: every reuse should have been walked: $(cat err)"
	[ "${stale:-1}" -eq 0 ] || fail "$w: $stale of $rechecked reuses would have given other stacks than the walk"
	ok "$w: $rechecked reuses checked by a walk, the same stacks every time"
done
exit 0
