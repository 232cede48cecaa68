#!/usr/bin/env python3
"""Counts the functions of the tool's code (src/ and crates/*/src/, unit tests
left out) longer than a limit, from the line of `fn` to its closing brace.

    python3 .ci/long-functions.py                 # list them, longest first
    python3 .ci/long-functions.py --max 12        # also fail when more than 12
    python3 .ci/long-functions.py --params 5      # functions with 5+ parameters
    python3 .ci/long-functions.py --bools         # functions that take a `bool`

A reading of the text, not of the syntax tree: comments, strings and
character literals are blanked first, then each `fn` with a body is matched
to its closing brace. `#[cfg(test)]` modules and files named `tests.rs` are
tests and left out.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def blank(text: str) -> str:
    """`text` with comments, strings and char literals replaced by spaces
    (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    keep = lambda s: "".join("\n" if c == "\n" else " " for c in s)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(keep(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(keep(text[i:j]))
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append(keep(text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(keep(text[i : j + 1]))
            i = j + 1
        elif c == "'" and (m := re.compile(r"'(\\.[^']*|[^\\'])'").match(text, i)):
            out.append(keep(m.group(0)))
            i = m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching(code: str, open_at: int) -> int:
    """The index of the brace that closes the one at `open_at`."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def functions(path: pathlib.Path):
    """(name, first line, lines, parameters) of each function with a body."""
    code = blank(path.read_text(encoding="utf-8"))
    skipped = []
    for m in TEST_MOD.finditer(code):
        skipped.append((m.start(), matching(code, m.end() - 1)))
    for m in FN.finditer(code):
        if any(a <= m.start() <= b for a, b in skipped):
            continue
        # The signature ends at the body's `{` or at `;` (no body), outside
        # the parameters' parentheses and the generics' angle brackets.
        depth, j = 0, m.end()
        params_start = params_end = None
        while j < len(code):
            c = code[j]
            if c in "([":
                if c == "(" and depth == 0 and params_start is None:
                    params_start = j
                depth += 1
            elif c in ")]":
                depth -= 1
                if depth == 0 and params_end is None and params_start is not None:
                    params_end = j
            elif depth == 0 and c in "{;":
                break
            j += 1
        if j >= len(code) or code[j] == ";":
            continue
        end = matching(code, j)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end) + 1
        params = bools = 0
        if params_start is not None and params_end is not None:
            inner = code[params_start + 1 : params_end]
            level, parts, cur = 0, [], ""
            for ch in inner:
                if ch in "(<[":
                    level += 1
                elif ch in ")>]":
                    level -= 1
                if ch == "," and level == 0:
                    parts.append(cur)
                    cur = ""
                else:
                    cur += ch
            parts.append(cur)
            parts = [p for p in parts if p.strip()]
            params = sum(
                1 for p in parts if not re.fullmatch(r"\s*&?\s*('\w+\s+)?(mut\s+)?self\s*", p)
            )
            bools = sum(1 for p in parts if re.search(r":\s*bool\s*$", p))
        yield m.group(1), first, last - first + 1, params, bools


def sources():
    for top in [ROOT / "src", *sorted((ROOT / "crates").glob("*/src"))]:
        for path in sorted(top.rglob("*.rs")):
            if path.name == "tests.rs":
                continue
            yield path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=100, help="longest allowed, in lines")
    parser.add_argument("--max", type=int, help="fail when more functions than this are longer")
    parser.add_argument("--params", type=int, help="list functions with this many parameters or more")
    parser.add_argument("--bools", action="store_true", help="list functions that take a `bool`")
    parser.add_argument("--under", help="only files under this path (relative to the root)")
    args = parser.parse_args()
    found, wide, flags = [], [], []
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        if args.under and not rel.startswith(args.under):
            continue
        for name, line, length, params, bools in functions(path):
            if length > args.limit:
                found.append((length, f"{rel}:{line}", name))
            if args.params and params >= args.params:
                wide.append((params, f"{rel}:{line}", name))
            if args.bools and bools:
                flags.append(f"{rel}:{line}  {name}")
    for length, place, name in sorted(found, reverse=True):
        print(f"{length:5} lines  {place}  {name}")
    print(f"{len(found)} functions longer than {args.limit} lines (unit tests left out)")
    if args.params:
        for params, place, name in sorted(wide, reverse=True):
            print(f"{params:5} params {place}  {name}")
        print(f"{len(wide)} functions with {args.params} or more parameters")
    if args.bools:
        for place in flags:
            print(f"  bool  {place}")
        print(f"{len(flags)} functions take a bool")
    if args.max is not None and len(found) > args.max:
        print(f"more than {args.max}: split the new ones", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
