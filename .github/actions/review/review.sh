#!/usr/bin/env bash
# The data review of the composite action (action.yml), also run by the
# project's own CI on a fixture repository (.ci/e2e-review.sh).
#
# Environment: REVIEW_BIN, REVIEW_ROOT, REVIEW_BASE (a revision; default
# origin/$REVIEW_BASE_REF, else HEAD~1), REVIEW_NOW, REVIEW_FAIL_ON_BREAKING,
# and GitHub's GITHUB_STEP_SUMMARY, GITHUB_OUTPUT (files; optional here).
# Exit status: 0 reviewed (changes or not), 1 data errors, or breaking
# changes with REVIEW_FAIL_ON_BREAKING=true, 2 the tool failed.
set -uo pipefail

bin="${REVIEW_BIN:-activity-site}"
root="${REVIEW_ROOT:-.}"
base="${REVIEW_BASE:-}"
if [ -z "$base" ]; then
  if [ -n "${REVIEW_BASE_REF:-}" ]; then
    base="origin/$REVIEW_BASE_REF"
    # A shallow checkout may lack the base branch: fetch its tip only.
    git -C "$root" rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
      git -C "$root" fetch --quiet --depth=1 origin "$REVIEW_BASE_REF:refs/remotes/origin/$REVIEW_BASE_REF"
  else
    base="HEAD~1"
  fi
fi
now=()
[ -n "${REVIEW_NOW:-}" ] && now=(--now "$REVIEW_NOW")
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/activity-site-review.md"

if ! "$bin" diff --help 2>/dev/null | grep -q -- --against-rev; then
  echo "::warning title=activity-site::$bin has no \`diff --against-rev\` (released before it): the review is skipped; use a newer binary"
  exit 0
fi

# The pull request is judged by what it changes: the problems it
# introduced since the base (the clock's findings are the scheduled
# ending-soon workflow's).
changed=()
if "$bin" check --help 2>/dev/null | grep -q -- --changed-since; then
  changed=(--changed-since "$base")
fi
echo "::group::check"
"$bin" check --root "$root" "${now[@]}" "${changed[@]}" --format github
check=$?
echo "::endgroup::"
if [ "$check" -ge 2 ]; then
  echo "::error title=activity-site::check failed to run (exit $check)"
  exit 2
fi

# Annotations first (workflow commands on stdout), then the Markdown review.
"$bin" diff --root "$root" --against-rev "$base" "${now[@]}" --format github
"$bin" diff --root "$root" --against-rev "$base" "${now[@]}" --format markdown >"$out"
status=$?
if [ "$status" -eq 2 ]; then
  echo "::error title=activity-site::diff against $base failed (exit 2)"
  exit 2
fi
{
  if [ "$check" -ne 0 ]; then
    echo "> [!CAUTION]"
    echo "> \`activity-site check --changed-since $base\` found errors this change introduced: see the annotations of this run."
    echo
  fi
  cat "$out"
} >>"$summary"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "status=$status" >>"$GITHUB_OUTPUT"
  echo "summary=$out" >>"$GITHUB_OUTPUT"
fi
echo "review: check exit $check, diff against $base exit $status (0 none, 1 changes, 3 breaking)"
if [ "$check" -ne 0 ]; then
  exit 1
fi
if [ "$status" -eq 3 ] && [ "${REVIEW_FAIL_ON_BREAKING:-true}" = "true" ]; then
  echo "::error title=activity-site::this change breaks clients of the published API; see the job summary"
  exit 1
fi
exit 0
