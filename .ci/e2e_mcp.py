"""End-to-end check of /mcp with the official MCP Python SDK as the client.

Run by .ci/e2e-mcp.sh against a running `activity-site serve` that has an
access token. It initialises a session, lists the tools, runs a task and
watches its status reach `completed`, fetches a screenshot and decodes the
PNG, and checks that a foreign Origin is refused and that the token guards
/api while /mcp needs none. Works with SDK 1.x and 2.x.
"""

import argparse
import asyncio
import base64
import contextlib
import importlib.metadata
import json
import struct
import sys
import time
import urllib.error
import urllib.request

from mcp import ClientSession

try:  # SDK 2.x, and 1.x from 1.2x on.
    from mcp.client.streamable_http import streamable_http_client as _transport

    _TRANSPORT = "streamable_http_client"
except ImportError:  # Older 1.x.
    from mcp.client.streamable_http import streamablehttp_client as _transport

    _TRANSPORT = "streamablehttp_client"

EXPECTED_TOOLS = {
    "backend_restart",
    "configs_get",
    "configs_list",
    "extensions_list",
    "extensions_run",
    "extensions_stop",
    "logs_recent",
    "operator_call",
    "operator_help",
    "operator_list",
    "operator_screenshot",
    "task_list",
    "task_run",
    "task_single",
    "task_status",
    "task_stop",
}


def log(message):
    print(f"e2e-mcp: {message}", flush=True)


def plain(model):
    """A pydantic model as JSON-ready data with wire (camelCase) names."""
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def tool_text(result):
    data = plain(result)
    texts = [c.get("text", "") for c in data.get("content", []) if c.get("type") == "text"]
    return data, "\n".join(texts)


async def call_json(session, name, arguments=None):
    """Calls a tool that must succeed and returns the JSON it answered."""
    data, text = tool_text(await session.call_tool(name, arguments or {}))
    if data.get("isError"):
        raise AssertionError(f"{name} failed: {text}")
    return json.loads(text)


def http(method, url, body=None, headers=None):
    """A plain HTTP request (stdlib); returns (status, body text)."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def check_png(png):
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    length, chunk = struct.unpack(">I4s", png[8:16])
    assert chunk == b"IHDR" and length == 13, "first chunk is not IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1280, 720), f"screenshot is {width}x{height}"
    return width, height


@contextlib.asynccontextmanager
async def open_session(url):
    async with _transport(url) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            yield session


async def drive(url):
    async with open_session(url) as session:
        init = plain(await session.initialize())
        info = init["serverInfo"]
        log(f"initialised: {info['name']} {info['version']}, protocol {init['protocolVersion']}")
        assert info["name"] == "activity-site", info

        tools = plain(await session.list_tools())["tools"]
        names = {tool["name"] for tool in tools}
        assert EXPECTED_TOOLS <= names, f"missing tools: {sorted(EXPECTED_TOOLS - names)}"
        for tool in tools:
            assert tool.get("description"), f"{tool['name']} has no description"
            assert tool["inputSchema"]["type"] == "object", tool
        log(f"{len(tools)} tools listed")

        # Short steps so the run completes quickly.
        await call_json(session, "backend_restart", {"arguments": "--inline --no-admin --step-ms=50"})
        configs = await call_json(session, "configs_list")
        assert configs, "no configuration to run"
        started = await call_json(session, "task_run", {"configName": configs[0]})
        log(f"task_run {configs[0]}: {started.get('status')}")

        seen = set()
        deadline = time.monotonic() + 120
        while True:
            status = await call_json(session, "task_status")
            seen.add(status["status"])
            if status["status"] == "completed":
                break
            assert status["status"] in ("running", "idle"), f"unexpected status {status}"
            assert time.monotonic() < deadline, f"task did not complete: {status}"
            await asyncio.sleep(0.2)
        log(f"task completed (statuses seen: {sorted(seen)}; progress {status['progress']!r})")

        data, text = tool_text(await session.call_tool("configs_get", {"configName": "no-such-config"}))
        assert data.get("isError") is True, data
        log(f"a missing configuration is a tool error: {text!r}")

        shot = plain(await session.call_tool("operator_screenshot", {}))
        image = shot["content"][0]
        assert image["type"] == "image" and image["mimeType"] == "image/png", image["type"]
        png = base64.b64decode(image["data"], validate=True)
        width, height = check_png(png)
        log(f"screenshot: {len(png)} bytes PNG, {width}x{height}")

        logs = await call_json(session, "logs_recent", {"count": 5})
        assert isinstance(logs, list) and 0 < len(logs) <= 5, logs


async def drive_auto(url):
    """SDK 2.x only: the high-level Client negotiates on its own (2026-07-28 if offered)."""
    try:
        from mcp import Client
    except ImportError:
        return
    async with Client(url) as client:
        tools = await client.list_tools()
        result = await client.call_tool("task_status", {})
        _, text = tool_text(result)
        log(f"mcp.Client negotiated {client.protocol_version}: {len(tools.tools)} tools, status {json.loads(text)['status']}")


def check_http(base, url, token):
    init = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "e2e", "version": "0"},
            },
        }
    ).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    status, body = http("POST", url, init, {**headers, "Origin": "https://evil.example"})
    assert status == 403, f"a foreign Origin got {status}: {body}"
    log(f"foreign Origin refused: {status}")
    status, _ = http("POST", url, init, headers)
    assert status == 200, f"the same request without Origin got {status}"

    status, body = http("GET", f"{base}/api/Task/status")
    assert status == 401, f"/api/Task/status without the token got {status}: {body}"
    status, body = http("GET", f"{base}/api/Task/status", headers={"X-Access-Token": token})
    assert status == 200, f"/api/Task/status with the token got {status}: {body}"
    log("/api needs the token (401 without, 200 with); /mcp answered without one")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="base URL of the server, e.g. http://127.0.0.1:5000")
    parser.add_argument("--token", required=True, help="the access token the server was started with")
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args()
    url = f"{args.base}/mcp"
    log(f"mcp {importlib.metadata.version('mcp')} ({_TRANSPORT}) against {url}")

    async def everything():
        await drive(url)
        await drive_auto(url)

    asyncio.run(asyncio.wait_for(everything(), args.timeout))
    check_http(args.base, url, args.token)
    log("ok")


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # One line a CI log shows, then the traceback.
        print(f"e2e-mcp: FAILED: {error!r}", file=sys.stderr)
        raise
