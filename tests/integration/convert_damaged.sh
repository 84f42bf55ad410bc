#!/usr/bin/env bash
# A damaged capture never crashes convert or report: each of a few hundred
# seeded corruptions of a real capture (bytes flipped in ring-buffer pages,
# the file cut short) either converts (and reports), or fails with exit 1
# and one error line naming the file and the offset, leaving no output
# behind.  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
exec python3 - "$F2T" "$here/../fixtures/sched-tcp.cap" <<'PY'
import os, random, struct, subprocess, sys, tempfile

f2t, fixture = sys.argv[1], sys.argv[2]
src = open(fixture, 'rb').read()
pages, off = [], 16
while off < len(src):
    rtype, _, length = struct.unpack_from('<IIQ', src, off)
    if rtype == 0xffff:
        break
    if rtype == 5:   # CPU_DATA
        pages.append((off + 16, length))
    off += 16 + ((length + 7) & ~7)
assert pages, 'fixture has no ring-buffer data'

rng = random.Random(20261122)
work = tempfile.mkdtemp()
cap, out = os.path.join(work, 'd.cap'), os.path.join(work, 'd.fxt')
converted = refused = 0
for i in range(300):
    d = bytearray(src)
    if i % 5 == 0:
        d = d[:rng.randrange(16, len(d))]
    else:
        start, length = rng.choice(pages)
        for _ in range(rng.randint(1, 16)):
            d[start + rng.randrange(length)] = rng.randrange(256)
    open(cap, 'wb').write(d)
    outcome = []
    for cmd in (['convert', '-q', cap, '-o', out], ['report', '-q', '-o', out, cap]):
        if os.path.exists(out):
            os.unlink(out)
        r = subprocess.run([f2t] + cmd, capture_output=True, text=True, errors='replace')
        outcome.append(r.returncode)
        if r.returncode == 0:
            continue
        err = r.stderr.strip().splitlines()
        if r.returncode != 1 or not err or 'offset' not in err[-1] or cap not in err[-1]:
            print(f'FAIL: case {i}: {cmd[0]}: exit {r.returncode}, stderr {r.stderr[-400:]!r}')
            sys.exit(1)
        if os.path.exists(out):
            print(f'FAIL: case {i}: {cmd[0]} refused but left {out} behind')
            sys.exit(1)
    if outcome[0] != outcome[1]:
        print(f'FAIL: case {i}: convert exit {outcome[0]}, report exit {outcome[1]}')
        sys.exit(1)
    if outcome[0]:
        refused += 1
    else:
        converted += 1
print(f'ok: 300 damaged captures: {converted} converted and reported, {refused} refused with file and offset, no crash')

# A page whose length words step kbuffer back to an earlier event (found by
# fuzzing): convert looped for ever on it; now refused with its offset.
start, length = pages[0]
d = bytearray(src)
page = open(os.path.join(os.path.dirname(fixture), '..', 'fuzz', 'crashes', 'ringbuf',
                         'kbuffer-steps-back'), 'rb').read()
d[start:start + 4096] = page.ljust(4096, b'\0')
open(cap, 'wb').write(d)
for cmd in (['convert', '-q', cap, '-o', out], ['report', '-q', '-o', out, cap]):
    try:
        r = subprocess.run([f2t] + cmd, capture_output=True, text=True, errors='replace', timeout=60)
    except subprocess.TimeoutExpired:
        print(f'FAIL: a page stepping back: {cmd[0]} still running after 60 s')
        sys.exit(1)
    if r.returncode != 1 or f'offset {start}: cpu ' not in r.stderr or 'before the one before it' not in r.stderr:
        print(f'FAIL: a page stepping back: {cmd[0]}: exit {r.returncode}, stderr {r.stderr[-400:]!r}')
        sys.exit(1)
print('ok: a page whose events step back is refused by convert and report, naming its offset')
PY
