#!/usr/bin/env python3
"""same_sched.py A B [--min N] [--margin M] [--tolerance T]

A and B: scheduling records (sched_records.py output) of the same events
recorded by two tracefs instances (ours and trace-cmd's, or ours and a
reference instance).  Two instances are two ring buffers: each event gets
its own timestamp in each, usually well under a microsecond apart but more
when an interrupt comes between the two writes, and each covers a slightly
different span (a buffer that overwrote its oldest pages cannot be compared
so).  So, CPU by CPU and without their timestamps, every record of A from M
after the later start to M before the earlier end (M: default
5000000, 5 ms in ns) must be one of B's in that span widened by T (default
50000, 50 µs in ns), and every record of B in the span narrowed by T one of
A's in it.  Exits 1 when not, or when fewer than N (default 100) are
compared.
"""
import collections
import sys


def load(path):
    out = collections.defaultdict(list)
    for line in open(path).read().splitlines():
        kind, ts, rest = line.split(' ', 2)
        out[rest.split()[0]].append((int(ts), kind + ' ' + rest))
    return out


def within(recs, lo, hi):
    return collections.Counter(text for ts, text in recs if lo <= ts <= hi)


def main():
    args = sys.argv[1:]
    opt = {'--min': 100, '--margin': 5000000, '--tolerance': 50000}
    for k in opt:
        if k in args:
            i = args.index(k)
            opt[k] = int(args[i + 1])
            del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = load(args[0]), load(args[1])
    if not a or not b:
        sys.exit(f'no records: {len(a)} and {len(b)} CPUs')
    first = lambda recs: min(v[0][0] for v in recs.values())
    last = lambda recs: max(v[-1][0] for v in recs.values())
    lo = max(first(a), first(b)) + opt['--margin']
    hi = min(last(a), last(b)) - opt['--margin']
    tol = opt['--tolerance']
    n, only = 0, []
    for cpu in sorted(set(a) | set(b)):
        ra, rb = a.get(cpu, []), b.get(cpu, [])
        n += sum(within(ra, lo, hi).values())
        only += [(args[0], cpu, t) for t in (within(ra, lo, hi) - within(rb, lo - tol, hi + tol))]
        only += [(args[1], cpu, t) for t in (within(rb, lo + tol, hi - tol) - within(ra, lo, hi))]
    if only or n < opt['--min']:
        print(f'{n} records of {args[0]} compared, {len(only)} kinds of record in one file only')
        for path, cpu, text in only[:6]:
            print(f'only in {path}: {text}')
        sys.exit(1)
    print(f'ok: the same {n} scheduling records, CPU by CPU, in the span both hold')


main()
