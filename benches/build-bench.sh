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
# With --scale "100 1000" instead (issue 36): for each corpus size (games x 4
# locales x 100 activities, benches/gen-corpus.py, generated once under
# target/bench-scale-build/ as scale-build.sh does), RUNS alternating rounds
# of: `check`; a warm build with nothing changed; a warm build after one
# activity's description was edited (a new unique text each round), the
# previous output kept beside the output (the steady state of a working
# tree); a cold build (output, kept output and cache removed first); the
# first edit after that cold build (no kept output yet: every unchanged
# file is linked into a new folder once). Prints the median wall of each
# and its ratio to `check` of the same tree, the median CPU time (user +
# system) and the peak RSS of each (from wait4). Then `serve` on the
# largest corpus: edit-to-served (one description edited, the JSON polled
# every 5 ms until it shows the edit), EDITS edits (default 10) in each of
# SERVE_ROUNDS serve sessions (default 2).
# With --before OLD_BINARY, every step runs with both binaries, each on its
# own copy of the corpus, alternating within each round (and the serve
# sessions alternate too): the table has a row per binary.
#
# Usage: benches/build-bench.sh [--runs N] [--root DIR] [--file data/ww/zh-CN.json]
#        benches/build-bench.sh --scale "100 1000" [--runs N] [--before BIN]
# Installs hyperfine with apt-get when missing. Results stay in target/bench-build/.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=15
ROOT=""
SCALE=""
BEFORE=""
FILE=data/ww/zh-CN.json
NOW=2026-11-22T12:00:00
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --root) ROOT=$2; shift 2 ;;
    --file) FILE=$2; shift 2 ;;
    --scale) SCALE=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    -h|--help) sed -n 2,40p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

source benches/lib.sh

if [ -n "$SCALE" ]; then
  release_bin
  WORK=$PWD/target/bench-scale-build
  mkdir -p "$WORK"
  for n in $SCALE; do
    if [ ! -f "$WORK/corpus-$n/.done" ]; then
      rm -rf "$WORK/corpus-$n"
      python3 benches/gen-corpus.py "$WORK/corpus-$n" --games "$n" --locales 4 --activities 100 >&2
      touch "$WORK/corpus-$n/.done"
    fi
  done
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
  python3 - "$BIN" "$BEFORE" "$WORK" "$RUNS" "${EDITS:-10}" "$NOW" $SCALE <<'PY'
import json, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.request
sys.path.insert(0, "benches")
from edit_latency import edit_to_served
from serve_proc import stop

after, before, work = sys.argv[1], sys.argv[2], sys.argv[3]
runs, edits, now = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
sizes = [int(n) for n in sys.argv[7:]]
# The binaries measured, in the order of the first round; later rounds alternate.
bins = [("before", before), ("after", after)] if before else [("now", after)]

