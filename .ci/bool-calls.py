#!/usr/bin/env python3
"""Counts (1) the functions of the tool's code that take a `bool` (as
`.ci/long-functions.py --bools` does: src/ and crates/*/src/, unit tests left
out), and (2) the calls of those functions that pass a bare `true`/`false`
argument (a literal at the call's top level), by the call's first line.

    python3 .ci/bool-calls.py [CHECKOUT] [-v] [--max N]    # -v lists the calls

With `--max N` it fails when more than N functions take a `bool` (CI's
ratchet: lower N when a `bool` that chooses a behaviour becomes an enum or
two functions). The calls are found by name, so their count is a guide,
not a gate; the functions are read from their signatures.
"""
import importlib.util, pathlib, re, sys
argv = sys.argv[1:]
most = None
if "--max" in argv:
    at = argv.index("--max")
    most = int(argv[at + 1])
    del argv[at:at + 2]
# The checkout to count: the first argument, else this one.
given = [a for a in argv if a != "-v"]
ROOT = pathlib.Path(given[0] if given else pathlib.Path(__file__).parent.parent).resolve()
spec = importlib.util.spec_from_file_location("lf", ROOT / ".ci/long-functions.py")
lf = importlib.util.module_from_spec(spec); spec.loader.exec_module(lf)
show = "-v" in argv
# The functions are read as long-functions.py reads them, in this checkout.
lf.ROOT = ROOT
paths = list(lf.sources())
names, defs = set(), 0
for p in paths:
    for name, line, length, params, bools in lf.functions(p):
        if bools:
            names.add(name); defs += 1
def test_ranges(text):
    """Line spans of `#[cfg(test)] mod` blocks."""
    spans = []
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0); i += 1
        spans.append((m.start(), i))
    return spans
calls = tcalls = 0
every = sorted(set(paths) | set((ROOT / "src").rglob("*.rs")) | set(ROOT.glob("crates/*/src/**/*.rs")) | set((ROOT / "tests").rglob("*.rs")))
for p in every:
    text = lf.blank(p.read_text())
    spans = [(0, len(text))] if (p.name == "tests.rs" or "tests" in p.relative_to(ROOT).parts[:1]) else []
    inner = test_ranges(text)
    for m in re.finditer(r"\b([a-z_][a-z0-9_]*)\s*\(", text):
        if m.group(1) not in names: continue
        in_test = any(a <= m.start() < b for a, b in spans + inner)
        if re.search(r"\bfn\s+$", text[max(0, m.start()-10):m.start()]): continue
        depth, i, args, cur = 1, m.end(), [], ""
        while i < len(text) and depth:
            c = text[i]
            if c in "([{": depth += 1
            elif c in ")]}": depth -= 1
            if depth == 1 and c == ",": args.append(cur); cur = ""
            elif depth >= 1 and not (depth == 1 and c == ","): cur += c
            i += 1
        args.append(cur)
        if any(a.strip() in ("true", "false") for a in args):
            if in_test: tcalls += 1
            else: calls += 1
            if show: print(f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start())+1}: {m.group(1)}")
print(f"{defs} functions take a bool; {calls} calls of them in the tool's code pass a bare true/false (+{tcalls} in tests)")
if most is not None and defs > most:
    print(f"more than {most} functions take a bool: make the new one an enum or two functions", file=sys.stderr)
    sys.exit(1)
