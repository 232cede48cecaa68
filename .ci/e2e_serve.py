"""End-to-end check of `activity-site serve` live reload in headless Chromium.

Run by .ci/e2e-serve.sh, which installs what this needs. Copies the data root
into a temp dir, starts `activity-site serve` there on a loopback port (port 0,
the URL is read from its stdout), opens a page in Chromium driven over the
DevTools protocol (one WebSocket, flattened sessions), then:

1. sets a window variable, edits a data file, and waits for the page to
   reload (the variable is gone; the new text shows when the page shows data);
2. breaks the data file and waits for the error overlay with the diagnostic;
3. fixes it and waits for the reload that removes the overlay;
4. stops the server with SIGTERM and expects a clean exit.
"""

import argparse
import asyncio
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

TIMEOUT = 90


class Browser:
    """A headless Chromium and one page, over the DevTools protocol."""

    def __init__(self, chromium, profile):
        self.process = subprocess.Popen(
            [
                chromium,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.profile = pathlib.Path(profile)
        self.next_id = 0
        self.pending = {}
        self.events = asyncio.Queue()

    async def connect(self):
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + TIMEOUT
        while not port_file.exists() or len(port_file.read_text().splitlines()) < 2:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)
        port, path = port_file.read_text().splitlines()[:2]
        self.ws = await websockets.connect(f"ws://127.0.0.1:{port}{path}", max_size=None)
        self.reader = asyncio.create_task(self._read())
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        self.session = attached["sessionId"]
        await self.send("Page.enable", session=True)
        await self.send("Runtime.enable", session=True)

    async def _read(self):
        async for raw in self.ws:
            message = json.loads(raw)
            if "id" in message and message["id"] in self.pending:
                self.pending.pop(message["id"]).set_result(message)
            elif "method" in message:
                await self.events.put(message)

    async def send(self, method, params=None, session=False):
        self.next_id += 1
        request = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            request["sessionId"] = self.session
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send(json.dumps(request))
        reply = await asyncio.wait_for(future, TIMEOUT)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def evaluate(self, expression):
        result = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True},
            session=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, what, expression):
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                if await self.evaluate(expression):
                    return
            except RuntimeError:
                # The page may be between documents while it reloads.
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.2)

    async def screenshot(self, path):
        shot = await self.send("Page.captureScreenshot", {"format": "png"}, session=True)
        import base64

        pathlib.Path(path).write_bytes(base64.b64decode(shot["data"]))

    async def close(self):
        try:
            await self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_server(binary, root):
    """Starts `serve` on port 0 and returns the process and its base URL."""
    process = subprocess.Popen(
        [binary, "serve", "--root", str(root), "--out", str(root / "site"), "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=open(root / "serve.log", "wb"),
        env={**os.environ, "NO_COLOR": "1", "RUST_LOG": "info"},
    )
    line = process.stdout.readline().decode()
    url = next((word for word in line.split() if word.startswith("http://")), None)
    if url is None:
        process.kill()
        raise RuntimeError(f"no URL printed: {line!r}\n{(root / 'serve.log').read_text()}")
    return process, url.rstrip("/")


def exists(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return False


async def check(binary, chromium, source, out):
    work = pathlib.Path(tempfile.mkdtemp(prefix="e2e-serve-"))
    root = work / "root"
    root.mkdir()
    shutil.copy(source / "games.json", root / "games.json")
    shutil.copytree(source / "data", root / "data")
    if (source / "schema").is_dir():
        shutil.copytree(source / "schema", root / "schema")
    data = root / "data" / "ww" / "zh-CN.json"
    original = data.read_text(encoding="utf-8")
    document = json.loads(original)
    name = document["versionName"]

    server, base = start_server(binary, root)
    browser = Browser(chromium, work / "profile")
    try:
        await browser.connect()
        # The game page shows the data when the site has pages; any HTML page
        # (the 404 page included) carries the live-reload script.
        page = f"{base}/ww/" if exists(f"{base}/ww/") else f"{base}/"
        print(f"opening {page}")
        await browser.send("Page.navigate", {"url": page}, session=True)
        await browser.wait_for("the live-reload connection", "window.activitySiteBuild !== undefined")
        await browser.evaluate("window.e2eMarker = 42")

        edited = f"{name} E2E"
        data.write_text(original.replace(name, edited), encoding="utf-8")
        await browser.wait_for("the reload after a data edit", "window.e2eMarker === undefined")
        await browser.wait_for("the reconnect after the reload", "window.activitySiteBuild !== undefined")
        if page.endswith("/ww/"):
            await browser.wait_for("the edited text", f"document.body.innerText.includes({json.dumps(edited)})")
            print("ok: the page reloaded and shows the edited version name")
        else:
            print("ok: the page reloaded (the site has no game page to show the text)")

        await browser.evaluate("window.e2eMarker = 43")
        broken = original.replace(f'"startTime": "{document["startTime"]}"', '"startTime": "2026-02-30T10:00:00"', 1)
        data.write_text(broken, encoding="utf-8")
        await browser.wait_for(
            "the error overlay",
            "(() => { const o = document.getElementById('activity-site-overlay');"
            " return o !== null && o.innerText.includes('2026-02-30T10:00:00'); })()",
        )
        await browser.screenshot(out / "serve-overlay.png")
        marker = await browser.evaluate("window.e2eMarker")
        assert marker == 43, "the page reloaded on a failed build"
        print("ok: a broken edit shows the overlay with the diagnostic, without a reload")

        data.write_text(original, encoding="utf-8")
        await browser.wait_for("the reload after the fix", "window.e2eMarker === undefined")
        await browser.wait_for(
            "the overlay to go", "document.readyState === 'complete' && !document.getElementById('activity-site-overlay')"
        )
        print("ok: the fix reloads the page without the overlay")
    finally:
        await browser.close()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            raise AssertionError("serve did not exit within 30 s of SIGTERM")
        log = (root / "serve.log").read_text()
        shutil.copy(root / "serve.log", out / "serve.log")
        shutil.rmtree(work, ignore_errors=True)
    assert code == 0, f"serve exited with {code}\n{log}"
    assert "error[datetime]" in log, f"the diagnostic was not printed:\n{log}"
    print("ok: the diagnostic was printed and SIGTERM stopped serve cleanly")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--root", default=".")
    parser.add_argument("--out", default="target/e2e")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        asyncio.run(check(args.binary, args.chromium, pathlib.Path(args.root), out))
    except AssertionError as err:
        print(f"FAIL: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
