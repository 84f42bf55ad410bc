#!/usr/bin/env bash
# A command run as another user cannot reach our terminal.  Under script(1)
# (a real terminal), as through sudo (SUDO_UID/SUDO_GID of 'nobody'), the
# command pushes "touch MARKER" into every terminal it can reach with
# TIOCSTI; the shell reading that terminal after the recorder exits must
# not run it.  The command gets a pseudo-terminal of its own, relayed: it
# reads what is typed, its window size is ours, Ctrl-C ends it and the
# recording (a valid trace, 130 as today), its exit status is ours, and our
# terminal's modes are back as they were.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v script >/dev/null || skip "no script(1) (util-linux) to give the recorder a terminal"
command -v pgrep >/dev/null || skip "no pgrep (procps) to wait for the command"
getent passwd nobody >/dev/null || skip "no user 'nobody' to run the command as"
uid=$(id -u nobody)
gid=$(id -g nobody)
chmod 755 "$TMP"
# Outputs are written as the sudo user, nobody.
chown "$uid:$gid" "$TMP"
cp "$B/tests/helpers/tiocsti" "$TMP/tiocsti" && chmod 755 "$TMP/tiocsti" || fail "no tiocsti helper"
sudo_env="SUDO_UID=$uid SUDO_GID=$gid"
rec="$F2T record -q --no-sample"

# in_script FEED OUT CMD: runs CMD (bash) in script(1); FEED (sh) writes the
# terminal's input, which stays open until FEED ends.
in_script() {
	sh -c "$1" | SHELL=$BASH timeout 120 script -qec "$3" /dev/null >"$2" 2>&1
}

# OUT without carriage returns and bash's bracketed-paste switches.
clean() {
	sed 's/\x1b\[?2004[hl]//g; s/\r//g' "$1"
}

# After the recorder, a shell reads lines from the terminal and runs them,
# as an interactive root shell would.
shell_after='while read -r -t 2 line; do echo "after: $line"; eval "$line"; done'

# Feeders wait for what they are about to type to make sense (up to 30 s):
# until_up PATTERN for a process of nobody's, until_file FILE.
waits="until_up() { i=0; until pgrep -u $uid -f \"\$1\" >/dev/null || [ \$i -ge 300 ]; do \
	sleep 0.1; i=\$((i + 1)); done; sleep 0.3; }; \
	until_file() { i=0; until [ -e \"\$1\" ] || [ \$i -ge 300 ]; do sleep 0.1; i=\$((i + 1)); done; \
	sleep 0.5; }"

if [ -r /proc/sys/dev/tty/legacy_tiocsti ] && [ "$(cat /proc/sys/dev/tty/legacy_tiocsti)" = 0 ]; then
	echo "note: dev.tty.legacy_tiocsti=0: TIOCSTI is refused here anyway"
	tiocsti_on=0
else
	tiocsti_on=1
fi

# The test can see an injection here: a command run as root keeps our
# terminal (as before), and its TIOCSTI is run by the shell.
if [ "$tiocsti_on" = 1 ]; then
	in_script "$waits; until_file $TMP/r.fxt; sleep 3" "$TMP/out0" "$sudo_env $rec --as-root -o $TMP/r.fxt -- \
		$TMP/tiocsti 'touch $TMP/ROOT'; $shell_after"
	[ -e "$TMP/ROOT" ] ||
		skip "TIOCSTI from a root command does not reach the terminal here: $(cat "$TMP/out0")"
	ok "positive control: a root command's TIOCSTI is run by the shell after us"
fi

# stdin the terminal (pseudo-terminal relayed), then stdin not a terminal
# (a session of its own, no controlling terminal).
for how in tty devnull; do
	redir=
	[ $how = devnull ] && redir="</dev/null"
	rm -f "$TMP/MARKER" "$TMP/x.fxt"
	in_script "$waits; until_file $TMP/x.fxt; sleep 3" "$TMP/out" "$sudo_env $rec -o $TMP/x.fxt -- \
		$TMP/tiocsti 'touch $TMP/MARKER' $redir; echo \"rc=\$?\"; $shell_after"
	grep -q '^rc=0' "$TMP/out" || fail "$how: record failed: $(cat "$TMP/out")"
	[ -e "$TMP/MARKER" ] &&
		fail "$how: the command's TIOCSTI reached our terminal and ran as root: $(cat "$TMP/out")"
	grep -q "^after: " "$TMP/out" &&
		fail "$how: the shell after us read what the command pushed: $(cat "$TMP/out")"
	is_fxt "$TMP/x.fxt" || fail "$how: no valid trace"
	ok "$how: nothing the command pushed reached our terminal ($(grep -c TIOCSTI "$TMP/out") targets tried)"
done

# Typing reaches the command, on a terminal other than ours; its exit
# status is ours; our window size is its, at the start and when it
# changes; our modes come back.
# The window is resized (SIGWINCH) once the command runs, before the line
# is typed.
in_script "$waits; until_up '^sh -c tty; stty size'; stty -F \$(cat $TMP/ourtty) rows 20 cols 90; \
	sleep 0.5; printf 'hello there\n'; until_file $TMP/i.fxt" "$TMP/out" \
	"stty rows 33 cols 111; tty | tee $TMP/ourtty; stty -g >$TMP/modes0; \
	$sudo_env $rec -o $TMP/i.fxt -- sh -c \
	'tty; stty size; read -r l; echo \"got:[\$l]\"; stty size; exit 7'; echo \"rc=\$?\"; \
	stty -g >$TMP/modes1"
