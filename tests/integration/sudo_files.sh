#!/usr/bin/env bash
# Under sudo every file is the user's to open: run as through sudo by
# 'nobody' (SUDO_UID/SUDO_GID set here), no subcommand creates or replaces
# a file in a directory only root may write, none reads a file only root
# may read, and a symlink planted by another user in a sticky directory is
# refused at any component of a path, even by root itself.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
[ "$(id -u)" -eq 0 ] || skip "acting as through sudo needs root"
# The record parts need tracefs; the rest runs wherever root does.
can_record() { [ -z "${F2T_TRACEFS_STUCK:-}" ] && [ -d /sys/kernel/tracing/instances ]; }
getent passwd nobody >/dev/null || skip "no user 'nobody' to act as"
getent passwd daemon >/dev/null || skip "no user 'daemon' to plant links as"
uid=$(id -u nobody)
gid=$(id -g nobody)
as_nobody() { SUDO_UID=$uid SUDO_GID=$gid "$F2T" "$@"; }
chmod 755 "$TMP"

# nobody's own directory, and root's: mode 700, holding a file and inputs.
N=$TMP/n
R=$TMP/root-only
mkdir "$N" "$R" && chown "$uid:$gid" "$N" && chmod 700 "$R"
cp "$F2T_TESTS/fixtures/sched-tcp.cap" "$N/in.cap"
chown "$uid:$gid" "$N/in.cap"
"$F2T" convert -q "$N/in.cap" -o "$N/in.json" && chown "$uid:$gid" "$N/in.json" ||
	fail "converting the fixture as root"
