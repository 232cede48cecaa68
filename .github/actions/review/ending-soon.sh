#!/usr/bin/env bash
# Games whose data is due within DAYS days and that have no update yet, as
# Markdown on stdout: the body of the one open issue the scheduled workflow
# keeps (.github/workflows/ending-soon.yml). When a game is due is `status`'s
# answer (one rule, by the game's updateMode): a `version` game when its
# version ends (a next version published early would start after now and end
# later, so the locale would not be `ending`), an `activity` game when its
# last activity ends. A mode games.json does not name is inferred, and the
# table says so. A game already past due says by how many days it is overdue.
#
# Usage: ending-soon.sh BINARY ROOT DAYS [NOW] [LANG]
#   LANG: en-US (default) or zh-CN, the language of every line.
# Exit status: 0 none, 1 some games are listed, 2 the tool failed.
set -euo pipefail
bin="$1" root="$2" days="$3" lang="${5:-en-US}"
now=()
[ -n "${4:-}" ] && now=(--now "$4")
case "$lang" in
  en-US | zh-CN) ;;
  *) echo "ending-soon.sh: LANG is en-US or zh-CN, not $lang" >&2; exit 2 ;;
esac
rows="$("$bin" --lang "$lang" status --root "$root" "${now[@]}" --format json)" || exit 2
listed="$(printf '%s' "$rows" | python3 -c '
import json, sys
days, lang = int(sys.argv[1]), sys.argv[2]
zh = lang == "zh-CN"
rows = json.load(sys.stdin)
soon = [r for r in rows if r.get("state") in ("ending", "ended") and r.get("daysLeft") is not None and r["daysLeft"] <= days]
for r in soon:
    mode = r.get("updateMode") or "-"
    if r.get("updateModeInferred"):
        mode += "（推断）" if zh else " (inferred)"
    left = r["daysLeft"]
    if left < 0:
        left = ("已逾期 %d 天" % -left) if zh else ("overdue by %d days" % -left if left < -1 else "overdue by 1 day")
    elif left == 0:
        left = "今天到期" if zh else "due today"
    else:
        left = ("还剩 %d 天" % left) if zh else ("%d days left" % left if left > 1 else "1 day left")
    print("| `%s` | %s | %s | %s | %s | %s | `%s` |" % (r["game"], r["locale"], r["version"], mode, r["dueTime"], left, r["file"]))
' "$days" "$lang")" || exit 2
if [ "$lang" = zh-CN ]; then
  if [ -z "$listed" ]; then
    echo "没有游戏的数据在 $days 天内到期。"
    exit 0
  fi
  echo "下列游戏的数据在 $days 天内到期（或已逾期）。\`version\` 游戏需要下一个版本：用"
  echo "\`activity-site version new GAME --version V --name NAME --start T --end T\` 在每个语言中开始新版本（会带上"
  echo "新版本开始后仍在进行的活动）。\`activity\` 游戏没有版本周期：加入上次以来公布的活动，删去已结束的。"
  echo "然后提交 pull request：它的审阅会列出任何将要消失的内容。"
  echo
  echo "| 游戏 | 语言 | 版本 | 更新方式 | 到期 | 剩余 | 文件 |"
else
  if [ -z "$listed" ]; then
    echo "No game's data is due within $days days."
    exit 0
  fi
  echo "These games' data is due within $days days (or overdue). A \`version\` game needs its next version: start it in every"
  echo "locale with \`activity-site version new GAME --version V --name NAME --start T --end T\` (it carries the"
  echo "activities that run past the new start). An \`activity\` game has no version cycle: add the activities"
  echo "announced since its last one and drop the ended ones. Then open a pull request: its review names anything that would vanish."
  echo
  echo "| Game | Locale | Version | Update mode | Due | Days left | File |"
fi
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "$listed"
exit 1
