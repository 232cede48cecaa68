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
# Rows: overdue first (due before now: `daysLeft` below 0), then due soon.
listed="$(printf '%s' "$rows" | python3 -c '
import json, sys
days = int(sys.argv[1])
rows = json.load(sys.stdin)
soon = [r for r in rows if r.get("state") in ("ending", "ended") and r.get("daysLeft") is not None and r["daysLeft"] <= days]
soon.sort(key=lambda r: (r["daysLeft"], r["game"], r["locale"]))
for r in soon:
    mode = r.get("updateMode") or "-"
    if r.get("updateModeInferred"):
        mode += " (inferred / 推断)"
    left = r["daysLeft"]
    when = "**%d days overdue / 已逾期 %d 天**" % (-left, -left) if left < 0 else "%d days left / 还剩 %d 天" % (left, left)
    print("| `%s` | %s | %s | %s | %s | %s | `%s` |" % (r["game"], r["locale"], r["version"], mode, r["dueTime"], when, r["file"]))
' "$days")" || exit 2
if [ -z "$listed" ]; then
  echo "No game's data is due within $days days."
  echo
  echo "没有游戏的数据在 $days 天内到期。"
  exit 0
fi
overdue="$(printf '%s\n' "$listed" | grep -c 'overdue' || true)"
games="$(printf '%s\n' "$listed" | grep 'overdue' | cut -d'`' -f2 | sort -u | paste -sd ' ' - || true)"
if [ "$overdue" -gt 0 ]; then
  echo "**Overdue:** $overdue document(s) ($games) are past the time their data was due: the published API still serves them as they were."
  echo
  echo "**已逾期：** $overdue 个文档（$games）已过数据应更新的时间：公开的 API 仍按原样提供它们。"
  echo
fi
echo "These games' data is due within $days days (or is overdue). What to do: a \`version\` game needs its next"
echo "version: start it in every locale with \`activity-site version new GAME --version V --name NAME --start T --end T\`"
echo "(it carries every activity that runs now or after the new start, and names what it leaves behind). An"
echo "\`activity\` game has no version cycle: add the activities announced since its last one and drop the ended"
echo "ones. Then open a pull request: its review (\`check --changed-since\`, \`diff\`) judges only what it changes."
echo
echo "以下游戏的数据将在 $days 天内到期（或已逾期）。怎么做：\`version\` 模式的游戏需要下一个版本：用"
echo "\`activity-site version new GAME --version V --name NAME --start T --end T\` 在所有语言中开始新版本（它会沿用"
echo "正在进行或在新版本开始后仍进行的每个活动，并列出未沿用的活动）。\`activity\` 模式的游戏没有版本周期：补上上次"
echo "之后公布的活动，删掉已结束的活动。然后提交 pull request：它的审查（\`check --changed-since\`、\`diff\`）只看这次改动。"
echo
echo "| Game 游戏 | Locale 语言 | Version 版本 | Update mode 更新方式 | Due 到期 | Days 天数 | File 文件 |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "$listed"
exit 1
