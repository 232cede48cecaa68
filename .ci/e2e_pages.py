"""End-to-end check of the built site in headless Chromium and with icalendar.

Run by .ci/e2e-pages.sh, which installs what this needs. Serves site/ on a
loopback port, drives Chromium over the DevTools protocol (one WebSocket,
flattened sessions), and parses every calendar with the `icalendar` package.
Requests to other hosts (cover images) never leave the machine: they are
answered with a small placeholder image, so the check needs no network and
third-party hosts see no traffic.
"""

import argparse
import asyncio
import base64
import contextlib
import functools
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
import struct
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import html5lib
import icalendar
import websockets

FAILURES = []
LIVE_SITE = None  # the fixture's site (--live-site)


def fail(message):
    FAILURES.append(message)
    print(f"FAIL: {message}", file=sys.stderr)


def placeholder_png(width=16, height=9, rgb=(0x9A, 0x9E, 0xA8)):
    """A solid grey PNG, built by hand (no imaging library needed)."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


PLACEHOLDER = base64.b64encode(placeholder_png()).decode()


def read_headers_file(site):
    """The rules of site/_headers: [(pattern, [(name, value)])]."""
    rules = []
    path = pathlib.Path(site) / "_headers"
    for line in path.read_text().splitlines() if path.is_file() else []:
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith((" ", "\t")):
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
        else:
            rules.append((line.strip(), []))
    return rules


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves site/ with the headers its _headers gives each path, as a host
    does: the browser then enforces the site's Content-Security-Policy, and a
    page that needs more than it allows logs an error."""

    rules = []

    def log_message(self, *args):
        pass

    def end_headers(self):
        path = urllib.parse.urlsplit(self.path).path
        for pattern, headers in self.rules:
            if pattern == path or (pattern.endswith("*") and path.startswith(pattern[:-1])):
                for name, value in headers:
                    self.send_header(name, value)
        super().end_headers()


def serve(site):
    handler = functools.partial(
        type("SiteHandler", (QuietHandler,), {"rules": read_headers_file(site)}), directory=str(site)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """A minimal DevTools protocol client over the browser's WebSocket."""

    def __init__(self, ws, origin):
        self.ws = ws
        self.origin = origin
        self.next_id = 0
        self.pending = {}
        self.events = {}  # sessionId -> list of (method, params)
        self.waiters = []  # (sessionId, method, future)
        self.reader = asyncio.ensure_future(self.read())

    async def read(self):
        async for message in self.ws:
            msg = json.loads(message)
            if "id" in msg:
                fut = self.pending.pop(msg["id"], None)
                if fut and not fut.done():
                    if "error" in msg:
                        fut.set_exception(RuntimeError(f"{msg['error']}"))
                    else:
                        fut.set_result(msg.get("result", {}))
                continue
            session, method, params = msg.get("sessionId"), msg.get("method"), msg.get("params", {})
            if method == "Fetch.requestPaused":
                asyncio.ensure_future(self.on_request(session, params))
                continue
            self.events.setdefault(session, []).append((method, params))
            for waiter in list(self.waiters):
                if waiter[0] == session and waiter[1] == method and not waiter[2].done():
                    waiter[2].set_result(params)
                    self.waiters.remove(waiter)

    async def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        fut = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        await self.ws.send(json.dumps(msg))
        return await asyncio.wait_for(fut, timeout)

    def wait_for(self, session, method):
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append((session, method, fut))
        return fut

    async def on_request(self, session, params):
        url = params["request"]["url"]
        try:
            if url.startswith(self.origin):
                await self.send("Fetch.continueRequest", {"requestId": params["requestId"]}, session)
            else:
                await self.send(
                    "Fetch.fulfillRequest",
                    {
                        "requestId": params["requestId"],
                        "responseCode": 200,
                        "responseHeaders": [{"name": "Content-Type", "value": "image/png"}],
                        "body": PLACEHOLDER,
                    },
                    session,
                )
        except Exception as err:  # The page may be gone already.
            print(f"note: request {url}: {err}", file=sys.stderr)

    async def open(self, width=1280, height=900, dark=False, mobile=False):
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        session = attached["sessionId"]
        for method in ("Page.enable", "Runtime.enable", "Log.enable"):
            await self.send(method, {}, session)
        await self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, session)
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
            session,
        )
        await self.send(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]},
            session,
        )
        return target["targetId"], session

    async def navigate(self, session, url):
        loaded = self.wait_for(session, "Page.loadEventFired")
        await self.send("Page.navigate", {"url": url}, session)
        await asyncio.wait_for(loaded, 60)

    async def evaluate(self, session, expression):
        result = await self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def screenshot(self, session, path, width, mobile=False):
        height = await self.evaluate(session, "Math.ceil(document.documentElement.scrollHeight)")
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": min(int(height), 6000), "deviceScaleFactor": 1, "mobile": mobile},
            session,
        )
        # Let lazy images load their placeholders before the picture.
        await asyncio.sleep(0.5)
        shot = await self.send("Page.captureScreenshot", {"format": "png"}, session)
        pathlib.Path(path).write_bytes(base64.b64decode(shot["data"]))

    def errors(self, session):
        found = []
        for method, params in self.events.get(session, []):
            if method == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                entry = params["entry"]
                found.append(f"{entry.get('text')} {entry.get('url', '')}".strip())
        return found


