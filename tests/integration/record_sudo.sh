#!/usr/bin/env bash
# Least privilege.  Run as through sudo (SUDO_UID/SUDO_GID set here to the
# user 'nobody'), the command runs as that user, with their groups, HOME,
# USER and LOGNAME, and every file written belongs to them; --user NAME
# picks another user, --as-root keeps root; a user that cannot be taken on
# is an error before tracing starts.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
pw=$(getent passwd nobody) || skip "no user 'nobody' to run the command as"
uid=$(id -u nobody)
gid=$(id -g nobody)
home=$(printf '%s' "$pw" | cut -d: -f6)
chmod 755 "$TMP"
# The sudo user writes where they may: a directory of their own.
N=$TMP/n
mkdir "$N" && chown "$uid:$gid" "$N"

# uid gid [groups, sorted] HOME USER LOGNAME
show_ids='echo "$(id -u) $(id -g) [$(id -G | tr " " "\n" | sort -n | xargs)] $HOME $USER $LOGNAME"'
sorted_groups() { id -G "$1" | tr ' ' '\n' | sort -n | xargs; }
groups=$(sorted_groups nobody)

# As if run by `sudo` from nobody's session: what the environment says of root.
SUDO_UID=$uid SUDO_GID=$gid HOME=/root USER=root LOGNAME=root \
	"$F2T" record -q -k "$N/s.cap" -o "$N/s.fxt" -o "$N/s.json" -- sh -c "$show_ids" \
	>"$TMP/ids" 2>"$TMP/err" || fail "record under SUDO_UID: $(cat "$TMP/err")"
want="$uid $gid [$groups] $home nobody nobody"
[ "$(cat "$TMP/ids")" = "$want" ] || fail "command ran as '$(cat "$TMP/ids")', want '$want'"
ok "under sudo the command runs as: $(cat "$TMP/ids")"
for f in s.cap s.fxt s.json; do
	owner=$(stat -c %u:%g "$N/$f")
	[ "$owner" = "$uid:$gid" ] || fail "$f belongs to $owner, want $uid:$gid"
done
[ "$(stat -c %a "$N/s.cap")" = 600 ] || fail "kept capture mode $(stat -c %a "$N/s.cap")"
is_fxt "$N/s.fxt" || fail "under sudo: not a valid FXT output"
ok "outputs and kept capture belong to $uid:$gid, the capture mode 600"

# Supplementary groups: a user made for the test, in two extra groups.
if command -v useradd >/dev/null && command -v groupadd >/dev/null; then
	u=f2t-t$$
	trap 'userdel "$u" 2>/dev/null; groupdel "$u-a" 2>/dev/null; groupdel "$u-b" 2>/dev/null
	      rm -rf "$TMP"' EXIT
	groupadd "$u-a" && groupadd "$u-b" &&
		useradd -M -d /nonexistent-f2t -s /bin/sh -G "$u-a,$u-b" "$u" ||
		fail "cannot create the test user $u"
	want_u="$(id -u "$u") $(id -g "$u") [$(sorted_groups "$u")] /nonexistent-f2t $u $u"
	[ "$(id -G "$u" | wc -w)" -eq 3 ] || fail "test user $u: groups $(id -G "$u")"
	mkdir "$TMP/g" && chown "$u" "$TMP/g"
	SUDO_UID=$(id -u "$u") SUDO_GID=$(id -g "$u") \
		"$F2T" record -q -o "$TMP/g/g.fxt" -- sh -c "$show_ids" >"$TMP/ids" 2>"$TMP/err" ||
		fail "record as $u: $(cat "$TMP/err")"
	[ "$(cat "$TMP/ids")" = "$want_u" ] || fail "command ran as '$(cat "$TMP/ids")', want '$want_u'"
	ok "with supplementary groups: $(cat "$TMP/ids")"
else
	echo "note: no useradd; supplementary groups are checked with nobody's only"
fi

