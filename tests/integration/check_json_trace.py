#!/usr/bin/env python3
"""Checks a JSON trace written by ftrace2trace against what the viewers need.

usage: check_json_trace.py FILE.json [--systrace FILE.txt]

Parses FILE.json with Python's json module (strict: a raw control character
in a string is an error) and checks:

- the object form: systemTraceEvents first, then traceEvents, then otherData;
  displayTimeUnit "ns"; the loss counts in otherData;
- every M event: a known kind, pid and tid, args.name (a non-empty string)
  for *_name, an integer args.sort_index for *_sort_index;
- exactly one clock_sync ("ph" "c") event, whose sync_id does not repeat,
  and a link catapult accepts in the text (docs/viewers.md);
- every event line of systemTraceEvents matches Perfetto's systrace line
  tokenizer; one that does not makes Perfetto refuse the whole file
  (importers/systrace/systrace_line_tokenizer.cc, transcribed below);
- catapult's ftrace importer can read every sched_switch and sched_wakeup
  line (ftrace_importer.html and sched_parser.html, transcribed below);
  other lines it cannot read only cost a warning there, and are counted;
- a thread woken from sleep shows runnable before it runs in both viewers:
  both a sched_waking line (what Perfetto reads) and a sched_wakeup line
  (what catapult reads) for it since it last ran;
- with --systrace, the text equals that file's (same text, other sink),
  but for the loss-count comment that ends the stand-alone text and the
  lines the JSON shows as traceEvents instead (markers, irq handlers, idle
  and frequency changes).

Prints one summary line per check; exits 1 if any check fails.
"""
import json
import re
import sys

# What each viewer's ftrace-line parser requires of a line, written as our
# own patterns from the facts (field order, separators, allowed flag
# letters), so a line we emit can be checked without the viewers at hand.
PID = r'-(?P<pid>\d+)'
TGID = r'\(\s*(?P<tgid>\d+|-+)\)'
CPU = r'\[(?P<cpu>\d+)\]'
SECONDS = r'(?P<ts>\d+\.\d+):'
NAME = r'(?P<name>\S+):'
# Perfetto looks anywhere in the line for -PID, an optional (TGID), [CPU],
# optional latency flags (three letters or dots, then one or two hex digits
# or dots), SECONDS: and the event NAME: -- a line without them fails the import.
PERFETTO_LINE = re.compile(PID + r'\s+(?:' + TGID + r')?\s?' + CPU +
                           r'\s*(?:[a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?' + SECONDS + r'\s+' + NAME)
# catapult wants the whole trimmed line: TASK-PID (TGID) [CPU], flags it
# knows (irqs-off d/X, need-resched N/n/p, hard/soft irq H/h/s, then one or
# two depth digits), SECONDS: NAME: and the fields.
CATAPULT_FLAGS = r'[dX.][Nnp.][Hhs.][0-9a-f.][0-9a-f.]?'
CATAPULT_LINE = re.compile(r'^\s*(?P<task>.+)' + PID + r'\s+' + TGID + r'\s' + CPU +
                           r'\s+' + CATAPULT_FLAGS + r'\s+' + SECONDS + r'\s+' + NAME +
                           r'\s(?P<fields>.*)$')
# The fields its sched_switch and sched_wakeup handlers read; the previous
# state is one letter, a letter and '+', or two letters joined by '|'.
CATAPULT_SWITCH = re.compile(r'prev_comm=.+ prev_pid=\d+ prev_prio=\d+ '
                             r'prev_state=(?:\S\+?|\S\|\S) ==> '
                             r'next_comm=.+ next_pid=\d+ next_prio=\d+')
CATAPULT_WAKEUP = re.compile(r'comm=.+ pid=\d+ prio=\d+(?: success=\d+)? target_cpu=\d+')
# Ours, to follow the scheduling: the pid field of a wake-up, the switch.
WAKE_PID = re.compile(r' pid=(\d+) prio=')
SWITCH = re.compile(r'prev_pid=(\d+) .*prev_state=(\S+) ==> .* next_pid=(\d+) ')

NAME_KINDS = {'process_name', 'thread_name'}
SORT_KINDS = {'process_sort_index', 'thread_sort_index'}
COUNTS = ('lost_events', 'lost_pages', 'kernel_overrun', 'kernel_dropped',
          'sched_gaps', 'unknown_events', 'bad_records')

failures = []


