#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes tests/fuzz/base.cap and the seed corpora tests/fuzz/corpus/TARGET/.

Everything is cut from real captures: tests/fixtures/sched-tcp.cap and
weird-comm.cap (in the repository), and two captures recorded on Linux 6.18
that are not (kernel symbols make them megabytes):

  ftrace2trace record -b 256 -F 499 -e irq,power -k fp.cap -- build/tests/helpers/burn
  ftrace2trace record -b 256 -F 499 --call-graph dwarf,2048 -k dwarf.cap \\
      -- build/tests/helpers/burn_nofp

and, when given, an off-CPU capture (its episodes' records with their user
stack copies, the stacks, the perf records naming the mappings):

  ftrace2trace record --off-cpu -k offcpu.cap -- build/tests/helpers/offwait 5

The FXT and JSON seeds are the converter's outputs for the small captures
(SEEDS_F2T names the ftrace2trace binary).  The function-tracer page is
written here, after the kernel's format files (the kernel refuses the
function tracer on the machines we record on).

usage: make-seeds.py FP.CAP DWARF.CAP [OFFCPU.CAP]
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
F2T = os.environ.get("SEEDS_F2T", os.path.join(os.path.dirname(TESTS), "ftrace2trace"))

META, HEADER_PAGE, EVENT_FORMAT, TASKS, CPU_DATA, CPU_STATS, KALLSYMS = 1, 2, 3, 4, 5, 6, 7
PERF_INFO, PERF_DATA, MAPS, BUILD_IDS, JIT_MAP, END = 9, 10, 11, 12, 13, 0xFFFF
OFFCPU_INFO, OFFCPU_DATA, OFFCPU_STACKS = 14, 15, 16
PAGE = 4096


def read_cap(path):
    d = open(path, "rb").read()
    assert d[:8] == b"F2TCAPT\0", path
    off, out = 16, []
    while off < len(d):
        t, a, n = struct.unpack_from("<IIQ", d, off)
        if t == END:
            break
        out.append((t, a, d[off + 16:off + 16 + n]))
        off += 16 + ((n + 7) & ~7)
    return out


def cap_bytes(recs, end=True):
    out = bytearray(b"F2TCAPT\0" + struct.pack("<II", 1, 0))
    for t, a, b in recs + ([(END, 0, b"")] if end else []):
        out += struct.pack("<IIQ", t, a, len(b)) + b + b"\0" * (-len(b) % 8)
    return bytes(out)


def tlv(recs):
    """The `capture` harness's input form: {u8 type, u16 len, u32 arg, bytes}."""
    out = bytearray()
    for t, a, b in recs + [(END, 0, b"")]:
        assert len(b) < 65536
        out += struct.pack("<BHI", 0 if t == END else t, len(b), a) + b
    return bytes(out)


def fmt_name(body):
    sys_, text = body.split(b"\0", 1)
    name = text.split(b"\n", 1)[0].split(b": ", 1)[1]
    return sys_.decode(), name.decode()


def fmt_id(body):
    for line in body.split(b"\n"):
        if line.startswith(b"ID: "):
            return int(line[4:])
    raise ValueError("format without ID")


def perf_records(ring):
    off, out = 0, []
    while off + 8 <= len(ring):
        t, misc, size = struct.unpack_from("<IHH", ring, off)
        out.append((t, misc, ring[off:off + size]))
        off += size
    return out


def page_events(page):
    """(id, pid) of the data events of a sub-buffer (header_page layout)."""
    commit = struct.unpack_from("<Q", page, 8)[0] & 0xFFFFF
    off, end, out = 16, 16 + commit, []
    while off + 4 <= end:
        h = struct.unpack_from("<I", page, off)[0]
        tl = h & 31
        if tl == 0:
            n = struct.unpack_from("<I", page, off + 4)[0]
            body, size = page[off + 8:off + 4 + n], 4 + n
        elif tl <= 28:
            body, size = page[off + 4:off + 4 + 4 * tl], 4 + 4 * tl
        elif tl == 29:		# padding: to the end of the page when its delta is 0
            if h >> 5 == 0:
                break
            size, body = 4 + struct.unpack_from("<I", page, off + 4)[0], None
        else:			# time extend, absolute time stamp
            size, body = 8, None
        if body and len(body) >= 8:
            out.append(struct.unpack_from("<HxxI", body, 0))
        off += size
    return out


