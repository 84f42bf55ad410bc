#!/usr/bin/env python3
"""Checks the CPU samples of one recording in its JSON and FXT outputs.

usage: check_samples.py JSON FXT_DUMP BINARY MODE
  JSON      the JSON trace
  FXT_DUMP  `ftrace2trace dump` of the FXT trace
  BINARY    the sampled program (its symbols, from nm, name FXT addresses)
  MODE      burn: burn_three/burn_one share 3:1 within ten points, in both
            callers: burn, and main is in at least 90% of their stacks
            (a binary without frame pointers unwound with DWARF CFI)
            nocallers: main is in at most 5% of the stacks through spin
            (the same binary, frame pointers walked: no callers found)
            syscalls: named kernel frames ([kernel.kallsyms]) in both
Prints what it found; exits 1 with the reason on the first failure.
"""
import json
import re
import subprocess
import sys
from bisect import bisect_right


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def json_stacks(path):
    """[(tid, [(name, category) root..leaf])] for every sample."""
    with open(path) as f:
        d = json.load(f)
    frames, samples = d.get("stackFrames", {}), d.get("samples", [])
    out = []
    for s in samples:
        sf = str(s["sf"])
        if sf not in frames:
            fail("JSON: sample sf %s is not in stackFrames" % sf)
        chain = []
        while sf is not None:
            fr = frames[sf]
            chain.append((fr["name"], fr["category"]))
            sf = fr.get("parent")
            sf = str(sf) if sf is not None else None
        out.append((s["tid"], chain[::-1]))
    return out


def fxt_records(path):
    modules, mmaps, traces = {}, {}, []
    for line in open(path):
        m = re.search(r"profiler_module .*thread=(\d+)/\d+.* module_id=(\d+) name=\"([^\"]*)\"", line)
        if m:
            modules[int(m.group(2))] = m.group(3)
            continue
        m = re.search(r"profiler_mmap .*thread=(\d+)/\d+.* module_id=(\d+) flags=\d+ "
                      r"start=0x([0-9a-f]+) range=0x([0-9a-f]+) vaddr=0x([0-9a-f]+)", line)
        if m:
            pid = int(m.group(1))
            mmaps.setdefault(pid, []).append((int(m.group(3), 16), int(m.group(4), 16),
                                              int(m.group(5), 16), int(m.group(2))))
            continue
        m = re.search(r"profiler_backtrace .*thread=(\d+)/(\d+).* frames=\d+ \[([^\]]*)\]", line)
        if m:
            ips = [int(x, 16) for x in m.group(3).split(",") if x]
            traces.append((int(m.group(1)), int(m.group(2)), ips))
    return modules, mmaps, traces


def nm_functions(binary):
    syms = []
    for line in subprocess.run(["nm", binary], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def fxt_names(modules, mmaps, pid, ip, binary, nm):
    """The function of IP in BINARY, through the FXT module and mmap records."""
    for start, rng, vaddr, mod in mmaps.get(pid, []):
        if start <= ip < start + rng:
            if modules.get(mod) != binary:
                return modules.get(mod, "?")
            addrs, names = nm
            i = bisect_right(addrs, ip - start + vaddr) - 1
            return names[i] if i >= 0 else "?"
    return None


def share(stacks, a, b):
    na = sum(1 for s in stacks if a in s)
    nb = sum(1 for s in stacks if b in s)
    if na + nb < 100:
        fail("only %d samples in %s or %s" % (na + nb, a, b))
    return 100.0 * na / (na + nb), 100.0 * nb / (na + nb), na + nb


def with_caller(stacks, caller, of):
    """Percent of the stacks holding a function of OF that also hold CALLER."""
    hits = [s for s in stacks if s & of]
    if len(hits) < 100:
        fail("only %d samples in %s" % (len(hits), sorted(of)))
    return 100.0 * sum(1 for s in hits if caller in s) / len(hits), len(hits)


def main():
    jpath, dpath, binary, mode = sys.argv[1:5]
    js = json_stacks(jpath)
    modules, mmaps, traces = fxt_records(dpath)
    print("JSON samples: %d, FXT backtraces: %d, FXT modules: %d" % (len(js), len(traces), len(modules)))
    if not js:
        fail("no samples in the JSON trace")
    if len(js) != len(traces):
        fail("sample counts differ: JSON %d, FXT %d" % (len(js), len(traces)))
    if mode in ("burn", "callers", "nocallers"):
        nm = nm_functions(binary)
        jnames = [set(n for n, _ in chain) for _, chain in js]
        fnames = [set(fxt_names(modules, mmaps, pid, ip, binary, nm) for ip in ips)
                  for pid, _, ips in traces]
        for label, stacks in (("JSON", jnames), ("FXT", fnames)):
            if mode == "nocallers":
                pct, n = with_caller(stacks, "main", {"spin"})
                print("%s: main in %.1f%% of %d stacks through spin" % (label, pct, n))
                if pct > 5:
                    fail("%s: main found in %.1f%% of the stacks" % (label, pct))
                continue
            three, one, n = share(stacks, "burn_three", "burn_one")
            print("%s: burn_three %.1f%%, burn_one %.1f%% of %d samples" % (label, three, one, n))
            if abs(three - 75) > 10 or abs(one - 25) > 10:
                fail("%s: shares %.1f/%.1f are not 75/25 within ten points" % (label, three, one))
            if mode == "callers":
                pct, n = with_caller(stacks, "main", {"burn_three", "burn_one"})
                print("%s: main in %.1f%% of their %d stacks" % (label, pct, n))
                if pct < 90:
                    fail("%s: main in only %.1f%% of the burn_three/burn_one stacks" % (label, pct))
    elif mode == "syscalls":
        kern = [n for _, chain in js for n, c in chain if c == "[kernel.kallsyms]"]
        named = [n for n in kern if not n.startswith("[kernel.kallsyms]+")]
        print("JSON: %d kernel frames, %d named; e.g. %s" % (len(kern), len(named), sorted(set(named))[:6]))
        if not any("write" in n for n in named):
            fail("JSON: no named kernel write path frame")
        kaddr = sum(1 for _, _, ips in traces for ip in ips if ip >= 0xffff800000000000)
        kmods = [n for n in modules.values() if n == "[kernel.kallsyms]"]
        print("FXT: %d kernel addresses, kernel module records: %d" % (kaddr, len(kmods)))
        if not kaddr or not kmods:
            fail("FXT: no kernel frames or no [kernel.kallsyms] module record")
    print("ok")


main()