def check(ok, what):
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def event_lines(text):
    return [ln for ln in text.split('\n') if ln.strip() and not ln.startswith('#')]


def check_metadata(events):
    meta = [e for e in events if e.get('ph') == 'M']
    bad = []
    for e in meta:
        kind, args = e.get('name'), e.get('args', {})
        if not (isinstance(e.get('pid'), int) and isinstance(e.get('tid'), int)):
            bad.append(e)
        elif kind in NAME_KINDS:
            if not (isinstance(args.get('name'), str) and args['name']):
                bad.append(e)
        elif kind in SORT_KINDS:
            if not isinstance(args.get('sort_index'), int):
                bad.append(e)
        else:
            bad.append(e)
    names = sum(1 for e in meta if e['name'] in NAME_KINDS)
    check(not bad and names > 0,
          f'{len(meta)} metadata events, {names} names, all well-formed'
          + (f'; bad: {bad[:3]}' if bad else ''))


def check_clock_link(events, text, other):
    syncs = [e for e in events if e.get('ph') == 'c']
    ids = [e.get('args', {}).get('sync_id') for e in syncs]
    # The writer's own, plus one per clock sync marker (the recorder writes
    # two); Trace Viewer refuses a file with an id twice.
    check(ids.count(other.get('clock_sync_id')) == 1 and len(set(ids)) == len(ids) and
          all(i and isinstance(e.get('ts'), (int, float)) for i, e in zip(ids, syncs)),
          f'clock_sync events with unique ids, the writer\'s own among them (sync_id {ids})')
    comment = '\n# clock_type=LINUX_CLOCK_MONOTONIC\n' in text
    by_id = any(f'trace_event_clock_sync: name={i}' in text for i in ids if i)
    parent = 'trace_event_clock_sync: parent_ts=' in text
    check(comment or by_id or parent,
          f'catapult clock link in the text (clock {other.get("clock")}): '
          f'{"comment" if comment else "name=id marker" if by_id else "parent_ts marker" if parent else "none"}')
    if other.get('clock') == 'mono':
        check(comment, 'mono clock: the text says # clock_type=LINUX_CLOCK_MONOTONIC')


def check_lines(lines):
    perfetto_bad = [ln for ln in lines if not PERFETTO_LINE.search(ln)]
    check(not perfetto_bad, f'{len(lines)} ftrace lines; Perfetto tokenizes all of them'
          + (f'; not: {perfetto_bad[:3]}' if perfetto_bad else ''))
    unread, sched_bad = 0, []
    for ln in lines:
        m = CATAPULT_LINE.match(ln.strip())
        if not m:
            unread += 1
            if ' sched_switch: ' in ln or ' sched_wakeup: ' in ln:
                sched_bad.append(ln)
            continue
        body = CATAPULT_SWITCH if m['name'] == 'sched_switch' else \
            CATAPULT_WAKEUP if m['name'] == 'sched_wakeup' else None
        if body and not body.search(m['fields']):
            sched_bad.append(ln)
    check(not sched_bad, 'catapult reads every sched_switch and sched_wakeup line'
          + (f'; not: {sched_bad[:3]}' if sched_bad else ''))
    print(f'info {unread} other lines catapult cannot read (a warning each there, '
          f'e.g. latency flags it predates: D b n L z)')


def check_wakeups(lines, lossy):
    last_in, waking, wakeup = {}, {}, {}
    asleep = {}
    total = missing_waking = missing_wakeup = 0
    for i, ln in enumerate(lines):
        if ' sched_waking: ' in ln or ' sched_wakeup: ' in ln:
            m = WAKE_PID.search(ln)
            if m:
                (waking if ' sched_waking: ' in ln else wakeup)[m[1]] = i
            continue
        if ' sched_switch: ' not in ln:
            continue
        m = SWITCH.search(ln)
        if not m:
            continue
        prev, state, nxt = m[1], m[2], m[3]
        if prev != '0':
            asleep[prev] = state[0] in 'SDI'
        if nxt != '0' and asleep.get(nxt) and nxt in last_in:
            total += 1
            since = last_in[nxt]
            missing_waking += waking.get(nxt, -1) < since
            missing_wakeup += wakeup.get(nxt, -1) < since
        last_in[nxt] = i
    what = (f'{total} switches to a thread that had slept: {missing_waking} without '
            f'sched_waking (Perfetto), {missing_wakeup} without sched_wakeup (catapult)')
    if lossy or not total:
        print('info ' + what + (' (events were lost: not judged)' if lossy else ''))
    else:
        check(not missing_waking and not missing_wakeup, what)


