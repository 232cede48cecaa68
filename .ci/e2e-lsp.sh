#!/usr/bin/env bash
# End-to-end check of `activity-site lsp` with a real editor: Debian's
# neovim, headless, whose built-in LSP client (started by .ci/e2e_lsp.lua)
# opens a broken data file and prints the diagnostics it received.
#
# Environment:
#   ACTIVITY_SITE_BIN  binary to test (default: built here with cargo)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

say() { echo "e2e-lsp.sh: $*"; }

# shellcheck source=.ci/lib.sh
. .ci/lib.sh

missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
apt_need "${missing[@]}"

use_activity_site

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r tests/fixtures/base/. "$work/"
file="$work/data/demo/zh-CN.json"
# Two defects: a misspelt key in the first activity, an end on the minute in the second.
python3 - "$file" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
text = text.replace('"endTime": "2026-10-15T03:59:59"', '"endtime": "2026-10-15T03:59:59"', 1)
text = text.replace('"endTime": "2026-10-31T03:59:59"', '"endTime": "2026-10-31T04:00:00"', 1)
open(path, "w", encoding="utf-8").write(text)
PY

say "$(nvim --version | head -1)"
status=0
out="$(ACTIVITY_SITE_BIN="$ACTIVITY_SITE_BIN" E2E_ROOT="$work" E2E_FILE="$file" \
    timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile .ci/e2e_lsp.lua" 2>&1)" || {
    say "neovim failed: $out"
    exit 1
}
say "diagnostics neovim received:"
echo "$out"
grep -q '^schema 13:7 ERROR unknown field `endtime`' <<<"$out" || { say "missing the schema error at 13:7"; status=1; }
grep -Eq '^end-of-minute [0-9]+:[0-9]+ WARN' <<<"$out" || { say "missing the end-of-minute warning"; status=1; }

# CONTRIBUTING.md's Neovim snippet (the reference moved there from the
# README), as a user's init.lua, with `activity-site`
# on PATH and the editor started in a folder outside the data tree: it must
# find the root from the file and start the server (this Neovim is Debian's).
snippet="$work/readme-snippet.lua"
python3 - CONTRIBUTING.md "$snippet" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("Neovim ("):]
block = re.search(r"```lua\n(.*?)```", section, re.S).group(1)
open(sys.argv[2], "w", encoding="utf-8").write(block)
PY
mkdir -p "$work/bin"
ln -s "$(realpath "$ACTIVITY_SITE_BIN")" "$work/bin/activity-site"
out="$(cd / && PATH="$work/bin:$PATH" E2E_SNIPPET="$snippet" E2E_FILE="$file" \
    timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile $repo/.ci/e2e_lsp.lua" 2>&1)" || {
    say "neovim with the documented snippet failed: $out"
    exit 1
}
say "diagnostics neovim received through the documented snippet:"
echo "$out"
grep -q '^schema 13:7 ERROR unknown field `endtime`' <<<"$out" || { say "documented snippet: missing the schema error at 13:7"; status=1; }
[ "$status" = 0 ] && say "passed"
exit "$status"
