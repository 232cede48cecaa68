#!/usr/bin/env bash
# `activity-site publish` beside `aws s3 sync` and `rclone sync`, on the
# benchmark corpus, against one moto_server on loopback.
#
# Builds the release binary, generates the corpus (benches/gen-corpus.py),
# installs what is missing (rclone with apt-get; moto[server], boto3 and
# awscli with pip into target/bench-tools/venv-publish), starts moto_server
# on a free port of 127.0.0.1 and runs benches/publish-bench.py, which times
# four runs per tool (first upload, nothing changed, one file edited, one game
# deleted), counts requests by method from moto's request log, and checks the
# bucket against the built site after every run. Prints a Markdown report.
#
# Example:
#
#     benches/publish-bench.sh                    # 1,000 games, 3 rounds
#     GAMES=100 ROUNDS=3 benches/publish-bench.sh
#     BIN=target/release/activity-site benches/publish-bench.sh   # skip the build
#
# Takes about half an hour at 1,000 games on 2 cores, mostly moto_server.

set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-1000}
ROUNDS=${ROUNDS:-3}
BIN=${BIN:-}
WORK=$REPO/target/bench-publish
TOOLS=$REPO/target/bench-tools
VENV=$TOOLS/venv-publish

log() { echo "==> $*" >&2; }

source "$REPO/benches/lib.sh"
release_bin
need_apt rclone rclone
if [ ! -x "$VENV/bin/aws" ]; then
  log "installing moto[server], boto3 and awscli (pip)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check 'moto[server]>=5,<6' 'boto3>=1.34' awscli
fi

mkdir -p "$WORK"
ROOT=$WORK/root-$GAMES
if [ ! -d "$ROOT.pristine" ]; then
  log "generating $GAMES games x 4 locales x 100 activities"
  rm -rf "$ROOT"
  python3 "$REPO/benches/gen-corpus.py" "$ROOT" --games "$GAMES" --locales 4 --activities 100 >/dev/null
fi

PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
ENDPOINT=http://127.0.0.1:$PORT
MOTO_LOG=$WORK/moto.log
: >"$MOTO_LOG"
"$VENV/bin/moto_server" -H 127.0.0.1 -p "$PORT" >>"$MOTO_LOG" 2>&1 &
MOTO_PID=$!
trap 'kill "$MOTO_PID" 2>/dev/null || true; wait "$MOTO_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if "$VENV/bin/python" -c "import urllib.request; urllib.request.urlopen('$ENDPOINT/moto-api/', timeout=1)" >/dev/null 2>&1; then
    break
  fi
  sleep 0.2
done

log "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); rclone $(rclone version | head -1 | cut -d' ' -f2); $("$VENV/bin/aws" --version 2>&1 | cut -d' ' -f1)"
"$VENV/bin/python" "$REPO/benches/publish-bench.py" \
  --bin "$BIN" --root "$ROOT" --out "$WORK/site-$GAMES" \
  --endpoint "$ENDPOINT" --moto-log "$MOTO_LOG" \
  --aws "$VENV/bin/aws" --rounds "$ROUNDS" --json "$WORK/results-$GAMES.json"
log "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
