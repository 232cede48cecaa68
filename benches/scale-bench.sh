#!/usr/bin/env bash
# Scaling of `activity-site check` with the number of activities in one file.
#
# Builds three roots with one game and one locale whose document lists the
# same activity 1,000, 4,000 and 16,000 times (every copy after the first is a
# `duplicate-activity` error, so the diagnostics grow with the input too), and
# times `check --format json` on the three side by side in one hyperfine run.
# Prints a Markdown table: median wall time, and the ratio of each size to the
# one before it (4x the input should cost about 4x the time, not 16x).
#
# Example:
#
#     benches/scale-bench.sh            # RUNS=10 by default
#     RUNS=5 SIZES="1000 4000 16000 64000" benches/scale-bench.sh
#
# Needs hyperfine (installed with apt-get or cargo when missing) and python3.

set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-10}
SIZES=${SIZES:-"1000 4000 16000"}
OUT=$REPO/target/bench-scale
# BIN=path/to/activity-site skips the release build and times that binary.
BIN=${BIN:-}
NOW=2026-10-15T12:00:00

log() { echo "==> $*" >&2; }

if ! command -v hyperfine >/dev/null; then
    log "installing hyperfine"
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        apt-get update -qq >&2 && apt-get install -y -qq hyperfine >&2
    else
        cargo install --locked --root "$REPO/target/bench-tools/cargo" hyperfine >&2
        export PATH=$REPO/target/bench-tools/cargo/bin:$PATH
    fi
fi

if [ -z "$BIN" ]; then
    log "building the release binary"
    (cd "$REPO" && cargo build --release --locked >&2)
    BIN=$REPO/target/release/activity-site
fi

mkdir -p "$OUT"
commands=()
for n in $SIZES; do
    root=$OUT/$n
    python3 - "$root" "$n" <<'PY'
import json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{root}/data/big", exist_ok=True)
games = {"games": [{"id": "big", "name": "Big", "locales": ["zh-CN"], "defaultLocale": "zh-CN",
                    "dataSource": "https://example.org/news", "timeZone": "Asia/Shanghai"}]}
json.dump(games, open(f"{root}/games.json", "w"), indent=2, ensure_ascii=False)
activity = {"name": "星海巡游", "description": "限时探索活动。", "startTime": "2026-10-10T10:00:00",
            "endTime": "2026-10-31T03:59:59", "cover": ""}
doc = {"version": "1.2", "versionName": "星海之歌", "startTime": "2026-10-01T11:00:00",
       "endTime": "2026-11-12T03:59:59", "cover": "", "activities": [activity] * n}
json.dump(doc, open(f"{root}/data/big/zh-CN.json", "w"), indent=2, ensure_ascii=False)
PY
    # hyperfine discards the output itself; exit 1 (the duplicates) is expected.
    commands+=(-n "$n activities" "$BIN check --format json --root $root --now $NOW")
done

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
hyperfine --style basic -N -i --warmup 1 --runs "$RUNS" --export-json "$OUT/results.json" "${commands[@]}" >&2
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$OUT/results.json" "$LOAD_BEFORE" "$LOAD_AFTER" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print(f"Load average {sys.argv[2]} before, {sys.argv[3]} after; {len(results[0]['times'])} runs each.\n")
print("| activities in one file | median wall | min … max | vs previous size |")
print("|---:|---:|---:|---:|")
previous = None
for r in results:
    median = r["median"]
    ratio = f"{median / previous:.2f}x" if previous else ""
    print(f"| {r['command'].split()[0]} | {median * 1000:.0f} ms | {r['min'] * 1000:.0f} … {r['max'] * 1000:.0f} ms | {ratio} |")
    previous = median
PY
