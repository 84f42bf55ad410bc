#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seeds of the render target (tests/fuzz/render.c says the input's
layout) into tests/fuzz/corpus/render/: symbol tables with names of 20 and
64 KB, module names as long, and records of every event format of
tests/fuzz/base.cap naming them.

usage: make-render-seeds.py
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
EVENT_FORMAT, END = 3, 0xFFFF


def formats():
    """{name: (index in id order, [(field, size, dynamic)])} of base.cap's formats."""
    d = open(os.path.join(HERE, "base.cap"), "rb").read()
    off, evs = 16, []
    while off < len(d):
        t, _, n = struct.unpack_from("<IIQ", d, off)
        if t == END:
            break
        if t == EVENT_FORMAT:
            text = d[off + 16:off + 16 + n].split(b"\0", 1)[1].decode()
            name = re.search(r"^name: (\S+)", text, re.M).group(1)
            eid = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
            body = text.split("\n\n", 1)[1]	# the event's own fields, after the common ones
            fields = [(m.group(2), int(m.group(4)), "__data_loc" in m.group(1))
                      for m in re.finditer(r"field:(.*?)\s(\w+)(\[\w*\])?;\s*offset:\d+;\s*size:(\d+);",
                                           body)]
            evs.append((eid, name, fields))
        off += 16 + ((n + 7) & ~7)
    evs.sort()
    return {name: (i, fields) for i, (_, name, fields) in enumerate(evs)}


FMT = formats()


def event(name, cpu=0, task=1, delta=100, addrs=(), ints=None):
    """One event: addresses are symbol numbers; other fields get INTS' bytes or zeros."""
    i, fields = FMT[name]
    out = struct.pack("<BBH", i, cpu | task << 1, delta) + b"\x00\x00"
    addrs = list(addrs)
    for fname, size, dyn in fields:
        if dyn or size == 0:
            s = b"virtio0" if dyn else b"hello marker\n"
            out += bytes([len(s)]) + s
        elif size == 8 and fname in ("ip", "parent_ip", "func"):
            out += bytes([addrs.pop(0) if addrs else 0])
        else:
            v = (ints or {}).get(fname, 0)
            out += v.to_bytes(size, "little", signed=v < 0)
    return out


def table(syms, flags=0):
    out = bytes([flags, len(syms) - 1])
    for name_len, mod_len, typ in syms:
        out += struct.pack("<HHBB", name_len, mod_len, ord(typ), 0)
    return out


def write(name, data):
    with open(os.path.join(HERE, "corpus", "render", name), "wb") as f:
        f.write(data)


graph = [event("funcgraph_entry", addrs=[1], ints={"depth": 0}),
         event("funcgraph_entry", addrs=[2], ints={"depth": 1}),
         event("funcgraph_exit", addrs=[2], ints={"depth": 1, "calltime": 100, "rettime": 300}),
         event("funcgraph_exit", addrs=[1], ints={"depth": 0, "calltime": 50, "rettime": 900}),
         event("function", addrs=[1, 2]), event("function", addrs=[2, 1])]
# The case: a 20 KB module name with function_graph events.
write("module-20k", table([(8, 0, "T"), (16, 20480, "t"), (20480, 56, "t")]) + b"".join(graph))
# Names of 64 KB (the most the layout holds), a parent as long.
write("names-64k", table([(65535, 0, "T"), (65535, 0, "T"), (65535, 65535, "t")]) + b"".join(graph))
# Every format once, short names; then with no symbol table at all.
every = b"".join(event(n, cpu=k & 1, task=k % 8, addrs=[1, 2], ints={"depth": k % 3})
                 for k, n in enumerate(sorted(FMT, key=lambda n: FMT[n][0])))
write("every-event", table([(12, 0, "T"), (20, 0, "T"), (9, 6, "t")]) + every)
write("every-event-no-table", table([(12, 0, "T")], flags=1) + every)
# Samples: kernel frames named by the table, user frames by a JIT map of the
# same names (64 KB and 20 KB ones among them).
samples = bytes([2]) + bytes([2, 2, 0, 1, 1, 2]) + bytes([0, 3, 0, 1, 2]) + bytes([3, 0, 2, 1, 0])
write("samples-long-names", table([(65535, 0, "T"), (20480, 0, "t"), (40, 20480, "t")], flags=4)
      + samples + b"".join(graph))
