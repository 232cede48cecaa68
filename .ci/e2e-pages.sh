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
#   start and end in the game's time zone;
# - serves each site with the headers of its _headers (so Chromium enforces
#   the Content-Security-Policy) and reads the fixture tests/fixtures/pages,
#   built at one moment, a week later with an emulated clock and time zone
#   (states, days left, order, the now line, the home page's lists, times in
#   the reader's zone), and again with JavaScript disabled (the build-time
#   page); saves live-later.png and live-phone.png (390 px).
# Works on a fresh Debian machine (installs chromium, python3-venv and pip
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
# shellcheck disable=SC2046,SC2086 # one word per package
apt_need $(missing_commands chromium) $(python_venv_missing) $cjk_fonts

python_venv "$E2E/venv" 'websockets>=12' 'icalendar>=5' 'html5lib>=1.1'

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
# with one locale, an upcoming version) built at one moment, read a week
# later with an emulated clock and time zone, and without JavaScript.
LIVE_NOW=2026-11-24T12:00:00
"$ACTIVITY_SITE_BIN" build --root tests/fixtures/pages --out "$E2E/live-site" --no-cache --now "$LIVE_NOW"

timeout 600 "$E2E/venv/bin/python" .ci/e2e_pages.py --root "$FIVE" --site site --out "$E2E" --chromium "$(command -v chromium)" \
  --live-site "$E2E/live-site"
