#!/usr/bin/env bash
# End-to-end check of the announcements with real clients (issue 30):
# - builds a tree with announcement boards of the real shape (the test
#   fixtures: tests/fixtures/base with tests/fixtures/announcements/real laid
#   over it, plus a board full of raw HTML and script) at a pinned "now";
# - checks that api/v1/anno.json is the source board, JSON for JSON;
# - parses every Atom feed with Python's feedparser (what many feed readers
#   use): well-formed, one entry per announcement with its title, no script,
#   event handler or javascript: URL in any entry's HTML;
# - parses every announcements page with html5lib: no parse error, every
#   title present, no script element, no javascript: URL, no on* attribute.
# Works on a fresh Debian machine (installs python3-venv and pip packages).
set -euo pipefail
cd "$(dirname "$0")/.."

NOW=2026-10-15T12:00:00
E2E=target/e2e-anno
rm -rf "$E2E/root"
mkdir -p "$E2E/root"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2207 # one word per package
need_apt=($(python_venv_missing))
apt_need "${need_apt[@]}"
python_venv "$E2E/venv" 'feedparser>=6' 'html5lib>=1.1'

cp -r tests/fixtures/base/. "$E2E/root/"
cp -r tests/fixtures/announcements/real/. "$E2E/root/"
# A third board that tries every way into a page (raw HTML only warns).
cat > "$E2E/root/data/_announcements/ja-JP.json" <<'JSON'
{
  "id": 7,
  "announcements": [
    {
      "title": "<script>alert('title')</script> & more",
      "content": "Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n<a href=\"javascript:alert(3)\">x</a> <iframe src=\"https://example.org\"></iframe> [ok](https://example.org)"
    },
    {
      "title": "Plain",
      "content": "Nothing *special*."
    }
  ]
}
JSON

use_activity_site
"$ACTIVITY_SITE_BIN" build --root "$E2E/root" --out "$E2E/root/site" --now "$NOW"
timeout 300 "$E2E/venv/bin/python" .ci/e2e_anno.py --root "$E2E/root" --site "$E2E/root/site"
