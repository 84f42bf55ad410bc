#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The release number is written once, in VERSION: the binary's --version
# says it, the man pages take it from there (@VERSION@), no source file
# spells it out, and debian/changelog's newest entry is that release.
# Needs no root.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }

version=$(cat "$top/VERSION")
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "VERSION holds '$version', not MAJOR.MINOR.PATCH"
[ "$(wc -l <"$top/VERSION")" -eq 1 ] || fail "VERSION has more than one line"

got=$("$F2T" --version) || fail "--version exited $?"
[ "$got" = "ftrace2trace $version" ] || fail "--version says '$got', VERSION says $version"

for page in "$top"/man/*.1; do
	head -1 "$page" | grep -q '^\.TH .* "ftrace2trace @VERSION@" ' ||
		fail "$(basename "$page"): its .TH line should say \"ftrace2trace @VERSION@\""
done

spelled=$(cd "$top" && grep -rlF "$version" src include man completion pkgconfig mk Makefile)
[ -z "$spelled" ] || fail "the release number is spelled out in: $spelled (use F2T_VERSION / @VERSION@)"

# The newest changelog entry: "ftrace2trace (VERSION) DIST; urgency=...".
changelog=$(sed -n '1s/^ftrace2trace (\([^)]*\)) .*/\1/p' "$top/debian/changelog")
[ "$changelog" = "$version" ] || fail "debian/changelog's newest entry is '$changelog', VERSION says $version"
if command -v dpkg-parsechangelog >/dev/null; then
	parsed=$(cd "$top" && dpkg-parsechangelog -S Version) || fail "dpkg-parsechangelog cannot read debian/changelog"
	[ "$parsed" = "$version" ] || fail "dpkg-parsechangelog says $parsed, VERSION says $version"
fi
echo "ok: $version in VERSION, --version, the man pages' headers and debian/changelog"
exit 0
