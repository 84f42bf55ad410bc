#!/usr/bin/env bash
# JIT symbol maps (/tmp/perf-PID.map, which anyone can create) are kept in
# the capture only for the traced processes, and only when the file is a
# regular one, with one link, owned by the process's user: a symlink to a
# file of root's, a hard link to one, a map owned by another user, and the
# map of a process outside the recording are all left out.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to own a map"
"$F2T" record -q -F 999 -a -d 0.1 -o "$TMP/probe.fxt" 2>/dev/null ||
	skip "no CPU sampling here (JIT maps are read for sampled processes only)"

# The markers live in files the command copies, so that they do not appear
# in its command line (which the capture keeps).
mark() { echo "7f000000$2000 40 F2TJIT_$1_$$" >"$TMP/$1.map"; }
for m in own symlinked hardlinked other_owner untraced; do mark "$m" "$(( ${#m} % 10 ))"; done
chmod 644 "$TMP"/*.map
# Hard links need the same file system: /tmp, where the maps are.
secret=$(mktemp /tmp/f2t-secret.XXXXXX) || fail "mktemp"
cp "$TMP/hardlinked.map" "$secret"
maps=()
trap 'rm -f "${maps[@]}" "$secret"; rm -rf "$TMP"' EXIT

# Outside the recording: its own map, owned by its own user (root).
sh -c "cp '$TMP/untraced.map' /tmp/perf-\$\$.map; exec sleep 30" &
outsider=$!
maps+=("/tmp/perf-$outsider.map")

# Each subshell writes its map, then lives a little, so it is sampled.
"$F2T" record -q -F 999 -k "$TMP/j.cap" -o "$TMP/j.fxt" -- sh -c "
	sh -c 'cp $TMP/own.map /tmp/perf-\$\$.map; echo \$\$; sleep 0.2'
	sh -c 'ln -s $TMP/symlinked.map /tmp/perf-\$\$.map; echo \$\$; sleep 0.2'
	sh -c 'ln $secret /tmp/perf-\$\$.map; echo \$\$; sleep 0.2'
	sh -c 'cp $TMP/other_owner.map /tmp/perf-\$\$.map; chown nobody /tmp/perf-\$\$.map; echo \$\$; sleep 0.2'
" >"$TMP/pids" 2>"$TMP/err"
rc=$?
kill "$outsider" 2>/dev/null
while read -r p; do maps+=("/tmp/perf-$p.map"); done <"$TMP/pids"
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/pids")" -eq 4 ] || fail "the command did not run its four parts"
[ -L "${maps[2]}" ] || fail "the symlinked map was not made"

kept() { grep -aq "F2TJIT_$1_$$" "$TMP/j.cap"; }
kept own || fail "the map of a traced process, owned by its user, was left out"
for m in symlinked hardlinked other_owner untraced; do
	kept "$m" && fail "the $m map was kept in the capture"
done
ok "JIT maps: the traced process's own kept; symlinked, hard-linked, another user's and an untraced process's left out"
exit 0
