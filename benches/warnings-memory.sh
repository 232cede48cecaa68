#!/usr/bin/env bash
# Peak memory of `check` and `check --fix` when every activity draws a
# warning (issue 67): the synthetic 1,000-game tree of gen-corpus.py has no
# activity ids, so each of its 400,000 activities is a `missing-id`
# warning with a fix. Measured with `/usr/bin/time`: `check` of that tree,
# `check --fix` of a copy of it (which writes the ids), and `check` of the
# fixed copy, clean (the reference the other two are compared with).
# Medians of ROUNDS runs; the Markdown table goes to stdout.
#
# Usage: benches/warnings-memory.sh  (env: ROUNDS=3 GAMES=1000 BIN=path)
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
GAMES=${GAMES:-1000}
source benches/lib.sh
need_apt /usr/bin/time time
release_bin

CORPUS=target/warnings-corpus-$GAMES
if [ ! -f "$CORPUS/games.json" ]; then
  python3 benches/gen-corpus.py "$CORPUS" --games "$GAMES" --locales 4 --activities 100 >&2
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# peak CMD...: runs CMD (its output dropped; exit status 1, a check that
# found something, is fine), prints "max-RSS-KiB seconds".
peak() {
  local status=0
  /usr/bin/time -f "%M %e" -o "$WORK/time" "$@" >/dev/null 2>&1 || status=$?
  [ "$status" -le 1 ] || { echo "$* ended with $status" >&2; exit 1; }
  cat "$WORK/time"
}

: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round" >&2
  rm -rf "$WORK/fixed"
  cp -r "$CORPUS" "$WORK/fixed"
  echo "check-no-ids $(peak "$BIN" --root "$CORPUS" check)" >>"$WORK/results"
  echo "fix-no-ids $(peak "$BIN" --root "$WORK/fixed" check --fix)" >>"$WORK/results"
  echo "check-with-ids $(peak "$BIN" --root "$WORK/fixed" check)" >>"$WORK/results"
done

python3 - "$WORK/results" "$ROUNDS" "$BIN" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    case, kib, secs = line.split()
    rows.setdefault(case, []).append((int(kib), float(secs)))
clean = statistics.median(k for k, _ in rows["check-with-ids"])
print(f"{sys.argv[3]}, medians of {sys.argv[2]} runs:\n")
print("| run | peak RSS | x clean check | wall time |")
print("|---|---:|---:|---:|")
for case in ("check-with-ids", "check-no-ids", "fix-no-ids"):
    kib = statistics.median(k for k, _ in rows[case])
    secs = statistics.median(s for _, s in rows[case])
    print(f"| {case} | {kib / 1024:.0f} MB | {kib / clean:.2f}x | {secs:.2f} s |")
PY
