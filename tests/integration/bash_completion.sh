#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# completion/ftrace2trace.bash, sourced into this bash and driven the way
# bash drives it (COMP_WORDS, COMP_CWORD): subcommands and options come from
# the built tool's --help, option arguments and operands complete to the
# right formats and files.  Needs no root.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
# The tool as a user types it: by name, found in PATH.
mkdir "$TMP/bin" && ln -s "$F2T" "$TMP/bin/ftrace2trace" || exit 1
PATH=$TMP/bin:$PATH
# shellcheck source=../../completion/ftrace2trace.bash
source "$here/../../completion/ftrace2trace.bash" || fail "sourcing the completion failed"
complete -p ftrace2trace | grep -q -- '-F _ftrace2trace' || fail "not registered: $(complete -p ftrace2trace 2>&1)"

mkdir "$TMP/work" && cd "$TMP/work" || exit 1
mkdir runs
touch a.cap b.fxt c.json d.txt e.other f.pftrace g.json.gz runs/r.cap

# comp WORD...: completes the last WORD; prints the candidates sorted, one line.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_ftrace2trace ftrace2trace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort -u | paste -sd' '
}
n=0
expect() {
	local want=$1 got
	shift
	got=$(comp "$@")
	[ "$got" = "$want" ] || fail "'$*<TAB>' gave '$got', want '$want'"
	n=$((n + 1))
}

expect "record report" ftrace2trace re
expect "a.cap d.txt runs" ftrace2trace report --off-cpu ""
expect "a.cap d.txt f.pftrace runs" ftrace2trace report ""
expect "convert dump merge open record report" ftrace2trace ""
expect "--help --version" ftrace2trace --
expect "--no-sample" ftrace2trace record --no-
expect "--flight-recorder --format --freq --function --function-graph" ftrace2trace record --f
expect "--trigger-latency --trigger-marker" ftrace2trace record --trigger-
expect "--offset --output" ftrace2trace merge --o
expect "--help --stats -h -s" ftrace2trace dump -
expect "" ftrace2trace record -d ""
# Option arguments.
expect "fxt json json.gz perfetto systrace txt" ftrace2trace convert --format ""
expect "--format=json --format=json.gz" ftrace2trace record --format=j
expect "json json.gz" ftrace2trace record --format = j
expect "b.fxt c.json d.txt f.pftrace g.json.gz runs" ftrace2trace convert a.cap -o ""
expect "c.json runs" ftrace2trace merge --output ""
expect "a.cap runs" ftrace2trace record -k ""
expect "fp" ftrace2trace record --call-graph f
expect "$$" ftrace2trace record -p "$$"
# Operands: each subcommand's own kinds of file (convert: a capture, trace.dat,
# text or a Perfetto trace; report --off-cpu: no Perfetto trace), and directories.
expect "a.cap d.txt f.pftrace runs" ftrace2trace convert ""
expect "runs/r.cap" ftrace2trace convert runs/
expect "b.fxt runs" ftrace2trace dump -s ""
expect "c.json runs" ftrace2trace merge -o m.json ""
expect "a.cap d.txt f.pftrace runs" ftrace2trace report --csv ""
expect "--slow --sort" ftrace2trace report --s
expect "--diff" ftrace2trace report --di
expect "--ndjson" ftrace2trace report --nd
expect "--all-processes" ftrace2trace report --all
expect "--no-browser" ftrace2trace open --no
expect "b.fxt c.json f.pftrace g.json.gz runs" ftrace2trace open ""
expect "--open" ftrace2trace record --op
expect "a.cap b.fxt c.json d.txt e.other f.pftrace g.json.gz runs" ftrace2trace report -o ""
# record's operand is a command; after it come that command's arguments.
expect "ftrace2trace" ftrace2trace record -o t.fxt -- ftrace2tr
expect "ftrace2trace" ftrace2trace record -d 1 ftrace2tr

# The format names offered are the ones the tool accepts, and every name
# its --help lists is offered.
for f in $(comp ftrace2trace convert --format ""); do
	"$F2T" convert -q "$here/../fixtures/sched-tcp.cap" --format "$f" -o "$TMP/out.$f" ||
		fail "--format $f is offered but refused"
	[ -s "$TMP/out.$f" ] || fail "--format $f wrote nothing"
done
for sub in record convert; do
	listed=$("$F2T" "$sub" --help | grep -A1 -- '--format NAME' | grep -o '[a-z]*, [a-z]*, [a-z]*' | tr -d ,)
	[ -n "$listed" ] || fail "$sub --help: no format list found on its --format lines"
	for f in $listed; do
		[[ " $(comp ftrace2trace "$sub" --format "") " == *" $f "* ]] ||
			fail "$sub --help lists format $f, completion does not offer it"
	done
done
echo "ok: $n completions as expected; offered formats all accepted"
exit 0
