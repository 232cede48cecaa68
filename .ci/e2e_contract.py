"""The published contract of a built site, checked with validators that are
not activity-site's (run by e2e-contract.sh inside its venv):

- every file the site publishes under api/v1/, llms.txt and the API catalog
  matches exactly one path of the site's own api/v1/openapi.json (path
  templates resolved with the enums of their parameters);
- every JSON file among them validates, with check-jsonschema, against the
  schema the OpenAPI's 200 answer names for its path (a reference resolved to
  the published schema file beside the OpenAPI, or an inline schema);
- every published schema is a valid draft 2020-12 schema whose $id is under
  the site URL; the OpenAPI names the site URL as its server and validates
  with openapi-spec-validator;
- a document with a published field removed is rejected (the check can fail).

Usage: e2e_contract.py SITE_DIR SITE_URL WORK_DIR
"""

import json
import re
import subprocess
import sys
from pathlib import Path

SITE = Path(sys.argv[1])
SITE_URL = sys.argv[2].rstrip("/") + "/"
WORK = Path(sys.argv[3])
OPENAPI = SITE / "api/v1/openapi.json"
CATALOG = ".well-known/api-catalog"
BIN = Path(sys.executable).parent


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(*args):
    result = subprocess.run(args, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


openapi = json.loads(OPENAPI.read_text())


def template_regex(path, item):
    """The regex of an OpenAPI path template: each {name} one of the enum of
    its parameter (any segment text without one)."""
    params = {p["name"]: p for p in item["get"].get("parameters", [])}
    out, at = "", 0
    for m in re.finditer(r"\{([^}]+)\}", path):
        out += re.escape(path[at : m.start()])
        values = params[m.group(1)]["schema"].get("enum")
        if values:
            out += "(?:" + "|".join(re.escape(v) for v in values) + ")"
        else:
            out += "[^/]+"
        at = m.end()
    out += re.escape(path[at:])
    return re.compile("^" + out + "$")


templates = [(path, template_regex(path, item), item) for path, item in openapi["paths"].items()]


def published(site):
    """Every file a client may fetch that the contract covers: the API,
    llms.txt and the API catalog, without precompressed siblings."""
    for f in sorted(site.rglob("*")):
        if not f.is_file():
            continue
        rel = f.relative_to(site).as_posix()
        if rel.endswith((".br", ".gz")):
            continue
        if rel.startswith("api/v1/") or rel in ("llms.txt", CATALOG):
            yield rel


def is_json(rel):
    return rel.endswith(".json") or rel == CATALOG


# 1. Every published path matches exactly one path of the OpenAPI.
by_schema = {}
checked_paths = set()
for rel in published(SITE):
    url = "/" + rel
    matches = [(p, item) for p, rx, item in templates if rx.match(url)]
    if len(matches) != 1:
        fail(f"{url} matches {len(matches)} paths of the OpenAPI: {[p for p, _ in matches]}")
    path, item = matches[0]
    checked_paths.add(path)
    content = item["get"]["responses"]["200"]["content"]
    if len(content) != 1:
        fail(f"{path}: the 200 answer has {len(content)} media types")
    media, body = next(iter(content.items()))
    if is_json(rel) != ("json" in media):
        fail(f"{url}: the OpenAPI gives it the media type {media}")
    if not is_json(rel):
        continue
    schema = body["schema"]
    if "$ref" in schema:
        target = (OPENAPI.parent / schema["$ref"]).resolve()
        if not target.is_file():
            fail(f"{path}: its schema {schema['$ref']} is no published file")
        key = str(target)
    else:
        inline = WORK / ("inline-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") + ".json")
        inline.write_text(json.dumps({"$schema": openapi["jsonSchemaDialect"], **schema}))
        key = str(inline)
    by_schema.setdefault(key, []).append(str(SITE / rel))
unused = set(openapi["paths"]) - checked_paths
print(f"ok: {sum(len(v) for v in by_schema.values())} JSON files and every other API file match one path each; "
      f"paths with no file in this site: {sorted(unused) or 'none'}")

# 2. Every JSON file against the schema of its path, by an outside validator.
for schema, files in sorted(by_schema.items()):
    code, out = run(str(BIN / "check-jsonschema"), "--default-filetype", "json", "--schemafile", schema, *files)
    if code != 0:
        fail(f"check-jsonschema against {schema}:\n{out}")
    print(f"ok: {len(files)} file(s) valid against {Path(schema).name}")

# 3. The schemas: valid 2020-12 schemas, $id under the site URL.
schemas = sorted((SITE / "api/v1/schema").glob("*.json"))
code, out = run(str(BIN / "check-jsonschema"), "--check-metaschema", *map(str, schemas))
if code != 0:
    fail(f"a published schema is not a valid JSON Schema:\n{out}")
for schema in schemas:
    doc = json.loads(schema.read_text())
    want = SITE_URL + schema.relative_to(SITE).as_posix()
    if doc.get("$id") != want:
        fail(f"{schema.name}: $id is {doc.get('$id')!r}, not {want!r}")
print(f"ok: {len(schemas)} schemas are valid draft 2020-12 schemas with their $id under {SITE_URL}")

# 4. The OpenAPI: its server is the site, and an outside validator accepts it.
if openapi["servers"][0]["url"].rstrip("/") + "/" != SITE_URL:
    fail(f"the OpenAPI's server is {openapi['servers'][0]['url']}, not {SITE_URL}")
code, out = run(str(BIN / "openapi-spec-validator"), str(OPENAPI))
if code != 0:
    fail(f"openapi-spec-validator:\n{out}")
print("ok: openapi-spec-validator accepts api/v1/openapi.json")
catalog = json.loads((SITE / CATALOG).read_text())
desc = catalog["linkset"][0]["service-desc"][0]["href"]
if desc != SITE_URL + "api/v1/openapi.json":
    fail(f"the API catalog's service-desc is {desc}")
print("ok: the API catalog names the OpenAPI as service-desc")

# 5. The check can fail: a document without an activity's startsAt is refused.
activity_schema = SITE / "api/v1/schema/activity.json"
document = json.loads(next((SITE / "api/v1/activity").glob("*.json")).read_text())
broken = next(a for a in document["activities"])
del broken["startsAt"]
bad = WORK / "broken-document.json"
bad.write_text(json.dumps(document))
code, out = run(str(BIN / "check-jsonschema"), "--schemafile", str(activity_schema), str(bad))
if code == 0:
    fail("check-jsonschema accepted a document whose activity lacks startsAt")
print("ok: a document with a published field removed is refused")
