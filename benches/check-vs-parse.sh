#!/usr/bin/env bash
# `activity-site check` against the bare parse and ajv-cli on the synthetic
# corpus, side by side in one hyperfine run (the quick version of
# benches/check-bench.sh, without check-jsonschema, which takes minutes a run).
#
# Rows: `activity-site check` (every rule, every position), the same on one
# rayon thread, `bare-parse` (benches/bare-parse.rs: read every data file and
# parse it into serde_json::Value on every core, nothing else: the figure to
# beat) and ajv-cli with the same schema. Prints a Markdown table with medians,
# ratios to `activity-site`, mean CPU time and the median peak RSS of
# separate `/usr/bin/time` runs, and the load average before and after.
#
# Example:
#
#     benches/check-vs-parse.sh               # RUNS=10, 1000 games
#     RUNS=20 GAMES=1000 benches/check-vs-parse.sh
#
# Needs hyperfine, GNU time, python3 and npm (for ajv-cli, installed into
# target/bench-tools/npm like benches/check-bench.sh does).

set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-10}
GAMES=${GAMES:-1000}
MEM_RUNS=${MEM_RUNS:-3}
NOW=2026-11-22T12:00:00
CORPUS=$REPO/target/bench-corpus
TOOLS=$REPO/target/bench-tools
OUT=$REPO/target/bench-results/check-vs-parse
mkdir -p "$OUT" "$TOOLS"

log() { echo "==> $*" >&2; }

for tool in hyperfine /usr/bin/time npm python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing (see benches/check-bench.sh, which installs it)" >&2; exit 2; }
done
AJV=$TOOLS/npm/node_modules/.bin/ajv
if [ ! -x "$AJV" ]; then
    log "installing ajv-cli into $TOOLS/npm"
    npm install --prefix "$TOOLS/npm" --no-audit --no-fund ajv-cli@5 ajv-formats@3 >&2
fi

log "building the release binary and the bare-parse example (benches/bare-parse.rs)"
(cd "$REPO" && cargo build --release --locked --bins --example bare-parse >&2)
BIN=$REPO/target/release/activity-site
PARSE=$REPO/target/release/examples/bare-parse

stamp="$GAMES $(sha256sum "$REPO/benches/gen-corpus.py" "$REPO"/schema/*.json | sha256sum | cut -c1-16)"
if [ "$(cat "$CORPUS/.stamp-cvp" 2>/dev/null)" != "$stamp" ]; then
    log "generating $CORPUS"
    python3 "$REPO/benches/gen-corpus.py" "$CORPUS" --force --games "$GAMES" --locales 4 --activities 100 >/dev/null
    echo "$stamp" >"$CORPUS/.stamp-cvp"
fi

declare -A CMD=(
    [activity-site]="$BIN check --root $CORPUS --now $NOW"
    [activity-site-1-thread]="env RAYON_NUM_THREADS=1 $BIN check --root $CORPUS --now $NOW"
    [bare-parse]="$PARSE $CORPUS"
    [ajv]="$AJV validate --spec=draft2020 --strict=false --all-errors -s $CORPUS/schema/activity.schema.json -d '$CORPUS/data/*/*.json'"
)
ORDER="activity-site activity-site-1-thread bare-parse ajv"

args=()
for name in $ORDER; do args+=(-n "$name" "${CMD[$name]}"); done
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# ajv expands its quoted glob itself: expanded by the shell, 4,000 paths after
# one -d are "too many arguments" to ajv-cli (exit 2).
hyperfine --style basic --warmup 1 --runs "$RUNS" --export-json "$OUT/times.json" "${args[@]}" >&2
for name in $ORDER; do
    rm -f "$OUT/$name.mem"
    for _ in $(seq "$MEM_RUNS"); do
        /usr/bin/time -f %M -a -o "$OUT/$name.mem" sh -c "${CMD[$name]}" >/dev/null 2>&1 || true
    done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$OUT" "$LOAD_BEFORE" "$LOAD_AFTER" "$(du -sm "$CORPUS/data" | cut -f1)" <<'PY'
import json, statistics, sys
out, before, after, mb = sys.argv[1:5]
results = json.load(open(f"{out}/times.json"))["results"]
base = next(r["median"] for r in results if r["command"] == "activity-site")
print(f"Corpus: {mb} MB of data files. Load average {before} before, {after} after; "
      f"{len(results[0]['times'])} runs each (hyperfine, 1 warmup).\n")
print("| tool | median wall | min … max | user+sys (mean) | (user+sys) / wall | peak RSS (median) | wall vs activity-site |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in results:
    name = r["command"]
    mem = [int(l) for l in open(f"{out}/{name}.mem") if l.strip()]
    cpu = r["user"] + r["system"]
    print(f"| {name} | {r['median'] * 1000:.0f} ms | {r['min'] * 1000:.0f} … {r['max'] * 1000:.0f} ms | "
          f"{cpu * 1000:.0f} ms | {cpu / r['mean']:.2f} | {statistics.median(mem) / 1024:.0f} MB | "
          f"{r['median'] / base:.2f}x |")
PY
