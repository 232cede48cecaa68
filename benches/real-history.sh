#!/usr/bin/env bash
# Checks every published version of the community's activity API with
# `activity-site import` + `check`: the history of `public/api/v1/activity/`
# on `main` and of `api/v1/activity/` on `gh-pages` of the public repository
# Shasnow/Shasnow.github.io (since renamed starrailassistant.top).
#
# For each commit that touched the folder and each game in it, the game's
# files of that commit are imported into a fresh root and checked with
# `--now` set to the middle of that file's own version window, so `stale`
# says nothing about age and every other rule speaks. Prints one line per
# (branch, commit, game) with the counts by rule, then a summary; exits 1
# when any import or check crashed (exit 2, or `panicked` on stderr) or
# reported an error.
#
# It needs a local clone (a bare mirror is enough) of the repository, so it
# is not part of CI; without one it says so and exits 0.
#
# Example:
#
#     benches/real-history.sh /work/.mirror/Shasnow+Shasnow.github.io/repo
#     REAL_HISTORY_REPO=path/to/clone benches/real-history.sh
#
# Needs git and python3 (to read the version window).

set -euo pipefail

repo="${1:-${REAL_HISTORY_REPO:-/work/.mirror/Shasnow+Shasnow.github.io/repo}}"
if ! git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    echo "real-history: no clone of Shasnow/Shasnow.github.io at \`$repo\`; skipped" >&2
    exit 0
fi

here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ACTIVITY_SITE:-$here/target/release/activity-site}"
if [[ ! -x "$bin" ]]; then
    (cd "$here" && cargo build --release --locked >&2)
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

versions=0
crashes=0
with_errors=0
declare -A by_rule=()

# The middle of a document's version window, as YYYY-MM-DDTHH:MM:SS.
middle() {
    python3 - "$1" <<'PY'
import datetime, json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8-sig"))
f = "%Y-%m-%dT%H:%M:%S"
try:
    a = datetime.datetime.strptime(doc["startTime"], f)
    b = datetime.datetime.strptime(doc["endTime"], f)
    print((a + (b - a) / 2).replace(microsecond=0).strftime(f))
except Exception:
    print("2026-01-01T00:00:00")
PY
}

for spec in main:public/api/v1/activity gh-pages:api/v1/activity; do
    branch="${spec%%:*}"
    folder="${spec#*:}"
    git -C "$repo" rev-parse --verify -q "$branch" >/dev/null || continue
    for commit in $(git -C "$repo" rev-list --reverse "$branch" -- "$folder"); do
        files="$(git -C "$repo" ls-tree --name-only "$commit" "$folder/" | sed "s|^$folder/||" | grep '\.json$' || true)"
        [[ -n "$files" ]] || continue
        # Games: names without a locale tail (ba-jp is a game, ww-en-US is not).
        games="$(printf '%s\n' "$files" | sed -E 's/-[a-z]{2,3}(-[A-Za-z0-9]+)+\.json$/.json/; s/\.json$//' | sort -u)"
        for game in $games; do
            src="$work/src" root="$work/root"
            rm -rf "$src" "$root"
            mkdir -p "$src"
            for name in $files; do
                stem="${name%.json}"
                if [[ "$stem" == "$game" || "$stem" =~ ^"$game"-[a-z]{2,3}(-[A-Za-z0-9]+)+$ ]]; then
                    git -C "$repo" show "$commit:$folder/$name" >"$src/$name"
                fi
            done
            now="$(middle "$src/$game.json" 2>/dev/null || middle "$(ls "$src"/*.json | head -1)")"
            versions=$((versions + 1))
            set +e
            "$bin" import --from "$src" --root "$root" --now "$now" >/dev/null 2>"$work/import.err"
            import_rc=$?
            "$bin" check --root "$root" --now "$now" --format json >"$work/check.json" 2>"$work/check.err"
            check_rc=$?
            set -e
            if [[ $import_rc -eq 2 || $check_rc -eq 2 ]] || grep -q panicked "$work/import.err" "$work/check.err"; then
                crashes=$((crashes + 1))
                echo "CRASH $branch ${commit:0:7} $game: import $import_rc, check $check_rc" >&2
                sed 's/^/    /' "$work/import.err" "$work/check.err" >&2
                continue
            fi
            counts="$(python3 - "$work/check.json" <<'PY'
import collections, json, sys
report = json.load(open(sys.argv[1]))
c = collections.Counter(f'{d["code"]}:{d["severity"]}' for d in report["diagnostics"])
print(" ".join(f"{k}={v}" for k, v in sorted(c.items())) or "clean")
PY
)"
            [[ $check_rc -eq 1 ]] && with_errors=$((with_errors + 1))
            for item in $counts; do
                [[ "$item" == clean ]] && continue
                rule="${item%%=*}"
                by_rule[$rule]=$(( ${by_rule[$rule]:-0} + ${item##*=} ))
            done
            echo "$branch ${commit:0:7} $(git -C "$repo" show -s --format=%cs "$commit") $game now=$now: $counts"
        done
    done
done

echo
echo "checked $versions (branch, commit, game) versions; $crashes crashed; $with_errors with errors"
for rule in "${!by_rule[@]}"; do
    echo "  $rule: ${by_rule[$rule]}"
done | sort
[[ $crashes -eq 0 && $with_errors -eq 0 ]]
