#!/usr/bin/env python3
"""Lists the files under src/ and crates/*/src/ whose code names the announcements board outside
the board's own files (one per layer), the layers' lists, layout.rs and
tree.rs: an identifier or string literal with a word `anno`, `board(s)` or
`announcement...` (comments, #[cfg(test)] items and tests.rs left out; a
`mod` line or a list entry is the recipe's and counted only with --strict).
Every fact of a kind belongs to its declaration (src/lib.rs, the recipe), so
a second kind is never taken for a board.

    python3 .ci/board-names.py [ROOT] [--strict] [--max N]

--max N fails (exit 1) when more than N files name it.
"""
import os
import re
import sys

args = list(sys.argv[1:])
limit = None
if "--max" in args:
    at = args.index("--max")
    limit = int(args[at + 1])
    del args[at:at + 2]
root = next((a for a in args if not a.startswith("--")), ".")
OWN = {
 "crates/check/src/kind/announcements.rs", "crates/site/src/announcements.rs",
 "crates/check/src/validate/announcements.rs", "src/data_mcp/announcements.rs",
 "crates/check/src/model/announcements.rs", "crates/review/src/announcements.rs",
 # the lists
 "crates/check/src/kind/mod.rs", "crates/site/src/kinds.rs", "crates/review/src/kinds.rs",
 "crates/check/src/layout.rs", "crates/check/src/tree.rs",
}
pat = re.compile(r"announcement|board|anno", re.I)

def strip(src):
    # remove comments, keep strings; blank out #[cfg(test)] items
    out = []; i = 0; n = len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i); j = n if j < 0 else j
            i = j; continue
        if src.startswith("/*", i):
            j = src.find("*/", i); j = n if j < 0 else j + 2
            i = j; continue
        if c == 'r' and re.match(r'r#*"', src[i:i+10]) and (i == 0 or not (src[i-1].isalnum() or src[i-1]=='_')):
            m = re.match(r'r(#*)"', src[i:]); hashes = m.group(1)
            end = src.find('"' + hashes, i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(src[i:end]); i = end; continue
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j+1]); i = j + 1; continue
        if c == "'" :
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m: out.append(m.group(0)); i += len(m.group(0)); continue
        out.append(c); i += 1
    return "".join(out)

def drop_tests(code):
    res = []; i = 0
    while True:
        k = code.find("#[cfg(test)]", i)
        if k < 0: res.append(code[i:]); break
        res.append(code[i:k])
        # skip to end of the following item: a ';' before any '{' or the matching '}'
        j = k + len("#[cfg(test)]")
        depth = 0
        while j < len(code):
            ch = code[j]
            if ch == ';' and depth == 0: j += 1; break
            if ch == '{': depth += 1
            if ch == '}':
                depth -= 1
                if depth == 0: j += 1; break
            j += 1
        i = j
    return "".join(res)

total = 0; files = []
tops = [os.path.join(root, "src")] + sorted(
    os.path.join(root, "crates", c, "src") for c in os.listdir(os.path.join(root, "crates")))
for dp, dn, fn in (w for top in tops for w in os.walk(top)):
    for f in fn:
        if not f.endswith(".rs"): continue
        p = os.path.relpath(os.path.join(dp, f), root)
        if p in OWN or f == "tests.rs" or "/tests/" in p: continue
        code = drop_tests(strip(open(os.path.join(root, p)).read()))
        if "--strict" not in sys.argv:
            # a module's declaration and a layer's list are the recipe's lines
            code = re.sub(r"(?m)^\s*(pub )?mod \w+;\s*$", "", code)
            code = re.sub(r"(?s)static (FILE_KINDS|WRITTEN|ALL)\b[^;]*;", "", code)
        hits = []
        for m in re.finditer(r'"(?:[^"\\]|\\.)*"|r#*"[^"]*"#*|[A-Za-z_][A-Za-z0-9_]*', code):
            segs = [x.lower() for x in re.findall(r'[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])', m.group(0))]
            if any(x in ("anno", "board", "boards") or x.startswith("announcement") for x in segs): hits.append(m.group(0))
        if hits:
            files.append((p, hits))
for p, h in sorted(files):
    print(f"{p}: {len(h)}  " + " ".join(sorted(set(x[:60] for x in h))))
print(f"{len(files)} files name the board outside its own ({sum(len(h) for _, h in files)} names)")
if limit is not None and len(files) > limit:
    print(f"more than {limit}: move the fact into the kind's declaration (src/kind/)", file=sys.stderr)
    sys.exit(1)
