"""End-to-end check of the timeline page (issue 66) in headless Chromium.

Run by .ci/e2e-timeline.sh, which builds tests/fixtures/pages and installs
what this needs. It reuses the DevTools client, the server (which sends the
headers of the site's _headers, so Chromium enforces its
Content-Security-Policy), the pinned clock and the page probe of
.ci/e2e_pages.py.

Under a pinned clock (Date replaced before any script of the page runs, the
test hook `open_at` of e2e_pages.py documents) before gamma's version starts,
in the middle of the versions and after alpha's ended, at 390 and 1280 px:
the now line and each bar's left edge and width match the instants to the
axis' pixel scale, the days left match the clock, an overdue game is marked
and only then; at 390 px the chart scrolls while the game names stay in
view, and it opens with the now line in view. Then one game alone (`#alpha`, `?game=beta`), the page in both
languages (links, contrast in light and dark), and with JavaScript off:
every activity running at each moment is listed with its end.
"""

import argparse
import asyncio
import json
import pathlib
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import e2e_pages  # noqa: E402
from e2e_pages import PAGE_PROBE, check_probe, chromium_browser, expect, fail, open_at, serve  # noqa: E402


ZONE = ZoneInfo("Asia/Shanghai")
MOMENTS = {
    # Gamma's version (from 2026-11-25) has not started; alpha and beta run.
    "before": datetime(2026, 11, 20, 12, 0, tzinfo=ZONE),
    "middle": datetime(2026, 12, 1, 12, 0, tzinfo=ZONE),
    # Alpha's version ended on 2026-12-10: its data is overdue.
    "after": datetime(2026, 12, 12, 12, 0, tzinfo=ZONE),
}
WIDTHS = (390, 1280)
DAY_MS = 86_400_000

# Runs in the page: the axis, the now line, every bar and its label, each
# group's out-of-date notice, and whether the names stay in view when the
# chart is scrolled to its end.
PROBE = r"""
(async () => {
  const chart = document.querySelector('.tl-chart');
  const scroller = document.querySelector('.tl');
  const lanes = document.querySelector('.tl-lanes').getBoundingClientRect();
  const line = document.querySelector('.tl-now');
  const lr = line.getBoundingClientRect();
  const shown = el => !!el && !el.hidden && el.getClientRects().length > 0;
  const out = {
    t0: Date.parse(chart.dataset.axisStart), t1: Date.parse(chart.dataset.axisEnd),
    lanesLeft: lanes.left, lanesWidth: lanes.width, now: Date.now(),
    line: shown(line) ? lr.left + lr.width / 2 : null,
    rows: [], groups: [],
    scrolls: scroller.scrollWidth > scroller.clientWidth + 1,
    // As loaded, the now line is in view beside the names.
    nowInView: shown(line) && lr.left >= document.querySelector('.tl-corner').getBoundingClientRect().right - 1
      && lr.right <= scroller.getBoundingClientRect().right + 1,
    pageOverflow: document.documentElement.scrollWidth > window.innerWidth + 1,
  };
  for (const row of document.querySelectorAll('.tl-row')) {
    const b = row.querySelector('.tl-bar').getBoundingClientRect();
    const label = row.querySelector('.tl-label');
    out.rows.push({
      game: row.closest('.tl-game').id, start: Date.parse(row.dataset.start), end: Date.parse(row.dataset.end),
      left: b.left, width: b.width, state: row.dataset.state || null,
      label: label.textContent.replace(/\s+/g, ' ').trim(), labelShown: shown(label) && label.getBoundingClientRect().width > 10,
    });
  }
  for (const g of document.querySelectorAll('.tl-game')) {
    const note = g.querySelector('.stale-note');
    out.groups.push({
      id: g.id, shown: shown(g), due: note ? Date.parse(note.dataset.due) : null, noticed: shown(note),
      hatched: getComputedStyle(g.querySelector('.tl-lanes')).backgroundImage !== 'none',
    });
  }
  // Scrolled to the end of the axis, every game's name is still in view.
  const loaded = scroller.scrollLeft;
  scroller.scrollLeft = scroller.scrollWidth;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const box = scroller.getBoundingClientRect();
  out.namesInView = [...document.querySelectorAll('.tl-head')].every(h => {
    const r = h.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1;
  });
  out.scrolledBy = scroller.scrollLeft;
  scroller.scrollLeft = loaded;
  return out;
})()
"""


