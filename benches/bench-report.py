#!/usr/bin/env python3
"""Print the Markdown report of benches/check-bench.sh from its result files.

Reads `<results>/<set>.<tool>.json` (hyperfine exports), `<set>.<tool>.mem`
(peak resident set sizes in kB, one per line, as GNU time prints them) and
`<set>.diagnostics.json` (`activity-site check --format json`), and prints the
table to stdout. It can be run again on the same results without timing
anything:

    python3 benches/bench-report.py target/bench-results

Standard library only.
"""

import argparse
import json
import os
import statistics

SETS = ["bundled", "corpus", "corpus-defects"]
TOOLS = ["activity-site", "activity-site-1-thread", "bare-parse", "ajv", "check-jsonschema"]


def duration(seconds):
    v = seconds * 1000
    if v < 100:
        return "%.1f ms" % v
    if v < 10000:
        return "%.0f ms" % v
    return "%.1f s" % (v / 1000)


def data_size(root):
    files = 0
    total = 0
    data = os.path.join(root, "data")
    for game in sorted(os.listdir(data)):
        for name in os.listdir(os.path.join(data, game)):
            files += 1
            total += os.path.getsize(os.path.join(data, game, name))
    return files, total


def peak_memory(path):
    if not os.path.exists(path):
        return None
    # GNU time adds a "Command exited with non-zero status" line on failures.
    values = [int(x) for x in open(path).read().split("\n") if x.strip().isdigit()]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="folder of result files (target/bench-results)")
    parser.add_argument("--root", action="append", default=[], metavar="SET=DIR", help="data root of a set, for its size")
    parser.add_argument("--machine", default="", help="line describing the machine")
    parser.add_argument("--versions", default="", help="line naming the tool versions")
    args = parser.parse_args()
    roots = dict(r.split("=", 1) for r in args.root)

    if args.machine:
        print(args.machine)
        print()
    if args.versions:
        print(args.versions)
        print()
    print(
        "| data | tool | median wall | min … max | runs | user+sys (mean) | (user+sys) / wall | peak RSS | exit | wall vs activity-site |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in SETS:
        present = [t for t in TOOLS if os.path.exists(os.path.join(args.results, "%s.%s.json" % (s, t)))]
        if not present:
            continue
        label = s
        if s in roots:
            files, total = data_size(roots[s])
            label = "%s (%d files, %.1f MB)" % (s, files, total / 1e6)
        base = None
        for t in present:
            r = json.load(open(os.path.join(args.results, "%s.%s.json" % (s, t))))["results"][0]
            rss = peak_memory(os.path.join(args.results, "%s.%s.mem" % (s, t)))
            cpu = r["user"] + r["system"]
            exits = ",".join(str(e) for e in sorted(set(r.get("exit_codes") or [])))
            if t == "activity-site":
                base = r["median"]
                rel = "1.0x"
            elif base:
                rel = "%.1fx" % (r["median"] / base)
            else:
                rel = ""
            print(
                "| %s | %s | %s | %s … %s | %d | %s | %.2f | %s | %s | %s |"
                % (
                    label,
                    t,
                    duration(r["median"]),
                    duration(r["min"]),
                    duration(r["max"]),
                    len(r["times"]),
                    duration(cpu),
                    cpu / r["mean"],
                    "%.0f MB" % (rss / 1024) if rss else "n/a",
                    exits,
                    rel,
                )
            )
            label = ""
    print()
    for s in SETS:
        path = os.path.join(args.results, "%s.diagnostics.json" % s)
        if not os.path.exists(path):
            continue
        try:
            report = json.load(open(path))
            codes = {}
            for d in report["diagnostics"]:
                codes[d["code"]] = codes.get(d["code"], 0) + 1
            detail = ", ".join("%s %d" % kv for kv in sorted(codes.items()))
            print(
                "- activity-site on %s: %d errors, %d warnings%s"
                % (s, report["errors"], report["warnings"], " (" + detail + ")" if detail else "")
            )
        except (ValueError, KeyError):
            print("- activity-site on %s: its --format json output is not readable" % s)


if __name__ == "__main__":
    main()
