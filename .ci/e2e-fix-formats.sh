#!/usr/bin/env bash
# End-to-end check of `check --format rdjson` and `--format sarif` (issue 33)
# on the multi-mistake fixtures of tests/fixtures/fix/: each output is
# validated against its published definition (SARIF 2.1.0's JSON Schema,
# vendored as tests/schemas/sarif-2.1.0-rtm.5.json from the npm package
# @microsoft/jest-sarif 1.0.0-beta.0; the Reviewdog Diagnostic Format by
# @umbrelladocs/rdformat-validator from npm), and the suggestions (rdjson)
# and fixes (sarif), applied round after round as a reviewer accepting them
# would, give exactly the files `check --fix` writes.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh

need_apt=()
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
# shellcheck disable=SC2046 # one word per package
apt_need "${need_apt[@]}" $(python_venv_missing)

use_activity_site

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python_venv "$work/venv" "jsonschema==4.*"
(cd "$work" && timeout 600 npm install --no-audit --no-fund --loglevel=error \
    @umbrelladocs/rdformat-validator@1.0.1 >/dev/null)

"$work/venv/bin/python" .ci/e2e_fix_formats.py \
    --bin "$ACTIVITY_SITE_BIN" --work "$work" \
    --rdformat "$work/node_modules/.bin/rdformat-validator" \
    --sarif-schema tests/schemas/sarif-2.1.0-rtm.5.json
