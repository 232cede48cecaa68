"""End-to-end `activity-site publish` against moto_server (an S3 emulator).

Driven by .ci/e2e-publish.sh, which installs moto and boto3, starts
moto_server on loopback and passes its endpoint. Builds the bundled data,
then checks, reading the bucket with boto3 (a second, independent S3 client):

1. a first publish uploads every published file with Content-Type (charset)
   and Cache-Control, and nothing else (no .br/.gz, no _headers, no marker);
2. a second publish uploads nothing;
3. after one data file is edited and the site rebuilt, `--dry-run` lists the
   change and uploads nothing, and the publish uploads only what changed;
4. dropping a locale and publishing with `--delete` removes its files and
   leaves a foreign object;
5. the bucket's index names only objects that exist, with their sha256.

Prints the objects and bytes of the first and the one-edit publish.
"""

import argparse
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import boto3

BUCKET = "activity-e2e"
PREFIX = "site"
NOW = "2026-11-22T12:00:00"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(binary, root, *args, env=None, check=True):
    result = subprocess.run(
        [binary, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check and result.returncode != 0:
        fail(f"{' '.join(args[:2])} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def published_files(site):
    files = {}
    for path in sorted(site.rglob("*")):
        if path.is_file():
            files[path.relative_to(site).as_posix()] = path.read_bytes()
    out = {}
    for rel, data in files.items():
        # Hidden files are the host's or the tool's, but for the API
        # catalog's `.well-known/` (RFC 9727), which is published.
        parts = rel.split("/")
        hidden = any(part.startswith(".") for part in parts) and parts[0] != ".well-known"
        if hidden or rel == "_headers":
            continue
        if (rel.endswith(".br") or rel.endswith(".gz")) and rel[:-3] in files:
            continue
        out[rel] = data
    return out


def bucket_objects(s3):
    keys = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for item in page.get("Contents", []):
            keys[item["Key"]] = item["Size"]
    return keys


def uploads_of(stdout):
    """Paths the publish reported as uploaded (+ added, ~ changed, ! restored)."""
    return sorted(
        line[2:].rsplit(" (", 1)[0]
        for line in stdout.splitlines()
        if line[:2] in ("+ ", "~ ", "! ")
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--endpoint", required=True)
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())

    env = dict(os.environ)
    env.update(
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_REGION="us-east-1",
        NO_COLOR="1",
        CI="true",
    )
    for var in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL"):
        env.pop(var, None)
    s3 = boto3.client(
        "s3",
        endpoint_url=args.endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    s3.create_bucket(Bucket=BUCKET)

    work = pathlib.Path(tempfile.mkdtemp(prefix="e2e-publish-"))
    try:
        root = work / "root"
        shutil.copytree(args.root, root, ignore=shutil.ignore_patterns("site", "target", ".git", ".activity-site"))
        site = root / "site"
        target = f"s3://{BUCKET}/{PREFIX}"
        publish = ["publish", "--to", target, "--endpoint", args.endpoint, "--now", NOW]
        run(binary, root, "build", "--out", "site", "--now", NOW, env=env)

        # 1. First publish.
        first = run(binary, root, *publish, env=env)
        files = published_files(site)
        objects = bucket_objects(s3)
        expected = {f"{PREFIX}/{p}" for p in files} | {f"{PREFIX}/.activity-site-manifest.json"}
        if set(objects) != expected:
            fail(f"bucket keys differ: extra {sorted(set(objects) - expected)[:5]}, missing {sorted(expected - set(objects))[:5]}")
        for rel, data in files.items():
            head = s3.head_object(Bucket=BUCKET, Key=f"{PREFIX}/{rel}")
            body = s3.get_object(Bucket=BUCKET, Key=f"{PREFIX}/{rel}")["Body"].read()
            if body != data:
                fail(f"{rel}: bytes differ in the bucket")
            ctype, cache = head.get("ContentType", ""), head.get("CacheControl", "")
            if rel.endswith((".json", ".html", ".ics")) and "charset=utf-8" not in ctype:
                fail(f"{rel}: Content-Type {ctype!r} has no charset")
            # The API's policy covers everything under api/ (the anchor page
            # api/v1/index.html too), llms.txt and the catalog; pages elsewhere
            # get the page policy.
            api = rel.startswith("api/") or rel in ("llms.txt", ".well-known/api-catalog")
            if api and "max-age=300" not in cache:
                fail(f"{rel}: Cache-Control {cache!r} is not the API policy")
            if rel.endswith(".html") and not api and "max-age=60" not in cache:
                fail(f"{rel}: Cache-Control {cache!r} is not the page policy")
            if head.get("Metadata", {}).get("sha256") != hashlib.sha256(data).hexdigest():
                fail(f"{rel}: x-amz-meta-sha256 missing or wrong")
        first_bytes = sum(len(d) for d in files.values())
        print(f"ok: first publish: {len(files)} objects, {first_bytes} bytes, metadata checked")

        # 2. Second publish uploads nothing.
        second = run(binary, root, *publish, env=env)
        if uploads_of(second.stdout):
            fail(f"the second publish uploaded {uploads_of(second.stdout)}")
        print("ok: second publish uploaded nothing")

        # 3. One edit: dry run, then publish only what changed.
        data_files = sorted((root / "data").rglob("*.json"))
        edited = data_files[0]
        document = json.loads(edited.read_text(encoding="utf-8"))
        document["activities"][0]["description"] = document["activities"][0]["description"] + " (e2e)"
        edited.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        run(binary, root, "build", "--out", "site", "--now", NOW, env=env)
        after = published_files(site)
        changed = sorted(p for p, d in after.items() if files.get(p) != d)
        before_keys = bucket_objects(s3)
        dry = run(binary, root, *publish, "--dry-run", env=env)
        if uploads_of(dry.stdout) != changed:
            fail(f"--dry-run plan {uploads_of(dry.stdout)} is not the changed files {changed}")
        manifest = s3.get_object(Bucket=BUCKET, Key=f"{PREFIX}/.activity-site-manifest.json")["Body"].read()
        if json.loads(manifest)["files"]["api/v1/games.json"]["sha256"] != hashlib.sha256(files["api/v1/games.json"]).hexdigest():
            fail("--dry-run changed the bucket")
        if bucket_objects(s3) != before_keys:
            fail("--dry-run changed the bucket's listing")
        edit = run(binary, root, *publish, env=env)
        if uploads_of(edit.stdout) != changed:
            fail(f"the one-edit publish uploaded {uploads_of(edit.stdout)}, expected {changed}")
        edit_bytes = sum(len(after[p]) for p in changed)
        print(f"ok: one-edit publish ({edited.relative_to(root)}): {len(changed)} objects, {edit_bytes} bytes")

        # 4. --delete removes what the site no longer has, never a foreign object.
        s3.put_object(Bucket=BUCKET, Key=f"{PREFIX}/theirs.txt", Body=b"not ours\n")
        registry_path = root / "games.json"
        registry = json.loads(registry_path.read_text(encoding="utf-8"))
        game = next(g for g in registry["games"] if len(g["locales"]) > 1)
        dropped = next(loc for loc in game["locales"] if loc != game["defaultLocale"])
        game["locales"].remove(dropped)
        for field in ("name", "dataSource"):
            if isinstance(game.get(field), dict):
                game[field].pop(dropped, None)
        registry_path.write_text(json.dumps(registry, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        (root / "data" / game["id"] / f"{dropped}.json").unlink()
        run(binary, root, "build", "--out", "site", "--now", NOW, env=env)
        gone = f"{PREFIX}/api/v1/activity/{game['id']}-{dropped}.json"
        kept = run(binary, root, *publish, env=env)
        if gone not in bucket_objects(s3) or "? api/v1/activity/" not in kept.stdout:
            fail("without --delete, a file the site no longer has must stay")
        run(binary, root, *publish, "--delete", env=env)
        objects = bucket_objects(s3)
        if gone in objects:
            fail(f"--delete left {gone}")
        if f"{PREFIX}/theirs.txt" not in objects:
            fail("--delete removed an object activity-site did not create")
        print(f"ok: --delete removed {gone} and kept theirs.txt")

        # 5. The index names only objects that exist, with their sha256.
        index = json.loads(s3.get_object(Bucket=BUCKET, Key=f"{PREFIX}/api/v1/games.json")["Body"].read())
        count = 0
        for game in index["games"]:
            for entry in game["files"]:
                key = f"{PREFIX}/{entry['path'].lstrip('/')}"
                body = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
                if hashlib.sha256(body).hexdigest() != entry["sha256"]:
                    fail(f"{key}: sha256 differs from the index")
                count += 1
        print(f"ok: the index names {count} documents, all present with their sha256")

        # A missing bucket: a clear error and exit 2 (moto accepts any key).
        missing = ["publish", "--to", f"s3://no-such-bucket-e2e/{PREFIX}", "--endpoint", args.endpoint, "--now", NOW]
        absent = run(binary, root, *missing, env=env, check=False)
        if absent.returncode != 2 or "does not exist" not in absent.stderr:
            fail(f"a missing bucket must fail with exit 2 and say so: {absent.returncode} {absent.stderr}")
        print("ok: a missing bucket fails with exit 2: " + absent.stderr.splitlines()[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
