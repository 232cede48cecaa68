#!/usr/bin/env bash
# `activity-site diff` folder to folder against `check`, on the synthetic
# corpus of benches/gen-corpus.py (1,000 games, 4 locales, 100 activities a
# document: 4,000 files, the corpus of BENCHMARKS.md's check rows).
#
# Two sites are built once with `build --no-cache --compress none`: the
# corpus as generated (the base) and the corpus with every 50th game edited
# (a version name, one description, one activity removed: 20 games, 80
# documents, their calendars and pages changed). Then, alternating, RUNS
# times each:
#
#   check  activity-site check --root HEAD_CORPUS --now NOW
#   diff   activity-site diff --root HEAD_CORPUS --site HEAD_SITE --against BASE_SITE --now NOW --format json
#
# and prints the median wall time and peak RSS of each (GNU time), their
# ratio, and the load average before and after. Not a test: run it by hand,
# on a quiet machine, once.
#
# Example:
#
#     benches/diff-bench.sh               # RUNS=7, 1000 games
#     RUNS=11 GAMES=1000 benches/diff-bench.sh
set -euo pipefail

. "$(dirname "$0")/lib.sh"
REPO=$BENCH_REPO
RUNS=${RUNS:-7}
GAMES=${GAMES:-1000}
NOW=2026-11-22T12:00:00
WORK=$REPO/target/bench-results/diff
mkdir -p "$WORK"
log() { echo "==> $*" >&2; }

need_apt /usr/bin/time time
need_apt python3 python3
release_bin

BASE=$WORK/corpus-base
HEAD=$WORK/corpus-head
if [ ! -f "$BASE/games.json" ]; then
  log "generating $GAMES games into $BASE"
  python3 "$REPO/benches/gen-corpus.py" "$BASE" --games "$GAMES" --locales 4 --activities 100 >&2
fi
rm -rf "$HEAD" && cp -r "$BASE" "$HEAD"
log "editing every 50th game of $HEAD"
python3 - "$HEAD" <<'PY'
import json, os, sys
root = sys.argv[1]
games = json.load(open(os.path.join(root, "games.json")))["games"]
for i, game in enumerate(games):
    if i % 50:
        continue
    for locale in game["locales"]:
        path = os.path.join(root, "data", game["id"], locale + ".json")
        doc = json.load(open(path, encoding="utf-8"))
        doc["versionName"] += " (edited)"
        doc["activities"][0]["description"] += " Edited."
        del doc["activities"][-1]
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
PY
for side in base head; do
  corpus=$WORK/corpus-$side
  rm -rf "$WORK/site-$side"
  log "building $side"
  "$BIN" build --root "$corpus" --out "$WORK/site-$side" --now "$NOW" --no-cache --compress none >&2
done

run() { # name command...: appends "wall_seconds max_rss_kb" to $WORK/<name>.times
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$WORK/$name.one" "$@" >/dev/null 2>"$WORK/$name.err" || {
    local code=$?
    # diff exits 1 (changes) or 3 (breaking): both are its answer here.
    [ "$name" = diff ] && [ "$code" -le 3 ] || { cat "$WORK/$name.err" >&2; exit 2; }
  }
  tail -n 1 "$WORK/$name.one" >>"$WORK/$name.times"
}
rm -f "$WORK"/*.times
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$RUNS"); do
  log "round $i of $RUNS"
  run check "$BIN" check --root "$HEAD" --now "$NOW"
  run diff "$BIN" diff --root "$HEAD" --site "$WORK/site-head" --against "$WORK/site-base" --now "$NOW" --format json
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
files=$(find "$WORK/site-head" -type f | wc -l)
bytes=$(du -sh "$WORK/site-head" | cut -f1)
python3 - "$WORK" "$RUNS" "$files" "$bytes" "$load_before" "$load_after" <<'PY'
import statistics, sys
work, runs, files, size, before, after = sys.argv[1:]
def load(name):
    rows = [line.split() for line in open(f"{work}/{name}.times")]
    return statistics.median(float(r[0]) for r in rows), statistics.median(int(r[1]) for r in rows), min(float(r[0]) for r in rows), max(float(r[0]) for r in rows)
check = load("check")
diff = load("diff")
print(f"| command | median wall | min … max | median peak RSS | wall vs check |")
print(f"|---|---|---|---|---|")
for name, (wall, rss, lo, hi) in (("check", check), ("diff folder to folder", diff)):
    print(f"| {name} | {wall*1000:.0f} ms | {lo*1000:.0f} … {hi*1000:.0f} ms | {rss/1024:.0f} MB | {wall/check[0]:.2f}x |")
print()
print(f"{runs} alternating rounds; each site {files} files ({size}); load average {before} before, {after} after.")
PY
