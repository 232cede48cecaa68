#!/usr/bin/env bash
# End-to-end check of /mcp with the official MCP Python SDK (`pip install mcp`)
# as a real client, against `activity-site serve` started with an access token.
# See .ci/e2e_mcp.py for what is checked. Runs the latest SDK and the last 1.x.
#
# Environment:
#   ACTIVITY_SITE_BIN  binary to test (default: built here with cargo)
#   MCP_SPECS          pip requirement specs to test, space-separated
#                      (default: "mcp mcp<2")
#   E2E_TIMEOUT        seconds allowed for each client run (default: 240)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
specs="${MCP_SPECS:-mcp mcp<2}"
limit="${E2E_TIMEOUT:-240}"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh

# Python with venv, on a fresh Debian machine.
# shellcheck disable=SC2046 # one word per package
apt_need $(python_venv_missing)

use_activity_site

scratch_dir

port="$(free_port)"
token="e2e-$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
base="http://127.0.0.1:$port"

say "starting $ACTIVITY_SITE_BIN serve on $base"
"$ACTIVITY_SITE_BIN" serve --no-watch --addr "127.0.0.1:$port" \
    --out "$work/site" --state-dir "$work/state" --access-token "$token" \
    >"$work/server.log" 2>&1 &
server_pid=$!

# Wait (bounded) until the server accepts connections.
wait_for_port "$port" "$work/server.log"

status=0
for spec in $specs; do
    venv="$work/venv-$(echo "$spec" | tr -c 'a-zA-Z0-9\n' '_')"
    say "installing $spec"
    python_venv "$venv" "$spec"
    if ! timeout "$((limit + 30))" "$venv/bin/python" .ci/e2e_mcp.py \
        --base "$base" --token "$token" --timeout "$limit"; then
        say "FAILED with $spec"
        status=1
    fi
done

if [ "$status" != 0 ]; then
    say "server log:"
    cat "$work/server.log"
fi
exit "$status"
