#!/usr/bin/env python3
"""compare_tracecmd_report.py REPORT TEXT

Checks our ftrace text of a trace.dat (TEXT, from `ftrace2trace convert
FILE.dat -o X.txt`) against `trace-cmd report -N FILE.dat` (REPORT), which
prints every record with the kernel's own print formats through trace-cmd's
code, not ours.  Every record must be in both, with the same CPU, pid,
microsecond timestamp, event name and field text; the order of records with
the same timestamp may differ.  trace-cmd prints a trace_marker write as
"print: IP: TEXT" where the kernel (and we) print "tracing_mark_write: TEXT".
Task names are not compared: trace-cmd names a pid from the saved cmdlines
(its name at the end), we as of each event.  task_newtask records are left
out: ours fold them into the fork that follows, as for our own captures.

trace-cmd's "CPU:N [M EVENTS DROPPED]" lines must add up to the lost_events
count of our text's last line (none: 0).

Prints the number of records and of sched_switch records compared; exits 1
and shows the first differences when they disagree.
"""
import collections
import re
import sys

# [BUFFER: ]COMM-PID [CPU] TS: EVENT: FIELDS  (trace-cmd report)
REPORT = re.compile(r'^(?:\S+:\s+)?\s*.*?-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\S+?):\s+(.*)$')
DROPPED = re.compile(r'^(?:\S+:\s+)?CPU:\d+ \[(\d+) EVENTS DROPPED\]$')
# COMM-PID (TGID) [CPU] FLAGS TS: EVENT: FIELDS  (ours, the kernel's layout)
OURS = re.compile(r'^\s*.*?-(\d+)\s+\(\s*[-\d]+\)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(\S+?):\s(.*)$')


def records(path, pattern, report):
    out = collections.Counter()
    lost = 0
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.search(r' lost_events=(\d+)', line) if line.startswith('# ftrace2trace:') else None
            if m:
                lost = int(m.group(1))
            m = DROPPED.match(line) if report else None
            if m:
                lost += int(m.group(1))
                continue
            if line.startswith('#') or line.startswith('cpus=') or not line.strip():
                continue
            m = pattern.match(line)
            if not m:
                sys.exit(f'{path}: a line that does not parse: {line!r}')
            pid, cpu, ts, event, fields = m.groups()
            if event == 'task_newtask':
                continue
            if report and event == 'print':
                event, fields = 'tracing_mark_write', fields.split(': ', 1)[-1]
            if 'trace_event_clock_sync: parent_ts=' in fields and pid == '0':
                continue        # the clock link line we add, not a record
            out[(int(cpu), ts, int(pid), event, fields.rstrip())] += 1
    return out, lost


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    theirs, lost_theirs = records(sys.argv[1], REPORT, True)
    ours, lost_ours = records(sys.argv[2], OURS, False)
    missing, extra = theirs - ours, ours - theirs
    n = sum(theirs.values())
    switches = sum(v for k, v in theirs.items() if k[3] == 'sched_switch')
    ours_switches = sum(v for k, v in ours.items() if k[3] == 'sched_switch')
    print(f'records: trace-cmd report {n}, ours {sum(ours.values())}; '
          f'sched_switch: trace-cmd report {switches}, ours {ours_switches}; '
          f'lost: trace-cmd report {lost_theirs}, ours {lost_ours}')
    if missing or extra or lost_theirs != lost_ours:
        for k in sorted(missing)[:5]:
            print('only in trace-cmd report:', k)
        for k in sorted(extra)[:5]:
            print('only in ours:            ', k)
        sys.exit(1)


main()