# Runs in the page: where the bars are, what they should be, every link,
# and text whose contrast is too low.
PAGE_PROBE = r"""
(() => {
  const out = {bars: [], acts: 0, links: [], ids: [], problems: []};
  out.lang = document.documentElement.lang;
  out.title = document.title;
  out.landmarks = ['header', 'main', 'footer'].filter(t => document.querySelector(t)).length;
  out.h1 = document.querySelectorAll('h1').length;
  out.imgsWithoutAlt = document.querySelectorAll('img:not([alt])').length;
  out.overflow = document.documentElement.scrollWidth > window.innerWidth + 1;
  const win = document.querySelectorAll('section.version time[datetime]');
  out.acts = document.querySelectorAll('li.act').length;
  if (win.length >= 2) {
    const ws = Date.parse(win[0].getAttribute('datetime'));
    const we = Date.parse(win[1].getAttribute('datetime'));
    const share = t => Math.min(1, Math.max(0, (t - ws) / (we - ws))) * 100;
    for (const li of document.querySelectorAll('li.act')) {
      const bar = li.querySelector('.track .bar');
      const track = li.querySelector('.track');
      if (!bar || !track) { out.problems.push('no bar in ' + li.id); continue; }
      const tr = track.getBoundingClientRect();
      const br = bar.getBoundingClientRect();
      const expLeft = share(Date.parse(li.dataset.start));
      const expRight = share(Date.parse(li.dataset.end));
      out.bars.push({
        id: li.id, status: li.classList.contains('ongoing') ? 'ongoing' : li.classList.contains('upcoming') ? 'upcoming' : 'ended',
        expLeft, expWidth: expRight - expLeft,
        left: (br.left - tr.left) / tr.width * 100, width: br.width / tr.width * 100,
        trackPx: tr.width, visible: br.width > 0 && br.height > 0,
      });
    }
  }
  for (const el of document.querySelectorAll('a[href], link[href]')) {
    out.links.push({raw: el.getAttribute('href'), abs: el.href});
  }
  out.ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  // Text contrast (WCAG 2): every element with its own visible text against
  // the first opaque background behind it; 4.5:1, or 3:1 for large text.
  const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = el => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
    }
    return [255, 255, 255];
  };
  out.lowContrast = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(el);
    if (!own || style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
    if (el.closest('.skip')) continue;
    const l1 = lum(rgb(style.color)), l2 = lum(background(el));
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < needed) out.lowContrast.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
  }
  return out;
})()
"""


def site_file(site, origin, url):
    """The file of site/ a same-origin URL resolves to, or None for other origins."""
    if not url.startswith(origin):
        return None
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    if path.endswith("/"):
        path += "index.html"
    return site / path.lstrip("/")


def check_probe(site, origin, page_url, probe, label):
    if probe["landmarks"] != 3 or probe["h1"] != 1:
        fail(f"{label}: landmarks {probe['landmarks']}/3, h1 count {probe['h1']}")
    for item in sorted(set(probe["lowContrast"]))[:5]:
        fail(f"{label}: low text contrast: {item}")
    if probe["imgsWithoutAlt"]:
        fail(f"{label}: {probe['imgsWithoutAlt']} images without alt")
    for problem in probe["problems"]:
        fail(f"{label}: {problem}")
    if len(probe["bars"]) != probe["acts"]:
        fail(f"{label}: {probe['acts']} activities but {len(probe['bars'])} bars")
    for bar in probe["bars"]:
        tolerance = 0.5 + 100 / max(bar["trackPx"], 1)  # half a percent plus a pixel
        if not bar["visible"]:
            fail(f"{label}: bar of {bar['id']} is not visible")
        if abs(bar["left"] - bar["expLeft"]) > tolerance:
            fail(f"{label}: bar of {bar['id']} starts at {bar['left']:.2f}% instead of {bar['expLeft']:.2f}%")
        min_px = 3 / bar["trackPx"] * 100  # the CSS min-width of a bar
        if abs(bar["width"] - max(bar["expWidth"], min_px)) > tolerance:
            fail(f"{label}: bar of {bar['id']} is {bar['width']:.2f}% wide instead of {bar['expWidth']:.2f}%")
    checked = 0
    for link in probe["links"]:
        raw, absolute = link["raw"], link["abs"]
        if raw.startswith("data:"):
            continue
        if raw.startswith("/"):
            fail(f"{label}: absolute link {raw} breaks sites under a sub-path")
        if raw.startswith("#"):
            if raw[1:] not in probe["ids"]:
                fail(f"{label}: fragment {raw} names no element")
            continue
        if absolute.startswith("webcal://"):
            # A subscription: the same file over http(s).
            absolute = "http://" + absolute[len("webcal://"):]
        target = site_file(site, origin, absolute)
        if target is None:
            fail(f"{label}: link to another site: {absolute}")
            continue
        checked += 1
        if not target.is_file():
            fail(f"{label}: link {raw} resolves to {target}, which does not exist")
    return checked


def game_pages(site, games):
    pages = []
    for game in games:
        for locale in game["locales"]:
            if locale == game["defaultLocale"]:
                pages.append((game, locale, f"{game['id']}/"))
            else:
                pages.append((game, locale, f"{game['id']}/{locale}/"))
    return pages


@contextlib.asynccontextmanager
async def chromium_browser(chromium, origin):
    """Starts headless Chromium with a new profile and yields a `Browser` on
    it; closes the browser and removes the profile on the way out."""
    profile = tempfile.mkdtemp(prefix="e2e-chromium-")
    args = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        f"--user-data-dir={profile}",
        "--remote-debugging-port=0",
        "about:blank",
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        port_file = pathlib.Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"chromium did not start: {proc.stderr.read().decode(errors='replace')[-2000:]}")
            await asyncio.sleep(0.1)
        port, path = port_file.read_text().splitlines()[:2]
        async with websockets.connect(f"ws://127.0.0.1:{port}{path}", max_size=None) as ws:
            browser = Browser(ws, origin)
            try:
                yield browser
            finally:
                try:
                    await browser.send("Browser.close", timeout=10)
                except Exception:
                    pass
                browser.reader.cancel()
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


