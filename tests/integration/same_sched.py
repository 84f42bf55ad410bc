#!/usr/bin/env python3
"""same_sched.py A B [--min N] [--margin M]

A and B: scheduling records (sched_records.py output) of the same events
recorded by two tracefs instances (ours and trace-cmd's, or ours and a
reference instance).  Two instances are two ring buffers: each event gets
its own timestamp in each, a few hundred ns apart, and each covers a
slightly different span.  So the records both hold (from the later start to
the earlier end, M in from each: default 20000, 20 µs in ns) are compared
CPU by CPU, in order, without their timestamps.  Exits 1 when they differ or
fewer than N (default 100) are compared.
"""
import collections
import sys


def load(path):
    recs = []
    for line in open(path).read().splitlines():
        kind, ts, rest = line.split(' ', 2)
        recs.append((kind, int(ts), rest))
    return recs


def main():
    args = sys.argv[1:]
    opt = {'--min': 100, '--margin': 20000}
    for k in opt:
        if k in args:
            i = args.index(k)
            opt[k] = int(args[i + 1])
            del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = load(args[0]), load(args[1])
    least, margin = opt['--min'], opt['--margin']
    if not a or not b:
        sys.exit(f'no records: {len(a)} and {len(b)}')
    lo = max(a[0][1], b[0][1]) + margin
    hi = min(a[-1][1], b[-1][1]) - margin

    def per_cpu(recs):
        out = collections.defaultdict(list)
        for kind, ts, rest in recs:
            if lo <= ts <= hi:
                out[rest.split()[0]].append(kind + ' ' + rest)
        return out

    pa, pb = per_cpu(a), per_cpu(b)
    n = sum(len(v) for v in pa.values())
    if pa != pb or n < least:
        print(f'{n} vs {sum(len(v) for v in pb.values())} records in the common span')
        for cpu in sorted(set(pa) | set(pb)):
            for x, y in zip(pa[cpu] + ['(none)'], pb[cpu] + ['(none)']):
                if x != y:
                    print(f'{args[0]}: {x}\n{args[1]}: {y}')
                    break
        sys.exit(1)
    print(f'ok: the same {n} scheduling records, CPU by CPU, in the span both hold')


main()
