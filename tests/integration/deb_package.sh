#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages: built with `dpkg-buildpackage -us -uc -b` from a copy
# of this tree (it writes the .debs beside the tree), checked with lintian
# (no errors), then installed with apt-get and used: --version, convert,
# dump, man pages, bash completion, and a program built against the marker
# header through pkg-config.  Everything installed is purged at the end, so
# the machine is left as found.  Building and linting need no root;
# installing does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }

for tool in dpkg-buildpackage dh lintian apt-get; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps installs it)"
done
version=$(cat "$top/VERSION")
arch=$(dpkg --print-architecture)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-deb.XXXXXX") || exit 1
installed=
cleanup() {
	if [ -n "$installed" ]; then
		# shellcheck disable=SC2086  # package names are words
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 $installed >>"$TMP/apt.log" 2>&1 ||
			echo "FAIL: could not purge $installed: $(tail -3 "$TMP/apt.log")"
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

# The tree as it is now (uncommitted changes too), without build outputs.
src=$TMP/ftrace2trace-$version
mkdir "$src" || exit 1
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$top" && git ls-files -co --exclude-standard -z | tar --null --ignore-failed-read -T - -cf -) |
		tar -xf - -C "$src" || fail "copying the tree failed"
else
	tar -C "$top" --exclude=./build --exclude=./ftrace2trace --exclude=./.git -cf - . |
		tar -xf - -C "$src" || fail "copying the tree failed"
fi

# Not a sub-make of `make check`: the package build runs its own make.
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)" \
	dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1 ||
	fail "dpkg-buildpackage failed: $(tail -20 "$TMP/build.log")"
tool_deb=$TMP/ftrace2trace_${version}_${arch}.deb
dev_deb=$TMP/libftrace2trace-dev_${version}_all.deb
[ -f "$tool_deb" ] && [ -f "$dev_deb" ] || fail "dpkg-buildpackage made: $(cd "$TMP" && ls -- *.deb)"
units=$(grep -c '^== unit: ' "$TMP/build.log")
ok "dpkg-buildpackage -us -uc -b: $(cd "$TMP" && ls -- *.deb | paste -sd' '); $units unit tests run in the build"

# What the packages hold and need.
depends=$(dpkg-deb -f "$tool_deb" Depends)
[[ $depends == *libc6* && $depends == *libtracefs* && $depends == *libdw* && $depends != *'${'* ]] ||
	fail "ftrace2trace's Depends do not come from its shared libraries: $depends"
dpkg-deb -c "$tool_deb" | awk '{ print $6 }' >"$TMP/tool.files"
dpkg-deb -c "$dev_deb" | awk '{ print $6 }' >"$TMP/dev.files"
for f in ./usr/bin/ftrace2trace ./usr/share/bash-completion/completions/ftrace2trace \
	$(cd "$top/man" && printf './usr/share/man/man1/%s.gz\n' *.1); do
	grep -qxF "$f" "$TMP/tool.files" || fail "ftrace2trace lacks $f"
done
for f in ./usr/include/ftrace2trace/marker.h ./usr/share/pkgconfig/ftrace2trace-marker.pc; do
	grep -qxF "$f" "$TMP/dev.files" || fail "libftrace2trace-dev lacks $f"
done
ok "ftrace2trace Depends: $depends"

lintian "$TMP/ftrace2trace_${version}_${arch}.changes" >"$TMP/lintian.log" 2>&1
lintian_rc=$?
grep -v 'running with root privileges' "$TMP/lintian.log"
errors=$(grep -c '^E: ' "$TMP/lintian.log")
warnings=$(grep -c '^W: ' "$TMP/lintian.log")
[ "$lintian_rc" -eq 0 ] && [ "$errors" -eq 0 ] || fail "lintian: $errors errors (exit $lintian_rc)"
ok "lintian: $errors errors, $warnings warnings"

[ "$(id -u)" -eq 0 ] || skip "built and linted; installing the packages needs root"
for p in ftrace2trace libftrace2trace-dev; do
	if dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.i'; then
		skip "built and linted; $p is already installed here, not replacing it"
	fi
done

# What apt will install: the two packages and any library they need that is
# not there yet (purged again at the end; nothing else is touched, so other
# installs on this machine meanwhile are left alone).
apt_opts=(-y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends)
apt-get install -s "${apt_opts[@]}" "$tool_deb" "$dev_deb" >"$TMP/sim.log" 2>&1 ||
	fail "apt-get cannot install the packages: $(tail -5 "$TMP/sim.log")"