async def check_pages(site, origin, chromium, out_dir, games, live_origin=None):
    async with chromium_browser(chromium, origin) as browser:
        homes = [(None, None, "")] + [
            (None, l, f"{l}/") for l in sorted({l for g in games for l in g["locales"]}) if (site / l / "index.html").is_file()
        ]
        pages = homes + game_pages(site, games)
        links = 0
        for game, locale, rel in pages:
            url = f"{origin}/{rel}"
            label = rel or "index.html"
            target, session = await browser.open()
            await browser.navigate(session, url)
            probe = await browser.evaluate(session, PAGE_PROBE)
            links += check_probe(site, origin, url, probe, label)
            if locale and probe["lang"] != locale:
                fail(f"{label}: <html lang={probe['lang']!r}>, expected {locale}")
            if game and not probe["bars"] and json.loads(
                (site / "api/v1/activity" / f"{game['id']}-{locale}.json").read_text()
            )["activities"]:
                fail(f"{label}: no timeline bars")
            for error in browser.errors(session):
                fail(f"{label}: console error: {error}")
            print(f"ok: {label}: {len(probe['bars'])} bars placed by date, {len(probe['links'])} links")
            await browser.send("Target.closeTarget", {"targetId": target})

        # Pictures: the first game page on a desktop (pages.png), on a phone
        # and in dark mode, and the index.
        first = f"{origin}/{game_pages(site, games)[0][2]}"
        shots = [
            ("pages.png", first, 1280, False, False),
            ("pages-phone.png", first, 390, False, True),
            ("pages-dark.png", first, 1280, True, False),
            ("index.png", f"{origin}/", 1280, False, False),
        ]
        for name, url, width, dark, mobile in shots:
            target, session = await browser.open(width=width, dark=dark, mobile=mobile)
            await browser.navigate(session, url)
            probe = await browser.evaluate(session, PAGE_PROBE)
            if probe["overflow"]:
                fail(f"{name}: the page scrolls sideways at {width}px")
            for item in sorted(set(probe["lowContrast"]))[:5]:
                fail(f"{name}: low text contrast: {item}")
            for error in browser.errors(session):
                fail(f"{name}: console error: {error}")
            await browser.screenshot(session, out_dir / name, width, mobile)
            await browser.send("Target.closeTarget", {"targetId": target})
            print(f"ok: screenshot {out_dir / name}")
        print(f"ok: {links} links resolve to files of {site}")
        await check_reference(browser, site, origin, out_dir)
        if live_origin:
            await check_live(browser, live_origin, out_dir)


# Runs in a game page: what the reader sees of the states, counts, order and
# times (the script's work, or the build's without it).
LIVE_PROBE = r"""
(() => {
  const text = el => (el ? el.textContent.trim() : null);
  const acts = id => [...document.querySelectorAll(`#${id} > li.act`)].map(li => ({
    name: text(li.querySelector('h3')),
    state: ['ongoing', 'upcoming', 'ended'].find(c => li.classList.contains(c)),
    badge: text(li.querySelector('.badge.st')),
    left: li.querySelector('.rem').hidden ? null : text(li.querySelector('.rem')),
  }));
  const line = document.querySelector('.nowline');
  return {
    version: text(document.querySelector('.version .badge.st')),
    versionLeft: text(document.querySelector('.version .rem')),
    pct: text(document.querySelector('.version .pct')),
    counts: [...document.querySelectorAll('.legend [data-count]')].map(text),
    current: acts('current'),
    ended: acts('ended'),
    local: [...document.querySelectorAll('.local')].map(text),
    zone: text(document.getElementById('zone')),
    nowLine: line && !line.hidden ? parseFloat(line.style.left) : null,
    soonest: [...document.querySelectorAll('ul.soon')].map(ul =>
      [...ul.children].filter(li => !li.hidden).map(li => text(li.querySelector('a')))),
  };
})()
"""


def expect(label, got, want):
    if got != want:
        fail(f"{label}: {got!r}, expected {want!r}")
    else:
        print(f"ok: {label}: {got!r}")


# Sets the page's clock (see open_at).
CLOCK = r"""
(() => {
  const Real = Date;
  const shift = EPOCH_MS - Real.now();
  class Emulated extends Real {
    constructor(...args) {
      if (args.length === 0) super(Real.now() + shift);
      else super(...args);
    }
    static now() {
      return Real.now() + shift;
    }
  }
  globalThis.Date = Emulated;
})();
"""


async def open_at(browser, url, epoch_ms=None, zone=None, script=True, width=1280, mobile=False):
    """A page opened with the clock at `epoch_ms` (milliseconds since the
    epoch; the real clock when None), in time zone `zone`, with or without
    JavaScript."""
    target, session = await browser.open(width=width, mobile=mobile)
    if zone:
        await browser.send("Emulation.setTimezoneOverride", {"timezoneId": zone}, session)
    if not script:
        await browser.send("Emulation.setScriptExecutionDisabled", {"value": True}, session)
    if epoch_ms is not None:
        # The clock, set before any script of the page runs: `Date.now()`
        # and `new Date()` read `epoch_ms` plus the time since. (CDP's
        # virtual time, `Emulation.setVirtualTimePolicy`, does this too,
        # but stalled page loads now and then in headless Chromium.)
        await browser.send(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": CLOCK.replace("EPOCH_MS", str(int(epoch_ms)))},
            session,
        )
    await browser.navigate(session, url)
    return target, session


