#!/usr/bin/env bash
# The files record writes: nothing under an output's (or -k capture's) name
# until it is complete, so a run killed with SIGKILL leaves none, only a
# hidden temporary file; a kept capture readable by its owner only; a
# symlink another user planted at an output's name in a sticky directory
# refused, its target untouched, while one of ours is followed.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root

# SIGKILL while recording, then while converting (a busy workload makes the
# capture big enough for the conversion to last).
for phase in recording converting; do
	dir=$TMP/kill-$phase
	mkdir "$dir"
	if [ "$phase" = recording ]; then
		"$F2T" record -q -k "$dir/k.cap" -o "$dir/out.fxt" -o "$dir/out.json" -- sleep 5 &
		pid=$!
		sleep 1.5
	else
		[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
		# Pinned to one CPU: unpinned, the ping-pong's cross-CPU
		# wakeups make its duration vary from 1 s to 15 s with the VM.
		"$F2T" record -q -F 9999 -k "$dir/k.cap" -o "$dir/out.fxt" -o "$dir/out.json" \
			-o "$dir/out.txt" -- taskset -c 0 "$PINGPONG" 300000 >/dev/null &
		pid=$!
		# The conversion has begun once a file for out.fxt exists.
		deadline=$((SECONDS + 120))
		while ! ls -A "$dir" | grep -q 'out\.fxt'; do
			kill -0 "$pid" 2>/dev/null || fail "SIGKILL $phase: record ended before the conversion was seen"
			[ "$SECONDS" -lt "$deadline" ] || fail "SIGKILL $phase: the conversion never began (120 s)"
			sleep 0.02
		done
	fi
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	for name in out.fxt out.json out.txt; do
		[ -e "$dir/$name" ] && fail "SIGKILL $phase: $name left ($(stat -c %s "$dir/$name") bytes)"
	done
	case $phase in
	recording)
		[ -e "$dir/k.cap" ] && fail "SIGKILL $phase: k.cap left"
		ls -A "$dir" | grep -qv '^\.k\.cap\.f2t-......$' &&
			fail "SIGKILL $phase: left: $(ls -A "$dir")" ;;
	converting)
		ls -A "$dir" | grep -Ev '^(k\.cap|\.out\.(fxt|json|txt)\.f2t-......)$' &&
			fail "SIGKILL $phase: left: $(ls -A "$dir")" ;;
	esac
	ok "SIGKILL $phase: no output under its name; left: $(ls -A "$dir" | tr '\n' ' ')"
	# Its instance goes with the next run.
	"$F2T" record -q -a -d 0.1 -o "$TMP/next.fxt" || fail "the run after SIGKILL failed"
	instance_left "$pid" && fail "SIGKILL $phase: instance not removed by the next run"
done

# A kept capture holds kernel addresses and every process's mappings.
umask 022
"$F2T" record -q -k "$TMP/keep.cap" -o "$TMP/keep.fxt" -- true || fail "record -k failed"
mode=$(stat -c %a "$TMP/keep.cap")
[ "$mode" = 600 ] || fail "kept capture is mode $mode, want 600"
[ "$(stat -c %a "$TMP/keep.fxt")" = 644 ] || fail "output mode $(stat -c %a "$TMP/keep.fxt"), want 644 (umask 022)"
ok "kept capture mode 600, output 644 under umask 022"

# Symlinks at the output's name in a sticky world-writable directory.
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to own a planted symlink"
sticky=$(mktemp -d "${TMPDIR:-/tmp}/f2t-sticky.XXXXXX") || fail "mktemp"
trap 'rm -rf "$TMP" "$sticky"' EXIT
chmod 1777 "$sticky"
echo "precious" >"$TMP/target"
for what in output capture; do
	ln -s "$TMP/target" "$sticky/planted"
	chown -h nobody "$sticky/planted"
	if [ "$what" = output ]; then
		rec "$TMP/err" -q --format json -o "$sticky/planted" -- true
	else
		rec "$TMP/err" -q -k "$sticky/planted" -o "$TMP/sym.fxt" -- true
	fi
	[ "$RC" -eq 1 ] || fail "planted symlink as $what: exit $RC, want 1: $(cat "$TMP/err")"
	grep -qF "cannot write $sticky/planted: Permission denied" "$TMP/err" ||
		fail "planted symlink as $what: unexpected message: $(cat "$TMP/err")"
	[ "$(cat "$TMP/target")" = precious ] || fail "planted symlink as $what: its target was written"
	[ -L "$sticky/planted" ] || fail "planted symlink as $what: the symlink was replaced"
	instance_left "$RPID" && fail "planted symlink as $what: instance left behind"
	rm "$sticky/planted"
	ok "planted symlink as $what refused: $(cat "$TMP/err")"
done

# convert, for the same reason, and a symlink of ours, followed.
ln -s "$TMP/target" "$sticky/planted"
chown -h nobody "$sticky/planted"
"$F2T" convert -q "$TMP/keep.cap" --format json -o "$sticky/planted" 2>"$TMP/err" &&
	fail "convert through a planted symlink succeeded"
[ "$(cat "$TMP/target")" = precious ] || fail "convert: the planted symlink's target was written"
ok "convert through a planted symlink refused: $(cat "$TMP/err")"
ln -s "$TMP/mine.json" "$sticky/mine"
"$F2T" convert -q "$TMP/keep.cap" --format json -o "$sticky/mine" || fail "convert through our own symlink failed"
[ -L "$sticky/mine" ] && [ "$(head -c 1 "$TMP/mine.json")" = "{" ] ||
	fail "convert through our own symlink: the symlink was not followed to a JSON trace"
ok "our own symlink in the sticky directory is followed"
exit 0
