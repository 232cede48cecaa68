#!/usr/bin/env bash
# Benchmark of `activity-site serve` against nginx serving the same site/.
#
# - Installs wrk and nginx (Debian) when missing; builds the release binary.
# - Runs `serve --no-watch` (which builds the site into a temp dir) and nginx
#   (config in a temp dir, same site/, default etag on) on two loopback ports.
# - wrk with the same threads, connections and duration against each server,
#   alternating servers, ROUNDS rounds: GET of /api/v1/activity/ww.json, plain
#   and with If-None-Match (each server's own ETag, so every answer is a 304).
# - Reports the median requests/s and p99 latency and the ratios ours/nginx as
#   a Markdown table, with each server's CPU time (user + system, all its
#   threads or worker processes) per request, which the machine's load
#   sways far less than requests/s; then the edit-to-served latency of a rebuild (median of
#   EDITS edits, measured by polling the JSON until the edit shows).
#
# Usage: benches/serve-bench.sh  (env: ROUNDS=5 THREADS=2 CONNECTIONS=64 DURATION=10s EDITS=10;
#        ROUNDS=0 skips wrk and nginx and measures the edits only; EDITS=0 skips the edits)
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10s}
EDITS=${EDITS:-10}
OURS_PORT=${OURS_PORT:-5181}
NGINX_PORT=${NGINX_PORT:-5182}
WATCH_PORT=${WATCH_PORT:-5183}
PATH_UNDER_TEST=/api/v1/activity/ww.json

source benches/lib.sh
need_apt wrk wrk
[ -x /usr/sbin/nginx ] || need_apt nginx nginx
need_apt curl curl
need_apt python3 python3
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
release_bin

WORK=$(mktemp -d)
# nginx workers drop privileges; they must be able to read the site.
chmod 755 "$WORK"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Waits until $1 answers 200.
wait_up() {
  for _ in $(seq 1 600); do
    if curl -fs -o /dev/null "$1"; then return 0; fi
    sleep 0.1
  done
  echo "server at $1 did not come up" >&2
  exit 1
}

echo "== serve --no-watch and nginx on the same site/" >&2
RUST_LOG=warn "$BIN" serve --no-watch --root . --out "$WORK/site" --addr "127.0.0.1:$OURS_PORT" \
  >"$WORK/serve.out" 2>"$WORK/serve.err" &
PIDS+=($!)
OURS_PID=$!
wait_up "http://127.0.0.1:$OURS_PORT$PATH_UNDER_TEST"

mkdir -p "$WORK/nginx"
cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes auto;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
  types { application/json json; text/html html; text/calendar ics; }
  default_type application/octet-stream;
  charset utf-8;
  charset_types application/json text/calendar;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/site;
    etag on;
    location /api/v1/ {
      add_header Access-Control-Allow-Origin "*" always;
      add_header Cache-Control "no-cache" always;
    }
  }
}
EOF
"$NGINX" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
PIDS+=($!)
NGINX_PID=$!
wait_up "http://127.0.0.1:$NGINX_PORT$PATH_UNDER_TEST"
# The workers do the serving; the master only watches them.
NGINX_WORKERS=$(pgrep -P "$NGINX_PID" | tr '\n' ' ')

# cpu_ticks PID...: user + system clock ticks the processes used so far.
cpu_ticks() {
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
  done
  echo "$total"
}
TICK=$(getconf CLK_TCK)

etag_of() {
  curl -fsI "$1" | tr -d '\r' | awk 'tolower($1) == "etag:" { print $2 }'
}
OURS_URL="http://127.0.0.1:$OURS_PORT$PATH_UNDER_TEST"
NGINX_URL="http://127.0.0.1:$NGINX_PORT$PATH_UNDER_TEST"
OURS_ETAG=$(etag_of "$OURS_URL")
NGINX_ETAG=$(etag_of "$NGINX_URL")
cmp <(curl -fs "$OURS_URL") <(curl -fs "$NGINX_URL") || { echo "the two servers disagree on the body" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $OURS_ETAG" "$OURS_URL")" = 304 ]
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $NGINX_ETAG" "$NGINX_URL")" = 304 ]

