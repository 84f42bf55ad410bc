#!/usr/bin/env bash
# CPU samples taken late in a thread's exit (root): perf gives them the
# process but tid -1 once the thread's pid is released.  They belong to the
# thread the CPU was running, never to the idle task (tid 0), which Trace
# Viewer has no thread for ("sample_import_error").  tests/helpers/threads
# exits 3000 threads one after another under 20 kHz sampling: every JSON
# sample names a thread of its process, and none is missing from the count
# the recording printed.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
THREADS=$B/tests/helpers/threads
[ -x "$THREADS" ] || skip "$THREADS not built (make tests)"
command -v python3 >/dev/null || skip "python3 not installed"
cd "$TMP" || exit 1

"$F2T" record -F 20000 -o t.json -o t.fxt -- "$THREADS" 3000 >out 2>err ||
	fail "record: $(cat err)"
grep -q "CPU samples" err || skip "no CPU sampling here: $(grep -i sampl err | head -2)"
tgid=$(sed -n 's/^threads: tgid=\([0-9]*\) .*/\1/p' out)
printed=$(sed -n 's/^ftrace2trace: \([0-9]*\) CPU samples, .*/\1/p' err)
python3 - t.json "$printed" "$tgid" <<'PY' || fail "samples without their thread"
import json, sys
d = json.load(open(sys.argv[1]))
tgid = int(sys.argv[3])
samples = d.get("samples", [])
pids = {e["tid"]: e["pid"] for e in d["traceEvents"] if "tid" in e and "pid" in e}
bad = [s for s in samples if s["tid"] <= 0 or pids.get(s["tid"]) != tgid]
sf = d["stackFrames"]
def in_exit(f):
    while f is not None and str(f) in sf:
        if sf[str(f)]["name"] == "do_exit":
            return True
        f = sf[str(f)].get("parent")
    return False
exiting = sum(1 for s in samples if in_exit(s["sf"]))
print("%d samples, %d in do_exit, %d not of a thread of %d; %d dropped (samples_no_thread)"
      % (len(samples), exiting, len(bad), tgid, d["otherData"].get("samples_no_thread", -1)))
assert samples, "no samples"
assert not bad, "samples not of a thread of the command: %s" % bad[:5]
assert len(samples) == int(sys.argv[2]), "%d samples in the JSON, %s printed" % (len(samples), sys.argv[2])
PY
ok "every sample, those in thread exits included, names a thread of the command"

TTV=${TTV_CHECK:-$(command -v ttv-check || true)}
if [ -n "$TTV" ] && command -v node >/dev/null; then
	"$TTV" t.json >ttv.out 2>&1 || fail "Trace Viewer refused the JSON: $(head -c 600 ttv.out)"
	! grep -q sample_import_error ttv.out || fail "Trace Viewer: $(grep -o 'sample_import_error[^"]*' ttv.out | head -3)"
	ok "Trace Viewer finds the thread of every sample"
else
	echo "note: TTV_CHECK not set (or node missing): Trace Viewer import not checked"
fi
exit 0
