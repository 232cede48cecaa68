#!/usr/bin/env bash
# The command of the hooks in .pre-commit-hooks.yaml: runs the activity-site
# of the repository being committed to, with the hook's arguments. The first
# found: $ACTIVITY_SITE_BINARY, the npm devDependency of the repository
# (node_modules/.bin/activity-site), activity-site on PATH. `check` judges
# the commit by what it changes (`--changed-since HEAD`) once there is a HEAD.
set -euo pipefail
if [ "${1:-}" = check ] && git rev-parse --verify --quiet 'HEAD^{commit}' >/dev/null 2>&1; then
    shift
    set -- check --changed-since HEAD "$@"
fi
if [ -n "${ACTIVITY_SITE_BINARY:-}" ]; then
    exec "$ACTIVITY_SITE_BINARY" "$@"
fi
if [ -x node_modules/.bin/activity-site ]; then
    exec node_modules/.bin/activity-site "$@"
fi
if command -v activity-site >/dev/null 2>&1; then
    exec activity-site "$@"
fi
cat >&2 <<'TEXT'
activity-site is not installed: add it to the repository (npm i -D activity-site),
or put it on PATH (cargo install, or the binary of a release), then commit again.
没有找到 activity-site：请把它加入仓库（npm i -D activity-site），
或把它放到 PATH 中（cargo install，或发布页面的程序），然后重新提交。
TEXT
exit 2
