#!/usr/bin/env bash
# The files other processes map are read at stop (build-ids) and at the
# conversion (symbols) by root; their owner may put something else at the
# path meanwhile.  A user's programs map copies of a binary from a directory
# the user owns; while `record -a` runs, each copy is replaced:
#   run 1: by a FIFO, for a program still running at stop and for one
#          killed before it: the stop must not wait for a writer (a plain
#          open() does, for ever); the output is whole, the summary counts
#          the skipped files, and the running program's build-id is still
#          saved (read from its mapping, not from the name);
#   run 2: by a symlink to /dev/zero, and to /dev/ptmx (a device whose
#          open() makes a terminal): neither device is ever opened (strace).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
BURN=$B/tests/helpers/burn
[ -x "$BURN" ] || skip "$BURN not built (make tests)"
"$F2T" record -q -F 999 -a -d 0.1 -o "$TMP/probe.fxt" 2>/dev/null ||
	skip "no CPU sampling here (the mapped files are read for sampled processes)"
command -v readelf >/dev/null || skip "readelf (binutils) not installed"

# The user's directory; as nobody when there is one, else as root.
U=$TMP/user
mkdir "$U" || fail "mkdir"
chmod 755 "$TMP"
as_user=()
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chown nobody "$U"
	as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
fi
bid=$(readelf -n "$BURN" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$bid" ] || skip "$BURN has no build-id note"

progs=()
trap 'kill "${progs[@]}" 2>/dev/null; rm -rf "$TMP"' EXIT

# start NAME: runs a copy of burn as $U/NAME for 60 s; sets PROG.
names=()
start() {
	names+=("$1")
	cp "$BURN" "$U/$1" && chmod 755 "$U/$1" || fail "cp"
	"${as_user[@]}" "$U/$1" 60 >/dev/null &
	PROG=$!
	progs+=("$PROG")
}

# recording CAP WRAPPER... -- RECORD-ARGS: starts `record -k CAP` (through
# WRAPPER, e.g. strace) in the background and returns once the capture
# holds the maps of every program started (record writes them there at
# once, after tracing starts); sets RPID and T0.
recording() {
	local cap=$1 wrap=() name
	shift
	while [ "$1" != -- ]; do wrap+=("$1"); shift; done
	shift
	T0=$(date +%s%N)
	timeout -k 5 60 "${wrap[@]}" "$F2T" record -k "$cap" "$@" 2>"$TMP/err" &
	RPID=$!
	for name in "${names[@]}"; do
		for _ in $(seq 600); do
			grep -aqF "$U/$name" "$(dirname "$cap")"/."$(basename "$cap")".f2t-* 2>/dev/null &&
				break
			sleep 0.05
		done
		grep -aqF "$U/$name" "$(dirname "$cap")"/."$(basename "$cap")".f2t-* 2>/dev/null ||
			fail "the capture never got the maps of $U/$name: $(cat "$TMP/err")"
	done
}

# finish: waits for the recording; sets RC and SECS (whole seconds it took).
finish() {
	wait "$RPID"
	RC=$?
	SECS=$(( ($(date +%s%N) - T0) / 1000000000 ))
}

# skipped_count: the N of the summary's "N files named by ... skipped".
skipped_count() {
	sed -n 's/^ftrace2trace: \([0-9]*\) files named by the traced processes skipped.*/\1/p' "$TMP/err"
}

# Run 1: FIFOs.
start live; live=$PROG
start gone; gone=$PROG
recording "$TMP/a.cap" -- -a -d 4 -o "$TMP/a.fxt"
rm "$U/live" "$U/gone" && "${as_user[@]}" mkfifo "$U/live" "$U/gone" || fail "mkfifo"
kill "$gone"
finish
[ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] ||
	fail "record -a -d 4 still ran after 60 s: the stop waits on a FIFO put at a mapped file's path"
[ "$RC" -eq 0 ] || fail "record: exit $RC: $(cat "$TMP/err")"
[ "$SECS" -le 20 ] || fail "record -a -d 4 took $SECS s"
is_fxt "$TMP/a.fxt" || fail "a.fxt is not a whole trace"
n=$(skipped_count)
[ -n "$n" ] && [ "$n" -ge 2 ] ||
	fail "the summary does not count the 2 FIFOs as skipped: $(grep -i skipped "$TMP/err")"
grep -aq "$bid $U/live" "$TMP/a.cap" ||
	fail "the build-id of the running program ($bid) was not saved from its mapping"
ok "FIFOs at mapped paths: record -a -d 4 ended in $SECS s, output whole, $n files counted as skipped, the live program's build-id read from its mapping"

# Run 2: symlinks to devices, under strace to see what is opened.
if ! command -v strace >/dev/null; then
	skip "strace not installed: the symlink half cannot see what is opened"
fi
kill "$live" 2>/dev/null
rm -f "$U/live" "$U/gone"
names=()
start zero; zero=$PROG
start tty; tty=$PROG
recording "$TMP/b.cap" strace -f -y -qq -e trace=open,openat -o "$TMP/strace" -- -a -d 5 -o "$TMP/b.fxt"
rm "$U/zero" "$U/tty" || fail "rm"
"${as_user[@]}" ln -s /dev/zero "$U/zero" && "${as_user[@]}" ln -s /dev/ptmx "$U/tty" ||
	fail "ln -s"
kill "$tty"
finish
[ "$RC" -eq 0 ] || fail "record under strace: exit $RC: $(cat "$TMP/err")"
is_fxt "$TMP/b.fxt" || fail "b.fxt is not a whole trace"
if grep -E '</dev/(zero|ptmx|pts/ptmx)>' "$TMP/strace" >"$TMP/opened"; then
	fail "a device behind a swapped-in symlink was opened: $(head -3 "$TMP/opened")"
fi
grep -q "$U/zero" "$TMP/strace" || fail "strace saw no open of $U/zero at all: the test tested nothing"
n=$(skipped_count)
[ -n "$n" ] && [ "$n" -ge 2 ] ||
	fail "the summary does not count the 2 symlinks as skipped: $(grep -i skipped "$TMP/err"); opens: $(grep -E "$U/(zero|tty)" "$TMP/strace" | head -6)"
ok "symlinks to /dev/zero and /dev/ptmx at mapped paths: not opened, $n files counted as skipped"
exit 0