def days_text(ms, upcoming):
    """What the script writes for `ms` milliseconds to go (en-US words)."""
    n = ms // DAY_MS
    if upcoming:
        return "starts within a day" if n < 1 else "starts in 1 day" if n == 1 else f"starts in {n} days"
    return "less than a day left" if n < 1 else "1 day left" if n == 1 else f"{n} days left"


def check_geometry(probe, label, now_ms):
    """The now line and every bar against the instants and the axis' scale."""
    t0, t1 = probe["t0"], probe["t1"]
    scale = probe["lanesWidth"] / (t1 - t0)  # pixels per millisecond
    x = lambda t: probe["lanesLeft"] + (min(max(t, t0), t1) - t0) * scale  # noqa: E731
    if t0 <= now_ms <= t1:
        if probe["line"] is None or abs(probe["line"] - x(now_ms)) > 1.5:
            fail(f"{label}: now line at {probe['line']}, expected {x(now_ms):.1f}")
    elif probe["line"] is not None:
        fail(f"{label}: now line shown outside the axis")
    bad = 0
    for row in probe["rows"]:
        left, right = x(row["start"]), x(row["end"])
        if abs(row["left"] - left) > 1.5 or abs(row["width"] - max(3, right - left)) > 1.5:
            bad += 1
            fail(f"{label}: bar {row['label']!r} at {row['left']:.1f}+{row['width']:.1f}, expected {left:.1f}+{right - left:.1f}")
        if not row["labelShown"]:
            fail(f"{label}: bar {row['label']!r} has no visible text label")
    if not bad:
        print(f"ok: {label}: now line and {len(probe['rows'])} bars on the axis' scale ({scale * DAY_MS:.1f} px a day)")


def check_clock(probe, label, now_ms):
    """States and days left against the clock; overdue games marked."""
    wrong = []
    for row in probe["rows"]:
        state = "upcoming" if now_ms < row["start"] else "ended" if now_ms > row["end"] else "ongoing"
        if row["state"] != state:
            wrong.append(f"{row['label']}: state {row['state']}, expected {state}")
        if state == "ongoing" and not row["label"].endswith(days_text(row["end"] - now_ms, False)):
            wrong.append(f"{row['label']!r} lacks {days_text(row['end'] - now_ms, False)!r}")
        if state == "upcoming" and not row["label"].endswith(days_text(row["start"] - now_ms, True)):
            wrong.append(f"{row['label']!r} lacks {days_text(row['start'] - now_ms, True)!r}")
    for group in probe["groups"]:
        overdue = group["due"] is not None and now_ms >= group["due"]
        if group["noticed"] != overdue or group["hatched"] != overdue:
            wrong.append(f"{group['id']}: overdue {overdue} but notice {group['noticed']}, hatched {group['hatched']}")
    for item in wrong:
        fail(f"{label}: {item}")
    if not wrong:
        overdue = [g["id"] for g in probe["groups"] if g["noticed"]]
        print(f"ok: {label}: states and days left match the clock; overdue: {overdue or 'none'}")


async def check_moments(browser, origin, out_dir):
    for moment, at in MOMENTS.items():
        now_ms = int(at.timestamp() * 1000)
        for width in WIDTHS:
            label = f"timeline {moment} {width}px"
            # The reader in Berlin: times in the game's zone and the reader's.
            target, session = await open_at(
                browser, f"{origin}/en-US/timeline/", now_ms, "Europe/Berlin", width=width, mobile=width < 500
            )
            probe = await browser.evaluate(session, PROBE)
            check_geometry(probe, label, now_ms)
            check_clock(probe, label, now_ms)
            if probe["pageOverflow"]:
                fail(f"{label}: the page is wider than the window")
            if width < 500 and not (probe["scrolls"] and probe["scrolledBy"] > 0 and probe["namesInView"]):
                fail(f"{label}: the axis does not scroll with the names in view ({probe['scrolledBy']}px, names {probe['namesInView']})")
            elif width < 500:
                print(f"ok: {label}: the axis scrolls {probe['scrolledBy']}px, the game names stay in view")
            if probe["line"] is not None and not probe["nowInView"]:
                fail(f"{label}: the now line is out of view as the page loads")
            local = await browser.evaluate(session, "document.querySelectorAll('.tl-table .local').length")
            if not local:
                fail(f"{label}: no time shown in the reader's zone")
            for error in browser.errors(session):
                fail(f"{label}: console: {error}")
            shot = out_dir / f"timeline-{moment}-{width}.png"
            await browser.screenshot(session, shot, width, width < 500)
            print(f"ok: screenshot {shot}")
            await browser.send("Target.closeTarget", {"targetId": target})


