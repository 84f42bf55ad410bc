#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `ftrace2trace open FILE` serves FILE once to Perfetto UI: the link names
# http://127.0.0.1:9001/NAME; a fetch with Origin https://ui.perfetto.dev
# gets the file's bytes (cmp) with the CORS header for that origin; the
# browser's preflight (Private Network Access) is answered; any other path
# (../ included), another origin, a Host that is not loopback, a bad or
# oversized request are refused; an idle connection does not hold up the
# fetch; the process exits 0 after it, 130 on SIGINT before it; a busy port
# is a clear error; a FIFO, a device, a capture are refused.  A $BROWSER
# given the link fetches the file as Perfetto UI would.  Needs curl.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v curl >/dev/null || { echo "SKIP: curl is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$TMP"' EXIT
UI=https://ui.perfetto.dev

# A port nobody listens on now (the tests of several trees may run at once).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve FILE [OPTIONS...]: `open --no-browser` in the background on $port.
serve() {
	local file=$1; shift
	port=$(free_port)
	"$F2T" open --no-browser --port "$port" "$@" "$file" >"$TMP/link" 2>"$TMP/err" &
	server=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0
		kill -0 "$server" 2>/dev/null || fail "open exited early: $(cat "$TMP/err")"
		sleep 0.05
	done
	fail "open does not listen on $port: $(cat "$TMP/err")"
}

# finish WANT: the server exits with WANT within 5 s.
finish() {
	for _ in $(seq 100); do
		kill -0 "$server" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$server" 2>/dev/null && fail "open still runs (want exit $1): $(cat "$TMP/err")"
	wait "$server"
	rc=$?
	server=
	[ "$rc" -eq "$1" ] || fail "open exited $rc, want $1: $(cat "$TMP/err")"
}

# code ARGS...: the HTTP status curl gets.
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

"$F2T" convert -q "$F2T_TESTS/fixtures/sched-tcp.cap" -o "$TMP/my trace.pftrace" ||
	fail "converting the fixture"
F=$TMP/my\ trace.pftrace

serve "$F"
[ "$(cat "$TMP/link")" = "$UI/#!/?url=http://127.0.0.1:9001/my_trace.pftrace" ] ||
	fail "the link is '$(cat "$TMP/link")'"
grep -q "ssh -L 9001:127.0.0.1:$port " "$TMP/err" || fail "no ssh forwarding hint: $(cat "$TMP/err")"
ok "link: $(cat "$TMP/link")"

U=http://127.0.0.1:$port
[ "$(code "$U/other.pftrace")" = 404 ] || fail "another name was not refused with 404"
[ "$(code --path-as-is "$U/../my_trace.pftrace")" = 404 ] || fail "/../NAME was not refused"
[ "$(code --path-as-is "$U/x/../my_trace.pftrace")" = 404 ] || fail "/x/../NAME was not refused"
[ "$(code "$U/my_trace.pftrace?x=1")" = 404 ] || fail "NAME?query was not refused"
[ "$(code "$U/")" = 404 ] || fail "/ was not refused"
[ "$(code -H 'Origin: https://evil.example' "$U/my_trace.pftrace")" = 403 ] ||
	fail "another origin was not refused"
[ "$(code -H 'Host: attacker.example' "$U/my_trace.pftrace")" = 403 ] ||
	fail "a non-loopback Host (DNS rebinding) was not refused"
[ "$(code -X POST "$U/my_trace.pftrace")" = 405 ] || fail "POST was not refused with 405"
[ "$(code -H "X-Big: $(head -c 9000 /dev/zero | tr '\0' a)" "$U/my_trace.pftrace")" = 431 ] ||
	fail "a 9 KB header was not refused with 431"
printf 'GET /my_trace.pftrace HTTP/1.1\r\nHost: 127.0.0.1\r\n no-colon\r\n\r\n' >"$TMP/bad"
got=$(python3 - "$port" "$TMP/bad" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(open(sys.argv[2], "rb").read())
print(s.recv(100).split(b"\r\n")[0].decode())
PY
)
[ "$got" = "HTTP/1.1 400 Bad Request" ] || fail "a malformed head got '$got'"
ok "refused: other paths (404), other origin and Host (403), POST (405), big (431), bad (400)"

curl -s -D "$TMP/pre" -o /dev/null -X OPTIONS -H "Origin: $UI" \
	-H 'Access-Control-Request-Method: GET' -H 'Access-Control-Request-Private-Network: true' \
	"$U/my_trace.pftrace"