def function_page(ids, sym):
    """A sub-buffer of function, funcgraph, irq, softirq and power events."""
    t0 = 1000000000000
    page = bytearray(PAGE)
    struct.pack_into("<Q", page, 0, t0)
    off, last = 16, t0

    def add(at, body):
        nonlocal off, last
        body = body + b"\0" * (-len(body) % 4)
        struct.pack_into("<I", page, off, len(body) // 4 | (t0 + at - last) << 5)
        page[off + 4:off + 4 + len(body)] = body
        off += 4 + len(body)
        last = t0 + at

    def common(name, pid):
        return struct.pack("<HBBi", ids[name], 1, 0, pid)

    add(100, common("function", 100) + struct.pack("<QQ", sym, sym + 0x400))
    add(200, common("funcgraph_entry", 100) + struct.pack("<QI4x", sym, 0))
    add(300, common("funcgraph_entry", 100) + struct.pack("<QI4x", sym + 0x400, 1))
    add(400, common("funcgraph_exit", 100) + struct.pack("<QIIQQ", sym + 0x400, 1, 0, t0 + 300, t0 + 400))
    add(500, common("funcgraph_exit", 100) + struct.pack("<QIIQQ", sym, 0, 0, t0 + 200, t0 + 500))
    name = b"eth0\0"
    add(600, common("irq_handler_entry", 0) + struct.pack("<iI", 11, len(name) << 16 | 16) + name)
    add(700, common("irq_handler_exit", 0) + struct.pack("<ii", 11, 1))
    add(800, common("softirq_entry", 0) + struct.pack("<I", 3))
    add(900, common("softirq_exit", 0) + struct.pack("<I", 3))
    add(1000, common("cpu_idle", 0) + struct.pack("<II", 1, 0))
    add(1100, common("cpu_frequency", 0) + struct.pack("<II", 2400000, 0))
    add(1200, common("function", 101) + struct.pack("<QQ", 0xFFFFFFFF90000000, sym))
    struct.pack_into("<Q", page, 8, off - 16)
    return bytes(page)


def kallsyms_subset(text, addrs, extra=40):
    """The lines that name ADDRS (and the next ones, where each ends), plus a few."""
    lines = text.split(b"\n")
    parsed = []
    for i, l in enumerate(lines):
        try:
            parsed.append((int(l.split(b" ", 1)[0], 16), i))
        except ValueError:
            pass
    parsed.sort()
    keep = set(range(min(extra, len(lines))))
    starts = [a for a, _ in parsed]
    import bisect
    for a in addrs:
        k = bisect.bisect_right(starts, a) - 1
        if k >= 0:
            keep.update((parsed[k][1], parsed[min(k + 1, len(parsed) - 1)][1]))
    mods = [i for i, l in enumerate(lines) if l.endswith(b"]")][:8]
    keep.update(mods)
    return b"\n".join(lines[i] for i in sorted(keep) if lines[i]) + b"\n"


def write(rel, data):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def convert(cap, fmt):
    with tempfile.TemporaryDirectory() as d:
        c, o = os.path.join(d, "in.cap"), os.path.join(d, "out." + fmt)
        open(c, "wb").write(cap)
        subprocess.run([F2T, "convert", "-q", c, "-o", o], check=True)
        return open(o, "rb").read()


def main():
    fp, dwarf = read_cap(sys.argv[1]), read_cap(sys.argv[2])
    sched = read_cap(os.path.join(TESTS, "fixtures", "sched-tcp.cap"))
    weird = read_cap(os.path.join(TESTS, "fixtures", "weird-comm.cap"))

    def first(recs, t, a=None):
        return next(b for tt, aa, b in recs if tt == t and (a is None or aa == a))

    fmts = {fmt_name(b): b for t, a, b in fp + sched if t == EVENT_FORMAT}
    wanted = [("ftrace", "print"), ("ftrace", "function"), ("ftrace", "funcgraph_entry"),
              ("ftrace", "funcgraph_exit")] + \
             [("sched", n) for n in ("sched_switch", "sched_waking", "sched_wakeup",
                                     "sched_wakeup_new", "sched_process_fork",
                                     "sched_process_exec", "sched_process_exit",
                                     "sched_process_free")] + \
             [("task", "task_rename"), ("task", "task_newtask")] + \
             [("irq", n) for n in ("irq_handler_entry", "irq_handler_exit", "softirq_entry",
                                   "softirq_exit", "softirq_raise")] + \
             [("power", n) for n in ("cpu_idle", "cpu_frequency", "pstate_sample",
                                     "dev_pm_qos_add_request", "suspend_resume")]
    formats = [fmts[w] for w in wanted]
    ids = {w[1]: fmt_id(fmts[w]) for w in wanted}
    # The FORMAT records; ftrace:print has arg 1 so the perf harness can pick it alone.
    format_recs = [(EVENT_FORMAT, 1 if w == ("ftrace", "print") else 0, fmts[w]) for w in wanted]

    # Pages: sched-tcp's first of each CPU, fp.cap's with the most irq/power events.
    sched_pages = [first(sched, CPU_DATA, c)[:PAGE] for c in (0, 1)]
    irq_ids = {ids[n] for n in ("irq_handler_entry", "irq_handler_exit", "softirq_entry",
                                "softirq_exit", "cpu_idle", "softirq_raise")}
    fp_pages = [b[i:i + PAGE] for t, a, b in fp if t == CPU_DATA for i in range(0, len(b), PAGE)]
    irq_page = max(fp_pages, key=lambda p: sum(e[0] in irq_ids for e in page_events(p)))

    # Perf: the rings' first records, the kernel symbols their samples name.
    info_fp, info_dwarf = first(fp, PERF_INFO), first(dwarf, PERF_INFO)
    ring_fp = b"".join(b for t, a, b in fp if t == PERF_DATA)
    ring_dwarf = b"".join(b for t, a, b in dwarf if t == PERF_DATA)
    recs_fp, recs_dwarf = perf_records(ring_fp), perf_records(ring_dwarf)
    kaddrs = []
    pid = None
    for t, misc, r in recs_fp:
        if t == 9:
            pid = pid or struct.unpack_from("<I", r, 16)[0]
            nr = struct.unpack_from("<Q", r, 8 + 8 + 8 + 8 + 8 + 8)[0]
            kaddrs += [a for a in struct.unpack_from("<%dQ" % nr, r, 56) if a >> 47 == 0x1FFFF]
    ksyms = kallsyms_subset(first(fp, KALLSYMS), kaddrs[:400])
    # Function events at the start of a real symbol, and at the one after it.
    func_page = function_page(ids, int(ksyms.split(b"\n")[60].split(b" ")[0], 16))

    # The sampled process's executable mappings, as /proc/PID/maps prints them.
    maps, bids = [], []
    for t, misc, r in recs_fp:
        if t == 10:
            p, tid, start, ln, pgoff = struct.unpack_from("<IIQQQ", r, 8)
            name = r[8 + 64:].split(b"\0", 1)[0]
            maps.append(b"%x-%x r-xp %08x 00:00 0    %s" % (start, start + ln, pgoff, name))
            if misc & 0x4000:
                n = r[8 + 32]
                bids.append(r[8 + 36:8 + 36 + n].hex().encode() + b" " + name)
    maps_text = b"\n".join(maps) + b"\n"
    jit_text = b"7f0000001000 100 jit_fn_a\n7f0000001100 80 jit_fn_b\n7f0000002000 40 [stub]\n"
    tasks_text = b"".join(l + b"\n" for l in first(sched, TASKS, 0).split(b"\n")[:40] if l)
    tasks_text += b"%d %d burn\n" % (pid, pid)

    base = [(META, 0, first(fp, META)), (HEADER_PAGE, 0, first(fp, HEADER_PAGE))] + format_recs + [
        (TASKS, 0, tasks_text), (KALLSYMS, 0, ksyms),
        (CPU_DATA, 0, sched_pages[0] + func_page), (CPU_DATA, 1, sched_pages[1] + irq_page),
        (PERF_INFO, 0, info_fp), (PERF_INFO, 1, info_dwarf),
        (MAPS, pid, maps_text), (BUILD_IDS, 0, b"\n".join(bids) + b"\n"), (JIT_MAP, pid, jit_text)]
    write("base.cap", cap_bytes(base))

    def upto(recs, limit):
        out = b""
        for t, misc, r in recs:
            if len(out) + len(r) > limit:
                break
            out += r
        return out

    # A ring of every record type the decoder knows, made here.
    def prec(t, misc, body):
        return struct.pack("<IHH", t, misc, 8 + len(body)) + body
    trailer = struct.pack("<IIQII", pid, pid, 5000000, 0, 0)
    kind_ring = b"".join([
        prec(7, 0, struct.pack("<IIII", pid + 1, pid, pid + 1, pid) + struct.pack("<Q", 1) + trailer),  # FORK
        prec(3, 0x2000, struct.pack("<II", pid + 1, pid + 1) + b"child\0\0\0" + trailer),  # COMM exec
        prec(1, 0, struct.pack("<IIQQQ", pid + 1, pid + 1, 0x400000, 0x1000, 0) + b"/bin/true\0\0\0\0\0\0\0" + trailer),  # MMAP
        prec(2, 0, struct.pack("<QQ", 7, 12) + trailer),  # LOST
        prec(13, 0, struct.pack("<Q", 3) + trailer),  # LOST_SAMPLES
        prec(5, 0, struct.pack("<QQQ", 5000001, 1, 1) + trailer),  # THROTTLE
        prec(6, 0, struct.pack("<QQQ", 5000002, 1, 1) + trailer),  # UNTHROTTLE
        prec(9, 1, struct.pack("<QIIQIIQQ", 0xFFFFFFFF81100010, pid, pid, 5000003, 0, 0, 1000000, 4)
             + struct.pack("<4Q", 0xFFFFFFFFFFFFFF80, 0xFFFFFFFF81100010, 0xFFFFFFFFFFFFFE00, 0x7f0000001010)),
        prec(4, 0, struct.pack("<IIIIQ", pid + 1, pid, pid + 1, pid, 5000004) + trailer),  # EXIT
        prec(99, 0, b"\0" * 8),  # unknown
    ])

    sched_cap = [(META, 0, first(sched, META)), (HEADER_PAGE, 0, first(sched, HEADER_PAGE))] + \
        [(EVENT_FORMAT, 0, fmts[w]) for w in wanted[:10]] + \
        [(TASKS, 0, tasks_text), (CPU_DATA, 0, sched_pages[0]), (CPU_DATA, 1, sched_pages[1]),
         (CPU_STATS, 0, first(fp, CPU_STATS, 0)), (CPU_STATS, 1, first(fp, CPU_STATS, 1)),
         (TASKS, 1, tasks_text)]
    kernel_cap = [(META, 0, first(fp, META)), (HEADER_PAGE, 0, first(fp, HEADER_PAGE))] + \
        [(EVENT_FORMAT, 0, fmts[w]) for w in wanted if w[0] in ("ftrace", "irq", "power")] + \
        [(KALLSYMS, 0, ksyms), (CPU_DATA, 0, func_page), (CPU_DATA, 1, irq_page)]
    perf_common = [(META, 0, first(fp, META)), (HEADER_PAGE, 0, first(fp, HEADER_PAGE)),
                   (EVENT_FORMAT, 0, fmts[("ftrace", "print")]), (KALLSYMS, 0, ksyms),
                   (MAPS, pid, maps_text), (BUILD_IDS, 0, b"\n".join(bids) + b"\n"),
                   (JIT_MAP, pid, jit_text)]
    perf_fp_cap = perf_common + [(PERF_INFO, 0, info_fp), (PERF_DATA, 0, upto(recs_fp, 4000)),
                                 (PERF_DATA, 1, kind_ring)]
    perf_dwarf_cap = perf_common + [(PERF_INFO, 0, info_dwarf),
                                    (PERF_DATA, 0, upto(recs_dwarf, 9000))]
    weird_cap = [r for r in weird if r[0] != 8 and r[0] != CPU_DATA] + \
        [(CPU_DATA, a, b[:PAGE]) for t, a, b in weird if t == CPU_DATA]
    caps = {"sched": sched_cap, "kernel": kernel_cap, "perf-fp": perf_fp_cap,
            "perf-dwarf": perf_dwarf_cap, "weird-comm": weird_cap}
    for name, recs in caps.items():
        write("corpus/capfile/%s.cap" % name, cap_bytes(recs))
        write("corpus/capture/%s" % name, tlv(recs))
    write("corpus/capfile/cut-short.cap", cap_bytes(sched_cap, end=False))

    write("corpus/ringbuf/sched-2cpu", sched_pages[0] + sched_pages[1])
    write("corpus/ringbuf/irq-power", irq_page)
    write("corpus/ringbuf/function", func_page)
    write("corpus/ringbuf/weird-comm", first(weird, CPU_DATA, 0)[:PAGE])
    for w in wanted:
        write("corpus/formats/%s.%s" % w, fmts[w])
    write("corpus/perf/fp", b"\0" + upto(recs_fp, 4000))
    write("corpus/perf/every-kind", b"\0" + kind_ring)
    write("corpus/perf/dwarf", b"\1" + upto(recs_dwarf, 9000))

    write("corpus/tasks/sched-tcp", tasks_text)
    weird_tasks = first(weird, TASKS, 0)[:2048]
    write("corpus/tasks/weird-comm", weird_tasks[:weird_tasks.rindex(b"\n") + 1])
    write("corpus/kallsyms/subset", ksyms[:3000] + b"\n".join(
        l for l in ksyms.split(b"\n") if l.endswith(b"]"))[:1000] + b"\n")
    write("corpus/maps/burn", maps_text)
    write("corpus/maps/proc", open("/proc/self/maps", "rb").read()[:3000])
    write("corpus/jitmap/perf-map", jit_text + b"0 10 zero_start\nnot a line\n7f0000003000 0 empty\n")

    for name in ("sched", "kernel", "perf-fp"):
        fxt = convert(cap_bytes(caps[name]), "fxt")
        assert len(fxt) < 64 * 1024, (name, len(fxt))
        write("corpus/fxt/%s.fxt" % name, fxt)
        js = convert(cap_bytes(caps[name]), "json")
        write("corpus/jlex/%s.json" % name, js[:16384])
        write("corpus/merge/%s.json" % name, js)
    hand = (b'{"traceEvents":[{"name":"clock_sync","ph":"c","ts":1.5,"pid":1,"tid":1,'
            b'"args":{"sync_id":"abc","issue_ts":1.25}},{"name":"x\\u00e9\\ud83d\\ude00\\n",'
            b'"ph":"X","ts":2,"dur":1e3,"pid":1,"tid":2,"args":{"a":[true,false,null,-0.5e-3]}}],'
            b'"systemTraceEvents":"# tracer: nop\\n","displayTimeUnit":"ns","otherData":{},'
            b'"stackFrames":{"1":{"name":"f"}},"samples":[],"metadata":{}}\n')
    write("corpus/jlex/hand.json", hand)
    write("corpus/merge/hand.json", hand)
    write("corpus/merge/bare-array.json", b'[{"ph":"c","name":"clock_sync","ts":3,"args":{"sync_id":"q"}},\n{"ph":"B","ts":4}')
    markers = [b"B|12|name|args=1", b"E", b"E|12|extra", b"C|12|counter|42|cat",
               b"C|12|c|-1.5e3", b"S|12|async|7", b"F|12|async|7", b"I|12|instant",
               b"N|12|track|name", b"G|12|track|name|9", b"H|12|track|name|9", b"H|12|track|9",
               b"trace_event_clock_sync: name=f2t-start-1", b"trace_event_clock_sync: parent_ts=12.500000",
               b"plain text\n", b"B|x|bad pid", b"C|1|c|1e999"]
    for i, m in enumerate(markers):
        write("corpus/marker/%02d" % i, m)
    if len(sys.argv) > 3:
        offcpu_seed(read_cap(sys.argv[3]))


def offcpu_seed(oc):
    """corpus/capfile/offcpu.cap: 24 episodes with their stack copies."""
    info = next(b for t, a, b in oc if t == OFFCPU_INFO and a == 0)
    size = int(dict(kv.split(b"=", 1) for kv in info.split(b"\n") if kv)[b"record_size"])
    data, n = b"".join(b for t, a, b in oc if t == OFFCPU_DATA), 0
    off = 0
    while off + size <= len(data) and n < 24:
        copy = struct.unpack_from("<I", data, off + 80)[0] if size >= 88 else 0
        off += size + ((copy + 7) & ~7)
        n += 1
    keep = [(t, a, b) for t, a, b in oc if t in (META, HEADER_PAGE, EVENT_FORMAT, TASKS, PERF_INFO, OFFCPU_INFO,
                                                  OFFCPU_STACKS)]
    perf = [(PERF_DATA, a, b"".join(r for t, m, r in perf_records(b) if t in (1, 3, 4, 7, 10)))
            for t, a, b in oc if t == PERF_DATA]
    write("corpus/capfile/offcpu.cap", cap_bytes(keep + perf + [(OFFCPU_DATA, 0, data[:off])]))


if __name__ == "__main__":
    main()
