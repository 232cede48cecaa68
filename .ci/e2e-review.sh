#!/usr/bin/env bash
# End-to-end check of the pull-request review (.github/actions/review) on a
# fixture repository: a git repository whose base commit holds the review
# fixture (tests/fixtures/review/base) and whose pull request publishes the
# next version a day early without carrying what still runs. The action's
# script runs as GitHub runs it (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT set) and
# must: annotate the breaking change on its data file, write the Markdown
# review, report status 3 and fail; pass with fail-on-breaking false; pass
# (status 1, no breaking change) once `version new` writes the version with
# the running activity carried. Then the scheduled workflow's list of games
# ending without a next version.
#
# Environment:
#   ACTIVITY_SITE_BIN  binary to test (default: built here with cargo)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# shellcheck source=.ci/lib.sh
. .ci/lib.sh
command -v git >/dev/null 2>&1 || apt_need git
# shellcheck disable=SC2046 # one word per package
apt_need $(command -v python3 >/dev/null 2>&1 || echo python3)
use_activity_site

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fixtures="$repo/tests/fixtures/review"
data="$work/repo"
now=2026-11-25T12:00:00
g() { git -C "$data" -c user.name=CI -c user.email=ci@example.org -c commit.gpgsign=false "$@"; }

mkdir -p "$data"
cp -r "$fixtures/base/." "$data/"
g init -q -b main
g add -A
g commit -q -m "4.6"
g checkout -q -b publish-4.7
cp -r "$fixtures/upcoming/." "$data/"
g commit -q -am "4.7 a day early"

review() {
  : >"$work/summary.md"
  : >"$work/output"
  GITHUB_STEP_SUMMARY="$work/summary.md" GITHUB_OUTPUT="$work/output" RUNNER_TEMP="$work" \
    REVIEW_BIN="$ACTIVITY_SITE_BIN" REVIEW_ROOT="$data" REVIEW_BASE=main REVIEW_NOW="$now" \
    REVIEW_FAIL_ON_BREAKING="$1" \
    bash .github/actions/review/review.sh >"$work/log" 2>&1
}
fail() { echo "e2e-review: $*" >&2; cat "$work/log" >&2; exit 1; }

# 1. The early 4.7 that drops Memory of Chaos: breaking, annotated, failed.
if review true; then fail "a breaking change passed the review"; fi
grep -q '^::error file=data/sr/en-US.json,line=[0-9]*,title=breaking' "$work/log" ||
  fail "no breaking annotation on data/sr/en-US.json"
grep -q 'status=3' "$work/output" || fail "status is not 3: $(cat "$work/output")"
grep -q '### :warning: 2 breaking changes' "$work/summary.md" || fail "no breaking section in the summary (en-US, and zh-CN under both its names)"
grep -q 'Memory of Chaos: Night of Falling Stars (until 2026-12-01T03:59:59)' "$work/summary.md" ||
  fail "the summary does not name the vanishing activity"
grep -q '| `api/v1/activity/sr-en-US.json` | changed :warning: |' "$work/summary.md" ||
  fail "no table row for the changed document"

# 2. The same review, told not to fail on breaking changes.
review false || fail "fail-on-breaking=false still failed"
grep -q 'status=3' "$work/output" || fail "status is not 3"

# 3. The version started with `version new`: the running activity carried, nothing breaks.
g checkout -q -f main
g checkout -q -b version-new
"$ACTIVITY_SITE_BIN" version new sr --root "$data" --now "$now" --version 4.7 \
  --name "4.7版本「群星归途」" --name "en-US=4.7: Homeward Among the Stars" \
  --start 2026-11-26T11:00:00 --end 2027-01-07T05:59:59 >"$work/log" 2>&1 ||
  fail "version new failed"
g commit -q -am "4.7 with version new"
review true || fail "a clean next version failed the review"
grep -q 'status=1' "$work/output" || fail "status is not 1: $(cat "$work/output")"
grep -q 'No breaking change.' "$work/summary.md" || fail "the summary does not say no breaking change"

# 4. The scheduled list: sr ends within 3 days on main, without a next version.
g checkout -q -f main
set +e
bash .github/actions/review/ending-soon.sh "$ACTIVITY_SITE_BIN" "$data" 3 "$now" >"$work/ending.md"
listed=$?
set -e
[ "$listed" -eq 1 ] || fail "ending-soon exit $listed, not 1"
grep -q '| `sr` | en-US | 4.6 | version (inferred) | 2026-11-26T05:59:59 | due today |' "$work/ending.md" || fail "sr not listed: $(cat "$work/ending.md")"
grep -q '`zzz`' "$work/ending.md" && fail "zzz has 28 days left and is listed"
# With the next version in place nothing is listed.
g checkout -q -f version-new
bash .github/actions/review/ending-soon.sh "$ACTIVITY_SITE_BIN" "$data" 3 "$now" >"$work/ending.md" ||
  fail "ending-soon listed games after version new: $(cat "$work/ending.md")"
echo "e2e-review: ok"
