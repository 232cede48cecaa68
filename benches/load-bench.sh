#!/usr/bin/env bash
# Threads and resident memory of `activity-site serve` under load (issue 67).
#
# - Runs `serve --no-watch` over a copy of this tree (its own state
#   directory, so the repository is not written) on a loopback port.
# - For each route (a state read: /api/Configs/Default and /api/Settings; a
#   static JSON file; the task status) and each number of connections in
#   CONNECTIONS, runs wrk for DURATION and samples the server's VmRSS and
#   thread count every 0.2 s: the table gives the peak of each run and the
#   value when it ends.
# - Then LONG_REQUESTS requests (default 3 million) of /api/Configs/Default
#   at 32 connections, in rounds of ROUND_DURATION: RSS after each round,
#   the idle server's RSS, the RSS once a million requests were served and
#   at the end, and the largest thread count seen.
# - BIN is the binary measured (default: a release build of this tree);
#   BASE_BIN, when set, is measured the same way first ("before").
#
# Usage: benches/load-bench.sh  (env: CONNECTIONS="1 32 256 512" DURATION=5s
#        LONG_REQUESTS=3000000 ROUND_DURATION=5s PORT=5191 BASE_BIN=path)
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-1 32 256 512}
DURATION=${DURATION:-5s}
LONG_REQUESTS=${LONG_REQUESTS:-3000000}
ROUND_DURATION=${ROUND_DURATION:-5s}
PORT=${PORT:-5191}
ROUTES=(/api/Configs/Default /api/Settings /api/v1/activity/ww.json /api/Task/status)

source benches/lib.sh
need_apt wrk wrk
need_apt curl curl
release_bin

WORK=$(mktemp -d)
SERVER=""
SAMPLER=""
cleanup() {
  [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# rss_kib PID / threads PID: the process's resident memory (KiB) and threads now.
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
threads() { awk '/^Threads:/ { print $2 }' "/proc/$1/status"; }

# Starts the sampler of $SERVER writing "rss threads" lines to $1.
start_sampler() {
  (while kill -0 "$SERVER" 2>/dev/null; do
    echo "$(rss_kib "$SERVER") $(threads "$SERVER")"
    sleep 0.2
  done) >"$1" 2>/dev/null &
  SAMPLER=$!
}
stop_sampler() {
  kill "$SAMPLER" 2>/dev/null || true
  wait "$SAMPLER" 2>/dev/null || true
  SAMPLER=""
}

# wrk_requests ARGS...: runs wrk, fails on errors, prints the requests it made.
wrk_requests() {
  local out
  out=$(wrk "$@")
  if echo "$out" | grep -q "Non-2xx or 3xx"; then
    echo "$out" >&2
    echo "wrk saw errors" >&2
    exit 1
  fi
  echo "$out" | awk '/ requests in / { print $1 }'
}

# measure LABEL BINARY: the whole measurement of one binary, as Markdown.
measure() {
  local label=$1 bin=$2
  local root=$WORK/root-$label
  mkdir -p "$root"
  cp -r games.json data "$root/"
  [ -d schema ] && cp -r schema "$root/"
  RUST_LOG=warn "$bin" serve --no-watch --root "$root" --out "$root/site" \
    --addr "127.0.0.1:$PORT" >"$WORK/$label.out" 2>"$WORK/$label.err" &
  SERVER=$!
  for _ in $(seq 1 600); do
    curl -fs -o /dev/null "http://127.0.0.1:$PORT/api/Settings" && break
    sleep 0.1
  done
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/api/Configs/Default"
  sleep 1
  local idle_rss idle_threads
  idle_rss=$(rss_kib "$SERVER")
  idle_threads=$(threads "$SERVER")
  echo "### $label ($(basename "$bin"), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at start)"
  echo
  echo "Idle: RSS $((idle_rss / 1024)) MB, $idle_threads threads."
  echo
  echo "| route | connections | requests | peak RSS MB | RSS after MB | peak threads | threads after |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  local route c samples requests
  for route in "${ROUTES[@]}"; do
    for c in $CONNECTIONS; do
      samples=$WORK/$label-samples
      start_sampler "$samples"
      # wrk needs a connection per thread.
      requests=$(wrk_requests -t"$((c < 2 ? c : 2))" -c"$c" -d"$DURATION" "http://127.0.0.1:$PORT$route")
      sleep 0.5
      stop_sampler
      awk -v r="$route" -v c="$c" -v n="$requests" -v rss="$(rss_kib "$SERVER")" -v t="$(threads "$SERVER")" '
        { if ($1 > mr) mr = $1; if ($2 > mt) mt = $2 }
        END { printf "| `%s` | %d | %d | %.1f | %.1f | %d | %d |\n", r, c, n, mr / 1024, rss / 1024, mt, t }' "$samples"
    done
  done
  echo
  # The long run: rounds until LONG_REQUESTS requests.
  local total=0 round=0 rss_at_million="" peak_threads=0 t rounds_rss=""
  samples=$WORK/$label-long
  start_sampler "$samples"
  while [ "$total" -lt "$LONG_REQUESTS" ]; do
    requests=$(wrk_requests -t2 -c32 -d"$ROUND_DURATION" "http://127.0.0.1:$PORT/api/Configs/Default")
    total=$((total + requests))
    round=$((round + 1))
    rounds_rss="$rounds_rss $(($(rss_kib "$SERVER") / 1024))"
    if [ -z "$rss_at_million" ] && [ "$total" -ge 1000000 ]; then
      rss_at_million=$(rss_kib "$SERVER")
    fi
  done
  stop_sampler
  peak_threads=$(awk '{ if ($2 > m) m = $2 } END { print m }' "$samples")
  t=$(rss_kib "$SERVER")
  echo "Long run, /api/Configs/Default at 32 connections: $total requests in $round rounds of $ROUND_DURATION."
  echo "RSS MB after each round:$rounds_rss."
  echo "Idle $((idle_rss / 1024)) MB; after the first million $((rss_at_million / 1024)) MB;" \
    "at the end $((t / 1024)) MB ($(awk -v a="$t" -v b="$idle_rss" 'BEGIN { printf "%+.0f", (a - b) * 100 / b }') % of idle);" \
    "peak threads $peak_threads."
  echo
  kill "$SERVER"
  wait "$SERVER" 2>/dev/null || true
  SERVER=""
}

if [ -n "${BASE_BIN:-}" ]; then
  measure before "$BASE_BIN"
fi
measure after "$BIN"
