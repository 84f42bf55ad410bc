#!/usr/bin/env python3
"""Writes Perfetto traces by hand for pftrace_input.sh: the field numbers are
those of Perfetto's own .proto files (protos/perfetto/trace/...), encoded
here from the protobuf wire format, apart from ftrace2trace's writer.

  make_pftrace.py sched OUT    compact sched, a process tree, perf samples
                               with interned stacks (and an incremental state
                               cleared between them), a track event slice
  make_pftrace.py nowaking OUT whole sched_switch events only

The figures the test expects are worked out in pftrace_input.sh, from the
timeline below.
"""
import struct
import sys


def varint(v):
    if v < 0:
        v += 1 << 64
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def u(num, v):
    return key(num, 0) + varint(v)


def ln(num, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return key(num, 2) + varint(len(payload)) + payload


def fixed64(num, raw):
    return key(num, 1) + raw


def packed(num, values):
    return ln(num, b"".join(varint(v) for v in values))


def packet(*fields):
    return ln(1, b"".join(fields))  # Trace.packet = 1


# TracePacket
TIMESTAMP, CLOCK_ID, SEQ, FLAGS, INTERNED = 8, 58, 10, 13, 12
FTRACE, PTREE, SNAPSHOT, SYSINFO, TRACK_EVENT, TRACK_DESC, PERF_SAMPLE = 1, 2, 6, 45, 11, 60, 66
CLEARED = 1                       # SEQ_INCREMENTAL_STATE_CLEARED
BOOTTIME, MONOTONIC = 6, 3        # BuiltinClock

# The ftrace clock (boot) runs 500 ns ahead of MONOTONIC here.
BOOT_AHEAD = 500


def sysinfo():
    # SystemInfo.utsname = 1 {sysname 1, release 3, machine 4}, num_cpus = 8
    return packet(ln(SYSINFO, ln(1, ln(1, "Linux") + ln(3, "6.1.0") + ln(4, "x86_64")) + u(8, 2)))


def snapshot():
    # ClockSnapshot.clocks = 1 {clock_id 1, timestamp 2}
    clocks = ln(1, u(1, BOOTTIME) + u(2, 1_000_000 + BOOT_AHEAD)) + \
        ln(1, u(1, MONOTONIC) + u(2, 1_000_000))
    return packet(ln(SNAPSHOT, clocks))


def process_tree():
    # ProcessTree: processes = 1 {pid 1, ppid 2, cmdline 3}, threads = 2 {tid 1, name 2, tgid 3}
    procs = ln(1, u(1, 100) + u(2, 1) + ln(3, "/usr/bin/app") + ln(3, "--fast"))
    threads = ln(2, u(1, 101) + ln(2, "worker") + u(3, 100))
    return packet(ln(PTREE, procs + threads))


def compact_bundle(switches, wakings, comms, cpu=0):
    """switches: (boot ts, prev_state, next_pid, next_prio, comm); wakings: (ts, pid, cpu, prio, comm)."""
    idx = {c: i for i, c in enumerate(comms)}

    def deltas(ts):
        out, last = [], 0
        for t in ts:
            out.append(t - last)
            last = t
        return out
    cs = b"".join(ln(5, c) for c in comms)  # intern_table = 5
    cs += packed(1, deltas([s[0] for s in switches]))
    cs += packed(2, [s[1] for s in switches])
    cs += packed(3, [s[2] for s in switches])
    cs += packed(4, [s[3] for s in switches])
    cs += packed(6, [idx[s[4]] for s in switches])
    cs += packed(7, deltas([w[0] for w in wakings]))
    cs += packed(8, [w[1] for w in wakings])
    cs += packed(9, [w[2] for w in wakings])
    cs += packed(10, [w[3] for w in wakings])
    cs += packed(11, [idx[w[4]] for w in wakings])
    # FtraceEventBundle: cpu = 1, compact_sched = 4
    return packet(ln(FTRACE, u(1, cpu) + ln(4, cs)), u(SEQ, 1))


def sched():
    out = sysinfo() + snapshot() + process_tree()
    # CPU 0, boot clock:
    #   1000 idle -> app(100); 2000 app wakes worker(101);
    #   3000 app sleeps (S) -> worker; 7000 worker wakes app;
    #   9000 worker sleeps (S) -> app; 12000 app sleeps (S) -> idle.
    # Two bundles, the second first in the file: order in time is the reader's.
    late = compact_bundle([(9000, 1, 100, 120, "app"), (12000, 1, 0, 120, "swapper/0")],
                          [], ["app", "swapper/0"])
    early = compact_bundle([(1000, 0, 100, 120, "app"), (3000, 1, 101, 120, "worker")],
                           [(2000, 101, 0, 120, "worker"), (7000, 100, 0, 120, "app")],
                           ["app", "worker"])
    out += late + early
    # Samples on sequence 2, CLOCK_MONOTONIC.  InternedData: function_names 5,
    # frames 6, callstacks 7, build_ids 16, mapping_paths 17, mappings 19.
    def interned(funcs, frames, stacks):
        d = b"".join(ln(5, u(1, i) + ln(2, n)) for i, n in funcs)
        d += ln(17, u(1, 1) + ln(2, "/usr/bin/app"))
        d += ln(16, u(1, 1) + ln(2, bytes.fromhex("c0ffee")))
        # Mapping: iid 1, build_id 2, start 4, end 5, path_string_ids 7
        d += ln(19, u(1, 1) + u(2, 1) + u(4, 0x400000) + u(5, 0x500000) + u(7, 1))
        # Frame: iid 1, function_name_id 2, mapping_id 3, rel_pc 4
        d += b"".join(ln(6, u(1, i) + u(2, f) + u(3, 1) + u(4, pc)) for i, f, pc in frames)
        # Callstack: iid 1, frame_ids 2 (outermost first), unpacked as proto2 writes it
        d += b"".join(ln(7, u(1, i) + b"".join(u(2, f) for f in ids)) for i, ids in stacks)
        return d

    def sample(ts, tid, stack, extra=b""):
        # PerfSample: cpu 1, pid 2, tid 3, callstack_iid 4
        return packet(u(TIMESTAMP, ts), u(CLOCK_ID, MONOTONIC), u(SEQ, 2),
                      ln(PERF_SAMPLE, u(1, 0) + u(2, 100) + u(3, tid) + u(4, stack)), extra)
    out += sample(4500, 101, 1, u(FLAGS, CLEARED) +
                  ln(INTERNED, interned([(1, "main"), (2, "compute")], [(1, 1, 0x100), (2, 2, 0x200)],
                                        [(1, [1, 2])])))
    # The same iids mean other things once the state is cleared.
    out += sample(5500, 101, 1, u(FLAGS, CLEARED) +
                  ln(INTERNED, interned([(1, "other")], [(1, 1, 0x300)], [(1, [1])])))
    # A thread track for 101 (TrackDescriptor: uuid 1, thread 4 {pid 1, tid 2, thread_name 5}),
    # and a slice "work" on it from boot 4000 to 6000, written on CLOCK_MONOTONIC.
    out += packet(ln(TRACK_DESC, u(1, 77) + ln(4, u(1, 100) + u(2, 101) + ln(5, "worker"))), u(SEQ, 3))
    for ts, typ in ((4000, 1), (6000, 2)):
        # TrackEvent: type 9, track_uuid 11, name 23
        ev = u(9, typ) + u(11, 77) + (ln(23, "work") if typ == 1 else b"")
        out += packet(u(TIMESTAMP, ts - BOOT_AHEAD), u(CLOCK_ID, MONOTONIC), u(SEQ, 3),
                      ln(TRACK_EVENT, ev))
    return out


def nowaking():
    # FtraceEvent: timestamp 1, pid 2, sched_switch 4 {prev_comm 1, prev_pid 2,
    # prev_prio 3, prev_state 4, next_comm 5, next_pid 6, next_prio 7}
    def switch(ts, prev, pp, state, nxt, np):
        sw = ln(1, prev) + u(2, pp) + u(3, 120) + u(4, state) + ln(5, nxt) + u(6, np) + u(7, 120)
        return ln(2, u(1, ts) + u(2, pp) + ln(4, sw))
    events = switch(1000, "swapper/0", 0, 0, "app", 100) + switch(5000, "app", 100, 1, "swapper/0", 0)
    return sysinfo() + packet(ln(FTRACE, u(1, 0) + events), u(SEQ, 1))


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    data = {"sched": sched, "nowaking": nowaking}[kind]()
    with open(path, "wb") as f:
        f.write(data)
