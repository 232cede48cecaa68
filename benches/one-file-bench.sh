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

python3 "$REPO/benches/gen-one-file.py" "$ROOT" "$N"
"$BIN" check --root "$ROOT" --now "$NOW" >&2

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --style basic --warmup 1 --runs "$RUNS" \
    -n activity-site "$BIN check --root $ROOT --now $NOW" \
    -n bare-parse "$PARSE $ROOT" \
    -n ajv "$AJV validate --spec=draft2020 --strict=false --all-errors -s $REPO/schema/activity.schema.json -d $ROOT/data/big/zh-CN.json"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "peak RSS of one check: %M KB" "$BIN" check --root "$ROOT" --now "$NOW" 2>&1 | tail -1
