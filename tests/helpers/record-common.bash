# Sourced by tests/integration/record_*.sh.  Checks that recording can run
# here (root, tracefs), else exits 77 with the reason; sets:
#   T    the tracefs directory      TMP  a scratch directory, removed on exit
# and offers helpers.  Expects F2T (the binary) and B (the build dir).
: "${F2T:?F2T must point at the ftrace2trace binary}"
: "${B:?B must point at the build directory}"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "recording needs root (run make check as root)"
	[ -z "${F2T_TRACEFS_STUCK:-}" ] || skip "$F2T_TRACEFS_STUCK"
	T=
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$d/instances" ] && { T=$d; break; }
	done
	if [ -z "$T" ]; then
		# ftrace2trace mounts tracefs itself; let it try once.
		"$F2T" record -q -a -d 0.1 -o "$TMP/probe.fxt" >/dev/null 2>&1
		[ -d /sys/kernel/tracing/instances ] && T=/sys/kernel/tracing
	fi
	[ -n "$T" ] || skip "no tracefs on this machine"
}

# need_trace_processor: TP, Perfetto's trace processor, and python3 for the checks; else skip.
need_trace_processor() {
	TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell)}
	[ -n "$TP" ] && [ -x "$TP" ] ||
		skip "no Perfetto trace processor (set TRACE_PROCESSOR, or put trace_processor_shell on PATH)"
	command -v python3 >/dev/null || skip "python3 needed for the checks"
}

# tp_q FILE SQL: the last line of the trace processor's (TP) answer, unquoted.
tp_q() {
	echo "$2" >"$TMP/tp_q.sql"
	"$TP" -q "$TMP/tp_q.sql" "$1" 2>/dev/null | tail -1 | tr -d '"'
}

# instance_left PID: true if the run with that pid left its instance behind
instance_left() {
	[ -d "$T/instances/ftrace2trace-$1" ]
}

# rec OUTVAR ERRFILE ARGS...: runs "$F2T record ARGS" in the background so
# its pid is known; sets RC and RPID.
rec() {
	local err=$1; shift
	"$F2T" record "$@" 2>"$err" &
	RPID=$!
	wait "$RPID"
	RC=$?
}

# is_fxt FILE: a non-empty file that `ftrace2trace dump` reads to the end
# without finding a malformed record (it checks the magic record first).
is_fxt() {
	[ -s "$1" ] && "$F2T" dump --stats "$1" >/dev/null 2>&1
}

PINGPONG=$B/tests/helpers/pingpong
