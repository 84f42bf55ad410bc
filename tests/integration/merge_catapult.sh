#!/usr/bin/env bash
# A merged trace imports into catapult's Trace Viewer (chrome://tracing) with
# no warning the kernel trace alone does not have, while the same two traces
# concatenated by hand (two clock_sync events with one id in one clock
# domain) fail to import, or the check proves nothing.  Trace Viewer's own
# importers run through ttv-check (TTV_CHECK, or ttv-check on PATH).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ttv=${TTV_CHECK:-$(command -v ttv-check)}
[ -n "$ttv" ] && [ -x "$ttv" ] ||
	{ echo "no Trace Viewer importer: set TTV_CHECK to ttv-check (catapult's importers under node)"; exit 77; }
command -v node >/dev/null || { echo "ttv-check needs node (Debian: nodejs)"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$F2T" convert -q "$here/../fixtures/sched-tcp.cap" -o "$out/sched.json" || exit 1
# The kernel side gets the receiver event a "trace_event_clock_sync:
# name=demo-sync" marker becomes; the app's own trace, on a clock 1000 s
# ahead, has slices on a thread of the kernel trace and the issuer event.
python3 - "$out" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
k = json.load(open(d + '/sched.json'))
T, AHEAD, pid = 1848210000.0, 1e9, 19921
k['traceEvents'].append({'name': 'clock_sync', 'ph': 'c', 'ts': T, 'pid': 0, 'tid': 0,
                         'args': {'sync_id': 'demo-sync'}})
json.dump(k, open(d + '/kern.json', 'w'))
ev = [{'name': 'clock_sync', 'ph': 'c', 'ts': T + AHEAD + 1, 'pid': pid, 'tid': pid,
       'args': {'sync_id': 'demo-sync', 'issue_ts': T + AHEAD - 1}}]
for i in range(20):
    t = T + AHEAD + 100 + i * 1000
    ev += [{'name': 'frame', 'cat': 'app', 'ph': 'B', 'ts': t, 'pid': pid, 'tid': pid},
           {'name': 'frame', 'cat': 'app', 'ph': 'E', 'ts': t + 500, 'pid': pid, 'tid': pid},
           {'name': 'decode', 'cat': 'app', 'ph': 'X', 'ts': t + 50, 'dur': 100, 'pid': pid, 'tid': pid}]
json.dump({'traceEvents': ev}, open(d + '/app.json', 'w'))
# The control: shifted by hand, both clock_sync events kept.
for e in ev:
    e['ts'] -= AHEAD
    if e['ph'] == 'c':
        e['args']['issue_ts'] -= AHEAD
k['traceEvents'] += ev
json.dump(k, open(d + '/concat.json', 'w'))
PY
"$F2T" merge -q -o "$out/merged.json" "$out/kern.json" "$out/app.json" || exit 1
for t in "$out/kern.json" "$out/merged.json" "$out/concat.json"; do
	printf '%s: %s\n' "$t" "$("$ttv" "$t" 2>&1 | tail -1)"
done > "$out/report"
python3 - "$out/report" <<'PY'
import json, sys
res = {}
for line in open(sys.argv[1]):
    name, sep, js = line.partition(': ')
    if sep and js.startswith('{'):
        res[name.rsplit('/', 1)[-1]] = json.loads(js)
for f in ('kern.json', 'merged.json', 'concat.json'):
    if f not in res:
        sys.exit('FAIL: no result for %s:\n%s' % (f, open(sys.argv[1]).read()))
if not res['kern.json']['ok']:
    sys.exit('FAIL: the kernel trace alone does not import: %s' % res['kern.json'].get('error'))
m = res['merged.json']
if not m['ok']:
    sys.exit('FAIL: merged trace does not import: %s' % m.get('error'))
new = set(m['warnings']) - set(res['kern.json']['warnings'])
if new:
    sys.exit('FAIL: merging added import warnings: %r' % sorted(new))
c = res['concat.json']
if c['ok'] or 'cannot sync with itself' not in c.get('error', ''):
    sys.exit('FAIL: the control imported, so this check proves nothing: %r' % c)
print('ok: merged trace imports with no new warning; the naive concatenation fails: '
      'A clock domain cannot sync with itself')
PY
