# Sourced by the tests that read the fixtures without recording
# (report_fleet.sh, report_diff_cli.sh): FIX, the fixtures; TMP, a scratch
# directory removed on exit and the current directory; skip, fail, ok.
# Expects F2T (the binary); skips without python3.
: "${F2T:?F2T must point at the ftrace2trace binary}"
FIX=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v python3 >/dev/null || skip "python3 is not installed"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
