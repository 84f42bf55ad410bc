-- What trace_processor makes of a trace, in a form that does not depend on
-- how the file encoded it (ids, track and string order): what
-- scripts/compare-with-commit.sh compares between two builds.
select 'sched' as tbl, s.ts, s.dur, s.cpu, t.tid, t.name, s.end_state, s.priority
from sched s join thread t using (utid) order by s.ts, s.cpu;
select 'thread_state' as tbl, st.ts, st.dur, st.cpu, st.state, st.io_wait, t.tid,
	(select w.tid from thread w where w.utid = st.waker_utid) as waker
from thread_state st join thread t using (utid) order by st.ts, t.tid, st.state;
select 'thread' as tbl, t.tid, t.name, p.pid, t.is_main_thread, t.start_ts, t.end_ts
from thread t left join process p using (upid) order by t.tid, t.name, p.pid;
select 'process' as tbl, pid, name, cmdline, start_ts, end_ts
from process order by pid, name;
select 'slice' as tbl, s.ts, s.dur, s.category, s.name, s.depth, k.name as track,
	(select group_concat(a.key || '=' || coalesce(a.display_value, ''), ';')
	 from (select * from args where arg_set_id = s.arg_set_id order by key) a) as args
from slice s join track k on k.id = s.track_id order by s.ts, s.name, s.depth, track, args;
select 'counter' as tbl, c.ts, c.value, k.name as track
from counter c join track k on k.id = c.track_id order by track, c.ts;
with recursive walk(sid, cid, s) as (
	select id, callsite_id, '' from perf_sample
	union all
	select w.sid, c.parent_id, f.name || ';' || w.s
	from walk w join stack_profile_callsite c on c.id = w.cid
	join stack_profile_frame f on f.id = c.frame_id)
select 'perf_sample' as tbl, ps.ts, ps.cpu, t.tid,
	(select s from walk where walk.sid = ps.id and walk.cid is null) as stack
from perf_sample ps left join thread t using (utid) order by ps.ts, ps.cpu, t.tid;
select 'mapping' as tbl, name, build_id, start, end, exact_offset
from stack_profile_mapping order by name, start;
select 'stats' as tbl, name, idx, severity, source, value
from stats where value != 0 and name not like '%_duration_ns' order by name, idx;
