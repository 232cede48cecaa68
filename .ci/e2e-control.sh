#!/usr/bin/env bash
# End-to-end check of the control API with real clients: curl for the auth
# and SSE basics, then schemathesis against /openapi/v1.json with the token,
# failing on any server error, any response that violates the document,
# and wrong 405 handling.
#
# Usage: .ci/e2e-control.sh            (builds and runs `activity-site serve`)
#        E2E_SERVER="path/to/binary [args]" .ci/e2e-control.sh
#            runs another server command instead; it gets the flags
#            --state-dir DIR --access-token T --addr 127.0.0.1:PORT appended.
# Environment: PORT (default 5077), MAX_EXAMPLES (default 25), CI=true
# installs system packages with apt-get on a fresh Debian machine.
set -euo pipefail

cd "$(dirname "$0")/.."
PORT="${PORT:-5077}"
MAX_EXAMPLES="${MAX_EXAMPLES:-25}"
TOKEN="e2e-$RANDOM-token"
BASE="http://127.0.0.1:$PORT"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(python_venv_missing) $(missing_commands curl)

scratch_dir

log "installing schemathesis"
python_venv "$work/venv" 'schemathesis>=4,<5'
ST="$work/venv/bin/st"

if [[ -n "${E2E_SERVER:-}" ]]; then
    read -ra SERVER <<<"$E2E_SERVER"
else
    use_activity_site
    SERVER=("$ACTIVITY_SITE_BIN" serve --no-watch --out "$work/site")
fi

log "starting ${SERVER[*]}"
"${SERVER[@]}" --state-dir "$work/state" --access-token "$TOKEN" --addr "127.0.0.1:$PORT" \
    >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "$BASE/openapi/v1.json" 2>/dev/null; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
        cat "$work/server.log"
        echo "the server exited" >&2
        exit 1
    fi
    sleep 0.5
done
curl -fsS -o /dev/null "$BASE/openapi/v1.json"

status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
expect() {
    local want="$1" got="$2" what="$3"
    if [[ "$want" != "$got" ]]; then
        echo "FAIL: $what: expected $want, got $got" >&2
        exit 1
    fi
    echo "ok: $what ($got)"
}

log "authentication"
expect 401 "$(status "$BASE/api/Task/status")" "no token"
expect 401 "$(status -H "X-Access-Token: nope" "$BASE/api/Task/status?access_token=$TOKEN")" "wrong header, right query"
expect 200 "$(status -H "X-Access-Token: $TOKEN" "$BASE/api/Task/status")" "header token"
expect 200 "$(status "$BASE/api/task/status?access_token=$TOKEN")" "query token, lower-case route"
expect 200 "$(status -X POST -H 'Content-Type: application/json' -d "{\"token\":\"$TOKEN\"}" "$BASE/api/auth")" "POST /api/auth"
expect 401 "$(status -X POST -H 'Content-Type: application/json' -d '{"token":"x"}' "$BASE/api/Auth")" "POST /api/Auth, wrong token"
expect 200 "$(status "$BASE/api/v1/activity/sr.json")" "the public activity API stays public and unshadowed"

log "log stream"
curl -sN --max-time 8 -H "X-Access-Token: $TOKEN" "$BASE/api/backend/logs/stream" >"$work/sse.txt" &
sse_pid=$!
sleep 1
curl -fsS -X POST -H "X-Access-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"arguments":"--inline --no-admin --step-ms=50"}' "$BASE/api/Backend/restart" >/dev/null
curl -fsS -X POST -H "X-Access-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"configName":"Default"}' "$BASE/api/Task/run" >/dev/null
wait "$sse_pid" || true
grep -Eq '^: ?connected' "$work/sse.txt" || { echo "FAIL: no initial comment" >&2; exit 1; }
grep -q '^id: ' "$work/sse.txt" || { echo "FAIL: no event ids" >&2; exit 1; }
grep -q '^data: .*Job 1 completed' "$work/sse.txt" || { cat "$work/sse.txt"; echo "FAIL: the run's lines did not stream" >&2; exit 1; }
echo "ok: $(grep -c '^data: ' "$work/sse.txt") log lines streamed"

log "screenshot"
curl -fsS -H "X-Access-Token: $TOKEN" "$BASE/api/Operator/screenshot" -o "$work/shot.png"
python3 - "$work/shot.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1280, 720), (width, height)
print("ok: screenshot is a 1280x720 PNG")
PY

log "schemathesis"
# Checks: no server error, status codes, content types, headers and bodies
# as documented, 405 with a right `Allow` for undocumented methods, and the
# token enforced. Left out: the heuristics that call a 400 for a missing
# configuration or a settings update with only unknown keys "valid data
# rejected" (the contract wants those 400s), and the stateful ones.
# The contract makes POST /api/Backend/restart answer 500 "restart failed"
# for unknown arguments, which random strings are; every other operation
# must never give a server error. The log stream never ends, so it is
# checked above with curl instead. POST /api/Backend/stop is left out: once
# called, tasks, operator calls and screenshots answer 500 "backend not
# running" until a restart, by design (tests/control/webui.rs covers it).
cat >"$work/schemathesis.toml" <<'TOML'
[checks.negative_data_rejection]
enabled = false
[checks.positive_data_acceptance]
enabled = false
[checks.use_after_free]
enabled = false
[checks.ensure_resource_availability]
enabled = false
[checks.object_level_authorization]
enabled = false

[[operations]]
include-path = "/api/Backend/restart"
checks.not_a_server_error.enabled = false
TOML
# Run from the scratch directory: schemathesis keeps a cache in the working directory.
cd "$work"
timeout 1200 "$ST" --config-file "$work/schemathesis.toml" run "$BASE/openapi/v1.json" \
    --header "X-Access-Token: $TOKEN" \
    --exclude-path /api/Backend/logs/stream \
    --exclude-path /api/Backend/stop \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" \
    --request-timeout 20 \
    --workers 1 \
    --no-color
log "control API end-to-end checks passed"