def main():
    path = sys.argv[1]
    with open(path, 'rb') as f:
        raw = f.read()
    doc = json.loads(raw)	# strict: raw control characters are errors
    keys = list(doc)
    # The kernel text first (written straight out), then traceEvents; CPU
    # samples, when recorded, sit between traceEvents and otherData.
    base = [k for k in keys if k not in ('samples', 'stackFrames')]
    check(base[:4] == ['displayTimeUnit', 'systemTraceEvents', 'traceEvents', 'otherData'] and
          (('samples' in keys) == ('stackFrames' in keys)) and
          ('samples' not in keys or
           keys.index('traceEvents') < keys.index('samples') < keys.index('stackFrames') <
           keys.index('otherData')),
          f'top-level keys in order: {keys}')
    if 'samples' in doc:
        frames = doc['stackFrames']
        check(all(str(s.get('sf')) in frames for s in doc['samples']) and
              all(str(f['parent']) in frames for f in frames.values() if 'parent' in f),
              f"{len(doc['samples'])} samples and {len(frames)} stack frames: every sf and parent is in stackFrames (catapult throws otherwise)")
    check(doc.get('displayTimeUnit') == 'ns', 'displayTimeUnit is "ns"')
    events, text, other = doc['traceEvents'], doc['systemTraceEvents'], doc['otherData']
    check(text.startswith('# tracer: nop\n#\n'), 'systemTraceEvents starts with "# tracer: nop"')
    check(all(isinstance(other.get(k), int) for k in COUNTS),
          'otherData has every loss count: ' + ', '.join(f'{k}={other.get(k)}' for k in COUNTS))
    check(all(isinstance(e.get('ts'), (int, float)) for e in events if e.get('ph') != 'M'),
          'every timed event has a numeric ts')
    check_metadata(events)
    check_clock_link(events, text, other)
    lines = event_lines(text)
    check(len(lines) == other.get('ftrace_lines'),
          f'{len(lines)} event lines, as otherData.ftrace_lines says')
    check_lines(lines)
    check_wakeups(lines, other.get('lost_events') or other.get('lost_event_notes'))
    if len(sys.argv) > 3 and sys.argv[2] == '--systrace':
        with open(sys.argv[3], 'rb') as f:
            txt = f.read().decode('utf-8', 'replace')
        # The stand-alone text ends with a comment of loss counts, which
        # the JSON keeps in otherData instead.
        txt = re.sub(r'# ftrace2trace: [^\n]*\n$', '', txt)
        # Markers are traceEvents in the JSON, not lines of its text (the
        # viewers would show them twice).
        txt = ''.join(ln for ln in txt.splitlines(True) if ': tracing_mark_write: ' not in ln)
        # So are irq handlers and idle/frequency changes (json_writer.c).
        txt = ''.join(ln for ln in txt.splitlines(True)
                      if not re.search(r': (irq_handler_entry|irq_handler_exit|softirq_entry|'
                                       r'softirq_exit|cpu_idle|cpu_frequency): ', ln))
        # The latency flags Trace Viewer predates are its nearest ones there
        # (ftrace_text.c): D->d b->. in the first column, l b->n L B->N in
        # the second, z->h Z->H in the third.
        mapped = 0

        def viewer_flags(m):
            nonlocal mapped
            f = m[2]
            g = ({'D': 'd', 'b': '.'}.get(f[0], f[0]) +
                 {'l': 'n', 'b': 'n', 'L': 'N', 'B': 'N'}.get(f[1], f[1]) +
                 {'z': 'h', 'Z': 'H'}.get(f[2], f[2]) + f[3:])
            mapped += g != f
            return m[1] + g + ' '
        txt = re.sub(r'(?m)^(.{17}[^\n]*?\) \[\d{3,}\] )([.dDbXNnpLlBhHsZz0-9a-f]{5}) ',
                     viewer_flags, txt)
        check(text == txt, 'systemTraceEvents equals the systrace output, but for '
              f'{mapped} lines\' latency flags Trace Viewer predates')
        check(mapped == other.get('lines_with_flags_for_trace_viewer'),
              f'otherData counts those {mapped} lines')
    if failures:
        print(f'{len(failures)} checks failed')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
