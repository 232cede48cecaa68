"""The published contract of a built site, checked with tools that are not
activity-site's (run by e2e-contract.sh inside its venv, with `serve`
answering the site at BASE):

- openapi-spec-validator accepts api/v1/openapi.json; its server is the site;
- openapi-core matches every file the site publishes under api/v1/ (but the
  page of the API's base), llms.txt and the API catalog, fetched from
  `serve`, to exactly one operation and validates the answer (status,
  headers, body) as the answer to its URL; a 304 and a 404 of `serve` too;
- check-jsonschema validates every JSON file against its published schema
  file (api/v1/schema/*.json, read locally) with formats on, and every
  published schema is a valid draft 2020-12 schema with its $id under the
  site URL;
- a document and a board with an added field, at the top and in an item,
  validate against the published schema files and with openapi-core; a
  document with a required field removed is refused (the check can fail);
- RFC 9727: HEAD /.well-known/api-catalog carries the Link header, the
  catalog's anchor answers 200, llms.txt has the API's CORS and cache
  headers.

Usage: e2e_contract.py SITE_DIR SITE_URL WORK_DIR BASE
"""

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

SITE = Path(sys.argv[1])
SITE_URL = sys.argv[2].rstrip("/") + "/"
WORK = Path(sys.argv[3])
BASE = sys.argv[4].rstrip("/")
OPENAPI = SITE / "api/v1/openapi.json"
CATALOG = ".well-known/api-catalog"
HOME = "api/v1/index.html"
BIN = Path(sys.executable).parent
SCHEMAS = SITE / "api/v1/schema"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(*args):
    result = subprocess.run(args, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def fetch(path, method="GET", headers=None):
    """`serve`'s answer to a request: status, headers, body."""
    request = urllib.request.Request(BASE + path, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


openapi_doc = json.loads(OPENAPI.read_text())
# openapi-core parses application/json and nothing else as JSON: the API
# catalog's linkset type (RFC 9264) is JSON too, and the one type told.
api = OpenAPI.from_file_path(
    str(OPENAPI),
    config=Config(extra_media_type_deserializers={"application/linkset+json": lambda value, **_: json.loads(value)}),
)


def validate(url, status, headers, body):
    """openapi-core: the answer validates as the answer to `url` (the
    request as the description's server sees it)."""
    request = MockRequest(SITE_URL.rstrip("/"), "get", url)
    # Every file of the API is UTF-8 text; a string is what a text body's
    # `type: string` schema validates.
    response = MockResponse(
        data=body.decode("utf-8"),
        status_code=status,
        content_type=headers.get("Content-Type", ""),
        headers={k: v for k, v in headers.items()},
    )
    api.validate_response(request, response)
    return api.unmarshal_response(request, response)


def template_regex(path, item):
    """The regex of a path template: each {name} one of its parameter's enum."""
    params = {p["name"]: p for p in item["get"].get("parameters", []) if "name" in p}
    out, at = "", 0
    for m in re.finditer(r"\{([^}]+)\}", path):
        out += re.escape(path[at : m.start()])
        out += "(?:" + "|".join(re.escape(v) for v in params[m.group(1)]["schema"]["enum"]) + ")"
        at = m.end()
    return re.compile("^" + out + re.escape(path[at:]) + "$")


templates = [(template_regex(p, item), item) for p, item in openapi_doc["paths"].items()]


def published(site):
    """Every file the description covers, without precompressed siblings."""
    for f in sorted(site.rglob("*")):
        rel = f.relative_to(site).as_posix()
        if not f.is_file() or rel.endswith((".br", ".gz")) or rel == HOME:
            continue
        if rel.startswith("api/v1/") or rel in ("llms.txt", CATALOG):
            yield rel


def schema_file_of(rel):
    """The published schema file a JSON file's kind names."""
    if rel.startswith("api/v1/schema/") or rel == "api/v1/openapi.json":
        return None
    if rel == "api/v1/games.json":
        return SCHEMAS / "games.json"
    if rel == CATALOG:
        return SCHEMAS / "api-catalog.json"
    if Path(rel).name.startswith("anno"):
        return SCHEMAS / "announcements.json"
    return SCHEMAS / "activity.json"


# 1. The description itself.
code, out = run(str(BIN / "openapi-spec-validator"), str(OPENAPI))
if code != 0:
    fail(f"openapi-spec-validator:\n{out}")
print("ok: openapi-spec-validator: " + out.strip().splitlines()[-1], flush=True)
if openapi_doc["servers"][0]["url"].rstrip("/") + "/" != SITE_URL:
    fail(f"the OpenAPI's server is {openapi_doc['servers'][0]['url']}, not {SITE_URL}")

# 2. openapi-core: every published file, as serve answers it, is the answer
# of exactly one operation of the description.
operations, by_schema, count = set(), {}, 0
for rel in published(SITE):
    url = "/" + rel
    status, headers, body = fetch(url)
    if status != 200:
        fail(f"serve answered {status} for {url}")
    try:
        result = validate(url, status, headers, body)
    except Exception as err:  # openapi-core's errors name the operation and the field
        fail(f"openapi-core: {url}: {err!r} {getattr(err, '__cause__', '')!r}")
    if result.errors:
        fail(f"openapi-core: {url}: {result.errors}")
    matching = [item["get"]["operationId"] for rx, item in templates if rx.match(url)]
    if len(matching) != 1:
        fail(f"{url} matches {len(matching)} operations: {matching}")
    operations.add(matching[0])
    count += 1
    target = schema_file_of(rel) if rel.endswith(".json") or rel == CATALOG else None
    if target:
        by_schema.setdefault(str(target), []).append(str(SITE / rel))
print(f"ok: openapi-core matched and validated {count} published files (answers of serve) "
      f"against {len(operations)} operations: {', '.join(sorted(operations))}")
all_ops = {i["get"]["operationId"] for i in openapi_doc["paths"].values()}
if operations != all_ops:
    fail(f"operations with no file: {sorted(all_ops - operations)}")

# A 304 and serve's JSON 404, as the description declares them.
status, headers, _ = fetch("/api/v1/games.json")
status, headers, body = fetch("/api/v1/games.json", headers={"If-None-Match": headers["ETag"]})
if status != 304:
    fail(f"If-None-Match: {status}, not 304")
validate("/api/v1/games.json", status, headers, body)
status, headers, body = fetch("/api/v1/activity/no-such-game.json")
if status != 404:
    fail(f"an unknown document: {status}")
try:
    # The body every operation declares for a 404, by one of them (no
    # enum admits the unknown name).
    validate("/api/v1/games.json", status, headers, body)
except Exception as err:
    fail(f"openapi-core: serve's 404 is not the declared one: {err!r}")
print("ok: a 304 (If-None-Match) and serve's JSON 404 validate as declared")

# 3. Every JSON file against its published schema file, formats on.
for schema, files in sorted(by_schema.items()):
    code, out = run(str(BIN / "check-jsonschema"), "--default-filetype", "json", "--schemafile", schema, *files)
    if code != 0:
        fail(f"check-jsonschema against {schema}:\n{out}")
    print(f"ok: check-jsonschema: {len(files)} file(s) valid against {Path(schema).name}")
schemas = sorted(SCHEMAS.glob("*.json"))
code, out = run(str(BIN / "check-jsonschema"), "--check-metaschema", *map(str, schemas))
if code != 0:
    fail(f"a published schema is not a valid JSON Schema:\n{out}")
for schema in schemas:
    doc = json.loads(schema.read_text())
    want = SITE_URL + schema.relative_to(SITE).as_posix()
    if doc.get("$id") != want:
        fail(f"{schema.name}: $id is {doc.get('$id')!r}, not {want!r}")
print(f"ok: {len(schemas)} schemas are valid draft 2020-12 schemas with their $id under {SITE_URL}")

# 4. Open to what comes next: added fields pass; a removed required one fails.
def with_added_fields(rel, items):
    document = json.loads((SITE / rel).read_text())
    document["addedLater"] = {"any": ["shape"]}
    document[items][0]["addedLater"] = 1
    return document


for rel, items in (("api/v1/activity/sr.json", "activities"), ("api/v1/anno.json", "announcements")):
    added = WORK / ("added-" + Path(rel).name)
    added.write_text(json.dumps(with_added_fields(rel, items)))
    code, out = run(str(BIN / "check-jsonschema"), "--schemafile", str(schema_file_of(rel)), str(added))
    if code != 0:
        fail(f"a document with added fields fails {schema_file_of(rel).name}:\n{out}")
    validate("/" + rel, 200, {"Content-Type": "application/json"}, added.read_bytes())
print("ok: a document and a board with added fields (top and item) validate against the "
      "published schemas (check-jsonschema, openapi-core)")
broken = json.loads((SITE / "api/v1/activity/sr.json").read_text())
del broken["activities"][0]["startsAt"]
bad = WORK / "broken-document.json"
bad.write_text(json.dumps(broken))
code, out = run(str(BIN / "check-jsonschema"), "--schemafile", str(SCHEMAS / "activity.json"), str(bad))
if code == 0:
    fail("check-jsonschema accepted a document whose activity lacks startsAt")
print("ok: a document with a required field removed is refused")

# 5. RFC 9727.
status, headers, body = fetch("/" + CATALOG, method="HEAD")
link = headers.get("Link", "")
if status != 200 or body or 'rel="api-catalog"' not in link:
    fail(f"HEAD /{CATALOG}: {status}, Link {link!r}")
catalog = json.loads((SITE / CATALOG).read_text())
anchor = catalog["linkset"][0]["anchor"]
status, headers, body = fetch("/" + anchor.removeprefix(SITE_URL))
if status != 200 or b"openapi.json" not in body:
    fail(f"the catalog's anchor {anchor} answers {status}")
anchor_type = headers.get("Content-Type")
status, headers, _ = fetch("/llms.txt")
if headers.get("Access-Control-Allow-Origin") != "*" or not headers.get("Cache-Control"):
    fail(f"llms.txt lacks CORS or cache headers: {dict(headers)}")
print(f"ok: HEAD /{CATALOG} carries Link: {link}; the anchor {anchor} answers 200 "
      f"({anchor_type}); llms.txt has CORS and Cache-Control")
