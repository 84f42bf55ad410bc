#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make install DESTDIR=...` puts everything where a user's tools look for
# it, and the installed copy works: the binary runs --help, --version and
# convert; pkg-config, pointed at the installed tree, finds the marker
# header, and a small program built with its flags writes a marker.  Then
# `make uninstall` leaves no file behind.  Needs no root.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler (cc)"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
version=$(cat "$top/VERSION")
# A make of our own, not a sub-make of the `make check` running us.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" "$@" >>"$TMP/make.log" 2>&1 ||
	fail "make $* failed: $(tail -5 "$TMP/make.log")"; }

D=$TMP/root
# There before: an empty bin and man directory, as on a fresh system.
mkdir -p "$D/usr/local/bin" "$D/usr/local/share/man"
mk install DESTDIR="$D"
P=$D/usr/local
for f in bin/ftrace2trace include/ftrace2trace/marker.h share/pkgconfig/ftrace2trace-marker.pc \
	share/bash-completion/completions/ftrace2trace share/man/man1/ftrace2trace.1; do
	[ -f "$P/$f" ] || fail "make install did not install $P/$f"
done
[ -x "$P/bin/ftrace2trace" ] || fail "installed binary is not executable"
for page in "$top"/man/*.1; do
	th=$(head -1 "$P/share/man/man1/$(basename "$page")")
	[[ $th == ".TH "*"\"ftrace2trace $version\""* ]] || fail "$(basename "$page"): header '$th' lacks the release $version"
done
ok "make install: binary, $(find "$P" -type f | wc -l) files, man pages say $version"

# The installed binary.
"$P/bin/ftrace2trace" --help >"$TMP/help" || fail "--help exited $?"
grep -q '^  convert ' "$TMP/help" || fail "--help does not list convert"
got=$("$P/bin/ftrace2trace" --version) || fail "--version exited $?"
[ "$got" = "ftrace2trace $version" ] || fail "--version says '$got', want 'ftrace2trace $version'"
"$P/bin/ftrace2trace" convert -q "$here/../fixtures/sched-tcp.cap" -o "$TMP/t.json" ||
	fail "installed convert failed"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["traceEvents"]) > 100' \
	"$TMP/t.json" || fail "installed convert wrote no usable JSON"
ok "installed binary: --help, --version ($got), convert"

# pkg-config finds the header in the installed tree (the sysroot maps the
# .pc's /usr/local onto DESTDIR), and a program builds and runs with it.
pc() { PKG_CONFIG_PATH=$P/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D pkg-config "$@"; }
cflags=$(pc --cflags ftrace2trace-marker) || fail "pkg-config does not know ftrace2trace-marker"
cflags=${cflags%" "}
[ "$cflags" = "-I$P/include" ] || fail "pkg-config --cflags gave '$cflags', want -I$P/include"
[ "$(pc --modversion ftrace2trace-marker)" = "$version" ] || fail "the .pc's version is not $version"
cat >"$TMP/use.c" <<'EOF'
#define _GNU_SOURCE
#include <ftrace2trace/marker.h>
int main(void)
{
	return f2t_trace_begin("installed") || f2t_trace_end();
}
EOF
# shellcheck disable=SC2086  # the flags are words
cc -H $cflags -o "$TMP/use" "$TMP/use.c" $(pc --libs ftrace2trace-marker) 2>"$TMP/cc.log" ||
	fail "a program using the installed header does not build: $(head -5 "$TMP/cc.log")"
grep -q "^\. $P/include/ftrace2trace/marker.h$" "$TMP/cc.log" ||
	fail "the compiler did not take the installed header: $(grep marker.h "$TMP/cc.log")"
: >"$TMP/markers"
F2T_TRACE_MARKER=$TMP/markers "$TMP/use" || fail "the program's markers failed"
[ "$(sed -E 's/^([BE])\|[0-9]+/\1|PID/' "$TMP/markers" | paste -sd' ')" = "B|PID|installed E|PID" ] ||
	fail "the program wrote these markers: $(cat "$TMP/markers")"
ok "pkg-config --cflags ftrace2trace-marker: $cflags; a program built with it writes markers"

# A second install over the first notes no directory of its own, and
# forgets none the first created.
mk install DESTDIR="$D"
mk uninstall DESTDIR="$D"
left=$(find "$D" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
left=$(cd "$D" && find . -mindepth 1 -type d | sort | paste -sd' ')
[ "$left" = "./usr ./usr/local ./usr/local/bin ./usr/local/share ./usr/local/share/man" ] ||
	fail "make uninstall left these directories: $left"
ok "make uninstall removed every file, and the directories install created: $left remain"

# Another PREFIX: the .pc names it.
mk install DESTDIR="$TMP/opt" PREFIX=/opt/f2t
inc=$(PKG_CONFIG_PATH=$TMP/opt/opt/f2t/share/pkgconfig pkg-config --variable=includedir ftrace2trace-marker)
[ "$inc" = /opt/f2t/include ] || fail "PREFIX=/opt/f2t: the .pc says includedir=$inc"
[ -x "$TMP/opt/opt/f2t/bin/ftrace2trace" ] || fail "PREFIX=/opt/f2t: no bin/ftrace2trace"
ok "PREFIX=/opt/f2t: .pc includedir=$inc"
exit 0
