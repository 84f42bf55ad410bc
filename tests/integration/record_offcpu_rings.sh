#!/usr/bin/env bash
# The off-CPU rings (root, BPF): the episodes go to one ring per CPU that
# the recorder maps and polls (capture/offcpu_rec.h).  With a ping-pong
# pinned to each CPU, the capture holds both CPUs' episodes, in end order
# across the rings (the conversion reorders 10 ms at most), every one whole;
# with the recorder stopped (SIGSTOP) while a ping-pong fills its ring,
# the episodes that found it full are counted, by record and by report, and
# what was kept still converts.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
PINGPONG=$B/tests/helpers/pingpong
[ -x "$PINGPONG" ] || skip "$PINGPONG not built (make tests)"
command -v python3 >/dev/null || skip "python3 not installed"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
cd "$TMP" || exit 1

# "EPISODES CPUS BACKSTEP_NS" of a capture's OFFCPU_DATA (capture/capture.h:
# a 16-byte header, then {u32 type, u32 arg, u64 len} records padded to 8;
# an episode is 88 bytes, end_ns at 8, cpu at 52, ucopy at 80, then its
# ucopy bytes padded to 8).
episodes() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, n, cpus, last, back = 16, 0, set(), 0, 0
while off + 16 <= len(d):
    t, a, ln = struct.unpack_from("<IIQ", d, off)
    if t == 0xffff:
        break
    if t == 15:
        p, body = 0, d[off + 16:off + 16 + ln]
        while p + 88 <= ln:
            end, = struct.unpack_from("<Q", body, p + 8)
            cpu, = struct.unpack_from("<I", body, p + 52)
            ucopy, = struct.unpack_from("<I", body, p + 80)
            n += 1
            cpus.add(cpu)
            back = max(back, last - end)
            last = max(last, end)
            p += 88 + ((ucopy + 7) & ~7)
        if p != ln:
            sys.exit("OFFCPU_DATA of %d bytes is not whole episodes" % ln)
    off += 16 + ((ln + 7) & ~7)
print(n, len(cpus), back)
PY
}

"$F2T" record --off-cpu -k two.cap -o two.fxt -- sh -c \
	"taskset -c 0 '$PINGPONG' 20000 & taskset -c 1 '$PINGPONG' 20000; wait" >out 2>err
rc=$?
grep -q "built without BPF" err && skip "this build has no BPF: $(grep -- --off-cpu err)"
[ "$rc" -eq 0 ] || fail "record --off-cpu: exit $rc: $(cat err)"
grep -q "off-CPU episodes of at least 1 us, 0 lost (ring buffer full)" err ||
	fail "episodes lost, or no summary: $(cat err)"
read -r n ncpus back <<<"$(episodes two.cap)" || fail "capture: $n"
[ "${n:-0}" -ge 20000 ] || fail "$n episodes of two ping-pongs of 20000 round trips"
[ "$ncpus" -ge 2 ] || fail "episodes of $ncpus CPU(s), expected both rings"
[ "$back" -lt 1000000 ] || fail "an episode $back ns before one already written"
"$F2T" report --off-cpu two.cap >table 2>rerr || fail "report: $(cat rerr)"
ok "$n episodes from $ncpus rings, in end order (at most $back ns back)"

# The recorder stopped for 3 s: the ring fills, and what finds it full is counted.
"$F2T" record --off-cpu -k full.cap -o full.fxt -- taskset -c 0 "$PINGPONG" 600000 >out 2>err &
rec=$!
sleep 1
kill -STOP "$rec"
sleep 3
kill -CONT "$rec"
wait "$rec" || fail "record --off-cpu with a full ring: exit $?: $(cat err)"
lost=$(sed -n 's/.*off-CPU episodes of at least 1 us, \([0-9]*\) lost (ring buffer full).*/\1/p' err)
[ "${lost:-0}" -gt 0 ] || fail "the recorder stopped 3 s, yet no episode lost: $(cat err)"
"$F2T" report --off-cpu full.cap >table 2>rerr || fail "report of a capture with lost episodes: $(cat rerr)"
grep -q "; $lost lost in the kernel" table || fail "report does not say the $lost lost episodes: $(head -3 table)"
read -r n _ back <<<"$(episodes full.cap)" || fail "capture: $n"
[ "$back" -lt 1000000 ] || fail "an episode $back ns before one already written"
ok "a full ring: $lost episodes lost, counted by record and report; $n kept"
