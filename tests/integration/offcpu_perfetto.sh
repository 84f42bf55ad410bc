#!/usr/bin/env bash
# Off-CPU episodes in a .pftrace as trace_processor reads them (root, BPF,
# TRACE_PROCESSOR).  A workload started through `sh -c` (a process forked
# during the recording, its threads made after it) blocks in known places
# (tests/helpers/blocker): in trace_processor each of its tids is one
# thread, each blocking thread's off-CPU slices are on that named thread's
# track, every slice has its callstack attached (the table behind the UI's
# slice stacks), and the stacks name the frames: the kernel function it
# blocked in and the workload's own function.  Then a ping-pong's thousands
# of episodes cost at most 64 bytes each in the .pftrace (the file with
# them less the file without, F2T_TEST_OFFCPU_DRAW_NONE), and the figure for
# FXT and JSON is printed.  No frame anywhere keeps a symbol version
# ("clock_nanosleep@GLIBC_2.2.5" is clock_nanosleep).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BLOCKER=$B/tests/helpers/blocker
[ -x "$BLOCKER" ] && [ -x "$PINGPONG" ] || skip "tests/helpers not built (make tests)"
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell || true)}
[ -n "$TP" ] || skip "TRACE_PROCESSOR not set: nothing here to read a .pftrace with"

cd "$TMP" || exit 1
"$F2T" record --off-cpu -k sh.cap -o sh.pftrace -- sh -c "$BLOCKER 10 $TMP/blocker.dat; true" \
	>out 2>err
rc=$?
grep -q "built without BPF" err && skip "this build has no BPF: $(grep -- --off-cpu err)"
[ "$rc" -eq 0 ] || fail "record --off-cpu: exit $rc: $(cat err)"
line=$(grep '^blocker: tgid=' out) || fail "blocker printed no tids: $(cat out)"
tids=$(echo "$line" | grep -o '=[0-9]*' | tr -d = | paste -sd,)

cat >threads.sql <<EOF
select tid, count(*) as n, group_concat(coalesce(name, '(none)')) as names
from thread where tid in ($tids) group by tid order by tid;
EOF
"$TP" -q threads.sql sh.pftrace 2>/dev/null | tail -n +2 | tr -d '"' >threads
[ "$(wc -l <threads)" -eq 5 ] || fail "trace_processor has not the workload's 5 tids ($tids): $(cat threads)"
awk -F, '$2 != 1 { bad = 1 } END { exit bad }' threads ||
	fail "a tid of the forked workload is more than one thread in trace_processor (tid,threads,names): $(tr '\n' ' ' <threads)"
ok "one thread per tid of the workload forked by sh: $(cut -d, -f3 threads | paste -sd' ')"

# Per thread of the workload: its off-CPU slices, those with a callstack,
# those whose stack holds its kernel function, and its own function.
cat >stacks.sql <<EOF
with recursive up(slice_id, cs) as (
  select slice_id, callsite_id from __intrinsic_track_event_callstacks where callsite_id is not null
  union all
  select up.slice_id, c.parent_id from up join stack_profile_callsite c on c.id = up.cs
  where c.parent_id is not null
), named(slice_id, fname) as (
  select up.slice_id, f.name from up join stack_profile_callsite c on c.id = up.cs
  join stack_profile_frame f on f.id = c.frame_id
)
select t.name,
  count(distinct s.id) as slices,
  count(distinct case when n.slice_id is not null then s.id end) as stacked,
  count(distinct case when n.fname in ('pipe_read', 'anon_pipe_read', 'do_nanosleep', 'do_fsync',
                                       '__x64_sys_fdatasync') then s.id end) as kernel,
  count(distinct case when n.fname = 'blocker_' || case t.name when 'piperd' then 'pipe_read'
        when 'sleeper' then 'nanosleep' when 'syncer' then 'fdatasync' end then s.id end) as own