# Runs in a page: every element whose box is wider than its card's or
# leaves it, measured in the browser.
SPILL_PROBE = r"""
(() => {
  const out = [];
  for (const card of document.querySelectorAll('.card')) {
    const c = card.getBoundingClientRect();
    if (c.width === 0) continue;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width > c.width + 0.5 || r.left < c.left - 0.5 || r.right > c.right + 0.5) {
        out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}" ${r.left.toFixed(0)}..${r.right.toFixed(0)} in card ${c.left.toFixed(0)}..${c.right.toFixed(0)}`);
      }
    }
  }
  return {spills: out, overflow: document.documentElement.scrollWidth > window.innerWidth + 1};
})()
"""

# Runs in a page: the out-of-date notices shown, the state badge of each
# game card or version, the cross-game list, and the subscription links.
STATE_PROBE = r"""
(() => {
  const text = el => (el ? el.textContent.trim() : null);
  const shown = el => el && !el.hidden && el.getClientRects().length > 0;
  return {
    notices: [...document.querySelectorAll('.stale-note')].filter(shown).map(text),
    states: [...document.querySelectorAll('li.game, section.version')].map(el =>
      [el.id || 'version', shown(el.querySelector('.badge.st')) ? text(el.querySelector('.badge.st')) : null]),
    soonestAll: [...document.querySelectorAll('#soonest li')].filter(shown).map(li => text(li.querySelector('a'))),
    webcal: [...document.querySelectorAll('a.webcal')].map(a => a.href),
    noscript: [...document.querySelectorAll('.noscript')].filter(shown).map(text),
  };
})()
"""

WIDTHS = (320, 768, 1280, 1920)


async def check_moments(browser, origin, out_dir):
    """Issue 45: one build of tests/fixtures/pages read before its
    versions, during them, and after alpha's ended, at 320, 768, 1280 and
    1920 px: the right state, the out-of-date notice only after the end,
    no element wider than its card or leaving it (measured here), webcal://
    links; screenshots of each."""
    zone = ZoneInfo("Asia/Shanghai")
    moments = {
        "before": datetime(2026, 10, 25, 12, 0, tzinfo=zone),
        "during": datetime(2026, 12, 1, 12, 0, tzinfo=zone),
        "after": datetime(2026, 12, 12, 12, 0, tzinfo=zone),
    }
    want_states = {
        "before": [["game-alpha", "Upcoming"], ["game-beta", "Upcoming"], ["game-gamma", "Upcoming"]],
        "during": [["game-alpha", "Ongoing"], ["game-beta", "Ongoing"], ["game-gamma", "Ongoing"]],
        "after": [["game-alpha", "Ended"], ["game-beta", "Ongoing"], ["game-gamma", "Ongoing"]],
    }
    want_notices = {
        "before": [],
        "during": [],
        "after": ["Not updated yet: version 1.0 ended on December 10."],
    }
    for moment, at in moments.items():
        epoch = at.timestamp() * 1000
        for width in WIDTHS:
            for name, rel in (("home", "en-US/"), ("home-zh", ""), ("alpha", "alpha/en-US/"), ("board", "announcements/")):
                url = f"{origin}/{rel}"
                if name == "board" and not (LIVE_SITE / "announcements/index.html").is_file():
                    continue
                # A reader in New York: every time shows a second time, the
                # longest text a card holds.
                target, session = await open_at(browser, url, epoch, "America/New_York", width=width, mobile=width < 500)
                label = f"{moment} {width}px {name}"
                spill = await browser.evaluate(session, SPILL_PROBE)
                for item in spill["spills"][:5]:
                    fail(f"{label}: leaves its card: {item}")
                if spill["overflow"]:
                    fail(f"{label}: the page scrolls sideways")
                state = await browser.evaluate(session, STATE_PROBE)
                for error in browser.errors(session):
                    fail(f"{label}: console error: {error}")
                if name == "home":
                    expect(f"{label}: states", state["states"], want_states[moment])
                    expect(f"{label}: notices", state["notices"], want_notices[moment])
                    if not state["webcal"] or not all(h.startswith("webcal://127.0.0.1:") for h in state["webcal"]):
                        fail(f"{label}: subscription links {state['webcal'][:2]}")
                    if moment == "during":
                        expect(
                            f"{label}: ending soonest in every game",
                            state["soonestAll"],
                            ["Festival shop", "Abyss challenge", "冬季活动", "Launch celebration"],
                        )
                    if moment == "before":
                        expect(f"{label}: ending soonest in every game", state["soonestAll"], [])
                if name == "home-zh" and moment == "after":
                    expect(f"{label}: notices", state["notices"], ["数据尚未更新：1.0 版本已于 12 月 10 日结束。"])
                if name == "alpha":
                    want = {"before": "Upcoming", "during": "Ongoing", "after": "Ended"}[moment]
                    expect(f"{label}: version", state["states"], [["version", want]])
                    expect(f"{label}: notices", state["notices"], want_notices[moment])
                    if not all(h.startswith("webcal://") for h in state["webcal"]) or not state["webcal"]:
                        fail(f"{label}: subscription links {state['webcal']}")
                if state["noscript"]:
                    fail(f"{label}: the no-script note shows with the script on")
                if width in (320, 1280) or moment == "after":
                    shot = out_dir / f"moment-{moment}-{name}-{width}.png"
                    await browser.screenshot(session, shot, width, width < 500)
                await browser.send("Target.closeTarget", {"targetId": target})
        print(f"ok: {moment}: states, notices and layout at {', '.join(map(str, WIDTHS))} px")

    # Without JavaScript: no state at all, the times with their zone and
    # what to do instead, whatever the clock.
    for moment in ("during", "after"):
        target, session = await open_at(browser, f"{origin}/alpha/en-US/", moments[moment].timestamp() * 1000, script=False)
        state = await browser.evaluate(session, STATE_PROBE)
        expect(f"no script {moment}: states", state["states"], [["version", None]])
        expect(f"no script {moment}: notices", state["notices"], [])
        if len(state["noscript"]) != 1 or "compare the times with your clock" not in state["noscript"][0]:
            fail(f"no script {moment}: the note is {state['noscript']}")
        elif "Asia/Shanghai, UTC+08:00" not in state["noscript"][0] or "2026-12-10 03:59" not in state["noscript"][0]:
            fail(f"no script {moment}: the note names no zone or end: {state['noscript']}")
        else:
            print(f"ok: no script {moment}: {state['noscript'][0]!r}")
        if moment == "after":
            await browser.screenshot(session, out_dir / "moment-noscript-alpha-1280.png", 1280)
        await browser.send("Target.closeTarget", {"targetId": target})


