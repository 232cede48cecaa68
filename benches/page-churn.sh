#!/usr/bin/env bash
# Issue 45: how many files a `publish` re-uploads after a rebuild of
# unchanged data at a later moment. Builds the same tree three times (at
# NOW, a minute later and a day later, --no-cache, into fresh folders) and
# counts the files `publish` sends (no .gz/.br siblings, no _headers, no
# hidden files: its plan uploads exactly the files whose bytes differ from
# the manifest's), and of them the pages (.html), that differ from the
# first build. Prints one Markdown row per later moment.
#
# Example:
#
#     BIN=target/debug/activity-site benches/page-churn.sh               # bundled data
#     BIN=target/debug/activity-site GAMES=1000 benches/page-churn.sh    # benches/gen-corpus.py
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$REPO/target/release/activity-site}
GAMES=${GAMES:-}
ACTIVITIES=${ACTIVITIES:-100}
LOCALES=${LOCALES:-4}
NOW=${NOW:-2026-11-20T10:00:00}
WORK=${WORK:-$REPO/target/bench-churn}

mkdir -p "$WORK"
if [ -n "$GAMES" ]; then
  ROOT=$WORK/root-$GAMES
  if [ ! -f "$ROOT/games.json" ]; then
    python3 "$REPO/benches/gen-corpus.py" "$ROOT" --games "$GAMES" --locales "$LOCALES" --activities "$ACTIVITIES" >/dev/null
  fi
else
  ROOT=$REPO
fi
label=${GAMES:-bundled}

later() { python3 -c "import datetime,sys; t=datetime.datetime.fromisoformat(sys.argv[1])+datetime.timedelta(seconds=int(sys.argv[2])); print(t.isoformat())" "$NOW" "$1"; }

i=0
for at in "$NOW" "$(later 60)" "$(later 86400)"; do
  rm -rf "$WORK/site-$label-$i"
  "$BIN" build --root "$ROOT" --out "$WORK/site-$label-$i" --no-cache --now "$at" >/dev/null 2>&1
  i=$((i + 1))
done

python3 - "$WORK/site-$label-0" "$WORK/site-$label-1" "$WORK/site-$label-2" "$label" <<'PY'
import pathlib, sys

def published(root):
    root = pathlib.Path(root)
    out = {}
    for p in root.rglob("*"):
        rel = p.relative_to(root).as_posix()
        if not p.is_file() or any(part.startswith(".") for part in rel.split("/")):
            continue
        if rel.endswith((".gz", ".br")) or rel == "_headers":
            continue
        out[rel] = p.read_bytes()
    return out

first = published(sys.argv[1])
pages = sum(1 for p in first if p.endswith(".html"))
for path, when in ((sys.argv[2], "a minute later"), (sys.argv[3], "a day later")):
    other = published(path)
    changed = [p for p in set(first) | set(other) if first.get(p) != other.get(p)]
    html = [p for p in changed if p.endswith(".html")]
    print(f"| {sys.argv[4]} | {when} | {len(first)} files, {pages} pages | {len(changed)} | {len(html)} |")
PY
