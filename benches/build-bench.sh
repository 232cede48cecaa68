#!/usr/bin/env bash
# Benchmark of `activity-site build`: a warm one-file rebuild side by side
# with `check` of the same tree, and a cold build (wall and CPU time).
#
# - Copies the bundled data (games.json, data/, schema/) into a temp root, or
#   the tree given with --root (for example a corpus of benches/gen-corpus.py).
# - One hyperfine run (the three commands back to back, each RUNS times):
#   1. `check --now NOW`;
#   2. warm one-file rebuild: before each run, one activity name of
#      data/<game>/<locale>.json gets a new unique suffix (a real edit, never
#      seen by the cache), then `build --now NOW` with the default cache;
#   3. cold build: before each run the output and the cache are removed, then
#      `build --now NOW` (which renders, compresses and fills the cache).
# - Prints a Markdown table: median wall, min-max, mean user+sys, CPU/wall,
#   and the ratio of each to `check`. Also `/usr/bin/time -v` of one cold
#   build for its peak RSS.
#
# Usage: benches/build-bench.sh [--runs N] [--root DIR] [--file data/ww/zh-CN.json]
# Installs hyperfine with apt-get when missing. Results stay in target/bench-build/.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=15
ROOT=""
FILE=data/ww/zh-CN.json
NOW=2026-11-22T12:00:00
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --root) ROOT=$2; shift 2 ;;
    --file) FILE=$2; shift 2 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

source benches/lib.sh
need_apt hyperfine hyperfine
need_apt /usr/bin/time time
release_bin
OUT=$PWD/target/bench-build
mkdir -p "$OUT"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
R=$WORK/root
mkdir -p "$R"
if [ -n "$ROOT" ]; then
  cp -r "$ROOT/games.json" "$ROOT/data" "$R/"
  [ -d "$ROOT/schema" ] && cp -r "$ROOT/schema" "$R/"
else
  cp -r games.json data schema "$R/"
fi

# The edit: a new unique suffix on the first activity name of $FILE.
cat >"$WORK/edit.py" <<'PY'
import json, sys, time
path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
name = doc["activities"][0]["name"].split(" #")[0]
doc["activities"][0]["name"] = f"{name} #{time.time_ns()}"
with open(path, "w", encoding="utf-8") as f:
    f.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
PY

# Warm the cache once.
"$BIN" build --root "$R" --out "$R/site" --now "$NOW" 2>/dev/null

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
# hyperfine pairs the n-th --prepare and -n with the n-th command.
hyperfine --warmup 2 --runs "$RUNS" --export-json "$OUT/build.json" \
  -n check -n "warm one-file rebuild" -n "cold build" \
  --prepare true \
  --prepare "python3 $WORK/edit.py $R/$FILE" \
  --prepare "rm -rf $R/site $R/.activity-site" \
  "$BIN check --root $R --now $NOW" \
  "$BIN build --root $R --out $R/site --now $NOW" \
  "$BIN build --root $R --out $R/site --now $NOW" >&2
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

rm -rf "$R/site" "$R/.activity-site"
/usr/bin/time -v "$BIN" build --root "$R" --out "$R/site" --now "$NOW" 2>"$OUT/cold-time.txt" || true
RSS=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$OUT/cold-time.txt")

python3 - "$OUT/build.json" "$RSS" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
rss_kb = int(sys.argv[2] or 0)
check = statistics.median(results[0]["times"])
print("| command | median wall | min … max | runs | user+sys (mean) | (user+sys) / wall | wall vs check |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in results:
    wall = statistics.median(r["times"])
    cpu = r["user"] + r["system"]
    print(f"| {r['command']} | {wall*1000:.1f} ms | {min(r['times'])*1000:.1f} … {max(r['times'])*1000:.1f} ms "
          f"| {len(r['times'])} | {cpu*1000:.1f} ms | {cpu / r['mean']:.2f} | {wall / check:.1f}x |")
print(f"\nPeak RSS of one cold build: {rss_kb / 1024:.0f} MB.")
PY
