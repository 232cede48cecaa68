#!/usr/bin/env python3
"""Drive the publish benchmark: activity-site, `aws s3 sync` and `rclone sync`
against one moto_server, each on its own empty bucket, in the same run.

`benches/publish-bench.sh` prepares everything (binary, corpus, tools, moto)
and calls this script; see that file for the reproduction command.

Each round, for every tool in turn (interleaved, so load on the shared
machine falls on all three alike):

1. first upload of the whole site to an empty bucket;
2. a second run with nothing changed;
3. a run after one data file was edited and the site rebuilt;
4. a run after one game was deleted and the site rebuilt, with the tool's
   delete option.

For each run: wall time, HTTP requests by method (counted from moto's own
request log, one line per request) and the bytes the tool uploaded (the
sizes of the objects its PUT requests named, read back from the bucket).
After each run the bucket is compared with the built site: every published
file present with the same bytes (size and MD5 ETag from the listing), and
nothing else, except each tool's own bookkeeping object. Content-Type and
Cache-Control are read back with HEAD for every object in the final round
and for a sample of objects otherwise, and compared with the site's policy
(what `activity-site publish --dry-run --format json` says each file gets).
The result is a Markdown report on stdout; progress goes to stderr.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

import boto3
from botocore.config import Config

TOOLS = ["activity-site", "aws s3 sync", "rclone sync"]
RUNS = [
    ("1. first upload", "first"),
    ("2. nothing changed", "again"),
    ("3. one file edited", "edit"),
    ("4. one game deleted", "delete"),
]
# Bookkeeping objects a tool keeps beside the site (not files of the site).
OWN_OBJECTS = {"activity-site": {".activity-site-manifest.json"}}
LOG_LINE = re.compile(r'"([A-Z]+) (\S+) HTTP/[0-9.]+" (\d{3})')


def log(message):
    print(f"==> {message}", file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="activity-site binary")
    ap.add_argument("--root", required=True, help="data root (a copy, edited by the benchmark)")
    ap.add_argument("--out", required=True, help="where the site is built")
    ap.add_argument("--endpoint", required=True, help="moto_server URL")
    ap.add_argument("--moto-log", required=True, help="moto_server's request log")
    ap.add_argument("--aws", required=True, help="the aws CLI")
    ap.add_argument("--rclone", default="rclone")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sample", type=int, default=300, help="objects HEAD-checked per run (all in the last round)")
    ap.add_argument("--json", help="also write the raw results here")
    args = ap.parse_args()

    bench = Bench(args)
    results = {}  # (run, tool) -> list of measurements
    pristine = args.root + ".pristine"
    if not os.path.isdir(pristine):
        shutil.copytree(args.root, pristine)
    for r in range(1, args.rounds + 1):
        log(f"round {r} of {args.rounds}")
        restore(pristine, args.root)
        bench.build()
        buckets = {tool: bench.new_bucket(tool, r) for tool in TOOLS}
        full = r == args.rounds
        for label, run in RUNS:
            if run == "edit":
                bench.edit_one_file()
                bench.build()
            elif run == "delete":
                bench.delete_one_game()
                bench.build()
            expected = bench.expected()
            for tool in TOOLS:
                m = bench.run(tool, buckets[tool], run)
                m["mismatches"] = bench.verify(tool, buckets[tool], expected, full)
                log(f"  {label:<22} {tool:<14} {m['seconds']:7.2f} s  {fmt_methods(m['methods'])}  "
                    f"{m['bytes']:,} B  metadata mismatches {m['mismatches']['metadata']}")
                results.setdefault((run, tool), []).append(m)
        bench.drop_buckets(buckets.values())
    restore(pristine, args.root)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{run}|{tool}": ms for (run, tool), ms in results.items()}, f, indent=1)
    print(report(results, args, bench))


def restore(pristine, root):
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(pristine, root)


class Bench:
    def __init__(self, args):
        self.args = args
        self.s3 = boto3.client(
            "s3",
            endpoint_url=args.endpoint,
            aws_access_key_id="bench",
            aws_secret_access_key="bench",
            region_name="us-east-1",
            config=Config(max_pool_connections=32, retries={"max_attempts": 10}),
        )
        self.env = dict(
            os.environ,
            AWS_ACCESS_KEY_ID="bench",
            AWS_SECRET_ACCESS_KEY="bench",
            AWS_REGION="us-east-1",
            AWS_DEFAULT_REGION="us-east-1",
            AWS_ENDPOINT_URL=args.endpoint,
            # rclone reads a remote named BENCH from these variables.
            RCLONE_CONFIG_BENCH_TYPE="s3",
            RCLONE_CONFIG_BENCH_PROVIDER="Other",
            RCLONE_CONFIG_BENCH_ENDPOINT=args.endpoint,
            RCLONE_CONFIG_BENCH_ACCESS_KEY_ID="bench",
            RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY="bench",
            RCLONE_CONFIG_BENCH_REGION="us-east-1",
            RCLONE_CONFIG_BENCH_FORCE_PATH_STYLE="true",
            NO_COLOR="1",
        )
        # Plain HTTP on loopback needs no CA bundle, and rclone's S3 client
        # refuses to start with one set (its transport cannot take it).
        for name in ("AWS_PROFILE", "AWS_CA_BUNDLE"):
            self.env.pop(name, None)
        self.edits = 0
        self.deleted = None

    # -- the site -------------------------------------------------------

    def build(self):
        cmd = [self.args.bin, "build", "--root", self.args.root, "--out", self.args.out,
               "--now", "2026-10-15T12:00:00"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=self.env)

    def edit_one_file(self):
        """Renames the first activity of the first game's default document."""
        games = json.load(open(os.path.join(self.args.root, "games.json"), encoding="utf-8"))["games"]
        game = games[0]
        path = os.path.join(self.args.root, "data", game["id"], game["defaultLocale"] + ".json")
        doc = json.load(open(path, encoding="utf-8"))
        self.edits += 1
        doc["activities"][0]["name"] += f" (edit {self.edits})"
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=2)
            f.write("\n")

    def delete_one_game(self):
        """Removes the last game from games.json and its data folder."""
        registry_path = os.path.join(self.args.root, "games.json")
        registry = json.load(open(registry_path, encoding="utf-8"))
        game = registry["games"].pop()
        self.deleted = game["id"]
        with open(registry_path, "w", encoding="utf-8") as f:
            json.dump(registry, f, ensure_ascii=False, indent=2)
            f.write("\n")
        shutil.rmtree(os.path.join(self.args.root, "data", game["id"]))

    def expected(self):
        """Path -> (size, md5, content type, cache control) of every published file,
        as activity-site's plan for an empty bucket names them."""
        bucket = "bench-expected"
        self.make_bucket(bucket)
        out = subprocess.run(
            [self.args.bin, "publish", "--to", f"s3://{bucket}", "--endpoint", self.args.endpoint,
             "--region", "us-east-1", "--out", self.args.out, "--root", self.args.root,
             "--dry-run", "--format", "json"],
            check=True, capture_output=True, env=self.env, text=True).stdout
        self.drop_buckets([bucket])
        plan = json.loads(out)
        files = {}
        for step in plan_steps(plan):
            meta = step.get("meta") or {}
            full = os.path.join(self.args.out, step["path"])
            data = open(full, "rb").read()
            files[step["path"]] = (len(data), hashlib.md5(data).hexdigest(),
                                   meta.get("contentType") or meta.get("content_type"),
                                   meta.get("cacheControl") or meta.get("cache_control"))
        if not files:
            sys.exit(f"the dry-run plan names no uploads: {out[:500]}")
        return files

    # -- buckets --------------------------------------------------------

    def make_bucket(self, bucket):
        try:
            self.s3.create_bucket(Bucket=bucket)
        except self.s3.exceptions.BucketAlreadyOwnedByYou:
            pass

    def new_bucket(self, tool, round_):
        name = {"activity-site": "as", "aws s3 sync": "aws", "rclone sync": "rclone"}[tool]
        bucket = f"bench-{name}-{round_}"
        self.make_bucket(bucket)
        return bucket

    def listing(self, bucket):
        objects = {}
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
            for obj in page.get("Contents", []):
                objects[obj["Key"]] = (obj["Size"], obj["ETag"].strip('"'))
        return objects

    def drop_buckets(self, buckets):
        for bucket in buckets:
            keys = list(self.listing(bucket))
            for i in range(0, len(keys), 1000):
                self.s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": k} for k in keys[i:i + 1000]]})
            self.s3.delete_bucket(Bucket=bucket)

    # -- one run of one tool ---------------------------------------------

    def command(self, tool, bucket, run):
        site = self.args.out
        delete = run == "delete"
        if tool == "activity-site":
            cmd = [self.args.bin, "publish", "--to", f"s3://{bucket}", "--endpoint", self.args.endpoint,
                   "--region", "us-east-1", "--out", site, "--root", self.args.root]
            return cmd + (["--delete"] if delete else [])
        if tool == "aws s3 sync":
            # The AWS CLI's documented static-site form; the exclusions keep
            # to what activity-site publishes (no precompressed siblings, no
            # _headers, no hidden marker).
            cmd = [self.args.aws, "s3", "sync", site, f"s3://{bucket}", "--endpoint-url", self.args.endpoint,
                   "--only-show-errors", "--no-progress",
                   "--exclude", "*.br", "--exclude", "*.gz", "--exclude", "_headers", "--exclude", ".*"]
            return cmd + (["--delete"] if delete else [])
        # rclone's S3 documentation: --checksum compares MD5s from the listing
        # instead of a HEAD per object for its modification time, and
        # --fast-list lists the bucket in as few requests as it can.
        cmd = [self.args.rclone, "sync", site, f"bench:{bucket}", "--checksum", "--fast-list",
               "--exclude", "*.br", "--exclude", "*.gz", "--exclude", "/_headers", "--exclude", ".*",
               "--s3-no-check-bucket", "-q"]
        if not delete:
            # rclone sync always deletes; copy is its no-delete form.
            cmd[1] = "copy"
        return cmd

    def run(self, tool, bucket, run):
        cmd = self.command(tool, bucket, run)
        before = log_size(self.args.moto_log)
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=self.env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"{tool} failed ({proc.returncode}):\n{' '.join(cmd)}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
        time.sleep(0.2)  # let moto flush its last log lines
        methods, put_keys = requests_since(self.args.moto_log, before, bucket)
        sizes = self.listing(bucket)
        uploaded = sum(sizes.get(key, (0, ""))[0] for key in put_keys)
        return {"seconds": seconds, "methods": methods, "bytes": uploaded}

    def verify(self, tool, bucket, expected, full):
        objects = self.listing(bucket)
        own = OWN_OBJECTS.get(tool, set())
        missing = [p for p in expected if p not in objects]
        extra = [k for k in objects if k not in expected and k not in own]
        wrong = [p for p, (size, md5, _, _) in expected.items()
                 if p in objects and objects[p] != (size, md5)]
        if missing or extra or wrong:
            sys.exit(f"{tool} left bucket {bucket} unlike the site: {len(missing)} missing {missing[:3]}, "
                     f"{len(extra)} extra {extra[:3]}, {len(wrong)} with other bytes {wrong[:3]}")
        paths = sorted(expected)
        if not full:
            paths = random.Random(len(paths)).sample(paths, min(self.args.sample, len(paths)))

        def head(path):
            h = self.s3.head_object(Bucket=bucket, Key=path)
            want_type, want_cache = expected[path][2], expected[path][3]
            return (h.get("ContentType") != want_type) or (h.get("CacheControl") != want_cache)

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            metadata = sum(pool.map(head, paths))
        if tool == "activity-site" and metadata:
            sys.exit(f"activity-site left {metadata} objects with other metadata than the site's policy")
        return {"checked": len(paths), "metadata": metadata}


