#!/usr/bin/env python3
"""Compares our ftrace text with the kernel's own for the same events.

usage: compare_ftrace_text.py [--live] OURS.txt KERNEL.trace

--live: KERNEL.trace was recorded by another instance during the same run
(not saved with a fixture).  The kernel computes the latency flags for each
instance's copy of an event separately, so the need-resched column can
differ when a reschedule is requested between the two writes; with --live
that column alone is excused, and counted.  An interrupt between the two
writes can also put tens of microseconds between the copies' timestamps, so
--live allows MAX_SKEW_LIVE_US; and when the host takes the vCPU between
them, milliseconds: a line of ours still unmatched then may take an unused
kernel line with the same cpu, event and fields within WIDE_SKEW_LIVE_US,
said and counted.

KERNEL.trace is the `trace` file of a second tracefs instance that recorded
the same time window (tests/fixtures/make-kernel-text-fixture.sh).  Each
instance's ring buffer reads the clock itself when it stores an event, so
the same event carries timestamps a few hundred nanoseconds apart in the two
buffers and may print one microsecond apart.  Lines are therefore matched by
(cpu, event name, event fields) and the nearest timestamp, which must be
within MAX_SKEW_US; everything else on the line must be byte-identical,
except for the one normalisation documented in normalise().  Every line of
ours must find its kernel line, and every kernel line inside our time span
on its cpu must find ours.  Exits 1 on any difference.
"""
import re
import sys

MAX_SKEW_US = 20
MAX_SKEW_LIVE_US = 200
WIDE_SKEW_LIVE_US = 10000

LINE = re.compile(rb'^(?P<task>.{16})-(?P<pid>\d+)\s+\(\s*(?P<tgid>[\d-]+)\) '
                  rb'\[(?P<cpu>\d+)\] (?P<flags>\S+)\s+(?P<ts>\d+\.\d+): '
                  rb'(?P<event>[^:]+): (?P<rest>.*)$')


def parse(path):
    """Event lines of PATH as (match, raw line); comments and others skipped."""
    out = []
    with open(path, 'rb') as f:
        for raw in f:
            raw = raw.rstrip(b'\n')
            if raw.startswith(b'#') or not raw.strip():
                continue
            m = LINE.match(raw)
            if m:
                out.append(m)
    return out


def usecs(m):
    secs, frac = m['ts'].split(b'.')
    return int(secs) * 1000000 + int(frac)


def without_ts(m):
    line = m.string
    return line[:m.start('ts')] + line[m.end('ts'):]


def normalise(m):
    """The line from the pid on, timestamp removed.

    The kernel fills in the task name at the start of a line when the trace
    file is read, from its saved_cmdlines cache: a task that exec()ed or was
    renamed later shows its later name there, and one that fell out of the
    cache shows "<...>".  We print the name the task had when the event
    happened.  Only that name is excused; pid, tgid, cpu, flags, event and
    fields must match.
    """
    line = without_ts(m)
    return line[m.end('pid'):] if m else line


def without_resched(m):
    """The line without its timestamp and the flags' need-resched column."""
    line = normalise(m)
    flags = m.start('flags') - m.end('pid')
    return line[:flags + 1] + line[flags + 2:]


def main():
    args = sys.argv[1:]
    live = args[:1] == ['--live']
    if live:
        args = args[1:]
        global MAX_SKEW_US
        MAX_SKEW_US = MAX_SKEW_LIVE_US
    ours, kern = parse(args[0]), parse(args[1])
    pool = {}
    for m in kern:
        pool.setdefault((m['cpu'], m['event'], m['rest']), []).append(m)
    exact = renamed = resched = 0
    missing, diffs, skews = [], [], []
    used = set()
    # Events with the same cpu, name and fields keep their order in both
    # buffers: take the earliest unused kernel line within reach.
    for m in ours:
        cands = pool.get((m['cpu'], m['event'], m['rest']), [])
        while cands and usecs(cands[0]) < usecs(m) - MAX_SKEW_US:
            cands.pop(0)
        if not cands or abs(usecs(cands[0]) - usecs(m)) > MAX_SKEW_US:
            missing.append(m)
            continue
        best = cands.pop(0)
        used.add(id(best))
        skews.append(usecs(m) - usecs(best))
        if without_ts(m) == without_ts(best):
            exact += 1
        elif normalise(m) == normalise(best):
            renamed += 1
        elif live and without_resched(m) == without_resched(best):
            resched += 1
        else:
            diffs.append((m, best))
    # The host may hold the vCPU between the two buffers' writes (--live):
    # a line still unmatched takes the nearest unused kernel line with the
    # same cpu, event and fields within WIDE_SKEW_LIVE_US.
    wide = []
    if live and missing:
        every = {}
        for k in kern:
            every.setdefault((k['cpu'], k['event'], k['rest']), []).append(k)
        still = []
        for m in missing:
            key = (m['cpu'], m['event'], m['rest'])
            near = [k for k in every.get(key, []) if id(k) not in used
                    and abs(usecs(k) - usecs(m)) <= WIDE_SKEW_LIVE_US]
            if not near:
                still.append(m)
                continue
            best = min(near, key=lambda k: abs(usecs(k) - usecs(m)))
            used.add(id(best))
            if best in pool.get(key, []):
                pool[key].remove(best)
            wide.append(usecs(m) - usecs(best))
            if without_ts(m) != without_ts(best) and normalise(m) != normalise(best):
                diffs.append((m, best))
        missing = still
    # Kernel lines inside our time span on their cpu that found no line of
    # ours: events we failed to record or to print.
    span = {}
    for m in ours:
        lo, hi = span.get(m['cpu'], (usecs(m), usecs(m)))
        span[m['cpu']] = (min(lo, usecs(m)), max(hi, usecs(m)))
    # task_newtask is the one exception: the decoder reads it only for its
    # clone flags (a new thread or a new process) and passes no event on.
    extra = [k for cands in pool.values() for k in cands
             if k['cpu'] in span and k['event'] != b'task_newtask'
             and span[k['cpu']][0] + MAX_SKEW_US < usecs(k) < span[k['cpu']][1] - MAX_SKEW_US]
    print(f'ours {len(ours)} lines, kernel {len(kern)}: {exact} identical, '
          f'{renamed} identical but for the task name the kernel fills in '
          f'at read time, {resched} but for need-resched (--live), '
          f'{len(diffs)} different, {len(missing)} not found, '
          f'{len(extra)} of the kernel\'s missing from ours; '
          f'timestamp skew between the two buffers '
          f'{min(skews, default=0)}..{max(skews, default=0)} us')
    if wide:
        print(f'{len(wide)} line(s) matched {min(wide)}..{max(wide)} us apart: '
              f'the host held the vCPU between the two buffers\' writes')
    n_ours = sum(1 for m in ours if m['event'] == b'sched_switch')
    n_matched = n_ours - sum(1 for m in missing if m['event'] == b'sched_switch')
    n_extra = sum(1 for k in extra if k['event'] == b'sched_switch')
    print(f'sched_switch: {n_ours} lines of ours, {n_matched + n_extra} in the '
          f'kernel\'s text over the same span')
    for a, b in diffs[:10]:
        print('ours:   ' + a.string.decode('utf-8', 'replace'))
        print('kernel: ' + b.string.decode('utf-8', 'replace'))
    for a in missing[:10]:
        print('not in the kernel text: ' + a.string.decode('utf-8', 'replace'))
    for k in sorted(extra, key=usecs)[:10]:
        print('missing from ours: ' + k.string.decode('utf-8', 'replace'))
    if diffs or missing or extra or len(ours) < 10:
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
