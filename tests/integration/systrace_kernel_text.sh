#!/usr/bin/env bash
# The ftrace text we write for a captured fixture is the kernel's own text
# for the same events: tests/fixtures/sched-tcp.trace was read from a second
# tracefs instance that recorded the same window (see
# tests/fixtures/make-kernel-text-fixture.sh).  Then the same capture as
# JSON: its systemTraceEvents is that text, and it meets what Perfetto and
# catapult need (check_json_trace.py).  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../fixtures/sched-tcp
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$F2T" convert -q "$fx.cap" -o "$out/t.txt" -o "$out/t.json" || exit 1
python3 "$here/compare_ftrace_text.py" "$out/t.txt" "$fx.trace" || exit 1
python3 "$here/check_json_trace.py" "$out/t.json" --systrace "$out/t.txt" || exit 1
# Both names of the format, and standard output.
"$F2T" convert -q "$fx.cap" --format txt -o - > "$out/by-name.txt" || exit 1
"$F2T" convert -q "$fx.cap" --format systrace -o "$out/t2.dat" || exit 1
cmp "$out/t.txt" "$out/by-name.txt" && cmp "$out/t.txt" "$out/t2.dat" || exit 1
"$F2T" convert -q "$fx.cap" --format json -o - > "$out/stdout.json" || exit 1
cmp "$out/t.json" "$out/stdout.json" || exit 1
