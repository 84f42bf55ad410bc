#!/usr/bin/env bash
# Every write error says so.  A full disk (a small tmpfs) and a full device
# (/dev/full's numbers, made here so that no system file is at stake) for
# convert, merge, dump and record: exit 1, one error line naming the file
# and the reason, nothing left behind (no output, no temporary file, no
# tracefs instance), a device given as the output still there.  record,
# when its capture fills the disk while recording, stops at once and says
# how far it got.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
[ "$(id -u)" -eq 0 ] || skip "a small tmpfs and a device node need root"

SMALL=$TMP/small
mkdir "$SMALL"
mount -t tmpfs -o size=64k f2t-small "$SMALL" || skip "cannot mount a tmpfs"
trap 'umount "$SMALL" 2>/dev/null; rm -rf "$TMP"' EXIT
mknod -m 666 "$TMP/full" c 1 7 || skip "cannot make a device node"
ENOSPC="No space left on device"

remount() {
	umount "$SMALL" && mount -t tmpfs -o size="$1" f2t-small "$SMALL" ||
		fail "cannot remount $SMALL with size $1"
}

# one_error ERRFILE WHAT FILE: exactly one error line, naming FILE, saying ENOSPC.
one_error() {
	local n
	n=$(grep -c '^ftrace2trace: error: ' "$1")
	[ "$n" -eq 1 ] || fail "$2: $n error lines, want 1: $(cat "$1")"
	grep -qF "ftrace2trace: error: $3" "$1" || fail "$2: the error does not name $3: $(cat "$1")"
	grep -qF "$ENOSPC" "$1" || fail "$2: the error does not say '$ENOSPC': $(cat "$1")"
}

small_empty() {
	[ -z "$(ls -A "$SMALL")" ] || fail "$1: left in $SMALL: $(ls -A "$SMALL")"
}

fixture=$F2T_TESTS/fixtures/sched-tcp.cap
"$F2T" convert -q "$fixture" -o "$TMP/in.fxt" -o "$TMP/in.json" || fail "cannot convert $fixture"

# convert
"$F2T" convert -q "$fixture" -o "$SMALL/out.json" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "convert, full disk: exit $rc"
one_error "$TMP/err" "convert, full disk" "$SMALL/out.json"
small_empty "convert, full disk"
ok "convert, full disk: $(cat "$TMP/err")"

"$F2T" convert -q "$fixture" --format json -o "$TMP/full" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "convert, full device: exit $rc"
[ -c "$TMP/full" ] || fail "convert, full device: the device node $TMP/full was removed"
one_error "$TMP/err" "convert, full device" "$TMP/full"
ok "convert, full device: $(cat "$TMP/err"), the device is still there"

# merge
"$F2T" merge -q -o "$SMALL/m.json" "$TMP/in.json" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "merge, full disk: exit $rc"
one_error "$TMP/err" "merge, full disk" "$SMALL/m.json"
small_empty "merge, full disk"
ok "merge, full disk: $(cat "$TMP/err")"

"$F2T" merge -q -o "$TMP/full" "$TMP/in.json" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "merge, full device: exit $rc"
[ -c "$TMP/full" ] || fail "merge, full device: the device node was removed"
one_error "$TMP/err" "merge, full device" "$TMP/full"
ok "merge, full device: $(cat "$TMP/err")"

# dump (standard output only: the shell makes the file)
"$F2T" dump "$TMP/in.fxt" >"$SMALL/d.txt" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "dump, full disk: exit $rc"
one_error "$TMP/err" "dump, full disk" "$SMALL/d.txt"
rm -f "$SMALL/d.txt"
ok "dump, full disk: $(cat "$TMP/err")"

"$F2T" dump "$TMP/in.fxt" >"$TMP/full" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "dump, full device: exit $rc"
one_error "$TMP/err" "dump, full device" "$TMP/full"
ok "dump, full device: $(cat "$TMP/err")"

# record
need_root
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"

# The capture goes next to the output: 64 KB do not hold its first records.
rec "$TMP/err" -a -d 2 -o "$SMALL/r.fxt"
[ "$RC" -eq 1 ] || fail "record, full disk at start: exit $RC: $(cat "$TMP/err")"
one_error "$TMP/err" "record, full disk at start" "$SMALL/.r.fxt.f2t-"
instance_left "$RPID" && fail "record, full disk at start: instance left behind"
small_empty "record, full disk at start"
ok "record, full disk at start: $(cat "$TMP/err")"

rec "$TMP/err" -a -d 2 -k "$SMALL/k.cap" -o "$TMP/r.fxt"
[ "$RC" -eq 1 ] || fail "record -k, full disk: exit $RC: $(cat "$TMP/err")"
one_error "$TMP/err" "record -k, full disk" "$SMALL/k.cap"
instance_left "$RPID" && fail "record -k, full disk: instance left behind"
small_empty "record -k, full disk"
[ -e "$TMP/r.fxt" ] && fail "record -k, full disk: an output was written"
ok "record -k, full disk: $(cat "$TMP/err")"

# Full while recording: room for what is saved at the start (measured on a
# short run: formats, kernel symbols, /proc) and 4 MB more, which a busy
# workload sampled at 4999 Hz fills in well under the 20 s asked for.
"$F2T" record -q -a -d 0.2 -F 4999 -k "$TMP/probe.cap" -o "$TMP/probe.fxt" ||
	fail "probe recording failed"
remount $(( $(stat -c %s "$TMP/probe.cap") / 1024 + 4096 ))k
"$PINGPONG" 3000000 >/dev/null &
load=$!
start=$(date +%s)
rec "$TMP/err" -a -d 20 -F 4999 -o "$SMALL/r.fxt"
secs=$(($(date +%s) - start))
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null
[ "$RC" -eq 1 ] || fail "record, disk full while recording: exit $RC: $(cat "$TMP/err")"
one_error "$TMP/err" "record, disk full while recording" "$SMALL/.r.fxt.f2t-"
grep -q "recording stopped after [0-9.]* s, [0-9.]* [KMG]*B captured" "$TMP/err" ||
	fail "record, disk full while recording: does not say how far it got: $(cat "$TMP/err")"
[ "$secs" -lt 15 ] || fail "record, disk full while recording: went on for $secs s"
instance_left "$RPID" && fail "record, disk full while recording: instance left behind"
small_empty "record, disk full while recording"
ok "record, disk full while recording, stopped after $secs s: $(cat "$TMP/err")"

# The capture fits (-k elsewhere), the output does not.
remount 64k
rec "$TMP/err" -q -a -d 1 -k "$TMP/k2.cap" -o "$SMALL/r.json"
[ "$RC" -eq 1 ] || fail "record, output on a full disk: exit $RC: $(cat "$TMP/err")"
one_error "$TMP/err" "record, output on a full disk" "$SMALL/r.json"
small_empty "record, output on a full disk"
"$F2T" convert -q "$TMP/k2.cap" -o "$TMP/k2.fxt" && is_fxt "$TMP/k2.fxt" ||
	fail "record, output on a full disk: the kept capture does not convert"
ok "record, output on a full disk: $(cat "$TMP/err"); the kept capture converts"
exit 0
