#!/usr/bin/env bash
# A task named a"b\c<newline>d<tab>e<0x01>f<0xff>é (tests/fixtures/weird-comm.cap,
# made by tests/fixtures/make-weird-comm-fixture.sh): the JSON must parse
# with Python's strict json module and give the name back exactly, the
# invalid byte as U+FFFD; in the ftrace text the newline, which would split
# the line and make Perfetto refuse the file, becomes '?'.  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$F2T" convert -q "$here/../fixtures/weird-comm.cap" -o "$out/w.json" -o "$out/w.txt" || exit 1
python3 "$here/check_json_trace.py" "$out/w.json" --systrace "$out/w.txt" || exit 1
python3 - "$out/w.json" "$out/w.txt" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1], encoding='utf-8'))
want = 'a"b\\c\nd\te\x01f\ufffd\u00e9'
names = [e for e in doc['traceEvents']
         if e['ph'] == 'M' and e['name'] in ('thread_name', 'process_name')
         and e['args']['name'] == want]
kinds = sorted(e['name'] for e in names)
assert kinds == ['process_name', 'thread_name'], kinds
pid = names[0]['pid']
in_text = 'a"b\\c?d\te\x01f\ufffd\u00e9-%d ' % pid
lines = [l for l in doc['systemTraceEvents'].split('\n') if in_text in l]
assert lines, 'no ftrace line names the task'
raw = open(sys.argv[2], 'rb').read()
assert b'a"b\\c?d\te\x01f\xff\xc3\xa9-%d ' % pid in raw, 'systrace text is not raw'
print(f'ok   the name comes back exactly from the JSON; {len(lines)} ftrace lines name it')
PY
