#!/usr/bin/env python3
"""Counts how the functions of src/ say they failed, by the convention each follows.

    scripts/error-conventions.py [-v] [SRC_DIR]

docs/DESIGN.md ("Conventions") allows two: 0 or a negative errno, and a
pointer or NULL with errno set; a sticky writer (a buffer with an `err`
field, checked once at the end) is the one documented exception.  This
reads each top-level function definition (the style of this tree: the
return type and name at column 0, the body's braces at column 0) and puts
it in one class by the return statements in its body:

  neg-errno      int-like, returns -ESOMETHING, -errno or a variable
  minus-one      int-like, returns -1 as a failure (and no -E...)
  positive-errno returns ESOMETHING or errno
  zero-one       int-like, only 0 and 1 (or true/false) with an allocation
                 in the body: a failure said as 1 or 0
  bool-fail      bool, allocates and returns false on the way
  null           pointer, returns NULL somewhere
  void-alloc     void, allocates and drops the failure

Functions that return values rather than failures (a count, a digit, -1
for "none") land in minus-one too: -v lists each with its file and line so
the list can be read, not just counted.  A heuristic, meant to be re-run
after a change, not a parser.
"""
import os
import re
import sys

ALLOC = re.compile(r'\b(malloc|calloc|realloc|strdup|strndup|f2t_vec_reserve|f2t_vec_push|asprintf)\s*\(')
DEF = re.compile(r'^(?:static\s+)?(?:inline\s+)?([A-Za-z_][\w\s\*]*?)\b(\w+)\s*\(')


def functions(text):
    """(return type, name, first line, body) of each top-level definition."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if m and not lines[i].rstrip().endswith(';') and m.group(1).strip() not in ('', 'return', 'else'):
            j = i
            while j < len(lines) and lines[j] != '{' and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and lines[j] == '{':
                k = j + 1
                while k < len(lines) and lines[k] != '}':
                    k += 1
                yield m.group(1).strip(), m.group(2), i + 1, '\n'.join(lines[j:k])
                i = k
        i += 1


def classify(rtype, body):
    rets = re.findall(r'\breturn\b\s*([^;]*);', body)
    allocs = bool(ALLOC.search(body))
    if '*' in rtype:
        return 'null' if any(r.strip() == 'NULL' for r in rets) else None
    if rtype.endswith('void'):
        return 'void-alloc' if allocs and 'void' == rtype.split()[-1] else None
    if any(re.fullmatch(r'E[A-Z0-9]+|errno', r.strip()) for r in rets):
        return 'positive-errno'
    if rtype.split()[-1] == 'bool':
        return 'bool-fail' if allocs and any(r.strip() == 'false' for r in rets) else None
    neg = any(re.match(r'-\s*(E[A-Z0-9]+|errno)\b', r.strip()) for r in rets)
    if neg:
        return 'neg-errno'
    if any(r.strip() == '-1' for r in rets):
        return 'minus-one'
    if allocs and rets and all(r.strip() in ('0', '1', 'true', 'false') for r in rets):
        return 'zero-one'
    if any(re.fullmatch(r'(err|ret|r|e|rc)', r.strip()) for r in rets):
        return 'neg-errno'
    return None


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv[1:]
    top = args[0] if args else 'src'
    counts = {}
    listed = []
    for d, _, files in os.walk(top):
        for f in sorted(files):
            if not f.endswith('.c'):
                continue
            path = os.path.join(d, f)
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for rtype, name, line, body in functions(text):
                c = classify(rtype, body)
                if c:
                    counts[c] = counts.get(c, 0) + 1
                    if c not in ('neg-errno', 'null'):
                        listed.append((c, f'{path}:{line}', name))
    for c in ('neg-errno', 'null', 'minus-one', 'positive-errno', 'zero-one', 'bool-fail',
              'void-alloc'):
        print(f'{c:15} {counts.get(c, 0)}')
    if verbose:
        for c, where, name in sorted(listed):
            print(f'{c:15} {where} {name}')


if __name__ == '__main__':
    main()
