"""`check` with N activities in one window (issue 63), for benches/ids-bench.sh.

One game, two locales; each file lists N activities that all share one
window (the same startTime and endTime), so `missing-id` pairs them across
the languages. Three trees per size:
- `place`: no ids, both files list N (pairs by place, every fix exact);
- `choose`: no ids, the English file lists N - 1 (no evidence pairs them:
  each English activity gets its candidates as choices);
- `ids`: `place` after `check --fix` (nothing left to pair).
Every (tree, size) is checked RUNS times, the sizes interleaved so that a
busy moment of the machine falls on both; prints the median of each and
the ratio of each size to the smallest.

Usage: python3 benches/ids-bench.py BIN OUT_DIR RUNS SIZE...
"""

import json
import os
import statistics
import subprocess
import sys
import time

NOW = "2026-10-15T12:00:00"


def tree(root, n, en):
    """Writes a tree of `n` Chinese and `en` English activities in one window."""
    os.makedirs(os.path.join(root, "data", "big"), exist_ok=True)
    games = {"games": [{
        "id": "big", "name": "Big", "locales": ["zh-CN", "en-US"],
        "defaultLocale": "zh-CN", "dataSource": "https://example.org/big",
        "updateMode": "version",
    }]}
    with open(os.path.join(root, "games.json"), "w") as f:
        json.dump(games, f, indent=2)
    for locale, count in (("zh-CN", n), ("en-US", en)):
        doc = {
            "version": "1.0", "versionName": "Big",
            "startTime": "2026-10-01T10:00:00", "endTime": "2026-11-11T03:59:59",
            "activities": [{
                "name": f"{locale} activity {i:05}",
                "description": "",
                "startTime": "2026-10-01T10:00:00",
                "endTime": "2026-11-11T03:59:59",
            } for i in range(count)],
        }
        with open(os.path.join(root, "data", "big", f"{locale}.json"), "w") as f:
            json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")


def check(bin_, root):
    start = time.perf_counter()
    subprocess.run([bin_, "check", "--root", root, "--now", NOW, "--format", "json"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main():
    bin_, out, runs, sizes = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(s) for s in sys.argv[4:]]
    roots = {}
    for n in sizes:
        for case, en in (("place", n), ("choose", n - 1), ("ids", n)):
            root = os.path.join(out, f"{case}-{n}")
            tree(root, n, en)
            roots[(case, n)] = root
        subprocess.run([bin_, "check", "--fix", "--root", roots[("ids", n)], "--now", NOW],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    times = {key: [] for key in roots}
    for _ in range(runs):
        for key, root in roots.items():
            times[key].append(check(bin_, root))
    print(f"load average: {open('/proc/loadavg').read().split()[:3]}")
    for case in ("place", "choose", "ids"):
        base = statistics.median(times[(case, sizes[0])])
        for n in sizes:
            median = statistics.median(times[(case, n)])
            print(f"{case:>6} N={n:>6}: median {median:.3f} s of {runs} "
                  f"(min {min(times[(case, n)]):.3f}), x{median / base:.2f} of N={sizes[0]}")


if __name__ == "__main__":
    main()