echo "root's file" >"$R/victim"
cp "$N/in.cap" "$R/secret.cap"
cp "$N/in.json" "$R/secret.json"
printf '# tracer: nop\nSECRET-LINE-1 root only\nSECRET-LINE-2 root only\n' >"$R/secret.txt"
chmod 600 "$R"/*
snapshot() { stat -c '%n %s %Y %u:%g' "$R" "$R"/.* "$R"/* 2>/dev/null; md5sum "$R"/*; }
before=$(snapshot)

# expect_refused WHAT CMD...: exits non-zero, says why, leaves root's directory alone.
expect_refused() {
	local what=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err" && fail "$what: exit 0 ($(cat "$TMP/err"))"
	grep -qi "permission denied" "$TMP/err" || fail "$what: unexpected message: $(cat "$TMP/err")"
	[ "$(snapshot)" = "$before" ] || fail "$what: root's directory changed: $(snapshot)"
	grep -q SECRET "$TMP/out" "$TMP/err" && fail "$what: printed a root-only file's lines"
	ok "$what: $(head -1 "$TMP/err")"
}

# Writing into root's directory, replacing its file or not.
expect_refused "convert -o root-only/victim" as_nobody convert -q "$N/in.cap" --format json -o "$R/victim"
expect_refused "convert -o root-only/new.json" as_nobody convert -q "$N/in.cap" -o "$R/new.json"
expect_refused "report -o root-only/victim" as_nobody report "$N/in.cap" -o "$R/victim"
expect_refused "merge -o root-only/victim" as_nobody merge -q -o "$R/victim" "$N/in.json"
# open serves nothing the user could not read.
expect_refused "open root-only/secret.json" timeout 10 env SUDO_UID="$uid" SUDO_GID="$gid" \
	"$F2T" open --no-browser --port 39001 "$R/secret.json"
if can_record; then
	expect_refused "record -o root-only/new.fxt" as_nobody record -q -o "$R/new.fxt" -- true
	expect_refused "record -k root-only/new.cap" as_nobody record -q -k "$R/new.cap" -o "$N/r.fxt" -- true
	grep -q "instance ftrace2trace" "$TMP/err" && fail "record: tracing was set up first"
else
	echo "note: record's parts skipped: ${F2T_TRACEFS_STUCK:-no tracefs instances here}"
fi

# Reading root's files.
expect_refused "convert root-only/secret.cap" as_nobody convert -q "$R/secret.cap" -o "$N/x.json"
expect_refused "convert root-only/secret.txt" as_nobody convert "$R/secret.txt" -o "$N/x.json"
expect_refused "report root-only/secret.cap" as_nobody report "$R/secret.cap"
expect_refused "merge root-only/secret.json" as_nobody merge -q -o "$N/m.json" "$R/secret.json"
expect_refused "dump root-only/victim" as_nobody dump "$R/victim"
[ -e "$N/x.json" ] || [ -e "$N/m.json" ] && fail "an output was left after a refused input"

# The same, allowed where nobody may: the files are theirs.
as_nobody convert -q "$N/in.cap" -o "$N/ok.json" || fail "convert in nobody's directory"
written=(ok.json)
if can_record; then
	as_nobody record -q -k "$N/ok.cap" -o "$N/ok.fxt" -- true || fail "record in nobody's directory"
	written+=(ok.cap ok.fxt)
fi
for f in "${written[@]}"; do
	[ "$(stat -c %u:%g "$N/$f")" = "$uid:$gid" ] || fail "$f belongs to $(stat -c %u:%g "$N/$f")"
done
ok "in nobody's own directory: written, and theirs"

# A directory link planted in a sticky /tmp-like directory by another user
# (daemon), pointing at a directory nobody may write: refused at that
# component, whoever runs us.
S=$TMP/sticky
mkdir -m 1777 "$S"
mkdir "$N/target" && chown "$uid:$gid" "$N/target"
ln -s "$N/target" "$S/d" && chown -h daemon "$S/d"
expect_link_refused() {
	local what=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err" && fail "$what: exit 0"
	grep -qi "permission denied" "$TMP/err" || fail "$what: unexpected message: $(cat "$TMP/err")"
	[ -z "$(ls -A "$N/target")" ] || fail "$what: wrote through the link: $(ls -A "$N/target")"
	ok "$what: $(head -1 "$TMP/err")"
}
expect_link_refused "sudo convert -o sticky/daemon's-link/x" \
	as_nobody convert -q "$N/in.cap" -o "$S/d/x.json"
can_record && expect_link_refused "sudo record -o sticky/daemon's-link/x" \
	as_nobody record -q -o "$S/d/x.fxt" -- true
expect_link_refused "root convert -o sticky/daemon's-link/x" \
	"$F2T" convert -q "$N/in.cap" -o "$S/d/x.json"
expect_link_refused "root convert -o sticky/daemon's-link/../x" \
	"$F2T" convert -q "$N/in.cap" -o "$S/d/sub/../x.json"
# An input through such a link is refused too: the file it leads to is not read.
ln -s "$N/in.cap" "$S/in.cap" && chown -h daemon "$S/in.cap"
ln -s "$N/in.json" "$S/in.json" && chown -h daemon "$S/in.json"
for run in "convert -q $S/in.cap -o $N/z.json" "report $S/in.cap" "merge -q -o $N/z.json $S/in.json"; do
	# shellcheck disable=SC2086
	"$F2T" $run >"$TMP/out" 2>"$TMP/err" && fail "root $run: read through daemon's link"
	grep -qi "permission denied" "$TMP/err" || fail "root $run: unexpected message: $(cat "$TMP/err")"
	ok "root ${run%% *} of daemon's link in the sticky directory: $(head -1 "$TMP/err")"
done
# A link of the user's own in the same place is theirs to follow.
ln -s "$N/target" "$S/mine" && chown -h "$uid:$gid" "$S/mine"
as_nobody convert -q "$N/in.cap" -o "$S/mine/y.json" || fail "through nobody's own link"
[ -s "$N/target/y.json" ] || fail "nobody's own link: no file written through it"
ok "a link of the user's own in the sticky directory is followed"
exit 0