for h in "HTTP/1.1 204" "Access-Control-Allow-Origin: $UI" "Access-Control-Allow-Private-Network: true" \
	"Access-Control-Allow-Methods: GET"; do
	grep -qiF "$h" "$TMP/pre" || fail "the preflight's answer lacks '$h': $(cat "$TMP/pre")"
done
kill -0 "$server" || fail "open exited after the preflight"
ok "preflight: 204 with the CORS and Private Network Access headers, still serving"

# A connection that never sends its request (a browser's spare one) holds nothing up.
exec 3<>"/dev/tcp/127.0.0.1/$port"
curl -s -D "$TMP/hdr" -H "Origin: $UI" -o "$TMP/got" "$U/my_trace.pftrace" || fail "the fetch failed"
exec 3>&-
cmp -s "$TMP/got" "$F" || fail "the bytes fetched are not the file's"
grep -qiF "Access-Control-Allow-Origin: $UI" "$TMP/hdr" || fail "no CORS header: $(cat "$TMP/hdr")"
finish 0
grep -q "was fetched" "$TMP/err" || fail "open did not say the file was fetched: $(cat "$TMP/err")"
ok "the fetch got the file's $(stat -c %s "$F") bytes with the CORS header, past an idle connection; open exited 0"

# Ctrl-C before the fetch.
serve "$F"
kill -INT "$server"
finish 130
grep -q "stopped before" "$TMP/err" || fail "SIGINT: $(cat "$TMP/err")"
ok "SIGINT before the fetch: exit 130, said"

# A busy port: who to ask, what to do.
port=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(30)' "$port" &
holder=$!
for _ in $(seq 50); do curl -s -m 1 -o /dev/null "http://127.0.0.1:$port/" ; [ $? -ne 7 ] && break; sleep 0.1; done
"$F2T" open --no-browser --port "$port" "$F" >"$TMP/out" 2>"$TMP/err"
rc=$?
kill "$holder"
wait "$holder" 2>/dev/null
[ "$rc" -eq 1 ] || fail "busy port: exit $rc"
grep -q "127.0.0.1:$port is in use" "$TMP/err" && grep -q -- "--port" "$TMP/err" && grep -q "ss -ltnp" "$TMP/err" ||
	fail "busy port: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "busy port: a link was printed"
ok "busy port: $(cat "$TMP/err")"

# Not a trace Perfetto UI reads, or not a file.
mkfifo "$TMP/fifo"
for bad in "$TMP/fifo" /dev/zero "$F2T_TESTS/fixtures/sched-tcp.cap" "$TMP/none" "$TMP"; do
	timeout 5 "$F2T" open --no-browser --port "$(free_port)" "$bad" >/dev/null 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "open $bad: exit $rc"
	ok "refused $bad: $(cat "$TMP/err")"
done

# A $BROWSER gets the link and fetches as Perfetto UI would; never as root.
cat >"$TMP/browser" <<'EOF'
#!/bin/sh
echo "$1" >"$(dirname "$0")/w/link"
curl -s -H "Origin: https://ui.perfetto.dev" -o "$(dirname "$0")/w/fetched" "$FAKE_PORT_URL"
EOF
chmod 755 "$TMP/browser" "$TMP"
mkdir -m 777 "$TMP/w"
cp "$F" "$TMP/w/t.pftrace" && chmod 644 "$TMP/w/t.pftrace"
port=$(free_port)
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	getent passwd nobody >/dev/null || { echo "SKIP (part): no user nobody for the browser test"; exit 0; }
	as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
fi
BROWSER="$TMP/browser" FAKE_PORT_URL="http://127.0.0.1:$port/t.pftrace" timeout 20 "${as_user[@]}" \
	"$F2T" open --port "$port" "$TMP/w/t.pftrace" >"$TMP/link" 2>"$TMP/err" ||
	fail "open with a \$BROWSER: exit $?: $(cat "$TMP/err")"
grep -q "with $TMP/browser" "$TMP/err" || fail "open did not say it started the browser: $(cat "$TMP/err")"
cmp -s "$TMP/w/fetched" "$F" || fail "the browser did not get the file"
[ "$(cat "$TMP/w/link")" = "$UI/#!/?url=http://127.0.0.1:9001/t.pftrace" ] ||
	fail "the browser was given '$(cat "$TMP/w/link")'"
ok "\$BROWSER started on the link, fetched the file, open exited 0"

BROWSER="$TMP/browser" timeout 5 "$F2T" open --no-browser --port "$(free_port)" "$TMP/none" 2>/dev/null
[ $? -eq 1 ] || fail "a missing file with \$BROWSER"
exit 0
