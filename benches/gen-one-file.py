#!/usr/bin/env python3
"""Write a data root with one game and one locale whose document holds N
activities (Chinese text, covers, every activity inside its version), for
the one-file benchmarks (benches/one-file-bench.sh, benches/lsp-bench.sh).

Usage: python3 benches/gen-one-file.py ROOT N
Standard library only; the output depends only on N.
"""
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
