#!/usr/bin/env bash
# Imports our JSON into catapult's Trace Viewer (the engine of
# chrome://tracing) with its own importers, through ttv-check (TTV_CHECK, or
# ttv-check on PATH): the fixtures, a recording made now when root, and the
# ftrace text embedded in a JSON file of someone else's.  No import may
# fail, the markers draw no warning, the kernel text gives CPU slices and
# named threads.  A control with the clock link removed must fail, or the
# check proves nothing.  With CATAPULT=<a catapult checkout> and Chromium,
# scripts/catapult-check also runs the whole viewer and checks that threads
# woken from sleep mostly show Runnable before Running.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ttv=${TTV_CHECK:-$(command -v ttv-check)}
[ -n "$ttv" ] && [ -x "$ttv" ] ||
	{ echo "no Trace Viewer importer: set TTV_CHECK to ttv-check (catapult's importers under node)"; exit 77; }
command -v node >/dev/null || { echo "ttv-check needs node (Debian: nodejs)"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$F2T" convert -q "$here/../fixtures/sched-tcp.cap" -o "$out/sched.json" -o "$out/sched.txt" || exit 1
"$F2T" convert -q "$here/../fixtures/weird-comm.cap" -o "$out/weird.json" || exit 1
traces=("$out/sched.json" "$out/sched.txt" "$out/weird.json")
if [ "$(id -u)" -eq 0 ] && [ -z "${F2T_TRACEFS_STUCK:-}" ]; then
	work=("$B/tests/helpers/pingpong" 2000)
	[ -x "${work[0]}" ] || work=(sh -c 'ls / > /dev/null; sleep 0.05')
	"$F2T" record -q -o "$out/rec.json" -- "${work[@]}" > /dev/null || exit 1
	traces+=("$out/rec.json")
	# Markers of every kind, nested slices and clock syncs among them.
	if [ -x "$B/tests/helpers/marker_demo" ]; then
		"$F2T" record -q -o "$out/markers.json" -- "$B/tests/helpers/marker_demo" -t 2 -n 20 \
			> /dev/null || exit 1
		traces+=("$out/markers.json")
	fi
fi
python3 - "$out" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
doc = json.load(open(d + '/sched.json'))
# A timed event of someone else's: now catapult must link the two clocks.
work = {'name': 'work', 'ph': 'X', 'ts': 1848210000.0, 'dur': 500.0, 'pid': 1, 'tid': 1}
doc['traceEvents'].append(work)
json.dump(doc, open(d + '/timed.json', 'w'))
json.dump({'traceEvents': [work], 'systemTraceEvents': open(d + '/sched.txt').read()},
          open(d + '/embedded.json', 'w'))
doc['systemTraceEvents'] = doc['systemTraceEvents'].replace('# clock_type=LINUX_CLOCK_MONOTONIC\n', '')
json.dump(doc, open(d + '/nolink.json', 'w'))
PY
traces+=("$out/timed.json" "$out/embedded.json")
for t in "${traces[@]}" "$out/nolink.json"; do
	printf '%s: %s\n' "$t" "$("$ttv" "$t" 2>&1 | tail -1)"
done > "$out/result"
python3 - "$out/result" <<'PY' || exit 1
import json, sys
res = {}
for line in open(sys.argv[1]):
    name, _, js = line.partition(': ')
    res[name.rsplit('/', 1)[-1]] = json.loads(js)
for name, r in sorted(res.items()):
    if name == 'nolink.json':
        continue
    assert r.get('ok'), f'{name}: import failed: {r.get("error")}'
    c = r['counts']
    print(f'ok   {name}: {c["cpuSlices"]} CPU slices, {c["namedThreads"]}/{c["threads"]} threads named, '
          f'{c["clockSyncs"]} clock syncs, {r.get("warningsTotal", 0)} warnings')
    assert c['cpuSlices'] > 0 and c['namedThreads'] > 0, f'{name}: no scheduling drawn: {c}'
    if name == 'markers.json':
        # Every kind of marker, and no warning about any: only about the
        # kernel events Trace Viewer predates (sched_waking, prev_state I).
        odd = [w for w in r.get('warnings', {}) if not w.startswith(
            ('parse_error: Unknown event', 'parse_error: Unrecognized sleep state'))]
        assert not odd, f'{name}: {odd}'
        assert c['threadSlices'] > 0 and c['asyncSlices'] > 0 and c['counters'] > 0, c
n = res['nolink.json']
assert not n.get('ok') and 'No clock sync markers' in n.get('error', ''), \
    f'the control without a clock link imported, so this check is blind: {n}'
print('ok   without the clock link Trace Viewer refuses the file, as expected')
PY
# The whole viewer in Chromium, where there is one: wake-ups seen as Runnable.
check=$here/../../scripts/catapult-check
if [ -n "${CATAPULT:-}" ] && [ -e "$CATAPULT/tracing/bin/trace2html" ] &&
   { command -v chromium >/dev/null || command -v chromium-browser >/dev/null || [ -n "${CHROMIUM:-}" ]; }; then
	"$check" "${traces[@]}" > "$out/result" || { cat "$out/result"; exit 1; }
	python3 - "$out/result" <<'PY' || exit 1
import json, sys
for line in open(sys.argv[1]):
    name, res = line.split(': ', 1)
    res = json.loads(res)
    r, s = res['runnable_to_running'], res['sleep_to_running']
    # Some sleeps run straight on in catapult, for reasons in the text: it
    # takes a wake-up only strictly between two running slices, and the
    # text has microseconds, so a wake-up in the same microsecond as the
    # switch to the task is dropped (common on a busy pair of threads); and
    # the kernel does not emit every switch (see sched_gaps).
    if name.endswith('markers.json'):
        continue
    live = name.endswith('rec.json')
    assert r > 0 and (r > s if live else s * 10 <= r), \
        f'{name}: Runnable->Running {r}, sleep->Running {s}'
print('ok   woken threads show Runnable before Running (the whole viewer, in Chromium)')
PY
fi
exit 0