upgrades=$(awk '$1 == "Inst" && $3 ~ /^\[/ { print $2 }' "$TMP/sim.log" | paste -sd' ')
[ -z "$upgrades" ] || skip "built and linted; installing would upgrade $upgrades, which purging cannot undo"
new=$(awk '$1 == "Inst" { print $2 }' "$TMP/sim.log" | paste -sd' ')
DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "$tool_deb" "$dev_deb" >"$TMP/apt.log" 2>&1
rc=$?
installed=$new
[ "$rc" -eq 0 ] || fail "apt-get install failed: $(tail -5 "$TMP/apt.log")"
ok "apt-get install ./ftrace2trace_*.deb ./libftrace2trace-dev_*.deb: installed $installed"

F=/usr/bin/ftrace2trace
[ "$($F --version)" = "ftrace2trace $version" ] || fail "installed --version says '$($F --version)'"
# dpkg-buildflags' hardening reached the compiler and the linker.
readelf -d $F | grep -q 'FLAGS.*BIND_NOW' || fail "$F is not linked with -z now (LDFLAGS ignored?)"
readelf -lW $F | grep -q GNU_RELRO || fail "$F has no RELRO"
readelf -sW --dyn-syms $F | grep -q '__[a-z]*_chk@' || fail "$F calls no _FORTIFY_SOURCE checks (CPPFLAGS ignored?)"
$F convert -q "$here/../fixtures/sched-tcp.cap" -o "$TMP/t.fxt" -o "$TMP/t.json" || fail "installed convert failed"
python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))["traceEvents"]) > 100' "$TMP/t.json" ||
	fail "installed convert wrote no usable JSON"
records=$($F dump -s "$TMP/t.fxt" | awk '$1 == "total" { print $2 }')
[ "${records:-0}" -gt 100 ] || fail "installed dump counts ${records:-no} records"
zcat /usr/share/man/man1/ftrace2trace-record.1.gz | head -1 | grep -qF "\"ftrace2trace $version\"" ||
	fail "installed man page does not say $version"
got=$(PATH=/usr/bin:$PATH bash -c 'source /usr/share/bash-completion/completions/ftrace2trace &&
	COMP_WORDS=(ftrace2trace record --no-) COMP_CWORD=2 && _ftrace2trace && echo "${COMPREPLY[*]}"')
[ "$got" = --no-sample ] || fail "installed completion of 'record --no-' gave '$got'"
ok "installed tool: --version, hardened (bindnow, relro, fortify), convert, dump -s ($records records), man page, completion"

# The packaged .pc only, not one a `make install` put under /usr/local.
pc() { PKG_CONFIG_LIBDIR=/usr/share/pkgconfig pkg-config "$@"; }
[ "$(pc --modversion ftrace2trace-marker)" = "$version" ] || fail "pkg-config does not find ftrace2trace-marker $version"
printf '#define _GNU_SOURCE\n#include <ftrace2trace/marker.h>\nint main(void) { return f2t_trace_instant("deb"); }\n' >"$TMP/use.c"
# shellcheck disable=SC2046  # the flags are words
cc -H $(pc --cflags ftrace2trace-marker) -o "$TMP/use" "$TMP/use.c" 2>"$TMP/cc.log" ||
	fail "a program using the packaged header does not build: $(head -5 "$TMP/cc.log")"
grep -qx '\. /usr/include/ftrace2trace/marker.h' "$TMP/cc.log" || fail "the compiler did not take /usr/include's header"
: >"$TMP/markers"
F2T_TRACE_MARKER=$TMP/markers "$TMP/use" && grep -qx 'I|[0-9]*|deb' "$TMP/markers" ||
	fail "the program's marker: $(cat "$TMP/markers")"
ok "pkg-config ftrace2trace-marker $version; a program built with the packaged header writes markers"

# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 $installed >"$TMP/apt.log" 2>&1 ||
	fail "apt-get purge failed: $(tail -5 "$TMP/apt.log")"
for p in $installed; do
	! dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.i' || fail "$p is still installed"
done
installed=
[ ! -e $F ] || fail "$F is still there after purging"
ok "purged what was installed; $F is gone"
exit 0
