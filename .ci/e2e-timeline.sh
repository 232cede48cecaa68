#!/usr/bin/env bash
# End-to-end check of the timeline page (issue 66), with real clients:
# - builds tests/fixtures/pages under faketime (the system clock, no --now)
#   twice, a minute apart: the two sites are byte-identical, the timeline
#   pages included;
# - .ci/e2e_timeline.py reads the timeline page in headless Chromium under a
#   pinned clock before gamma's version starts, in the middle and after
#   alpha's ended, at 390 and 1280 px: the now line and each bar placed by
#   their instants on the axis' pixel scale, days left by the clock, the
#   overdue game marked, the axis scrolling with the names in view; one game
#   alone; both languages in light and dark; and with JavaScript off every
#   running activity listed with its end. Screenshots: target/e2e-timeline/
#   timeline-<before|middle|after>-<390|1280>.png, timeline-noscript-1280.png
#   and timeline-dark-1280.png;
# - @axe-core/cli (npm, with Debian's chromium-driver) finds no violation on
#   the page in either language.
# Works on a fresh Debian machine (installs chromium, chromium-driver,
# faketime, npm and python3-venv; websockets from PyPI, @axe-core/cli from
# npm); a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

E2E=target/e2e-timeline
mkdir -p "$E2E"
started=$SECONDS

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
scratch_dir
cjk_fonts=fonts-noto-cjk
[ -z "$(fc-list :lang=zh 2>/dev/null)" ] || cjk_fonts=""
driver=chromium-driver
! command -v chromedriver >/dev/null 2>&1 || driver=""
# shellcheck disable=SC2046,SC2086 # one word per package
apt_need $(missing_commands chromium faketime npm) $driver $(python_venv_missing) $cjk_fonts
# e2e_pages.py, whose client this reuses, imports icalendar and html5lib too.
python_venv "$E2E/venv" 'websockets>=12' 'icalendar>=5' 'html5lib>=1.1'

log "building tests/fixtures/pages twice, a minute apart"
use_activity_site
root="$work/root"
mkdir -p "$root"
cp -r tests/fixtures/pages/. "$root/"
rm -rf "$E2E/site" "$E2E/site-later"
build_at() {
  TZ=Asia/Shanghai faketime "$1" "$ACTIVITY_SITE_BIN" build --root "$root" --out "$2" --no-cache >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; exit 1; }
}
build_at "2026-12-01 12:00:00" "$E2E/site"
build_at "2026-12-01 12:01:00" "$E2E/site-later"
# Every file but the build's own log of its warnings (layout::OUTPUT_WARNINGS).
if ! diff -r -x .activity-site-warnings "$E2E/site" "$E2E/site-later" >/dev/null; then
  echo "FAIL: two builds of the same data a minute apart differ" >&2
  diff -rq "$E2E/site" "$E2E/site-later" >&2 || true
  exit 1
fi
for page in timeline/index.html en-US/timeline/index.html; do
  [ -s "$E2E/site/$page" ] || { echo "FAIL: no $page" >&2; exit 1; }
done
echo "ok: two builds a minute apart are byte-identical ($(find "$E2E/site" -type f | wc -l) files, the timeline pages included)"

log "the timeline page in Chromium"
timeout 900 "$E2E/venv/bin/python" .ci/e2e_timeline.py --site "$E2E/site" --out "$E2E" --chromium "$(command -v chromium)"

log "axe-core in Chromium, both languages"
if [ ! -x "$E2E/node/node_modules/.bin/axe" ]; then
  # Debian's chromedriver drives Debian's chromium: no driver download.
  CHROMEDRIVER_SKIP_DOWNLOAD=true timeout 600 npm install --prefix "$E2E/node" --no-audit --no-fund \
    --loglevel=error '@axe-core/cli@4.13.0' >/dev/null
fi
port=$(free_port)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$E2E/site" >"$work/http.log" 2>&1 &
server_pid=$!
wait_for_port "$port" "$work/http.log"
timeout 300 "$E2E/node/node_modules/.bin/axe" \
  "http://127.0.0.1:$port/timeline/" "http://127.0.0.1:$port/en-US/timeline/" \
  --chromedriver-path "$(command -v chromedriver)" --chrome-path "$(command -v chromium)" \
  --chrome-options="no-sandbox,headless,disable-gpu" \
  --save axe-timeline.json --dir "$E2E" --exit
stop_server
echo "ok: axe-core finds no violation on timeline/ and en-US/timeline/ ($E2E/axe-timeline.json)"
say "ok in $((SECONDS - started)) s"
