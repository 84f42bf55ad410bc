#!/usr/bin/env bash
# Runs every unit test binary given as an argument, then every integration
# script under tests/integration.  An integration script exits 0 when it
# passes, 77 when it cannot run here (after printing why), anything else
# when it fails.  Ends with one "N passed, N failed, N skipped" line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0 skip=0 failed=()

# Tests that read tracefs skip, with the reason, where it hangs
# (record-common.bash's need_root, test_fmtcheck).
if [ -z "${F2T_TRACEFS_STUCK+set}" ]; then
	F2T_TRACEFS_STUCK=$("$here/helpers/tracefs_stuck.sh")
	export F2T_TRACEFS_STUCK
	[ -z "$F2T_TRACEFS_STUCK" ] || echo "note: $F2T_TRACEFS_STUCK"
fi

for t in "$@"; do
	echo "== unit: $(basename "$t")"
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$(basename "$t")"); fi
done

export F2T B
# `sudo make check`: record would run each test's command as the user who ran
# sudo, who cannot write trace_marker; record_sudo.sh sets these itself.
unset SUDO_UID SUDO_GID
export F2T_TESTS="$here"
for t in "$here"/integration/*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	echo "== integration: $name"
	bash "$t"
	rc=$?
	case $rc in
	0)  pass=$((pass + 1)); echo "PASS $name" ;;
	77) skip=$((skip + 1)); echo "SKIP $name" ;;
	*)  fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name (exit $rc)" ;;
	esac
done

[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
