"""rdjson and SARIF outputs of `check` on the multi-mistake fixtures:
valid against their definitions, and their fixes equal to `check --fix`."""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema

NOW = "2026-10-15T12:00:00"
CASES = ["input-method", "english"]


def tree(work: Path, case: str, name: str) -> Path:
    root = work / f"{case}-{name}"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree("tests/fixtures/base", root)
    shutil.copytree(f"tests/fixtures/fix/{case}/input", root, dirs_exist_ok=True)
    return root


def check(bin_: str, root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [bin_, "check", "--root", str(root), "--now", NOW, *args],
        capture_output=True, text=True, timeout=120,
    )


def offset(text: bytes, line: int, column: int, unit: str) -> int:
    """Byte offset of a 1-based line and column (bytes or code points)."""
    start = 0
    for _ in range(line - 1):
        start = text.index(b"\n", start) + 1
    if unit == "bytes":
        return start + column - 1
    rest = text[start:].decode("utf-8")
    return start + len(rest[: column - 1].encode("utf-8"))


def apply(root: Path, edits: dict) -> int:
    """Applies {path: [(start_line, start_col, end_line, end_col, text, unit)]}."""
    count = 0
    for path, changes in edits.items():
        file = root / path
        data = file.read_bytes()
        spans = []
        for sl, sc, el, ec, new, unit in changes:
            spans.append((offset(data, sl, sc, unit), offset(data, el, ec, unit), new.encode("utf-8")))
        spans.sort(key=lambda s: s[0])
        out, at = b"", 0
        for start, end, new in spans:
            if start < at:
                continue  # overlaps one applied: the next round sees it again
            out += data[at:start] + new
            at = end
            count += 1
        file.write_bytes(out + data[at:])
    return count


def rdjson_edits(doc: dict) -> dict:
    edits: dict = {}
    for d in doc["diagnostics"]:
        for s in d.get("suggestions", []):
            r = s["range"]
            edits.setdefault(d["location"]["path"], []).append(
                (r["start"]["line"], r["start"]["column"], r["end"]["line"], r["end"]["column"], s["text"], "bytes"))
    return edits


def sarif_edits(doc: dict) -> dict:
    assert doc["runs"][0]["columnKind"] == "unicodeCodePoints"
    edits: dict = {}
    for result in doc["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for rep in change["replacements"]:
                    r = rep["deletedRegion"]
                    edits.setdefault(change["artifactLocation"]["uri"], []).append(
                        (r["startLine"], r["startColumn"], r["endLine"], r["endColumn"],
                         rep["insertedContent"]["text"], "chars"))
    return edits


def files(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--rdformat", required=True)
    parser.add_argument("--sarif-schema", required=True)
    args = parser.parse_args()
    schema = json.loads(Path(args.sarif_schema).read_text())
    sarif_validator = jsonschema.Draft4Validator(schema)
    for case in CASES:
        fixed = tree(args.work, case, "fixed")
        run = check(args.bin, fixed, "--fix")
        assert run.returncode == 0, run.stderr
        expected = files(fixed)
        for fmt, edits_of in [("rdjson", rdjson_edits), ("sarif", sarif_edits)]:
            root = tree(args.work, case, fmt)
            rounds = 0
            while True:
                out = check(args.bin, root, "--format", fmt)
                doc = json.loads(out.stdout)
                if fmt == "sarif":
                    errors = sorted(sarif_validator.iter_errors(doc), key=str)
                    assert not errors, f"{case}: SARIF invalid: {errors[0]}"
                else:
                    report = args.work / f"{case}-{rounds}.rdjson"
                    report.write_text(out.stdout)
                    valid = subprocess.run([args.rdformat, "--strict", str(report)],
                                           capture_output=True, text=True, timeout=120)
                    assert valid.returncode == 0, f"{case}: rdjson invalid:\n{valid.stdout}{valid.stderr}"
                edits = edits_of(doc)
                if not edits:
                    break
                apply(root, edits)
                rounds += 1
                assert rounds <= 4, f"{case} {fmt}: fixes keep coming"
            assert rounds >= 1, f"{case} {fmt}: no fix offered"
            got = files(root)
            assert got == expected, f"{case} {fmt}: applying the fixes differs from check --fix"
            print(f"{case}: {fmt} valid, {rounds} rounds of fixes equal check --fix")
    return 0


if __name__ == "__main__":
    sys.exit(main())
