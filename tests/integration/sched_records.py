#!/usr/bin/env python3
"""sched_records.py [--us] [--no-state] [--window FIRST LAST] < DUMP

The scheduling records of an FXT file, from `ftrace2trace dump FILE.fxt` on
standard input, one per line with the dump's record offset left out, so that
two conversions of the same events can be diffed:

  context_switch TS cpu=C out_state=... out=TID in=TID args: ...
  thread_wakeup TS cpu=C ...

--us          timestamps rounded to the microsecond (what ftrace text keeps)
--no-state    out_state and linux_state left out (trace-cmd's plugins print
              prev_state from a table of their own)
--window A B  only records with A <= ts <= B (ns)
"""
import re
import sys

RECORD = re.compile(r'^\d+ (context_switch|thread_wakeup) ts=(\d+) (.*)$')


def main():
    args = sys.argv[1:]
    us = '--us' in args
    no_state = '--no-state' in args
    lo, hi = 0, float('inf')
    if '--window' in args:
        i = args.index('--window')
        lo, hi = int(args[i + 1]), int(args[i + 2])
    for line in sys.stdin:
        m = RECORD.match(line.rstrip('\n'))
        if not m:
            continue
        kind, ts, rest = m.group(1), int(m.group(2)), m.group(3)
        if not lo <= ts <= hi:
            continue
        if us:
            ts = (ts + 500) // 1000
        if no_state:
            rest = re.sub(r' (out_state=\S+|linux_state=string:"[^"]*")', '', rest)
        print(kind, ts, rest)


main()
