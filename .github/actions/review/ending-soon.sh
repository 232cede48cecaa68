#!/usr/bin/env bash
# Games whose current version ends within DAYS days and that have no next
# version yet (a next version published early would start after now and end
# later, so the locale would not be `ending`), as Markdown on stdout: the
# body of the one open issue the scheduled workflow keeps (.github/workflows/ending-soon.yml).
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
    print("| `%s` | %s | %s | %s | %s | `%s` |" % (r["game"], r["locale"], r["version"], r["endTime"], r["daysLeft"], r["file"]))
' "$days")" || exit 2
if [ -z "$listed" ]; then
  echo "No game ends within $days days without a next version."
  exit 0
fi
echo "These games end within $days days and have no next version yet. Start it in every locale with"
echo "\`activity-site version new GAME --version V --name NAME --start T --end T\` (it carries the"
echo "activities that run past the new start), then open a pull request: its review names anything that would vanish."
echo
echo "| Game | Locale | Version | Ends | Days left | File |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "$listed"
exit 1
