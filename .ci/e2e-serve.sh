#!/usr/bin/env bash
# End-to-end check of `activity-site serve` with a real browser:
# - runs `serve` on a copy of the five-game fixture tests/fixtures/bundled
#   (loopback, port 0);
# - opens a page in headless Chromium (DevTools protocol, Python + websockets);
# - edits a data file and asserts the page reloaded and shows the new text;
# - breaks the file and asserts the error overlay shows the diagnostic;
# - fixes it and asserts the page reloads without the overlay;
# - stops the server with SIGTERM and expects a clean exit.
# Works on a fresh Debian machine (installs chromium, python3-venv and the
# websockets package); bounded in time. Leaves target/e2e/serve-overlay.png.
set -euo pipefail
cd "$(dirname "$0")/.."

E2E=target/e2e
mkdir -p "$E2E"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(missing_commands chromium) $(python_venv_missing)

python_venv "$E2E/venv-serve" 'websockets>=12'

use_activity_site
timeout 600 "$E2E/venv-serve/bin/python" .ci/e2e_serve.py \
  --binary "$ACTIVITY_SITE_BIN" \
  --chromium "$(command -v chromium)" \
  --root tests/fixtures/bundled \
  --out "$E2E"
echo "e2e-serve passed"
