#!/usr/bin/env bash
# End-to-end check of the published contract (issue 55) with validators that
# are not activity-site's:
# - builds the repository's own data (games.json, data/) with --site-url, into
#   a copy whose registry also publishes one game under the legacy name
#   api/v1/activities.json (an alias), so that path is covered too;
# - installs check-jsonschema and openapi-spec-validator from PyPI into a venv;
# - .ci/e2e_contract.py: every published API file matches exactly one path
#   of the site's own api/v1/openapi.json; every JSON file (documents, index,
#   announcements, schemas, the OpenAPI, .well-known/api-catalog) validates
#   with check-jsonschema against the schema the OpenAPI names for its path
#   (the published files themselves, read locally: no network); the schemas
#   are valid draft 2020-12 with their $id under the site URL; the OpenAPI
#   validates with openapi-spec-validator; a document missing a published
#   field is refused.
# Works on a fresh Debian machine (installs python3-venv and pip packages).
set -euo pipefail
cd "$(dirname "$0")/.."

E2E=target/e2e-contract
SITE_URL=https://activity.example.org/
rm -rf "$E2E/root" "$E2E/site" "$E2E/work"
mkdir -p "$E2E/root" "$E2E/work"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2207 # one word per package
need_apt=($(python_venv_missing))
apt_need "${need_apt[@]}"
python_venv "$E2E/venv" 'check-jsonschema>=0.29' 'openapi-spec-validator>=0.7'

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
log "building the data with --site-url $SITE_URL"
"$ACTIVITY_SITE_BIN" build --root "$E2E/root" --out "$E2E/site" --no-cache --site-url "$SITE_URL"
[ -f "$E2E/site/api/v1/activities.json" ] || { echo "FAIL: no api/v1/activities.json" >&2; exit 1; }

log "validating every published JSON file against the schema its OpenAPI path names"
"$E2E/venv/bin/python" .ci/e2e_contract.py "$E2E/site" "$SITE_URL" "$E2E/work"
say "passed"