# convert and merge give their outputs to the sudo user too.
SUDO_UID=$uid SUDO_GID=$gid "$F2T" convert -q "$N/s.cap" -o "$N/c.fxt" ||
	fail "convert under SUDO_UID failed"
SUDO_UID=$uid SUDO_GID=$gid "$F2T" merge -q -o "$N/m.json" "$N/s.json" ||
	fail "merge under SUDO_UID failed"
for f in c.fxt m.json; do
	[ "$(stat -c %u:%g "$N/$f")" = "$uid:$gid" ] || fail "$f belongs to $(stat -c %u:%g "$N/$f")"
done
ok "convert and merge outputs belong to $uid:$gid"

# --as-root: the command stays root, the files still go to the sudo user.
SUDO_UID=$uid SUDO_GID=$gid "$F2T" record -q --as-root -o "$N/r.fxt" -- id -u \
	>"$TMP/ids" 2>"$TMP/err" || fail "--as-root: $(cat "$TMP/err")"
[ "$(cat "$TMP/ids")" = 0 ] || fail "--as-root: command ran as uid $(cat "$TMP/ids")"
[ "$(stat -c %u "$N/r.fxt")" = "$uid" ] || fail "--as-root: output belongs to $(stat -c %u "$N/r.fxt")"
ok "--as-root: the command runs as root, the output is still the sudo user's"

# --user NAME without sudo: the command runs as NAME, the files stay ours.
env -u SUDO_UID -u SUDO_GID "$F2T" record -q --user nobody -o "$TMP/u.fxt" -- sh -c "$show_ids" \
	>"$TMP/ids" 2>"$TMP/err" || fail "--user nobody: $(cat "$TMP/err")"
[ "$(cat "$TMP/ids")" = "$want" ] || fail "--user nobody: ran as '$(cat "$TMP/ids")'"
[ "$(stat -c %u "$TMP/u.fxt")" = 0 ] || fail "--user: output belongs to $(stat -c %u "$TMP/u.fxt")"
ok "--user nobody: the command runs as nobody, the output is root's"

# Cannot become the user: an error before tracing starts, nothing left.
for bad in "--user no-such-user-$$" "SUDO_UID=4000000000" "SUDO_UID=abc"; do
	case $bad in
	--user*) rec "$TMP/err" -v $bad -o "$TMP/bad.fxt" -- true ;;
	*) env "$bad" SUDO_GID=1 "$F2T" record -v -o "$TMP/bad.fxt" -- true 2>"$TMP/err" & RPID=$!
	   wait "$RPID"; RC=$? ;;
	esac
	[ "$RC" -eq 1 ] || fail "$bad: exit $RC, want 1: $(cat "$TMP/err")"
	grep -q "instance ftrace2trace" "$TMP/err" && fail "$bad: tracing was set up first"
	[ -e "$TMP/bad.fxt" ] && fail "$bad: output left"
	ok "$bad: $(grep error "$TMP/err")"
done
if command -v setpriv >/dev/null; then
	# Without CAP_SETUID/CAP_SETGID neither we nor the child can act as the
	# user: refused before tracing is on.
	SUDO_UID=$uid SUDO_GID=$gid setpriv --bounding-set=-setuid,-setgid -- \
		"$F2T" record -o "$TMP/bad.fxt" -- true 2>"$TMP/err" &
	RPID=$!
	wait "$RPID"
	RC=$?
	[ "$RC" -eq 1 ] || fail "cannot drop: exit $RC: $(cat "$TMP/err")"
	grep -q "error: cannot write .*bad.fxt: Operation not permitted" "$TMP/err" ||
		fail "cannot drop: unexpected message: $(cat "$TMP/err")"
	grep -q "recorded" "$TMP/err" && fail "cannot drop: it recorded anyway"
	instance_left "$RPID" && fail "cannot drop: instance left behind"
	[ -e "$TMP/bad.fxt" ] && fail "cannot drop: output left"
	ok "cannot drop privileges: $(cat "$TMP/err")"
else
	echo "note: no setpriv; the failure to drop privileges is not tested"
fi
exit 0