clean "$TMP/out" >"$TMP/out.txt"
grep -q '^got:\[hello there\]$' "$TMP/out.txt" || fail "typed line not read: $(cat "$TMP/out.txt")"
grep -q '^rc=7$' "$TMP/out.txt" || fail "exit status not the command's 7: $(cat "$TMP/out.txt")"
grep -q '^33 111$' "$TMP/out.txt" || fail "window size not passed on: $(cat "$TMP/out.txt")"
grep -q '^20 90$' "$TMP/out.txt" || fail "new window size not passed on: $(cat "$TMP/out.txt")"
ours=$(sed -n 1p "$TMP/out.txt")
theirs=$(sed -n 2p "$TMP/out.txt")
case $theirs in /dev/pts/*) ;; *) fail "the command's stdin is not a terminal: $theirs" ;; esac
[ "$ours" != "$theirs" ] || fail "the command reads our terminal $ours"
cmp -s "$TMP/modes0" "$TMP/modes1" ||
	fail "terminal modes not restored: $(cat "$TMP/modes0") -> $(cat "$TMP/modes1")"
is_fxt "$TMP/i.fxt" || fail "interactive: no valid trace"
ok "typed line read on $theirs (ours $ours), window 33x111 then 20x90, exit 7 passed on, modes restored"

# Ctrl-C: the command gets SIGINT (130 is its status and ours), the
# recording stops and converts.
in_script "$waits; until_up '^sleep 30\$'; printf '\003'; until_file $TMP/c.fxt" "$TMP/out" "s=\$(date +%s); \
	$sudo_env $rec -o $TMP/c.fxt -- sleep 30; echo \"rc=\$? after \$((\$(date +%s) - s)) s\"; \
	stty -g >$TMP/modes2"
clean "$TMP/out" >"$TMP/out.txt"
# (the pseudo-terminal echoes the key as ^C before it)
grep -q 'rc=130 ' "$TMP/out.txt" || fail "Ctrl-C: want exit 130: $(cat "$TMP/out.txt")"
secs=$(sed -n 's/^.*rc=130 after \([0-9]*\) s$/\1/p' "$TMP/out.txt")
[ -n "$secs" ] && [ "$secs" -lt 15 ] || fail "Ctrl-C: did not stop soon: $(cat "$TMP/out.txt")"
is_fxt "$TMP/c.fxt" || fail "Ctrl-C: no valid trace"
cmp -s "$TMP/modes0" "$TMP/modes2" || fail "Ctrl-C: terminal modes not restored"
ok "Ctrl-C: exit 130 after ${secs} s, valid trace, modes restored"

# From an interactive shell with job control: an interactive shell as the
# command gets Ctrl-C alone (its job ends, it and the recording go on) and
# ignores Ctrl-Z at its prompt; its exit status is ours.
in_script "$waits; sleep 1; echo '$sudo_env $rec -o $TMP/b.fxt -- bash --norc -i'; \
	until_up 'bash --norc -i'; echo 'sleep 20.01'; until_up 'sleep 20.01'; printf '\003'; sleep 1; \
	echo 'echo still here as \$(id -u)'; sleep 0.5; printf '\032'; sleep 0.5; echo 'exit 5'; \
	until_file $TMP/b.fxt; echo 'echo rc=\$?'; sleep 0.5; echo exit" "$TMP/out" "bash --norc -i"
clean "$TMP/out" >"$TMP/out.txt"
grep -q "^still here as $uid$" "$TMP/out.txt" ||
	fail "the command's shell did not go on after Ctrl-C: $(cat "$TMP/out.txt")"
grep -q '^rc=5$' "$TMP/out.txt" || fail "shell as the command: want exit 5: $(cat "$TMP/out.txt")"
is_fxt "$TMP/b.fxt" || fail "shell as the command: no valid trace"
ok "an interactive shell as the command: Ctrl-C ends its job only, Ctrl-Z ignored, exit 5"

# Ctrl-Z stops the command and the recorder; fg resumes both.
in_script "$waits; sleep 1; echo '$sudo_env $rec -o $TMP/z.fxt -- sh -c \"sleep 3.01; echo slept; exit 3\"'; \
	until_up 'sleep 3.01'; printf '\032'; sleep 1; echo 'jobs; stty -a | grep -o -- -icanon'; sleep 4; \
	echo fg; until_file $TMP/z.fxt; echo 'echo rc=\$?'; sleep 0.5; echo exit" "$TMP/out" "bash --norc -i"
clean "$TMP/out" >"$TMP/out.txt"
grep -q '^\[1\]+ *Stopped .*record' "$TMP/out.txt" || fail "Ctrl-Z: record not stopped: $(cat "$TMP/out.txt")"
grep -q '^-icanon' "$TMP/out.txt" && fail "Ctrl-Z: terminal left in raw mode: $(cat "$TMP/out.txt")"
sed -n '/^\[1\]+ *Stopped/,/fg$/p' "$TMP/out.txt" | grep -q 'slept$' &&
	fail "Ctrl-Z: the command went on while stopped: $(cat "$TMP/out.txt")"
grep -q 'slept$' "$TMP/out.txt" && grep -q '^rc=3$' "$TMP/out.txt" ||
	fail "Ctrl-Z: fg did not resume the command to its exit 3: $(cat "$TMP/out.txt")"
is_fxt "$TMP/z.fxt" || fail "Ctrl-Z: no valid trace"
ok "Ctrl-Z: the command and record stopped, the terminal cooked; fg: both resumed, exit 3"
exit 0