async def check_live(browser, origin, out_dir):
    """The fixture tests/fixtures/pages read on 2026-12-01 in New York:
    states, days left, counts, order, the now line and the home page's lists
    follow the reader's clock, and times show in the reader's zone."""
    # The browser's requests go to this origin, not to the bundled site's.
    browser.origin = origin
    later = datetime(2026, 12, 1, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai")).timestamp() * 1000
    page = f"{origin}/alpha/en-US/"
    target, session = await open_at(browser, page, later, "America/New_York")
    probe = await browser.evaluate(session, LIVE_PROBE)
    for error in browser.errors(session):
        fail(f"live page: console error: {error}")
    expect("a week later: version", (probe["version"], probe["versionLeft"]), ("Ongoing", "8 days left"))
    expect("a week later: counts ongoing/upcoming/ended", probe["counts"][:3], ["2", "0", "2"])
    expect(
        "a week later: current, ending soonest first",
        [(a["name"], a["badge"], a["left"]) for a in probe["current"]],
        [("Festival shop", "Ongoing", "3 days left"), ("Abyss challenge", "Ongoing", "6 days left")],
    )
    expect(
        "a week later: ended, most recent first",
        [(a["name"], a["badge"]) for a in probe["ended"]],
        [("Limited cruise", "Ended"), ("Launch login", "Ended")],
    )
    # 2026-11-28 10:00 in Shanghai is 2026-11-27 21:00 in New York (UTC-5).
    if "(your time 2026-11-27 21:00)" not in probe["local"]:
        fail(f"a week later: no time in the reader's zone: {probe['local'][:6]}")
    else:
        print("ok: a week later: times in the reader's zone (America/New_York)")
    if "America/New_York" not in (probe["zone"] or ""):
        fail(f"a week later: the zone note names no reader's zone: {probe['zone']!r}")
    window = (datetime(2026, 12, 10, 3, 59, 59), datetime(2026, 11, 1, 11, 0))
    share = (datetime(2026, 12, 1, 12, 0) - window[1]) / (window[0] - window[1]) * 100
    if probe["nowLine"] is None or abs(probe["nowLine"] - share) > 0.01:
        fail(f"a week later: now line at {probe['nowLine']}, expected {share:.2f}")
    else:
        print(f"ok: a week later: now line at {probe['nowLine']:.2f}%")
    await browser.screenshot(session, out_dir / "live-later.png", 1280)
    await browser.send("Target.closeTarget", {"targetId": target})

    target, session = await open_at(browser, f"{origin}/en-US/", later, "America/New_York")
    probe = await browser.evaluate(session, LIVE_PROBE)
    for error in browser.errors(session):
        fail(f"live home: console error: {error}")
    expect(
        "a week later: home page's ending soonest",
        probe["soonest"],
        # beta's supply run ended on 11-30; its winter event began on 12-01.
        [["Festival shop", "Abyss challenge"], ["冬季活动"], ["Launch celebration"]],
    )
    await browser.send("Target.closeTarget", {"targetId": target})

    # Read in the server's own zone, no time is shown twice.
    target, session = await open_at(browser, page, None, "Asia/Shanghai")
    probe = await browser.evaluate(session, LIVE_PROBE)
    expect("in the server's zone: no second time", probe["local"], [])
    await browser.send("Target.closeTarget", {"targetId": target})

    # A phone, a week later, for the note.
    target, session = await open_at(browser, page, later, "America/New_York", width=390, mobile=True)
    await browser.screenshot(session, out_dir / "live-phone.png", 390, True)
    probe = await browser.evaluate(session, PAGE_PROBE)
    if probe["overflow"]:
        fail("live-phone.png: the page scrolls sideways at 390px")
    await browser.send("Target.closeTarget", {"targetId": target})
    target, session = await open_at(browser, f"{origin}/", later, "America/New_York", width=390, mobile=True)
    await browser.screenshot(session, out_dir / "live-home-phone.png", 390, True)
    probe = await browser.evaluate(session, PAGE_PROBE)
    if probe["overflow"]:
        fail("live-home-phone.png: the page scrolls sideways at 390px")
    for error in browser.errors(session):
        fail(f"live-home-phone.png: console error: {error}")
    await browser.send("Target.closeTarget", {"targetId": target})

    await check_moments(browser, origin, out_dir)


# Runs in the API's reference page: what a reader finds there, by section.
REFERENCE_PROBE = r"""
(() => {
  const text = el => (el ? el.textContent.trim() : null);
  const rows = sel => [...document.querySelectorAll(sel)];
  return {
    lang: document.documentElement.lang,
    scripts: document.scripts.length,
    games: rows('#games-table tr[id^="game-"]').map(tr => ({
      id: tr.id.slice(5), cells: [...tr.cells].map(td => td.textContent.trim()),
    })),
    paths: rows('#paths-table tbody tr').map(tr => text(tr.cells[0])),
    fields: Object.fromEntries(rows('section.schema').map(s => [
      s.id.slice(7), [...s.querySelectorAll('tbody tr')].map(tr => ({
        field: text(tr.cells[0]), type: text(tr.cells[1]), present: text(tr.cells[2]),
        meaning: text(tr.cells[3]), shown: tr.getClientRects().length > 0,
      })),
    ])),
    example: text(document.getElementById('example-json')),
    snippets: Object.fromEntries(['curl', 'typescript', 'python'].map(n => {
      const el = document.getElementById('snippet-' + n);
      return [n, el && el.getClientRects().length ? el.textContent : null];
    })),
    overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
  };
})()
"""


def schema_fields(root, node=None, prefix="", depth=0):
    """Every field of a JSON Schema (path, required, description), walked
    here on its own rather than trusted from the page: properties, the
    objects they hold (`a.b`), their items (`a[].b`), a map's values
    (`a.*.b`), local references followed."""

    def resolved(node):
        merged = dict(node) if isinstance(node, dict) else {}
        for _ in range(9):
            ref = merged.pop("$ref", None)
            if not ref or not ref.startswith("#/"):
                break
            target = root
            for part in ref[2:].split("/"):
                target = target.get(part.replace("~1", "/").replace("~0", "~"), {})
            for key, value in target.items():
                merged.setdefault(key, value)
        return merged

    out = []
    if depth > 8:
        return out
    node = resolved(root if node is None else node)
    for name, prop in node.get("properties", {}).items():
        path = prefix + name
        target = resolved(prop)
        out.append((path, name in node.get("required", []), prop.get("description") or target.get("description")))
        if "properties" in target:
            out += schema_fields(root, target, path + ".", depth + 1)
        if "items" in target:
            out += schema_fields(root, target["items"], path + "[].", depth + 1)
        values = target.get("additionalProperties")
        if isinstance(values, dict):
            values = resolved(values)
            if "properties" in values or "items" in values:
                out += schema_fields(root, values, path + ".*.", depth + 1)
                if "items" in values:
                    out += schema_fields(root, values["items"], path + ".*[].", depth + 1)
    return out


async def check_reference(browser, site, origin, out_dir):
    """Issue 62: the API's reference page in every language of a home page,
    read in Chromium with JavaScript off: every game of the index with its
    name, locales (pending ones said), zone and update mode; every path of
    the OpenAPI description; every field of every published schema (walked
    here) with whether it is always present and a meaning; the example, a
    real published document; and the curl, TypeScript and Python snippets."""
    index = json.loads((site / "api/v1/games.json").read_text())
    openapi = json.loads((site / "api/v1/openapi.json").read_text())
    schemas = {p.stem: json.loads(p.read_text()) for p in sorted((site / "api/v1/schema").glob("*.json"))}
    pages = [("zh-CN" if (site / "api-reference/index.html").is_file() else None, "api-reference/")]
    pages += [(p.parent.parent.name, f"{p.parent.parent.name}/api-reference/") for p in sorted(site.glob("*/api-reference/index.html"))]
    langs = set()
    for locale, rel in pages:
        label = rel
        for width, mobile in ((1280, False), (390, True)):
            target, session = await open_at(browser, f"{origin}/{rel}", script=False, width=width, mobile=mobile)
            page = await browser.evaluate(session, PAGE_PROBE)
            ref = await browser.evaluate(session, REFERENCE_PROBE)
            if width == 1280:
                check_probe(site, origin, f"{origin}/{rel}", page, label)
                await browser.screenshot(session, out_dir / f"reference-{ref['lang']}.png", width)
            elif ref["overflow"]:
                fail(f"{label}: the page scrolls sideways at {width}px")
            else:
                await browser.screenshot(session, out_dir / f"reference-{ref['lang']}-phone.png", width, mobile)
            for error in browser.errors(session):
                fail(f"{label}: console error: {error}")
            await browser.send("Target.closeTarget", {"targetId": target})
        langs.add(ref["lang"].split("-")[0])
        if ref["scripts"]:
            fail(f"{label}: {ref['scripts']} scripts on a page that needs none")
        chinese = ref["lang"].startswith("zh")
        # Every game, with its name in the page's language, its locales, zone and mode.
        shown = {g["id"]: g["cells"] for g in ref["games"]}
        for game in index["games"]:
            cells = shown.get(game["id"])
            if cells is None:
                fail(f"{label}: game {game['id']} is missing")
                continue
            name = game.get("name", "")
            if isinstance(name, dict):
                name = name.get(ref["lang"]) or name.get(game.get("defaultLocale"), "")
            if name and cells[1] != name:
                fail(f"{label}: {game['id']} is named {cells[1]!r}, expected {name!r}")
            for loc in game["locales"]:
                if loc not in cells[2]:
                    fail(f"{label}: {game['id']}: locale {loc} is missing from {cells[2]!r}")
            pending_word = "待补" if chinese else "pending"
            if cells[2].count(pending_word) != len(game.get("pending", [])):
                fail(f"{label}: {game['id']}: pending {game.get('pending', [])} but {cells[2]!r}")
            if cells[3] != game.get("timeZone"):
                fail(f"{label}: {game['id']}: zone {cells[3]!r}, expected {game.get('timeZone')!r}")
            mode = next((f.get("updateMode") for f in game["files"] if f.get("default")), None)
            if cells[4] != mode:
                fail(f"{label}: {game['id']}: update mode {cells[4]!r}, expected {mode!r}")
        # Every path of the description.
        missing = sorted(set(openapi["paths"]) - set(ref["paths"]))
        if missing:
            fail(f"{label}: paths missing: {missing}")
        # Every field of every published schema, walked here.
        count = 0
        for stem, schema in schemas.items():
            rows = {r["field"]: r for r in ref["fields"].get(stem, [])}
            for path, required, description in schema_fields(schema):
                row = rows.get(path)
                count += 1
                if row is None or not row["shown"]:
                    fail(f"{label}: {stem}: field {path} is not on the page")
                    continue
                want = ("总是" if required else "可选") if chinese else ("always" if required else "optional")
                if row["present"] != want:
                    fail(f"{label}: {stem}: {path} says {row['present']!r}, expected {want!r}")
                if not row["meaning"] or row["meaning"] == "—" and description:
                    fail(f"{label}: {stem}: {path} has no meaning")
                if not chinese and description and row["meaning"] != description.replace("`", ""):
                    fail(f"{label}: {stem}: {path} means {row['meaning']!r}, not the schema's description")
        # The example: the published default document of the first game,
        # its first activities.
        example = json.loads(ref["example"] or "null")
        first = index["games"][0]
        document = json.loads((site / "api/v1/activity" / f"{first['id']}.json").read_text())
        if not example or example.get("activities") != document["activities"][: len(example["activities"])] or {
            k: v for k, v in example.items() if k != "activities"
        } != {k: v for k, v in document.items() if k != "activities"}:
            fail(f"{label}: the example is not {first['id']}.json as published")
        # The three snippets, naming the first game.
        snippets = ref["snippets"]
        wants = {
            "curl": ["curl -s", "/api/v1/games.json", f"/api/v1/activity/{first['id']}.json", "If-None-Match"],
            "typescript": ['from "activity-site-client"', "new ActivityClient(", f'client.game("{first["id"]}"'],
            "python": ["from activity_site_client import ActivityClient", f'client.game("{first["id"]}"'],
        }
        for name, needles in wants.items():
            for needle in needles:
                if not snippets.get(name) or needle not in snippets[name]:
                    fail(f"{label}: the {name} snippet lacks {needle!r}")
        for language in ("python", "typescript"):
            if snippets.get(language) and (language == "python" or TS_SNIPPET_DIR):
                run_snippet(label, language, snippets[language], origin, site, first)
        print(f"ok: {label} ({ref['lang']}): {len(shown)} games, {len(ref['paths'])} paths, {count} fields of {len(schemas)} schemas, the example and 3 snippets, without script")
    if langs != {"zh", "en"}:
        fail(f"reference pages in {sorted(langs)}, expected Chinese and English")


TS_SNIPPET_DIR = None  # where the TypeScript client is installed (--ts-snippet-dir)


def run_snippet(label, language, code, origin, site, game):
    """Runs one of the page's snippets (`python` or `typescript`), as written
    but for the site's address (the page was built without --site-url and
    names https://example.org), against the served site with the client
    installed as its users install it: it prints every activity of the
    document it asks for, in the document's order, one line each."""
    code = code.replace('"https://example.org"', json.dumps(origin))
    if language == "python":
        command = [sys.executable, "-c", code]
    else:
        # The TypeScript snippet is plain ES module code: Node runs it as
        # written, with the client built from clients/typescript.
        script = pathlib.Path(TS_SNIPPET_DIR) / "snippet.mjs"
        script.write_text(code)
        command = ["node", str(script)]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if ran.returncode != 0:
        fail(f"{label}: the {language} snippet failed: {ran.stderr[-1000:]}")
        return
    locale = next((l for l in game["locales"] if l != game["defaultLocale"] and l not in game.get("pending", [])), None)
    stem = f"{game['id']}-{locale}" if locale else game["id"]
    document = json.loads((site / "api/v1/activity" / f"{stem}.json").read_text())
    lines = [line for line in ran.stdout.splitlines() if line and not line.startswith("due since")]
    want = [f" {a['name']} " for a in document["activities"]]
    if len(lines) != len(want) or not all(w in line for line, w in zip(lines, want)):
        fail(f"{label}: the {language} snippet printed {lines[:2]}..., not the activities of {stem}.json")
    else:
        print(f"ok: {label}: the {language} snippet ran against the site and printed the {len(lines)} activities of {stem}.json")


def check_llms(site):
    """llms.txt offers a webcal:// subscription beside each calendar."""
    text = (site / "llms.txt").read_text()
    calendars = text.count("[calendar](")
    subscriptions = text.count("subscribe: `webcal://")
    if not calendars or calendars != subscriptions:
        fail(f"llms.txt: {calendars} calendars but {subscriptions} webcal:// subscriptions")
    else:
        print(f"ok: llms.txt offers {subscriptions} webcal:// subscriptions")


def check_html(site):
    count = 0
    for path in sorted(site.rglob("*.html")):
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
        try:
            parser.parse(path.read_bytes())
        except Exception as err:
            fail(f"{path}: HTML parse error: {err} {parser.errors[:3]}")
        count += 1
    print(f"ok: {count} HTML files parse without errors")


def check_calendars(site, games):
    count = 0
    alarms_seen = 0
    for game in games:
        zone = game.get("timeZone", "Asia/Shanghai")
        stems = [(game["id"], game["defaultLocale"])] + [(f"{game['id']}-{l}", l) for l in game["locales"]]
        for stem, locale in stems:
            ics = site / "api/v1/activity" / f"{stem}.ics"
            doc = json.loads((site / "api/v1/activity" / f"{stem}.json").read_text())
            if not ics.is_file():
                fail(f"{ics} is missing")
                continue
            raw = ics.read_bytes()
            if b"\n" in raw.replace(b"\r\n", b""):
                fail(f"{ics}: a line ends without CR")
            if any(len(line) > 75 for line in raw.split(b"\r\n")):
                fail(f"{ics}: a line is longer than 75 octets")
            cal = icalendar.Calendar.from_ical(raw)
            # The lead time the calendar documents: its description says it.
            described = str(cal.get("X-WR-CALDESC", ""))
            if ("1 day" not in described and "1 天" not in described) or str(cal.get("DESCRIPTION", "")) != described:
                fail(f"{ics}: the calendar does not say when it reminds: {described!r}")
            zones = [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")]
            if zones != [zone]:
                fail(f"{ics}: VTIMEZONE {zones}, expected [{zone}]")
            events = cal.walk("VEVENT")
            if len(events) != len(doc["activities"]):
                fail(f"{ics}: {len(events)} events for {len(doc['activities'])} activities")
            want = sorted((a["name"], a["startTime"], a["endTime"]) for a in doc["activities"])
            got = []
            for event in events:
                start, end = event.decoded("DTSTART"), event.decoded("DTEND")
                for label, dt in (("DTSTART", start), ("DTEND", end)):
                    if not isinstance(dt, datetime) or dt.tzinfo is None:
                        fail(f"{ics}: {label} {dt!r} has no zone")
                        continue
                    key = getattr(dt.tzinfo, "key", None) or getattr(dt.tzinfo, "zone", None) or str(dt.tzinfo)
                    expected_offset = ZoneInfo(zone).utcoffset(dt.replace(tzinfo=None))
                    if key != zone or dt.utcoffset() != expected_offset:
                        fail(f"{ics}: {label} {dt} is in {key} ({dt.utcoffset()}), expected {zone} ({expected_offset})")
                got.append(
                    (
                        str(event["SUMMARY"]),
                        start.replace(tzinfo=None).isoformat(),
                        end.replace(tzinfo=None).isoformat(),
                    )
                )
                if not str(event.get("UID", "")) or "DTSTAMP" not in event:
                    fail(f"{ics}: an event lacks UID or DTSTAMP")
                alarms = event.walk("VALARM")
                if len(alarms) != 1:
                    fail(f"{ics}: {event['SUMMARY']} has {len(alarms)} alarms, expected 1")
                    continue
                alarm = alarms[0]
                trigger = alarm.get("TRIGGER")
                if (
                    str(alarm.get("ACTION")) != "DISPLAY"
                    or not str(alarm.get("DESCRIPTION", ""))
                    or trigger is None
                    or trigger.dt != timedelta(days=-1)
                    or trigger.params.get("RELATED") != "END"
                ):
                    fail(f"{ics}: the alarm of {event['SUMMARY']} is not a display 1 day before the end: {alarm.to_ical()!r}")
                alarms_seen += 1
            if sorted(got) != want:
                fail(f"{ics}: events do not match the activities of {stem}.json")
            count += 1
            print(f"ok: {ics.name}: {len(events)} events in {zone}")
    print(f"ok: {count} calendars parsed by icalendar {icalendar.__version__}, {alarms_seen} reminders 1 day before the end")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".", help="the data root (holds games.json)")
    parser.add_argument("--site", default="site")
    parser.add_argument("--out", default="target/e2e")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--live-site", help="tests/fixtures/pages built at 2026-11-24T12:00:00")
    parser.add_argument("--live-root", default="tests/fixtures/pages", help="the data root of --live-site")
    parser.add_argument("--ts-snippet-dir", help="a folder whose node_modules holds the built TypeScript client")
    args = parser.parse_args()
    global TS_SNIPPET_DIR
    TS_SNIPPET_DIR = args.ts_snippet_dir
    site = pathlib.Path(args.site).resolve()
    out_dir = pathlib.Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    games = json.loads((pathlib.Path(args.root) / "games.json").read_text())["games"]

    check_html(site)
    check_calendars(site, games)
    check_llms(site)
    global LIVE_SITE
    if args.live_site:
        LIVE_SITE = pathlib.Path(args.live_site).resolve()
        check_calendars(LIVE_SITE, json.loads((pathlib.Path(args.live_root) / "games.json").read_text())["games"])
    server = serve(site)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    live = serve(pathlib.Path(args.live_site).resolve()) if args.live_site else None
    live_origin = f"http://127.0.0.1:{live.server_address[1]}" if live else None
    try:
        asyncio.run(
            asyncio.wait_for(check_pages(site, origin, args.chromium, out_dir, games, live_origin), 840)
        )
    finally:
        server.shutdown()
        if live:
            live.shutdown()
    if FAILURES:
        print(f"e2e-pages: {len(FAILURES)} failures", file=sys.stderr)
        sys.exit(1)
    print("e2e-pages: ok")


if __name__ == "__main__":
    main()
