#!/usr/bin/env bash
# End-to-end check of the site for people, with real clients:
# - builds the site from the five-game fixture tests/fixtures/bundled (not the
#   real data/, which moves on with every version) at a pinned "now", twice, and
#   compares the two trees byte for byte (pages, calendars, .br/.gz included);
# - opens the index and every game page in headless Chromium over the DevTools
#   protocol: no console errors, timeline bars present and placed by their
#   dates, every link resolving to a file of site/, HTML that parses without
#   errors, text contrast of at least 4.5:1 (3:1 for large text) in light and
#   dark mode; saves screenshots under target/e2e/ (pages.png and friends);
# - parses every calendar with Python's icalendar: one event per activity,
#   start and end in the game's time zone, and one VALARM per event 1 day
#   before its end, as each calendar's description says; llms.txt names a
#   webcal:// subscription per calendar;
# - builds the fixture tests/fixtures/pages (with the announcements boards)
#   under faketime before, during and after its versions, without --now:
#   the three sites are byte-identical (issue 45);
# - serves each site with the headers of its _headers (so Chromium enforces
#   the Content-Security-Policy) and reads the fixture with an emulated clock
#   and time zone (states, days left, order, the now line, the home page's
#   lists, times in the reader's zone); before, during and after its
#   versions at 320, 768, 1280 and 1920 px: the right states, the
#   out-of-date notice only after the end, webcal:// links, and no element
#   whose box is wider than its card or leaves it, measured in the browser;
#   and with JavaScript disabled (no state; the times with their zone and
#   what to do); saves moment-*.png, live-later.png and live-phone.png;
# - reads the API's reference page of each language without JavaScript
#   (issue 62): every game of the index with its name, locales, pending
#   locales, zone and update mode, every path of the OpenAPI description,
#   every field of every published schema (walked by the check itself) with
#   whether it is always present and its meaning, the example (the first
#   game's published document) and the curl, TypeScript and Python
#   snippets; runs the Python and TypeScript snippets against the site with
#   the clients of clients/python (pip-installed) and clients/typescript
#   (its checked-in dist/); saves reference-*.png.
# Works on a fresh Debian machine (installs chromium, faketime, nodejs, python3-venv and pip
# packages); bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."

NOW=2026-11-22T12:00:00
E2E=target/e2e
mkdir -p "$E2E"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
cjk_fonts=fonts-noto-cjk
[ -z "$(fc-list :lang=zh 2>/dev/null)" ] || cjk_fonts=""
# Node runs the reference page's TypeScript snippet (Debian's nodejs).
node_pkg=nodejs
! command -v node >/dev/null 2>&1 || node_pkg=""
# shellcheck disable=SC2046,SC2086 # one word per package
apt_need $(missing_commands chromium faketime) $(python_venv_missing) $cjk_fonts $node_pkg

# The Python client, installed as its users do, runs the reference page's snippet.
python_venv "$E2E/venv" 'websockets>=12' 'icalendar>=5' 'html5lib>=1.1' ./clients/python
# The TypeScript client as it is checked in (clients/typescript/dist, which
# CI keeps up to date), installed where Node finds it, runs the other snippet.
TS_SNIPPET="$E2E/ts-snippet"
ts_client="$TS_SNIPPET/node_modules/activity-site-client"
rm -rf "$ts_client"
mkdir -p "$ts_client"
cp -r clients/typescript/package.json clients/typescript/dist "$ts_client/"

echo "building the site (now = $NOW)"
use_activity_site
FIVE=tests/fixtures/bundled
"$ACTIVITY_SITE_BIN" build --root "$FIVE" --out site --no-cache --now "$NOW"
"$ACTIVITY_SITE_BIN" build --root "$FIVE" --out "$E2E/site-again" --no-cache --now "$NOW"
if ! diff -r site "$E2E/site-again" >/dev/null; then
  echo "FAIL: two builds of the same data differ" >&2
  diff -rq site "$E2E/site-again" >&2 || true
  exit 1
fi
echo "ok: two builds are byte-identical ($(find site -type f | wc -l) files)"

# The live script: tests/fixtures/pages (zh-CN default, en-US second, a game
# with one locale, an upcoming version) with the announcements boards,
# built under faketime (the system clock, no --now) before, during and
# after its versions: issue 45 wants the same bytes from the same data at
# any moment. Then read with an emulated clock and time zone at those
# moments, at four widths, and without JavaScript.
LIVE_ROOT="$E2E/live-root"
rm -rf "$LIVE_ROOT" "$E2E"/live-site*
mkdir -p "$LIVE_ROOT"
cp -r tests/fixtures/pages/. "$LIVE_ROOT/"
cp -r tests/fixtures/announcements/real/. "$LIVE_ROOT/"
for moment in "2026-10-25 12:00:00" "2026-12-01 12:00:00" "2026-12-12 12:00:00"; do
  out="$E2E/live-site-${moment%% *}"
  TZ=Asia/Shanghai faketime "$moment" "$ACTIVITY_SITE_BIN" build --root "$LIVE_ROOT" --out "$out" --no-cache
done
# Every file but the build's own log of its warnings (layout::OUTPUT_WARNINGS),
# which says what the build found at its moment (a version gone stale).
same_site() { diff -r -x .activity-site-warnings "$1" "$2" >/dev/null; }
if ! same_site "$E2E/live-site-2026-10-25" "$E2E/live-site-2026-12-01" ||
  ! same_site "$E2E/live-site-2026-10-25" "$E2E/live-site-2026-12-12"; then
  echo "FAIL: builds of the same data under faketime at three moments differ" >&2
  diff -rq "$E2E/live-site-2026-10-25" "$E2E/live-site-2026-12-12" >&2 || true
  exit 1
fi
echo "ok: builds under faketime before, during and after the versions are byte-identical ($(find "$E2E/live-site-2026-10-25" -type f | wc -l) files)"
mv "$E2E/live-site-2026-10-25" "$E2E/live-site"

timeout 1000 "$E2E/venv/bin/python" .ci/e2e_pages.py --root "$FIVE" --site site --out "$E2E" --chromium "$(command -v chromium)" \
  --live-site "$E2E/live-site" --live-root "$LIVE_ROOT" --ts-snippet-dir "$TS_SNIPPET"
