#!/usr/bin/env bash
# End-to-end security checks (issue 10) against the debug binary: a
# cross-site text/plain POST, DNS rebinding, a non-JSON body, an MCP session
# flood (RSS back near its baseline), a half-sent header, an oversized
# declared body, 400 restarts with 1 MB arguments (RSS printed with its
# baseline), 600 stalled bodies (recovery time printed).
# See .ci/e2e_security.py; it needs only python3 (standard library).
#
# Environment:
#   ACTIVITY_SITE_BIN  binary to test (default: built here with cargo)
#   E2E_SESSIONS       initialize requests of the flood (default: 4000)
#   E2E_TIMEOUT        seconds allowed for the checks (default: 600)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
sessions="${E2E_SESSIONS:-4000}"
limit="${E2E_TIMEOUT:-600}"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh

if ! command -v python3 >/dev/null; then
    say "installing python3"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3
fi

use_activity_site

scratch_dir

port="$(free_port)"
idle=5

say "starting $ACTIVITY_SITE_BIN serve on 127.0.0.1:$port (no token, the default)"
"$ACTIVITY_SITE_BIN" serve --no-watch --addr "127.0.0.1:$port" \
    --out "$work/site" --state-dir "$work/state" \
    --allow-origin http://localhost:5173 --mcp-session-idle "$idle" \
    >"$work/server.log" 2>&1 &
server_pid=$!

# Wait (bounded) until the server accepts connections.
wait_for_port "$port" "$work/server.log"

status=0
timeout "$limit" python3 .ci/e2e_security.py --port "$port" --pid "$server_pid" \
    --sessions "$sessions" --idle "$idle" || status=1
if ! kill -0 "$server_pid" 2>/dev/null; then
    say "the server died"
    status=1
fi
if [ "$status" != 0 ]; then
    say "FAILED; server log (last 50 lines):"
    tail -n 50 "$work/server.log" | cut -c1-400
fi
exit "$status"
