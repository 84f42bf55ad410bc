#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `record --open` records, writes its outputs, then serves the first .pftrace
# one to Perfetto UI on 127.0.0.1:9001 (as root without sudo no browser is
# started: the link is printed): a fetch with Perfetto UI's origin gets the
# file just written, and record then exits with the command's status.
# Without an output Perfetto UI opens, --open is a usage error.  Needs port
# 9001 free (skips otherwise: another program, or another tree's tests).
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v curl >/dev/null || skip "curl is not installed"

"$F2T" record --open -o "$TMP/t.txt" -- true >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- "--open: no output Perfetto UI opens" "$TMP/err" ||
	fail "--open with only a .txt output: $(cat "$TMP/err")"
ok "--open without a Perfetto output: $(head -1 "$TMP/err")"

curl -s -m 2 -o /dev/null http://127.0.0.1:9001/ && skip "port 9001 is in use here"
env -u SUDO_UID -u BROWSER "$F2T" record -q --no-sample --open -o "$TMP/t.json" \
	-o "$TMP/t.pftrace" -- sh -c 'sleep 0.1; exit 3' >"$TMP/link" 2>"$TMP/err" &
pid=$!
for _ in $(seq 200); do
	grep -q "^https://" "$TMP/link" && break
	kill -0 $pid 2>/dev/null || fail "record --open exited before serving: $(cat "$TMP/err")"
	sleep 0.05
done
[ "$(cat "$TMP/link")" = "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/t.pftrace" ] ||
	fail "record --open printed '$(cat "$TMP/link")'"
curl -s -H "Origin: https://ui.perfetto.dev" -o "$TMP/got" http://127.0.0.1:9001/t.pftrace ||
	fail "the fetch failed"
wait $pid
rc=$?
[ $rc -eq 3 ] || fail "record --open exited $rc, want the command's 3: $(cat "$TMP/err")"
cmp -s "$TMP/got" "$TMP/t.pftrace" || fail "the file served is not t.pftrace"
[ -s "$TMP/t.json" ] || fail "the other output was not written"
ok "record --open: served t.pftrace (not t.json) once, exited with the command's status 3"
exit 0
