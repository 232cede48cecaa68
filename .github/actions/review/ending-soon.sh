#!/usr/bin/env bash
# Games whose data is due within DAYS days and that have no update yet, as
# Markdown on stdout: the body of the one open issue the scheduled workflow
# keeps (.github/workflows/ending-soon.yml). When a game is due is `status`'s
# answer (one rule, by the game's updateMode): a `version` game when its
# version ends (a next version published early would start after now and end
# later, so the locale would not be `ending`), an `activity` game when its
# last activity ends. A mode games.json does not name is inferred, and the
# table says so.
#
# Usage: ending-soon.sh BINARY ROOT DAYS [NOW]
# Exit status: 0 none, 1 some games are listed, 2 the tool failed.
set -euo pipefail
bin="$1" root="$2" days="$3"
now=()
[ -n "${4:-}" ] && now=(--now "$4")
rows="$("$bin" status --root "$root" "${now[@]}" --format json)" || exit 2
listed="$(printf '%s' "$rows" | python3 -c '
import json, sys
days = int(sys.argv[1])
rows = json.load(sys.stdin)
soon = [r for r in rows if r.get("state") in ("ending", "ended") and r.get("daysLeft") is not None and r["daysLeft"] <= days]
for r in soon:
    mode = r.get("updateMode") or "-"
    if r.get("updateModeInferred"):
        mode += " (inferred)"
    print("| `%s` | %s | %s | %s | %s | %s | `%s` |" % (r["game"], r["locale"], r["version"], mode, r["dueTime"], r["daysLeft"], r["file"]))
' "$days")" || exit 2
if [ -z "$listed" ]; then
  echo "No game's data is due within $days days."
  exit 0
fi
echo "These games' data is due within $days days. A \`version\` game needs its next version: start it in every"
echo "locale with \`activity-site version new GAME --version V --name NAME --start T --end T\` (it carries the"
echo "activities that run past the new start). An \`activity\` game has no version cycle: add the activities"
echo "announced since its last one and drop the ended ones. Then open a pull request: its review names anything that would vanish."
echo
echo "| Game | Locale | Version | Update mode | Due | Days left | File |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "$listed"
exit 1
