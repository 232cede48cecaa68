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
# - Then the SSE log stream (/api/Backend/logs/stream): for each number of
#   streams in SSE_CONNECTIONS (default "32 256"), that many clients
#   (benches/sse_hold.py) hold it open for SSE_DURATION seconds while a
#   configuration is saved every 50 ms (each save is a log line every
#   stream carries); RSS and threads sampled every 0.2 s: idle, at each
#   quarter of the hold, the peak, and after the streams closed.
# - BIN is the binary measured (default: a release build of this tree);
#   BASE_BIN, when set, is measured the same way first ("before").
#
# Usage: benches/load-bench.sh  (env: CONNECTIONS="1 32 256 512" DURATION=5s
#        LONG_REQUESTS=3000000 ROUND_DURATION=5s PORT=5191 BASE_BIN=path
#        SSE_CONNECTIONS="32 256" SSE_DURATION=20; LONG_REQUESTS=0 skips the
#        long run, ROUTES_ONLY=sse measures the SSE stream alone)
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-1 32 256 512}
DURATION=${DURATION:-5s}
LONG_REQUESTS=${LONG_REQUESTS:-3000000}
ROUND_DURATION=${ROUND_DURATION:-5s}
PORT=${PORT:-5191}
SSE_CONNECTIONS=${SSE_CONNECTIONS:-32 256}
SSE_DURATION=${SSE_DURATION:-20}
ROUTES_ONLY=${ROUTES_ONLY:-}
ROUTES=(/api/Configs/Default /api/Settings /api/v1/activity/ww.json /api/Task/status)

source benches/lib.sh
need_apt wrk wrk
need_apt curl curl
need_apt python3 python3
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

# sse_streams: the SSE table of the server $SERVER on $PORT.
sse_streams() {
  local base=http://127.0.0.1:$PORT config c samples holder writer idle
  config=$(curl -fs "$base/api/Configs/Default" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["data"]))')
  echo "SSE log stream, held $SSE_DURATION s while a configuration is saved every 50 ms:"
  echo
  echo "| streams | still open | log lines a stream got (min-max) | idle RSS MB | RSS at 1/4, 1/2, 3/4, end MB | peak RSS MB | RSS after MB | peak threads |"
  echo "|---:|---:|---:|---:|---|---:|---:|---:|"
  for c in $SSE_CONNECTIONS; do
    idle=$(rss_kib "$SERVER")
    samples=$WORK/sse-$c
    start_sampler "$samples"
    python3 benches/sse_hold.py 127.0.0.1 "$PORT" /api/Backend/logs/stream "$c" "$SSE_DURATION" >"$WORK/sse-$c.out" &
    holder=$!
    (while kill -0 "$holder" 2>/dev/null; do
      curl -fs -o /dev/null -X PUT -H 'content-type: application/json' -d "$config" "$base/api/Configs/Default"
      sleep 0.05
    done) &
    writer=$!
    wait "$holder"
    wait "$writer" 2>/dev/null || true
    sleep 1
    stop_sampler
    awk -v c="$c" -v got="$(cat "$WORK/sse-$c.out")" -v idle="$idle" -v after="$(rss_kib "$SERVER")" '
      { rss[NR] = $1; if ($1 > mr) mr = $1; if ($2 > mt) mt = $2 }
      END {
        split(got, g, /[ =]/)
        q = ""
        for (i = 1; i <= 4; i++) q = q sprintf("%s%.1f", i > 1 ? ", " : "", rss[int(NR * i / 4 - 5 > 1 ? NR * i / 4 - 5 : 1)] / 1024)
        printf "| %d | %s | %s-%s | %.1f | %s | %.1f | %.1f | %d |\n", c, g[2], g[4], g[6], idle / 1024, q, mr / 1024, after / 1024, mt
      }' "$samples"
  done
  echo
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
  if [ "$ROUTES_ONLY" != sse ]; then
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
  while [ "$total" -lt "$LONG_REQUESTS" ] || [ "$round" -eq 0 ]; do
    [ "$LONG_REQUESTS" -eq 0 ] && break
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
  fi
  sse_streams
  kill "$SERVER"
  wait "$SERVER" 2>/dev/null || true
  SERVER=""
}

if [ -n "${BASE_BIN:-}" ]; then
  measure before "$BASE_BIN"
fi
measure after "$BIN"
