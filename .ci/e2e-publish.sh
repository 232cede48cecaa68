#!/usr/bin/env bash
# End-to-end check of `activity-site publish` against moto_server, an S3
# emulator from PyPI, on loopback:
# - installs moto's S3 backend, the server's Flask and boto3 in a venv (not
#   moto[server], which brings every service's dependencies: twice the disk),
#   starts moto_server on a free
#   port of 127.0.0.1 and waits until it answers;
# - builds the five-game fixture tests/fixtures/bundled and publishes it: first (everything, with
#   Content-Type and Cache-Control checked by boto3), second (nothing),
#   one edit (--dry-run lists it and uploads nothing; then only what changed),
#   --delete after a locale is dropped (a foreign object stays), a missing bucket;
# - stops moto_server on exit, whatever happened.
# Works on a fresh Debian machine (installs python3-venv if missing); bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."

E2E=target/e2e
mkdir -p "$E2E"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(python_venv_missing)

VENV="$E2E/venv-publish"
python_venv "$VENV" 'moto[s3]>=5,<6' 'flask>=3' 'flask-cors>=4' 'boto3>=1.34'

use_activity_site

PORT="$(free_port)"
ENDPOINT="http://127.0.0.1:$PORT"
"$VENV/bin/moto_server" -H 127.0.0.1 -p "$PORT" >"$E2E/moto.log" 2>&1 &
MOTO_PID=$!
cleanup() {
  kill "$MOTO_PID" 2>/dev/null || true
  wait "$MOTO_PID" 2>/dev/null || true
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  if "$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen('$ENDPOINT/moto-api/', timeout=1)" >/dev/null 2>&1; then
    break
  fi
  if ! kill -0 "$MOTO_PID" 2>/dev/null; then
    echo "FAIL: moto_server exited:" >&2
    cat "$E2E/moto.log" >&2
    exit 1
  fi
  sleep 0.2
done

timeout 900 "$VENV/bin/python" .ci/e2e_publish.py \
  --binary "$ACTIVITY_SITE_BIN" \
  --root tests/fixtures/bundled \
  --endpoint "$ENDPOINT"
echo "e2e-publish passed"
