#!/usr/bin/env python3
"""Compare two trace files of one format record by record, not byte by byte.

    compare-traces.py F2T OLD NEW

FXT files are read through `F2T dump` (F2T: an ftrace2trace binary); string
and thread records, offsets and table indices are set aside, since they only
say how records were encoded; profiler modules are numbered by first use.
The names of processes and threads (kernel
object records in FXT, "M" events in JSON) are compared as a set: their
order says nothing to a viewer.  Every other record must come in the same
order with the same contents.  JSON: traceEvents as above, every other
top-level member equal, otherData compared key by key.  Text: line by line.

Prints "same records" or the first difference; exits 0 when the same.
"""
import json
import re
import subprocess
import sys


def fxt_records(f2t, path):
    out = subprocess.run([f2t, "dump", path], check=True, capture_output=True).stdout.decode(errors="replace")
    names, events, modules = [], [], {}

    # A profiler module's number only ties its module and mmap records
    # together: numbered here in the order the records first name them.
    def module(m):
        return "module_id=m%d" % modules.setdefault(m.group(1), len(modules))

    for line in out.splitlines():
        rec = re.sub(r"^\d+ ", "", line)
        if rec.startswith(("string ", "thread ")):
            continue
        rec = re.sub(r"\(#\d+\)", "", rec)
        rec = re.sub(r"module_id=(\d+)", module, rec)
        (names if rec.startswith("kernel_object ") else events).append(rec)
    return names, events


def json_records(path):
    doc = json.load(open(path))
    names, events = [], []
    for e in doc.get("traceEvents", []):
        (names if e.get("ph") == "M" else events).append(json.dumps(e, sort_keys=True))
    rest = {k: v for k, v in doc.items() if k != "traceEvents"}
    return names, events, rest


def first_difference(a, b, what):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "%s %d differs:\n  old: %s\n  new: %s" % (what, i, x, y)
    if len(a) != len(b):
        return "%s: %d old, %d new" % (what, len(a), len(b))
    return None


def main():
    f2t, old, new = sys.argv[1:4]
    if old.endswith(".fxt"):
        on, oe = fxt_records(f2t, old)
        nn, ne = fxt_records(f2t, new)
        diff = first_difference(oe, ne, "record") or \
            first_difference(sorted(on), sorted(nn), "name record (sorted)")
    elif old.endswith(".json"):
        on, oe, orest = json_records(old)
        nn, ne, nrest = json_records(new)
        diff = first_difference(oe, ne, "traceEvents entry") or \
            first_difference(sorted(on), sorted(nn), "name entry (sorted)")
        for k in sorted(set(orest) | set(nrest)):
            if not diff and orest.get(k) != nrest.get(k):
                if k == "otherData" and isinstance(orest.get(k), dict):
                    keys = sorted(set(orest[k]) | set(nrest.get(k, {})))
                    bad = [(x, orest[k].get(x), nrest[k].get(x)) for x in keys
                           if orest[k].get(x) != nrest[k].get(x)]
                    diff = "otherData differs: %r" % bad[:5]
                else:
                    diff = "member %s differs" % k
    else:
        diff = first_difference(open(old, errors="replace").read().splitlines(),
                                open(new, errors="replace").read().splitlines(), "line")
    if diff:
        print(diff)
        return 1
    print("same records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
