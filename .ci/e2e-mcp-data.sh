#!/usr/bin/env bash
# End-to-end check of `activity-site mcp` (the data tools for agents, over
# stdio) with the official MCP Python SDK (`pip install mcp`) as the client,
# on a copy of the test fixture tree. See .ci/e2e_mcp_data.py for what is checked.
#
# Environment:
#   ACTIVITY_SITE_BIN  binary to test (default: built here with cargo)
#   E2E_TIMEOUT        seconds allowed for the client run (default: 240)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
limit="${E2E_TIMEOUT:-240}"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh

# shellcheck disable=SC2046 # one word per package
apt_need $(python_venv_missing)

use_activity_site

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree"
cp -r tests/fixtures/base/. "$work/tree/"

python_venv "$work/venv" mcp
timeout "$limit" "$work/venv/bin/python" .ci/e2e_mcp_data.py \
    --bin "$ACTIVITY_SITE_BIN" --root "$work/tree"