from slice s join thread_track tt on s.track_id = tt.id join thread t using (utid)
left join named n on n.slice_id = s.id
where s.category = 'off-cpu' and t.tid in ($tids) and t.name in ('piperd', 'sleeper', 'syncer')
group by t.name order by t.name;
EOF
"$TP" -q stacks.sql sh.pftrace 2>/dev/null | tail -n +2 | tr -d '"' >stacks
[ "$(wc -l <stacks)" -eq 3 ] || fail "off-CPU slices of piperd, sleeper and syncer not each on its thread: $(cat stacks)"
while IFS=, read -r name slices with kernel own; do
	[ "$slices" -ge 10 ] || fail "$name: $slices off-CPU slices on its thread, expected 10 or more"
	[ "$with" -eq "$slices" ] || fail "$name: $with of $slices off-CPU slices have a callstack"
	# Nearly all: the first episode can start before the workload's own frames exist.
	[ $((kernel * 10)) -ge $((slices * 9)) ] ||
		fail "$name: $kernel of $slices off-CPU stacks name the kernel function it blocked in"
	[ $((own * 10)) -ge $((slices * 9)) ] ||
		fail "$name: $own of $slices off-CPU stacks name its own blocker_ function"
	ok "$name: $slices off-CPU slices on its thread, each with its callstack; $kernel name the kernel function, $own its own"
done <stacks

# Frame names without symbol versions (a libc's .symtab names its versioned
# definitions "clock_nanosleep@GLIBC_2.2.5"), in every output and in report.
"$F2T" convert -q sh.cap -o sh.json -o sh.fxt || fail "convert sh.cap"
"$F2T" report --off-cpu --folded sh.cap >folded 2>rerr || fail "report --off-cpu --folded: $(cat rerr)"
echo "select name from stack_profile_frame where name like '%@%';" >versions.sql
for f in sh.pftrace sh.fxt; do
	"$TP" -q versions.sql $f 2>/dev/null | tail -n +2 >>versioned
done
grep -o '"name":"[^"]*@[^"]*"' sh.json >>versioned
grep -o '[^;]*@[^;]*' folded >>versioned
[ ! -s versioned ] || fail "frames named with a symbol version: $(sort -u versioned | head -5 | tr '\n' ' ')"
grep -q 'clock_nanosleep;' folded || fail "no clock_nanosleep frame in the sleeper's folded stacks: $(grep sleeper folded | head -2)"
ok "no frame named with a symbol version (.pftrace, .fxt, .json, report --folded); clock_nanosleep by its name"

# Bytes per episode: thousands of episodes, so that interned stacks count as they do in use.
"$F2T" record --off-cpu -k pp.cap -- "$PINGPONG" 10000 >ppout 2>pperr || fail "record pingpong: $(cat pperr)"
n=$(sed -n 's/^ftrace2trace: \([0-9]*\) off-CPU episodes, .*/\1/p' pperr)
[ "${n:-0}" -ge 10000 ] || fail "pingpong: ${n:-no} off-CPU episodes, expected 10000 or more: $(cat pperr)"
"$F2T" convert -q pp.cap -o with.pftrace -o with.fxt -o with.json || fail "convert pp.cap"
F2T_TEST_OFFCPU_DRAW_NONE=1 "$F2T" convert -q pp.cap -o none.pftrace -o none.fxt -o none.json ||
	fail "convert pp.cap without the episodes"
echo "select count(*) from slice where category = 'off-cpu';" >count.sql
[ "$("$TP" -q count.sql none.pftrace 2>/dev/null | tail -1)" = 0 ] ||
	fail "F2T_TEST_OFFCPU_DRAW_NONE left off-CPU slices in the .pftrace: no figure to compare with"
for f in pftrace fxt json; do
	per=$((($(stat -c %s with.$f) - $(stat -c %s none.$f)) / n))
	echo "note: .$f: $per bytes per off-CPU episode ($n episodes)"
	[ $f != pftrace ] || [ "$per" -le 64 ] || fail ".pftrace: $per bytes per off-CPU episode, more than 64"
done
ok ".pftrace: at most 64 bytes per off-CPU episode"
exit 0
