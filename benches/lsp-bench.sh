#!/usr/bin/env bash
# Keystroke to publishDiagnostics through the real protocol (benches/lsp-bench.py),
# beside `check` on the same tree: the largest bundled data file (the
# repository's own data) and one file of N activities (16,000 by default,
# generated as benches/one-file-bench.sh does).
#
# Usage: benches/lsp-bench.sh   (env: N=16000 RUNS=41 CHECK_RUNS=15 BIN=...)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-16000}
RUNS=${RUNS:-41}
CHECK_RUNS=${CHECK_RUNS:-15}
NOW=2026-10-15T12:00:00
BIN=${BIN:-$REPO/target/release/activity-site}
BIG=$REPO/target/bench-lsp/$N
[ -x "$BIN" ] || (cd "$REPO" && cargo build --release --locked --bin activity-site >&2)
command -v hyperfine >/dev/null || { echo "error: hyperfine is missing" >&2; exit 2; }

python3 - "$BIG" "$N" <<'PY'
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

largest=$(cd "$REPO" && ls -S data/*/*.json | head -1)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$REPO/benches/lsp-bench.py" "$BIN" "$REPO" "$largest" "$RUNS"
python3 "$REPO/benches/lsp-bench.py" "$BIN" "$BIG" data/big/zh-CN.json "$RUNS"
hyperfine -N --style basic --warmup 1 --runs "$CHECK_RUNS" \
    -n "check (bundled tree)" "$BIN check --root $REPO --now $NOW" \
    -n "check ($N activities)" "$BIN check --root $BIG --now $NOW"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
