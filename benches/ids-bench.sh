#!/usr/bin/env bash
# `check` at N activities in one window, N = 8,000 and 16,000 (issue 63):
# the pairing of `missing-id` is linear, so 16,000 takes about twice the
# time of 8,000 (at most 2.5x). Each file of a two-language game lists N
# activities in one window; see benches/ids-bench.py for the three trees
# (paired by place, no evidence, ids given) and how the medians are taken.
#
# Usage: benches/ids-bench.sh   (env: SIZES="8000 16000" RUNS=7 BIN=...)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SIZES=${SIZES:-8000 16000}
RUNS=${RUNS:-7}
OUT=$BENCH_REPO/target/bench-ids
release_bin
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck disable=SC2086
python3 "$BENCH_REPO/benches/ids-bench.py" "$BIN" "$OUT" "$RUNS" $SIZES
