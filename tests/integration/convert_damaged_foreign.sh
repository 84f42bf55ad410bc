#!/usr/bin/env bash
# Damaged trace.dat and ftrace text never crash convert.  Seeded damage to
# the trace.dat fixtures (bytes changed anywhere, the file cut short): each
# case converts, or fails with exit 1 and one error line naming the file and
# the offset (or saying libtracecmd could not read it), leaving no output
# behind.  Damaged kernel text (lines cut, bytes changed, junk lines
# inserted) converts with the bad lines counted and the first shown by line
# number, or, when no line is an event, fails naming the line.  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
exec python3 - "$F2T" "$here/../fixtures" <<'PY'
import json, os, random, re, struct, subprocess, sys, tempfile

f2t, fx = sys.argv[1], sys.argv[2]
rng = random.Random(20261123)
work = tempfile.mkdtemp()
out = os.path.join(work, 'd.fxt')


def run(path):
    if os.path.exists(out):
        os.unlink(out)
    return subprocess.run([f2t, 'convert', '-q', path, '-o', out], capture_output=True,
                          text=True, errors='replace')


def refused(case, path, r, where):
    err = r.stderr.strip().splitlines()
    if r.returncode != 1 or not err or path not in err[-1] or not re.search(where, err[-1]):
        print(f'FAIL: {case}: exit {r.returncode}, stderr {r.stderr[-400:]!r}')
        sys.exit(1)
    if os.path.exists(out):
        print(f'FAIL: {case}: refused but left {out} behind')
        sys.exit(1)


for name in ('tracedat-v6.dat', 'tracedat-v7.dat'):
    src = open(os.path.join(fx, name), 'rb').read()
    path = os.path.join(work, name)
    converted = refusals = 0
    for i in range(150):
        d = bytearray(src)
        if i % 5 == 0:
            d = d[:rng.randrange(0, len(d))]
        else:
            for _ in range(rng.choice((1, 2, 4, 16))):
                d[rng.randrange(len(d))] = rng.randrange(256)
        open(path, 'wb').write(d)
        r = run(path)
        if r.returncode == 0:
            converted += 1
            continue
        refused(f'{name} case {i}', path, r, r'offset \d+|libtracecmd|event formats')
        refusals += 1
    print(f'ok: 150 damaged {name}: {converted} converted, {refusals} refused with the file '
          'and the offset or libtracecmd named, no crash')

# A header page libtraceevent cannot make sense of (libtracecmd 1.3 crashed on it).
d = bytearray(open(os.path.join(fx, 'tracedat-v6.dat'), 'rb').read())
at = d.index(b'offset:0;', d.index(b'header_page\0'))
d[at] = ord('k')
path = os.path.join(work, 'header.dat')
open(path, 'wb').write(d)
r = run(path)
refused('header page', path, r, rf'offset \d+: the header page format: ')
print('ok: a trace.dat whose header page does not parse is refused with its offset')
# A version 6 trace_clock text with an empty "[]" (libtracecmd 1.3 crashed in sscanf on it).
d = bytearray(open(os.path.join(fx, 'tracedat-v6.dat'), 'rb').read())
at = d.rindex(b'[mono]')
d[at:at + 6] = b'[]    '
open(path, 'wb').write(d)
r = run(path)
refused('trace clock', path, r, rf'offset {at}: the trace clock: ')
print('ok: a trace.dat whose trace_clock names no clock is refused with its offset')

# Two formats with one ID: the decoder and libtraceevent took different events
# for its records (a print record printed as bprint died of SIGBUS).
d = bytearray(open(os.path.join(fx, 'tracedat-v6.dat'), 'rb').read())
ids = [(m.start(1), m.group(1)) for m in re.finditer(rb'\nID: (\d+)\n', d)]
first = next(i for i in ids if len(i[1]) == 2)
second = next(i for i in ids if len(i[1]) == 2 and i[1] != first[1] and i[0] > first[0])
d[second[0]:second[0] + 2] = first[1]
open(path, 'wb').write(d)
r = run(path)
refused('duplicate ID', path, r, r'offset \d+: .*a second event format with the same ID')
print('ok: a trace.dat with two event formats of one ID is refused with the offset')
# A page whose length words step kbuffer back to an earlier event: trace-cmd
# report and our older builds loop for ever on it; refused, by either reader.
d = bytearray(open(os.path.join(fx, 'tracedat-v6.dat'), 'rb').read())
cpu0 = struct.unpack_from('<Q', d, d.index(b'flyrecord\0') + 10)[0]
d[cpu0:cpu0 + 4096] = open(os.path.join(fx, '..', 'fuzz', 'crashes', 'ringbuf',
                                         'kbuffer-steps-back'), 'rb').read().ljust(4096, b'\0')
open(path, 'wb').write(d)
for how, env in (('ours', {}), ('libtracecmd', {'F2T_TEST_TRACEDAT_LIBTRACECMD': '1'})):
    if os.path.exists(out):
        os.unlink(out)
    try:
        r = subprocess.run([f2t, 'convert', '-q', path, '-o', out], capture_output=True,
                           text=True, errors='replace', timeout=60, env={**os.environ, **env})
    except subprocess.TimeoutExpired:
        print(f'FAIL: a page stepping back, read by {how}: still converting after 60 s')
        sys.exit(1)
    refused(f'page stepping back ({how})', path, r, rf'offset \d+: cpu 0: .*before the one before it')
print('ok: a page whose events step back is refused with its offset, by our reader and libtracecmd')

lines = open(os.path.join(fx, 'sched-tcp.trace'), 'rb').read().split(b'\n')
path = os.path.join(work, 'd.trace')
converted = 0
for i in range(100):
    d = list(lines)
    for _ in range(rng.randint(1, 20)):
        k = rng.randrange(12, len(d))
        how = rng.randrange(3)
        if how == 0:
            d[k] = d[k][:rng.randrange(len(d[k]) + 1)]
        elif how == 1 and d[k]:
            b = bytearray(d[k])
            b[rng.randrange(len(b))] = rng.randrange(256)
            d[k] = bytes(b)
        else:
            d.insert(k, bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
    open(path, 'wb').write(b'\n'.join(d))
    r = run(path)
    if r.returncode != 0:
        print(f'FAIL: text case {i}: exit {r.returncode}, stderr {r.stderr[-400:]!r}')
        sys.exit(1)
    converted += 1
print(f'ok: {converted} damaged kernel texts converted, bad lines skipped and counted')

# Only junk after an ftrace header: refused, naming the first line that is no event.
open(path, 'w').write('# tracer: nop\n#\nnot an event\nnor this\n')
r = run(path)
refused('junk text', path, r, r'line 3: ')
# Bad lines are shown by line number, the first five, and counted.
open(path, 'w').write('# tracer: nop\n' + ''.join(f'junk {i}\n' for i in range(7)) +
                      '  a-1 [000] ..... 1.000001: x: y=1\n')
js = os.path.join(work, 'd.json')
r = subprocess.run([f2t, 'convert', path, '-o', js], capture_output=True, text=True)
shown = re.findall(r'line (\d+): not an ftrace event line', r.stderr)
counted = r.returncode == 0 and json.load(open(js))['otherData'].get('bad_records')
if r.returncode != 0 or shown != ['2', '3', '4', '5', '6'] or '7 lines in all' not in r.stderr \
        or counted != 7:
    print(f'FAIL: bad lines: exit {r.returncode}, shown {shown}, stderr {r.stderr[-600:]!r}')
    sys.exit(1)
print('ok: text with no event line refused naming line 3; bad lines shown by line number (5) and counted (7)')
PY
