#!/usr/bin/env bash
# trace.dat options that libtracecmd 1.3 mishandles are refused before it
# sees the file (tests/fixtures/make-libtracecmd-hazards.py makes them from
# the version 7 fixture): a GUEST option's negative CPU number (a write
# before its table), an empty PROCMAPS option (a read 4 GB away), a HOOK
# option (printed into standard output).  Each with an OFFSET option, which
# only libtracecmd applies, so libtracecmd would read it.  convert exits 1
# with one error line naming the file, writes nothing, and runs
# valgrind-clean where valgrind is installed.  The same file with the
# OFFSET option alone converts.  Needs no root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/record-common.bash"
command -v python3 >/dev/null || skip "python3 is not installed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make_case() {
	python3 "$here/../fixtures/make-libtracecmd-hazards.py" \
		"$here/../fixtures/tracedat-v7.dat" "$1" "$work/$1.dat" || fail "cannot make $1.dat"
}
vg=()
if command -v valgrind >/dev/null; then
	# Its own lines in a file of their own (it warns of syscalls it does not know, openat2).
	vg=(valgrind -q --error-exitcode=99 --log-file="$work/valgrind.log")
else
	echo "note: valgrind is not installed: exit status and messages only"
fi

make_case offset
"$F2T" convert -q "$work/offset.dat" --format json -o "$work/offset.json" 2>"$work/err" ||
	fail "offset.dat: exit $?: $(cat "$work/err")"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/offset.json" ||
	fail "offset.dat: the JSON does not parse"
ok "an OFFSET option alone: converted by libtracecmd"

for c in guest procmaps hook; do
	make_case "$c"
	"${vg[@]}" "$F2T" convert -q "$work/$c.dat" --format json -o - >"$work/$c.out" 2>"$work/$c.err"
	rc=$?
	[ "$rc" = 1 ] || fail "$c.dat: exit $rc, expected 1: $(head -c 2000 "$work/$c.err" "$work/valgrind.log" 2>/dev/null)"
	[ "$(wc -l <"$work/$c.err")" = 1 ] || fail "$c.dat: not one error line: $(head -c 2000 "$work/$c.err")"
	grep -q "error: $work/$c.dat: " "$work/$c.err" || fail "$c.dat: the error does not name the file: $(cat "$work/$c.err")"
	grep -q "crashed" "$work/$c.err" && fail "$c.dat: refused only by the crash guard: $(cat "$work/$c.err")"
	[ ! -s "$work/$c.out" ] || fail "$c.dat: wrote $(wc -c <"$work/$c.out") bytes to standard output"
	ok "$c.dat refused: $(cat "$work/$c.err")"
done
