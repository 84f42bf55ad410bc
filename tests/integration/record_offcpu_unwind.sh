#!/usr/bin/env bash
# Off-CPU user stacks whole through the C library (root, BPF).  The
# distribution's libc has no frame pointers: a thread blocked in read(),
# nanosleep() or fdatasync() called straight from a function of its own
# (tests/helpers/offwait) loses that function in a frame-pointer walk.  The
# recorder keeps the user registers and the top of the user stack at each
# switch out, and the conversion unwinds them with the binaries' CFI: report
# --off-cpu --folded must put at least 90% of each thread's blocked time
# under its function, and the .pftrace must name the function in its
# off-CPU stacks (checked with trace_processor where installed); with the
# default call graph and with --call-graph dwarf.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
OFFWAIT=$B/tests/helpers/offwait
[ -x "$OFFWAIT" ] || skip "$OFFWAIT not built (make tests)"
command -v python3 >/dev/null || skip "python3 not installed"
cd "$TMP" || exit 1

# thread:function pairs; fdatasync blocks only on a disk.
pairs="reader:wait_in_read sleeper:wait_in_nanosleep syncer:wait_in_fdatasync"
if [ "$(stat -f -c %T "$TMP")" = tmpfs ]; then
	pairs="reader:wait_in_read sleeper:wait_in_nanosleep"
	echo "note: $TMP is tmpfs: fdatasync does not block, the syncer is not checked"
fi
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}

for mode in fp dwarf; do
	"$F2T" record --off-cpu --call-graph "$mode" -k "$mode.cap" -o "$mode.pftrace" -- \
		"$OFFWAIT" 20 "$TMP/offwait.dat" >out 2>err
	rc=$?
	grep -q "built without BPF" err && skip "this build has no BPF: $(grep -- --off-cpu err)"
	[ "$rc" -eq 0 ] || fail "record --off-cpu --call-graph $mode: exit $rc: $(cat err)"

	"$F2T" report --off-cpu --folded "$mode.cap" >"$mode.folded" 2>rerr ||
		fail "report --off-cpu --folded: $(cat rerr)"
	python3 - "$mode.folded" $pairs <<'PY' || fail "$mode: blocked time not under the blocking function: $(grep -v '^writer' "$mode.folded" | cut -c1-300)"
import sys
# Folded lines: thread;frame;...;frame microseconds, outermost frame first.
total, under = {}, {}
want = dict(p.split(":") for p in sys.argv[2:])
for line in open(sys.argv[1]):
    stack, us = line.rsplit(" ", 1)
    frames = stack.split(";")
    t = frames[0]
    if t not in want:
        continue
    total[t] = total.get(t, 0) + int(us)
    if want[t] in frames[1:]:
        under[t] = under.get(t, 0) + int(us)
bad = False
for t, fn in want.items():
    share = under.get(t, 0) / total[t] if total.get(t) else 0
    ok = share >= 0.9
    bad |= not ok
    print("%s: %s blocked %d us, %.1f%% under %s" % ("ok" if ok else "FAIL", t, total.get(t, 0), 100 * share, fn))
sys.exit(1 if bad else 0)
PY
	ok "$mode: each thread's blocked time under its own function"
	grep -q "off-CPU user stacks unwound from their copy" err ||
		fail "$mode: the summary says no off-CPU stack was unwound: $(cat err)"

	if [ -z "$TP" ]; then
		echo "note: TRACE_PROCESSOR not set: the .pftrace's frames not checked"
		continue
	fi
	# The off-CPU slices' stacks: interned frames where the writer interns
	# them, or the slice's stack argument.
	# The thread by its tid (offwait prints them): its name is not what is tested here.
	for p in $pairs; do
		t=${p%%:*} fn=${p#*:}
		tid=$(sed -n "s/^offwait: .* $t=\([0-9]*\).*/\1/p" out)
		[ -n "$tid" ] || fail "no tid for $t in offwait's line: $(cat out)"
		cat >q.sql <<SQL
select
  (select count(*) from stack_profile_frame where name = '$fn') +
  (select count(*) from slice s join thread_track tt on s.track_id = tt.id
     join thread using (utid) join args a on a.arg_set_id = s.arg_set_id
   where s.category = 'off-cpu' and thread.tid = $tid and a.key = 'debug.stack'
     and (a.display_value like '%' || char(10) || '$fn' || char(10) || '%')) as n;
SQL
		n=$("$TP" -q q.sql "$mode.pftrace" 2>tperr | tail -1)
		[ "${n:-0}" -ge 1 ] 2>/dev/null ||
			fail "$mode: the .pftrace names $fn in no off-CPU stack of $t (${n:-no answer}: $(tail -3 tperr))"
	done
	ok "$mode: the .pftrace's off-CPU stacks name each blocking function (trace_processor)"
done
exit 0