def plan_steps(plan):
    """The upload steps of a dry-run plan, whatever the plan's nesting."""
    for key in ("steps", "uploads", "files"):
        value = plan.get(key)
        if isinstance(value, list):
            return [s for s in value if isinstance(s, dict) and s.get("path") and s.get("meta")]
    steps = []
    for value in plan.values():
        if isinstance(value, list):
            steps += [s for s in value if isinstance(s, dict) and s.get("path") and s.get("meta")]
    return steps


def log_size(path):
    return os.path.getsize(path)


def requests_since(path, offset, bucket):
    """Methods counted, and the keys PUT in `bucket`, in the log after `offset`."""
    methods = {}
    put_keys = set()
    with open(path, "rb") as f:
        f.seek(offset)
        for raw in f:
            m = LOG_LINE.search(raw.decode("utf-8", "replace"))
            if not m:
                continue
            method, target = m.group(1), m.group(2)
            methods[method] = methods.get(method, 0) + 1
            if method == "PUT":
                url = urllib.parse.urlsplit(target)
                parts = url.path.lstrip("/").split("/", 1)
                if len(parts) == 2 and parts[0] == bucket and "uploadId" not in url.query:
                    put_keys.add(urllib.parse.unquote(parts[1]))
    return methods, put_keys


def fmt_methods(methods):
    return " ".join(f"{k} {v}" for k, v in sorted(methods.items())) or "none"


def report(results, args, bench):
    lines = []
    for label, run in RUNS:
        lines.append(f"#### {label}\n")
        lines.append("| tool | wall (median) | vs activity-site | requests | by method | uploaded | metadata off policy |")
        lines.append("|---|---:|---:|---:|---|---:|---:|")
        ours = statistics.median(m["seconds"] for m in results[(run, "activity-site")])
        for tool in TOOLS:
            ms = results[(run, tool)]
            wall = statistics.median(m["seconds"] for m in ms)
            last = ms[-1]
            total = sum(last["methods"].values())
            off = last["mismatches"]
            lines.append(f"| {tool} | {wall:.2f} s | {wall / ours:.2f}x | {total:,} | {fmt_methods(last['methods'])} | "
                         f"{last['bytes'] / 1e6:,.1f} MB | {off['metadata']:,} of {off['checked']:,} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
