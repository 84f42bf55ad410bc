#!/usr/bin/env python3
"""Checks `report --off-cpu` of a recording of tests/helpers/blocker against
what the workload did and against the kernel's own sched_switch text of the
same capture.

usage: check_offcpu.py BLOCKER_LINE FOLDED TABLE KERNEL_TEXT JSON [--no-d]

  BLOCKER_LINE  the workload's last line: blocker: tgid=X piperd=T ...
  FOLDED        report --off-cpu --folded output
  TABLE         report --off-cpu --top 1000 output
  KERNEL_TEXT   convert -o X.txt of the capture (the kernel's ftrace text)
  JSON          convert -o X.json of the capture (its off-CPU slices)
  --no-d        the file system cannot block fdatasync (tmpfs): no D check

Checks:
 - at least 90% of each blocking thread's blocked time is under stacks
   through its kernel path and its own function in the user part;
 - the pipe reader's top stack was woken by the writer thread, whose stack
   goes through the kernel's pipe write;
 - the syncer blocked in D state;
 - each thread's total equals the blocked time the sched_switch events say
   (from a switch out in a sleeping state to the switch back in) within 5%.
   Where the kernel's text lacks a switch in (docs/kernel.md: missing
   switches from idle), that interval is unknown to the text: the episode
   that starts at its switch out (a JSON slice) is left out of both sides.
"""
import json
import re
import sys

# thread -> (kernel frames, one of which must be in the stack; the user function)
PATHS = {
    "piperd": ({"pipe_read", "anon_pipe_read"}, "blocker_pipe_read"),
    "sleeper": ({"do_nanosleep"}, "blocker_nanosleep"),
    "syncer": ({"do_fsync", "__x64_sys_fdatasync"}, "blocker_fdatasync"),
}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def folded_by_thread(path):
    """thread name -> [(frames, us)]"""
    out = {}
    for line in open(path):
        stack, _, us = line.rstrip("\n").rpartition(" ")
        frames = stack.split(";")
        out.setdefault(frames[0], []).append((frames[1:], int(us)))
    return out


def table_rows(path):
    """tid -> (name, total ms, S ms, D ms)"""
    rows = {}
    row = re.compile(r"^\s*(\d+) (\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)$")
    for line in open(path):
        m = row.match(line)
        if m:
            rows[int(m.group(1))] = (m.group(2), float(m.group(4)), float(m.group(5)),
                                     float(m.group(6)))
    return rows


def switch_blocked_ms(path, tids):
    """tid -> ms between a switch out in a sleeping state and the switch back in"""
    sw = re.compile(r"\s(\d+\.\d+): sched_switch: .*prev_pid=(\d+) .*prev_state=(\S+) ==> "
                    r".*next_pid=(\d+) ")
    out_at, total, unknown = {}, {t: 0.0 for t in tids}, {t: [] for t in tids}
    for line in open(path):
        m = sw.search(line)
        if not m:
            continue
        ts, prev, state, nxt = float(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4))
        if prev in total:
            if prev in out_at:
                unknown[prev].append(out_at[prev])    # switched out again, no switch in seen
            if state[0] != "R" and state[0] not in "XZ":
                out_at[prev] = ts
            else:
                out_at.pop(prev, None)
        if nxt in total and nxt in out_at:
            total[nxt] += (ts - out_at.pop(nxt)) * 1e3
    return total, unknown


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_d = "--no-d" in sys.argv
    line, folded, table, text, trace = args
    tids = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}

    stacks = folded_by_thread(folded)
    for name, (kernel, user) in PATHS.items():
        lines = stacks.get(name)
        if not lines:
            fail("no folded stacks for thread %s" % name)
        total = sum(us for _, us in lines)
        through = sum(us for frames, us in lines
                      if user in frames and kernel & set(frames)
                      and frames.index(user) < min(frames.index(k) for k in kernel & set(frames)))
        share = through / total if total else 0
        print("ok: %s: %.1f%% of %d us blocked through %s and %s" % (
            name, 100 * share, total, "/".join(sorted(kernel)), user))
        if share < 0.9:
            fail("%s: only %.1f%% of its blocked time through its own path" % (name, 100 * share))

    # The pipe reader's own stack was woken by the writer thread.
    report = open(table).read()
    block = re.search(r"#\d+  piperd \(%d\)  S .*?(?=\n#|\Z)" % tids["piperd"], report, re.S)
    if not block:
        fail("no stack of piperd in the table")
    waker = re.search(r"woken by (\S+) \((\d+)\)", block.group(0))
    if not waker or int(waker.group(2)) != tids["pipewr"]:
        fail("piperd's top waker is %s, not pipewr (%d)" % (
            waker.group(0) if waker else "none", tids["pipewr"]))
    print("ok: piperd woken by pipewr (%d)" % tids["pipewr"])
    # Blocked 10 ms when woken, over --off-cpu-min: the waker's stacks were taken.
    wstack = block.group(0)[waker.end():].split("woken by")[0]
    if not re.search(r"^\s+(anon_)?pipe_write$", wstack, re.M):
        fail("piperd's waker stack does not go through pipe_write:%s" % wstack)
    print("ok: piperd's waker stack goes through pipe_write")

    rows = table_rows(table)
    if not no_d:
        d_ms = rows.get(tids["syncer"], ("", 0, 0, 0))[3]
        if d_ms <= 0:
            fail("syncer never blocked in D state")
        print("ok: syncer %.3f ms in D" % d_ms)

    want = [tids[n] for n in ("piperd", "pipewr", "sleeper", "syncer")]
    switch_ms, unknown = switch_blocked_ms(text, want)
    slices = [e for e in json.load(open(trace))["traceEvents"] if e.get("cat") == "off-cpu"]
    compared = 0
    for tid in want:
        name, total = rows.get(tid, ("?", 0.0))[:2]
        ref = switch_ms[tid]
        mine = [e for e in slices if e["tid"] == tid]
        if abs(sum(e["dur"] for e in mine) / 1e3 - total) > 0.001 * total + 0.01:
            fail("%s: the report's %.3f ms differ from its JSON slices'" % (name, total))
        for t in unknown[tid]:
            gone = [e for e in mine if abs(e["ts"] / 1e6 - t) < 2e-6]
            total -= sum(e["dur"] for e in gone) / 1e3
            print("note: %s: a switch in missing from the kernel's text after %.6f; "
                  "%d episode(s) left out" % (name, t, len(gone)))
        if ref <= 0 and unknown[tid] and abs(total) < 0.01:
            print("note: %s: the kernel recorded none of its switches in: not compared" % name)
            continue
        if ref <= 0 or abs(total - ref) > 0.05 * ref:
            fail("%s (%d): report says %.3f ms blocked, sched_switch says %.3f ms" % (
                name, tid, total, ref))
        print("ok: %s: %.3f ms blocked, sched_switch %.3f ms (%+.2f%%)" % (
            name, total, ref, 100 * (total - ref) / ref))
        compared += 1
    if compared < 3:
        fail("only %d of %d threads could be compared with the kernel's text" % (compared, len(want)))


main()