def timed(args):
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one run."""
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"failed ({status}): {' '.join(args)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

def edit(path, text):
    doc = json.load(open(path, encoding="utf-8"))
    doc["activities"][0]["description"] = text
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")

def first_file(root):
    games = json.load(open(os.path.join(root, "games.json")))["games"]
    g = games[len(games) // 2]
    return g["id"], os.path.join(root, "data", g["id"], g["defaultLocale"] + ".json")

cases = ("check", "warm, nothing changed", "warm, one description edited", "cold",
         "first edit after a cold build")
rows = []
for n in sizes:
    tmp = tempfile.mkdtemp(prefix=f"incr-{n}-", dir=work)
    trees = {}
    # Each binary on its own copy of the corpus: their manifests and
    # caches are their own.
    for name, bin_ in bins:
        root = os.path.join(tmp, name)
        shutil.copytree(os.path.join(work, f"corpus-{n}"), root, ignore=shutil.ignore_patterns(".done"))
        site = os.path.join(root, "site")
        trees[name] = dict(
            root=root, site=site,
            build=[bin_, "build", "--root", root, "--out", site, "--now", now],
            check=[bin_, "check", "--root", root, "--now", now],
            path=first_file(root)[1])
        timed(trees[name]["build"])
        # An edit after the cold build leaves the previous output kept beside
        # the output, as it is after any edit of a working tree.
        edit(trees[name]["path"], f"bench warm-up {n} {time.time_ns()}")
        timed(trees[name]["build"])
    got = {(name, case): [] for name, _ in bins for case in cases}
    for i in range(runs):
        order = bins if i % 2 == 0 else bins[::-1]
        for case in cases:
            for name, _ in order:
                t = trees[name]
                if case in ("warm, one description edited", "first edit after a cold build"):
                    edit(t["path"], f"bench edit {n} {i} {case} {time.time_ns()}")
                if case == "cold":
                    for d in (t["site"], os.path.join(t["root"], ".activity-site"),
                              os.path.join(t["root"], ".site.previous")):
                        shutil.rmtree(d, ignore_errors=True)
                got[(name, case)].append(timed(t["check"] if case == "check" else t["build"]))
    for name, _ in bins:
        c = statistics.median(w for w, _, _ in got[(name, "check")])
        for case in cases:
            runs_of = got[(name, case)]
            walls = [w for w, _, _ in runs_of]
            rows.append((n, case, name, statistics.median(walls), min(walls), max(walls),
                         statistics.median(walls) / c,
                         statistics.median(cpu for _, cpu, _ in runs_of),
                         max(rss for _, _, rss in runs_of)))
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{runs} alternating rounds per size" + (" (the two binaries alternate within each round)" if before else "")
      + "; medians; ratios to `check` of the same tree and binary.\n")
print("| games | step | binary | median wall | min … max | / check | CPU (user+sys) | peak RSS |")
print("|---:|---|---|---:|---:|---:|---:|---:|")
for n, case, name, med, lo, hi, ratio, cpu, peak in sorted(rows, key=lambda r: (r[0], cases.index(r[1]))):
    print(f"| {n} | {case} | {name} | {med*1000:.0f} ms | {lo*1000:.0f} … {hi*1000:.0f} ms | {ratio:.2f}x "
          f"| {cpu*1000:.0f} ms | {peak:.0f} MB |")

# serve on the largest corpus: edit saved to edited JSON served, each
# binary in turn (SERVE_ROUNDS rounds of EDITS edits each, alternating).
n = max(sizes)
port = int(os.environ.get("WATCH_PORT", "5193"))
served = {name: [] for name, _ in bins}
for r in range(int(os.environ.get("SERVE_ROUNDS", "2"))):
    for name, bin_ in (bins if r % 2 == 0 else bins[::-1]):
        tmp = tempfile.mkdtemp(prefix=f"incr-serve-{n}-", dir=work)
        root = os.path.join(tmp, "root")
        shutil.copytree(os.path.join(work, f"corpus-{n}"), root, ignore=shutil.ignore_patterns(".done"))
        gid, path = first_file(root)
        url = f"http://127.0.0.1:{port}/api/v1/activity/{gid}.json"
        serve = subprocess.Popen([bin_, "serve", "--root", root, "--out", os.path.join(root, "site"),
                                  "--now", now, "--addr", f"127.0.0.1:{port}"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "RUST_LOG": "warn"})
        try:
            deadline = time.monotonic() + 600
            while True:
                try:
                    urllib.request.urlopen(url, timeout=30).read()
                    break
                except Exception:
                    if time.monotonic() > deadline or serve.poll() is not None:
                        sys.exit("serve did not come up")
                    time.sleep(0.2)
            # Let the first build's background work (deferred siblings) end.
            time.sleep(3)
            served[name].extend(edit_to_served(url, lambda marker: edit(path, marker), edits, pause=1.5))
        finally:
            stop(serve, tmp)
print(f"\n`serve` at {n} games: edit saved to edited JSON served (one description edited, polled "
      f"every 5 ms, the watcher's debounce included):\n")
print("| binary | edits | median | min | max |")
print("|---|---:|---:|---:|---:|")
for name, _ in bins:
    lat = sorted(served[name])
    print(f"| {name} | {len(lat)} | {statistics.median(lat):.0f} ms | {lat[0]:.0f} ms | {lat[-1]:.0f} ms |")
PY
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  exit 0
fi

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