RESULTS=$WORK/results.tsv
: >"$RESULTS"
# One wrk run: appends "case server req/s p99-ms cpu-us-per-request" to the results.
run_wrk() {
  local case=$1 server=$2 url=$3 etag=$4 out pids before
  if [ "$server" = ours ]; then pids=$OURS_PID; else pids=$NGINX_WORKERS; fi
  # shellcheck disable=SC2086 # a list of pids
  before=$(cpu_ticks $pids)
  if [ -n "$etag" ]; then
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "If-None-Match: $etag" "$url")
  else
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$url")
  fi
  if echo "$out" | grep -q "Non-2xx or 3xx"; then
    echo "$out" >&2
    echo "wrk saw errors against $server" >&2
    exit 1
  fi
  local rps p99 requests cpu
  # shellcheck disable=SC2086 # a list of pids
  cpu=$(($(cpu_ticks $pids) - before))
  requests=$(echo "$out" | awk '/ requests in / { print $1 }')
  cpu=$(awk -v t="$cpu" -v n="$requests" -v hz="$TICK" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }')
  rps=$(echo "$out" | awk '/^Requests\/sec:/ { print $2 }')
  p99=$(echo "$out" | awk '$1 == "99%" { v = $2;
        if (v ~ /us$/) { sub(/us$/, "", v); v = v / 1000 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v) }
        else if (v ~ /s$/) { sub(/s$/, "", v); v = v * 1000 }
        print v }')
  printf '%s\t%s\t%s\t%s\t%s\n' "$case" "$server" "$rps" "$p99" "$cpu" >>"$RESULTS"
  echo "  $case $server: $rps req/s, p99 ${p99} ms, CPU ${cpu} us/request" >&2
}

echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds, alternating" >&2
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round" >&2
  # Alternate which server goes first, so drift in machine load hits both.
  if [ $((round % 2)) -eq 1 ]; then order="ours nginx"; else order="nginx ours"; fi
  for server in $order; do
    if [ "$server" = ours ]; then url=$OURS_URL etag=$OURS_ETAG; else url=$NGINX_URL etag=$NGINX_ETAG; fi
    run_wrk "GET 200" "$server" "$url" ""
    run_wrk "GET If-None-Match 304" "$server" "$url" "$etag"
  done
done

# EDITS=0 skips the edits (and the watching server they need).
if [ "$EDITS" -gt 0 ]; then
  echo "== edit-to-served latency ($EDITS edits)" >&2
  mkdir -p "$WORK/root"
  cp -r games.json data "$WORK/root/"
  [ -d schema ] && cp -r schema "$WORK/root/"
  RUST_LOG=warn "$BIN" serve --root "$WORK/root" --out "$WORK/root/site" --addr "127.0.0.1:$WATCH_PORT" \
    >"$WORK/watch.out" 2>"$WORK/watch.err" &
  PIDS+=($!)
  wait_up "http://127.0.0.1:$WATCH_PORT$PATH_UNDER_TEST"
fi

python3 - "$RESULTS" "$WORK/root/data/ww/zh-CN.json" "http://127.0.0.1:$WATCH_PORT$PATH_UNDER_TEST" "$EDITS" \
  "$THREADS" "$CONNECTIONS" "$DURATION" "$ROUNDS" <<'PY'
import statistics, sys
sys.path.insert(0, "benches")
from edit_latency import edit_to_served

results, data_file, url, edits, threads, connections, duration, rounds = sys.argv[1:]
rows = {}
for line in open(results):
    case, server, rps, p99, cpu = line.rstrip("\n").split("\t")
    rows.setdefault(case, {}).setdefault(server, []).append((float(rps), float(p99), float(cpu)))

if rows:
  print(f"wrk -t{threads} -c{connections} -d{duration}, {rounds} rounds alternating servers; "
      f"GET /api/v1/activity/ww.json on loopback. Figures are medians over the rounds; "
      f"ratios are medians of each round's ours/nginx pair (the two runs of a round are "
      f"back to back, so they share the machine's load). CPU is each server's user + system "
      f"time per request (median over the rounds).\n")
  print("| request | ours req/s | nginx req/s | ours/nginx req/s | ours p99 | nginx p99 | ours/nginx p99 "
        "| ours CPU/request | nginx CPU/request |")
  print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for case, servers in rows.items():
    ours, nginx = servers["ours"], servers["nginx"]
    rps_ratio = statistics.median(o[0] / n[0] for o, n in zip(ours, nginx))
    p99_ratio = statistics.median(o[1] / n[1] for o, n in zip(ours, nginx))
    print(f"| {case} | {statistics.median(r[0] for r in ours):,.0f} "
          f"| {statistics.median(r[0] for r in nginx):,.0f} | {rps_ratio:.2f}x "
          f"| {statistics.median(r[1] for r in ours):.2f} ms "
          f"| {statistics.median(r[1] for r in nginx):.2f} ms | {p99_ratio:.2f}x "
          f"| {statistics.median(r[2] for r in ours):.1f} µs "
          f"| {statistics.median(r[2] for r in nginx):.1f} µs |")

if int(edits) == 0:
    sys.exit(0)
original = open(data_file, encoding="utf-8").read()
key = '"versionName": "'
def write_marker(marker):
    with open(data_file, "w", encoding="utf-8") as f:
        f.write(original.replace(key, key + marker + " ", 1))

latencies = edit_to_served(url, write_marker, int(edits))
print(f"\nEdit-to-served latency of a rebuild (write of data/ww/zh-CN.json until the new JSON is "
      f"served, polling every 5 ms, {edits} edits, the watcher's debounce included): median "
      f"{statistics.median(latencies):.0f} ms, min {latencies[0]:.0f} ms, max {latencies[-1]:.0f} ms.")
PY