def running(site, at):
    """(game, name, end text) of every activity running at `at`, from the
    published documents of the timeline's games (en-US, else the default)."""
    index = json.loads((site / "api/v1/games.json").read_text())
    found = []
    for game in index["games"]:
        gid = game["id"]
        name = f"{gid}-en-US.json" if (site / f"api/v1/activity/{gid}-en-US.json").is_file() else f"{gid}.json"
        doc = json.loads((site / "api/v1/activity" / name).read_text())
        for a in doc["activities"]:
            start = datetime.fromisoformat(a["startsAt"])
            end = datetime.fromisoformat(a["endsAt"])
            if start <= at <= end:
                found.append((gid, a["name"], a["endTime"][:16].replace("T", " ")))
    return found


async def check_noscript(browser, origin, site, out_dir):
    """With JavaScript off, each game's table is on the page and lists
    every activity running at each moment with its end."""
    target, session = await open_at(browser, f"{origin}/en-US/timeline/", script=False)
    rows = await browser.evaluate(
        session,
        """[...document.querySelectorAll('.tl-table tbody tr')].filter(r => r.getClientRects().length && r.getBoundingClientRect().width > 50)
           .map(r => [r.closest('.tl-game').id, r.cells[0].textContent.trim(), r.cells[2].textContent.trim()])""",
    )
    for moment, at in MOMENTS.items():
        want = running(site, at)
        missing = [w for w in want if list(w) not in rows]
        if missing or not want:
            fail(f"no script, {moment}: running activities not listed with their end: {missing or 'none running'}")
        else:
            print(f"ok: no script, {moment}: all {len(want)} running activities listed with their end")
    await browser.screenshot(session, out_dir / "timeline-noscript-1280.png", 1280)
    await browser.send("Target.closeTarget", {"targetId": target})


async def check_alone(browser, origin):
    """One game alone, by fragment and by query, on the same page."""
    for rel, want in (("en-US/timeline/#alpha", ["alpha"]), ("timeline/?game=beta", ["beta"]), ("timeline/", ["alpha", "beta", "gamma"])):
        target, session = await open_at(browser, f"{origin}/{rel}")
        shown = await browser.evaluate(
            session, "[...document.querySelectorAll('.tl-game')].filter(g => g.getClientRects().length).map(g => g.id)"
        )
        expect(f"games shown at {rel}", shown, want)
        await browser.send("Target.closeTarget", {"targetId": target})


async def check_languages(browser, origin, site, out_dir):
    """Both languages: landmarks, links, contrast in light and dark."""
    for rel in ("timeline/", "en-US/timeline/"):
        for dark in (False, True):
            target, session = await browser.open(dark=dark)
            await browser.navigate(session, f"{origin}/{rel}")
            probe = await browser.evaluate(session, PAGE_PROBE)
            label = f"{rel} ({'dark' if dark else 'light'})"
            probe["problems"], probe["bars"], probe["acts"] = [], [], 0
            links = check_probe(site, origin, f"{origin}/{rel}", probe, label)
            print(f"ok: {label}: {links} links resolve, {len(probe['lowContrast'])} low-contrast texts")
            if dark and rel == "timeline/":
                await browser.screenshot(session, out_dir / "timeline-dark-1280.png", 1280)
            for error in browser.errors(session):
                fail(f"{label}: console: {error}")
            await browser.send("Target.closeTarget", {"targetId": target})


async def run(site, origin, chromium, out_dir):
    async with chromium_browser(chromium, origin) as browser:
        await check_moments(browser, origin, out_dir)
        await check_noscript(browser, origin, site, out_dir)
        await check_alone(browser, origin)
        await check_languages(browser, origin, site, out_dir)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--out", default="target/e2e-timeline")
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args()
    site = pathlib.Path(args.site).resolve()
    out_dir = pathlib.Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    server = serve(site)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        asyncio.run(asyncio.wait_for(run(site, origin, args.chromium, out_dir), 600))
    finally:
        server.shutdown()
    if e2e_pages.FAILURES:
        print(f"e2e-timeline: {len(e2e_pages.FAILURES)} failures", file=sys.stderr)
        sys.exit(1)
    print("e2e-timeline: ok")


if __name__ == "__main__":
    main()
