"""End-to-end check of `activity-site mcp` (the data tools over stdio) with
the official MCP Python SDK as the client.

Run by .ci/e2e-mcp-data.sh on a copy of a data tree. It lists the tools and
resources, reads a document and writes back exactly what it read (the round
trip: accepted, nothing changes), checks a broken draft (diagnostics come
back, counted as listed, the file is untouched), fixes it with `fix: true`,
writes a good draft in a shuffled form (the file on disk is canonical and
`check` is clean), and asks for a write outside the tree (refused, nothing
created).
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = {
    "list_games",
    "status",
    "read_document",
    "check_document",
    "write_document",
    "add_game",
    "add_locale",
}


def log(message):
    print(f"e2e-mcp-data: {message}", flush=True)


def fail(message):
    log(f"FAILED: {message}")
    sys.exit(1)


def answer(result):
    """The JSON a tool answered, and whether it was an error."""
    text = result.content[0].text
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    # `is_error` in SDK 2.x, `isError` in 1.x.
    error = getattr(result, "is_error", None)
    if error is None:
        error = getattr(result, "isError", False)
    return value, bool(error)


async def run(binary, root, now):
    params = StdioServerParameters(command=binary, args=["mcp", "--root", root, "--now", now])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            if not EXPECTED_TOOLS <= tools:
                fail(f"tools {sorted(tools)} lack {sorted(EXPECTED_TOOLS - tools)}")
            log(f"tools: {sorted(tools)}")
            resources = {str(r.uri) for r in (await session.list_resources()).resources}
            rules = await session.read_resource("activity-site://CONTRIBUTING.md")
            if "end-of-minute" not in rules.contents[0].text:
                fail("the rules resource does not name the rules")
            schema = await session.read_resource("activity-site://schema/activity.schema.json")
            json.loads(schema.contents[0].text)
            log(f"resources: {sorted(resources)}")

            games, error = answer(await session.call_tool("list_games", {}))
            if error or not games["games"]:
                fail(f"list_games: {games}")
            game = games["games"][0]
            gid, locale = game["id"], game["defaultLocale"]
            rel = game["files"][locale]
            log(f"games: {[g['id'] for g in games['games']]}; using {rel}")

            status, error = answer(await session.call_tool("status", {}))
            if error or not status["rows"]:
                fail(f"status: {status}")
            if status["now"].get("pinned") != now or gid not in status["now"]["games"]:
                fail(f"status does not give the server's now: {status['now']}")

            read, error = answer(
                await session.call_tool("read_document", {"game": gid, "locale": locale})
            )
            if error:
                fail(f"read_document: {read}")
            original = read["text"]
            path = os.path.join(root, rel)
            with open(path, encoding="utf-8") as f:
                if f.read() != original:
                    fail("read_document did not return the file")

            # The round trip: what was read, passed back as it is.
            again, error = answer(await session.call_tool("write_document", read))
            if error or again["written"] or again["errors"] != 0:
                fail(f"writing back what was read: {again}")
            with open(path, encoding="utf-8") as f:
                if f.read() != original:
                    fail("writing back what was read changed the file")
            log("round trip: read -> write of the same text changed nothing")

            # A broken draft: a misspelt key and an end time on the minute.
            document = json.loads(original)
            first = document["activities"][0]
            first["endtime"] = first.pop("endTime")
            broken = json.dumps(document, ensure_ascii=False)
            checked, error = answer(
                await session.call_tool(
                    "check_document", {"game": gid, "locale": locale, "text": broken}
                )
            )
            codes = {d["code"] for d in checked["diagnostics"] if d["file"] == rel}
            if error or checked["errors"] < 1 or "schema" not in codes:
                fail(f"check_document on a broken draft: {checked}")
            listed = checked["diagnostics"]
            errors = sum(1 for d in listed if d["severity"] == "error")
            if (checked["errors"], checked["warnings"]) != (errors, len(listed) - errors):
                fail(f"the counts disagree with the list: {checked}")
            fixes = [d for d in checked["diagnostics"] if d.get("fix")]
            if not fixes:
                fail(f"no exact fix offered: {checked}")
            fixed, error = answer(
                await session.call_tool(
                    "check_document",
                    {"game": gid, "locale": locale, "text": broken, "fix": True},
                )
            )
            if error or fixed["errors"] != 0 or fixed["fixes"] < 1:
                fail(f"check_document with fix: {fixed}")
            log(f"broken draft: {checked['errors']} errors, codes {sorted(codes)}")
            written, error = answer(
                await session.call_tool(
                    "write_document", {"game": gid, "locale": locale, "text": broken}
                )
            )
            if not error:
                fail(f"write_document wrote a draft with errors: {written}")
            with open(path, encoding="utf-8") as f:
                if f.read() != original:
                    fail("a refused draft changed the file")

            # A good draft, shuffled and compact, with one activity more.
            document = json.loads(original)
            document["activities"].insert(
                0,
                {
                    "name": "E2E Bonus",
                    "description": "",
                    "startTime": document["startTime"],
                    "endTime": document["endTime"],
                },
            )
            document["activities"].reverse()
            good = json.dumps(document, ensure_ascii=False)
            written, error = answer(
                await session.call_tool(
                    "write_document", {"game": gid, "locale": locale, "text": good}
                )
            )
            if error or not written["written"]:
                fail(f"write_document on a good draft: {written}")
            if "E2E Bonus" not in written["changes"]:
                fail(f"the summary does not name the added activity: {written['changes']}")
            log(f"written; changes:\n{written['changes']}")

            # Outside the tree: refused, nothing created.
            for bad in ({"game": "../..", "locale": "x"}, {"game": gid, "locale": "../../../evil"}):
                refused, error = answer(
                    await session.call_tool("write_document", {**bad, "text": good})
                )
                if not error:
                    fail(f"a write outside the tree was accepted: {bad}: {refused}")
                log(f"refused {bad}: {refused}")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--now", default="2026-10-15T12:00:00")
    args = parser.parse_args()
    before = set(os.listdir(os.path.dirname(os.path.abspath(args.root))))
    asyncio.run(run(args.bin, args.root, args.now))
    after = set(os.listdir(os.path.dirname(os.path.abspath(args.root))))
    if before != after:
        fail(f"files appeared beside the root: {sorted(after - before)}")
    # The file on disk is canonical and the tree is clean.
    fmt = subprocess.run([args.bin, "fmt", "--check", "--root", args.root, "--now", args.now])
    check = subprocess.run([args.bin, "check", "--root", args.root, "--now", args.now])
    if fmt.returncode != 0 or check.returncode != 0:
        fail(f"after the write: fmt --check exit {fmt.returncode}, check exit {check.returncode}")
    log("passed")


if __name__ == "__main__":
    main()
