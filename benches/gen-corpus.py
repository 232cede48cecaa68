#!/usr/bin/env python3
"""Generate a synthetic data root for benchmarking `activity-site check`.

The root has the same shape as the repository's: `games.json`, one activity
document per game and locale under `data/<game>/<locale>.json`, and a copy of
`schema/`. Every document is valid by the rules of DESIGN.md (times in
`YYYY-MM-DDTHH:MM:SS`, end times on second 59, activities sorted by start
time and overlapping their version, locale files of a game sharing their time
windows, no duplicate activities, covers empty or https) unless `--defects`
asks for broken ones. Output depends only on the arguments: the same seed
gives the same bytes.

Example:

    python3 benches/gen-corpus.py target/bench-corpus --games 1000 --locales 4 --activities 100

Standard library only.
"""

import argparse
import datetime as dt
import json
import os
import random
import shutil
import sys

LOCALES = ["zh-CN", "en-US", "ja-JP", "ko-KR", "zh-TW", "fr-FR", "de-DE", "es-ES"]

# The version windows contain this instant, so a check pinned to it reports no
# stale versions.
NOW = dt.datetime(2026, 11, 22, 12, 0, 0)

# Word pools per script; names and descriptions are drawn from them.
WORDS = {
    "latin": (
        "star moon frost ember tide echo lantern harbor garden night dawn dusk "
        "signal voyage festival trial abyss theater wish warp banner rift "
        "corridor memory fiction shadow bounty crescendo patrol circuit cafe "
        "supply station check-in gifts plenty fissure convene channel"
    ).split(),
    "zh": (
        "星海 月影 霜烛 余烬 潮汐 回声 灯会 港湾 庭院 长夜 黎明 黄昏 信号 "
        "巡游 庆典 试炼 深渊 剧诗 祈愿 跃迁 调频 裂隙 回廊 忆庭 虚构 暗影 "
        "丰谷 奏鸣 夜巡 街区 咖啡馆 补给站 签到 赠礼 繁生 唤取 频段"
    ).split(),
    "ja": (
        "星海 月影 霜灯 残火 潮騒 残響 灯籠 港町 庭園 長夜 夜明け 黄昏 "
        "シグナル 巡遊 祭典 試練 深淵 劇場 祈願 跳躍 調律 裂け目 回廊 記憶 "
        "虚構 影 豊穣 夜巡り 街区 カフェ 補給所 ログイン ギフト"
    ).split(),
    "ko": (
        "별바다 달그림자 서리등 잔불 파도 메아리 등불 항구 정원 긴밤 새벽 "
        "황혼 신호 순례 축제 시련 심연 극장 기원 도약 조율 균열 회랑 기억 "
        "허구 그림자 풍요 야간순찰 거리 카페 보급소 출석 선물"
    ).split(),
}

KINDS = {
    "latin": ["Event", "Login", "Banner", "Endgame", "Double Drops"],
    "zh": ["限时活动", "签到", "祈愿", "挑战", "奖励翻倍"],
    "ja": ["イベント", "ログイン", "ガチャ", "エンドコンテンツ", "ドロップ2倍"],
    "ko": ["이벤트", "출석", "뽑기", "엔드 콘텐츠", "보상 2배"],
}

DEFECT_KINDS = [
    "bad-date",  # an impossible date
    "unknown-key",  # a misspelt extra key
    "end-before-start",  # an activity whose end precedes its start
    "offset",  # a time with a zone offset
    "hour-24",  # 24:00:00
    "wrong-type",  # version as a number
    "missing-field",  # an activity without description
    "bad-cover",  # a cover that is not a URL
    "duplicate",  # the same activity twice
    "json-syntax",  # a trailing comma
]


def script_of(locale):
    lang = locale.split("-")[0]
    if lang in ("zh", "ja", "ko"):
        return lang
    return "latin"


