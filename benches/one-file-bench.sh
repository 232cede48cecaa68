#!/usr/bin/env bash
# `activity-site check` against the bare parse and ajv-cli on one large file:
# one game, one locale, N distinct activities (16,000 by default, about
# 3.9 MB), all valid, so the figures compare checking with parsing rather
# than with printing diagnostics (benches/scale-bench.sh times that).
#
# One hyperfine run (-N, no shell), RUNS runs each, then the peak RSS of one
# `check`. Uses the release binary and the bare-parse example of
# benches/check-vs-parse.sh, and its ajv-cli under target/bench-tools/npm
# (run that script once first, or set AJV=path/to/ajv).
#
# Usage: benches/one-file-bench.sh   (env: N=16000 RUNS=15 BIN=... PARSE=... AJV=...)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-16000}
RUNS=${RUNS:-15}
NOW=2026-10-15T12:00:00
ROOT=$REPO/target/bench-one-file/$N
BIN=${BIN:-$REPO/target/release/activity-site}
PARSE=${PARSE:-$REPO/target/release/examples/bare-parse}
AJV=${AJV:-$REPO/target/bench-tools/npm/node_modules/.bin/ajv}

for tool in hyperfine /usr/bin/time python3 "$AJV"; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing (see benches/check-vs-parse.sh)" >&2; exit 2; }
done
if [ ! -x "$BIN" ] || [ ! -x "$PARSE" ]; then
    (cd "$REPO" && cargo build --release --locked --bins --example bare-parse >&2)
fi

python3 - "$ROOT" "$N" <<'PY'
import json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{root}/data/big", exist_ok=True)
games = {"games": [{"id": "big", "name": "Big", "locales": ["zh-CN"], "defaultLocale": "zh-CN",
                    "dataSource": "https://example.org/news", "timeZone": "Asia/Shanghai"}]}
json.dump(games, open(f"{root}/games.json", "w"), indent=2, ensure_ascii=False)
activities = sorted(
    ({"name": f"星海巡游第{i}期", "description": f"限时探索活动，第{i}轮。",
      "startTime": f"2026-10-{1 + i % 20:02d}T10:00:00", "endTime": "2026-11-11T03:59:59",
      "cover": f"https://cdn.example.com/c/{i}.jpg"} for i in range(n)),
    key=lambda a: a["startTime"])
doc = {"version": "1.2", "versionName": "星海之歌", "startTime": "2026-10-01T11:00:00",
       "endTime": "2026-11-12T03:59:59", "cover": "", "activities": activities}
json.dump(doc, open(f"{root}/data/big/zh-CN.json", "w"), indent=2, ensure_ascii=False)
PY
"$BIN" check --root "$ROOT" --now "$NOW" >&2

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --style basic --warmup 1 --runs "$RUNS" \
    -n activity-site "$BIN check --root $ROOT --now $NOW" \
    -n bare-parse "$PARSE $ROOT" \
    -n ajv "$AJV validate --spec=draft2020 --strict=false --all-errors -s $REPO/schema/activity.schema.json -d $ROOT/data/big/zh-CN.json"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "peak RSS of one check: %M KB" "$BIN" check --root "$ROOT" --now "$NOW" 2>&1 | tail -1