def fmt(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S")


def phrase(rng, script, lo, hi):
    words = [rng.choice(WORDS[script]) for _ in range(rng.randint(lo, hi))]
    if script == "latin":
        text = " ".join(words)
        return text[0].upper() + text[1:]
    return "".join(words) if script in ("zh", "ja") else " ".join(words)


def sentence(rng, script):
    if script == "latin":
        return phrase(rng, script, 6, 24) + "."
    if script == "ko":
        return phrase(rng, script, 4, 14) + "."
    return phrase(rng, script, 5, 18) + "。"


def windows(rng, count):
    """The version window and `count` activity windows, sorted by start."""
    start = dt.datetime(2026, 10, 1, 11) + dt.timedelta(days=rng.randint(0, 50))
    end = start + dt.timedelta(days=rng.randint(35, 49), hours=-7, seconds=-1)
    if end <= NOW + dt.timedelta(days=1):
        end = NOW + dt.timedelta(days=rng.randint(1, 20), hours=-8, seconds=-1)
    span_hours = int((end - start).total_seconds() // 3600)
    acts = []
    for _ in range(count):
        # Most activities lie inside the version; some begin before it or end after it.
        a_start = start + dt.timedelta(hours=rng.randint(-72, span_hours - 2))
        a_start = a_start.replace(minute=rng.choice([0, 0, 0, 30]), second=0)
        length = dt.timedelta(hours=rng.randint(24, 24 * 28))
        a_end = a_start + length
        a_end = a_end.replace(minute=59, second=59) - dt.timedelta(hours=1)
        if a_end <= start:
            a_end = start + dt.timedelta(days=1, minutes=59, seconds=59)
        acts.append((a_start, a_end))
    acts.sort(key=lambda w: w[0])
    return start, end, acts


def document(rng, script, version, window, acts):
    start, end, _ = window
    activities = []
    seen = set()
    for a_start, a_end in acts:
        while True:
            name = phrase(rng, script, 2, 4)
            if (name, a_start) not in seen:
                seen.add((name, a_start))
                break
        activity = {"name": name}
        if rng.random() < 0.6:
            activity["kind"] = rng.choice(KINDS[script])
        joiner = "" if script in ("zh", "ja") else " "
        description = joiner.join(sentence(rng, script) for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.05:
            description = ""
        activity["description"] = description
        activity["startTime"] = fmt(a_start)
        activity["endTime"] = fmt(a_end)
        if rng.random() < 0.7:
            cover = ""
            if rng.random() < 0.5:
                cover = "https://cdn.example.com/covers/%08x.jpg" % rng.getrandbits(32)
            activity["cover"] = cover
        activities.append(activity)
    doc = {"$schema": "../../schema/activity.schema.json"}
    doc["version"] = version
    doc["versionName"] = phrase(rng, script, 2, 5)
    doc["startTime"] = fmt(start)
    doc["endTime"] = fmt(end)
    doc["cover"] = ""
    doc["activities"] = activities
    return doc


def to_text(value):
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def inject(rng, kind, doc):
    """Breaks `doc` in the way `kind` names; returns the text to write."""
    acts = doc["activities"]
    i = rng.randrange(len(acts)) if acts else None
    if kind == "bad-date" and acts:
        acts[i]["startTime"] = "2026-02-30T10:00:00"
    elif kind == "unknown-key" and acts:
        acts[i]["descripton"] = acts[i].pop("description")
    elif kind == "end-before-start" and acts:
        acts[i]["startTime"], acts[i]["endTime"] = acts[i]["endTime"], acts[i]["startTime"]
    elif kind == "offset" and acts:
        acts[i]["endTime"] += "+08:00"
    elif kind == "hour-24" and acts:
        acts[i]["startTime"] = acts[i]["startTime"][:11] + "24:00:00"
    elif kind == "wrong-type":
        doc["version"] = 3.8
    elif kind == "missing-field" and acts:
        del acts[i]["description"]
    elif kind == "bad-cover" and acts:
        acts[i]["cover"] = "cover image"
    elif kind == "duplicate" and acts:
        acts.insert(i + 1, dict(acts[i]))
    elif kind == "json-syntax":
        text = to_text(doc)
        # A trailing comma after the last activity.
        cut = text.rstrip().rfind("}", 0, len(text.rstrip()) - 1)
        return text[: cut + 1] + "," + text[cut + 1 :]
    return to_text(doc)


def main():
    parser = argparse.ArgumentParser(
        description="Generate a synthetic activity-site root for benchmarks.",
        epilog="example: python3 benches/gen-corpus.py target/bench-corpus "
        "--games 1000 --locales 4 --activities 100",
    )
    parser.add_argument("out_dir", help="root to write (games.json, data/, schema/)")
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument(
        "--locales", type=int, default=4, help="locales per game, from %s (default 4)" % ", ".join(LOCALES)
    )
    parser.add_argument("--activities", type=int, default=100, help="activities per document (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--schema-dir",
        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"),
        help="schema folder to copy into the root (default: the repository's schema/)",
    )
    parser.add_argument("--defects", type=int, default=0, help="number of defects to inject (default 0)")
    parser.add_argument(
        "--defect-kinds",
        default=",".join(DEFECT_KINDS),
        help="comma-separated defect kinds to cycle through (default: all of %s)" % ", ".join(DEFECT_KINDS),
    )
    parser.add_argument("--force", action="store_true", help="replace games.json, data/ and schema/ in a non-empty out_dir")
    args = parser.parse_args()

    if args.games < 1 or not 1 <= args.locales <= len(LOCALES) or args.activities < 0 or args.defects < 0:
        parser.error("need --games >= 1, 1 <= --locales <= %d, --activities >= 0, --defects >= 0" % len(LOCALES))
    kinds = [k for k in args.defect_kinds.split(",") if k]
    unknown = [k for k in kinds if k not in DEFECT_KINDS]
    if unknown or (args.defects and not kinds):
        parser.error("unknown defect kind(s): %s" % ", ".join(unknown or ["(none given)"]))
    files_total = args.games * args.locales
    if args.defects > files_total:
        parser.error("--defects %d exceeds the number of data files (%d)" % (args.defects, files_total))

    out = args.out_dir
    if os.path.isdir(out) and os.listdir(out):
        if not args.force:
            parser.error("%s is not empty (use --force to replace its games.json, data/ and schema/)" % out)
        for name in ("data", "schema"):
            shutil.rmtree(os.path.join(out, name), ignore_errors=True)
        if os.path.exists(os.path.join(out, "games.json")):
            os.remove(os.path.join(out, "games.json"))
    os.makedirs(os.path.join(out, "data"), exist_ok=True)

    schema_dir = os.path.normpath(args.schema_dir)
    if os.path.isdir(schema_dir):
        shutil.copytree(schema_dir, os.path.join(out, "schema"))
    else:
        print("warning: no schema folder at %s; the root has no schema/" % schema_dir, file=sys.stderr)

    locales = LOCALES[: args.locales]
    width = max(4, len(str(args.games)))
    ids = ["g%0*d" % (width, n + 1) for n in range(args.games)]

    # Defects go to distinct files, chosen from the seed.
    picker = random.Random("defects:%d" % args.seed)
    targets = picker.sample([(g, l) for g in ids for l in locales], args.defects)
    defects = {target: kinds[n % len(kinds)] for n, target in enumerate(targets)}

    games = []
    total_bytes = 0
    for gid in ids:
        rng = random.Random("%d:%s" % (args.seed, gid))
        window = windows(rng, args.activities)
        version = "%d.%d" % (rng.randint(1, 6), rng.randint(0, 8))
        names = {}
        for locale in locales:
            names[locale] = phrase(random.Random("%d:%s:%s:name" % (args.seed, gid, locale)), script_of(locale), 1, 3)
        games.append(
            {
                "id": gid,
                "name": names,
                "locales": locales,
                "defaultLocale": locales[0],
                "dataSource": "https://news.example.com/%s/" % gid,
                "timeZone": "Asia/Shanghai",
            }
        )
        os.makedirs(os.path.join(out, "data", gid), exist_ok=True)
        for locale in locales:
            text_rng = random.Random("%d:%s:%s" % (args.seed, gid, locale))
            doc = document(text_rng, script_of(locale), version, window, window[2])
            kind = defects.get((gid, locale))
            text = inject(text_rng, kind, doc) if kind else to_text(doc)
            data = text.encode("utf-8")
            total_bytes += len(data)
            with open(os.path.join(out, "data", gid, locale + ".json"), "wb") as f:
                f.write(data)
    registry = to_text({"$schema": "schema/games.schema.json", "games": games}).encode("utf-8")
    total_bytes += len(registry)
    with open(os.path.join(out, "games.json"), "wb") as f:
        f.write(registry)

    for (gid, locale), kind in sorted(defects.items()):
        print("defect %s data/%s/%s.json" % (kind, gid, locale))
    print(
        "wrote %d games x %d locales x %d activities: %d files, %.1f MB"
        % (args.games, args.locales, args.activities, files_total + 1, total_bytes / 1e6),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
