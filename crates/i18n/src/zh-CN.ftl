# activity-site 的简体中文消息。
#
# 每条消息都与 en-US.ftl 中的同名消息一一对应，参数相同（tests/i18n.rs 检查）。
# 规则代码、JSON 键名、文件路径和引用自数据的值都是参数，原样显示，不翻译。
#
# 书写约定：中文句子使用全角标点（，。：；“”（）），代码、键名、数值两侧
# 使用半角符号；中文与行内代码、英文单词、数字之间留一个半角空格，
# 与全角标点之间不留空格；汉字之间不加空格。

## 诊断的显示

label-error = 错误
label-warning = 警告
label-help = 提示
help-line = 提示：{ $text }
label-note = 注
note-line = 注：{ $text }
summary = { $errors } 个错误，{ $warnings } 个警告
checked-clean = 检查完毕：没有发现问题
checked-summary = 检查完毕：{ $errors } 个错误，{ $warnings } 个警告
list-semicolon = ；
list-cause = ：
list-comma = 、
did-you-mean = 是不是想写 `{ $name }`？
plain = { $text }
lines = { $first }
    { $second }

## 读取文件（json-syntax、games-registry）

load-registry-missing = 缺少 games.json
load-registry-missing-help = 请在根目录创建 games.json：{"{"}"games": [...]{"}"}
load-read-failed = 无法读取文件：{ $error }
load-invalid-utf8 = 第 { $byte } 字节处不是有效的 UTF-8 编码
load-invalid-utf8-help = 请将文件另存为 UTF-8 编码

## json-syntax：解析器期待的内容

expected-value = 一个值
expected-key = 用双引号括起的键名
expected-colon = 键名后的 `:`
expected-digit = 数字
expected-digit-fraction = 小数点后的数字
expected-digit-exponent = 指数部分的数字
expected-comma-or-brace = 逗号 `,` 或右花括号 `{"}"}`
expected-comma-or-bracket = 逗号 `,` 或右方括号 `]`

## json-syntax：输入法代替 JSON 标点打出的字符

char-full-width-comma = 全角逗号
char-full-width-colon = 全角冒号
char-left-double-quote = 中文左双引号
char-right-double-quote = 中文右双引号
char-left-single-quote = 中文左单引号
char-right-single-quote = 中文右单引号
char-full-width-quote = 全角双引号
char-full-width-left-brace = 全角左花括号
char-full-width-right-brace = 全角右花括号
char-full-width-left-bracket = 全角左方括号
char-full-width-right-bracket = 全角右方括号
char-ideographic-space = 全角空格
char-quotation-mark = 引号
char-tab = 制表符（Tab）
char-control = 控制字符 U+{ $code }
ascii-char = 半角的 `{ $char }`
ascii-space = 半角空格
## json-syntax：错误

syntax-empty = 文件是空的
syntax-bom = 文件开头有字节顺序标记（U+FEFF，记事本保存 UTF-8 时会加上）；其后的内容照常检查
syntax-bom-help = 删除它（`activity-site check --fix` 会删除），或将文件另存为不带 BOM 的 UTF-8 编码
syntax-after-end = 文档结束后还有多余的内容
syntax-after-end-help = 文档最外层的值在第 { $line } 行已经结束；请删除其后的内容，或检查是否有括号过早闭合
syntax-eof-expected = 文件意外结束：此处应为{ $expected }
syntax-expected-found = 此处应为{ $expected }，却是 { $found }
syntax-still-open-help = 第 { $line } 行的 `{ $open }` 到这里还没有闭合；是不是少了 `{ $close }`？
syntax-lookalike = 字符串外出现了{ $name } `{ $char }`（U+{ $code }），它不是 JSON 标点
syntax-lookalike-space = 字符串外出现了{ $name }（U+{ $code }），它不是 JSON 标点
syntax-lookalike-help = 请改为输入{ $instead }（这是中文输入法在中文标点状态下打出的字符）
syntax-comment = JSON 不支持注释
syntax-comment-help = 请删除注释；需要告诉玩家的说明请写在 `description` 中
syntax-comment-unclosed-help = 请删除注释；这条注释没有用 `*/` 结束
syntax-single-quotes = JSON 字符串要用双引号，不能用单引号
syntax-single-quotes-help = 把两个单引号都换成 `"`
syntax-not-a-number = `{ $word }` 不是 JSON 数字
syntax-not-a-number-help = JSON 数字必须是有限值：请写 `null`，或写成字符串
syntax-plus = JSON 数字不能以 `+` 开头
syntax-plus-help = 删除 `+`
syntax-never-closed = 文件意外结束：第 { $line } 行的 `{ $open }` 没有闭合
syntax-never-closed-help = 添加 `{ $close }`，闭合第 { $line } 行的 `{ $open }`
syntax-missing-comma = 这个值后面缺少 `,`
syntax-missing-comma-help = 在这里添加 `,`：{ $container ->
    [object] 对象的成员
   *[array] 数组的元素
}之间要用逗号分隔
syntax-trailing-comma = { $container ->
    [object] 对象
   *[array] 数组
}末尾多了一个逗号
syntax-trailing-comma-help = 删除这个逗号：JSON 不允许在最后一项后面加逗号
syntax-too-deep = 数组和对象的嵌套超过了 { $max } 层
syntax-bare-key = 对象的键名要用双引号括起来
syntax-bare-key-help = 写成 `"{ $word }"`
syntax-leading-zero = JSON 数字不能有前导 0
syntax-leading-zero-help = 把 `{ $digits }` 写成 `{ $trimmed }`
syntax-number-range = 数字超出范围
syntax-invalid-escape = 无效的转义 `{ $escape }`
syntax-invalid-escape-help = 可用的转义有 `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` 和 `\uXXXX`；反斜杠本身要写成 `\\`
syntax-unicode-escape = 无效的 Unicode 转义：`\u` 后面要跟四位十六进制数字
syntax-lone-surrogate = 无效的 Unicode 转义：单独的代理项不是字符
syntax-unterminated = 这个字符串没有结束
syntax-unterminated-help = 添加结尾的 `"`
syntax-open-at-line-end = 这个字符串在行尾之前没有结束
syntax-open-at-line-end-help = 添加结尾的 `"`；JSON 字符串中不能直接换行（换行请写 `\n`）
syntax-open-at-line-end-comma-help = 在 `{ $comma }` 前添加结尾的 `"`；JSON 字符串中不能直接换行（换行请写 `\n`）
syntax-typographic-close = 字符串以{ $name } `{ $char }`（U+{ $code }）结尾，JSON 不把它当作引号
syntax-more-errors = 文件中此后还有 { $count } 个语法错误没有显示；请先修正这些，再重新检查
syntax-typographic-end-help = 字符串的结尾是{ $name } `{ $char }`（U+{ $code }）；请改为输入半角的 `"`
syntax-control-in-string = 字符串中不能直接出现{ $what }，必须转义
syntax-control-in-string-help = 写成 `{ $escape }`，或者删除它

## duplicate-key

duplicate-key = 键 `{ $key }` 在这个对象中出现了两次（第一次在第 { $line } 行）
duplicate-key-help = 两个只保留一个：第 { $line } 行第 { $column } 列的那个，或者这一个；重写文件时只会留下后一个值

## schema

schema-unknown-field = 未知字段 `{ $key }`
schema-known-fields = 可用的字段：{ $fields }
schema-missing-field = 缺少字段 `{ $name }`
schema-activity-missing-field = 活动 `{ $activity }` 缺少 `{ $name }`
schema-quote-number-help = { $whole ->
    [yes] 文档是文本：请加上引号，写成 `"{ $raw }"`
   *[no] `{ $field }` 是文本：请加上引号，写成 `"{ $raw }"`
}
add-description = 请为它添加 `"description": ""`（用一句话说明这是什么活动，也可以留空）
add-name = 请添加 `"name": "..."`，填写公告中的名称
add-time = 请添加 `"{ $name }": "YYYY-MM-DDTHH:MM:SS"`，按游戏服务器时间填写
add-activities = 请添加 `"activities": []`，并在其中填写这个版本的活动
add-field = 请添加 `"{ $name }"`
schema-misspelt-present = 这里有 `{ $present }`：是不是想写 `{ $name }`？
schema-empty = `{ $field }` 不能为空
schema-wrong-type = { $whole ->
    [yes] 文档的类型不对
   *[no] `{ $field }` 的类型不对
}：{ $value } 不是 { $count ->
    [1] { $expected } 类型
   *[other] { $expected } 中的任何一种类型
}（实际是{ $found }）
schema-other = { $detail }
kind-null = null
kind-boolean = 布尔值
kind-number = 数字
kind-integer = 整数
kind-string = 字符串
kind-array = 数组
kind-object = 对象

## datetime

datetime-fraction = `{ $text }` 带有秒的小数部分
datetime-fraction-help = 去掉小数部分：`{ $prefix }`
datetime-offset = `{ $text }` 带有时区或时差（`{ $rest }`）
datetime-offset-help = 时间按游戏服务器所在时区填写，不带时差：`{ $prefix }`
datetime-no-time = `{ $text }` 缺少时刻
datetime-no-time-help = 请按 YYYY-MM-DDTHH:MM:SS 填写服务器当地时间，例如 `{ $text }T04:00:00`
datetime-space = `{ $text }` 的日期和时刻之间用了空格
datetime-space-help = 请用 `T` 分隔：`{ $fixed }`
datetime-shape = `{ $text }` 不是 YYYY-MM-DDTHH:MM:SS 格式的日期时间
datetime-form-help = 请按 YYYY-MM-DDTHH:MM:SS 填写服务器当地时间
datetime-fullwidth-colon = `{ $text }` 里有输入法打出的全角冒号 `：`（U+FF1A）
datetime-fullwidth-colon-help = 请改用半角冒号 `:`：`{ $fixed }`
datetime-slashes = `{ $text }` 的日期用了斜杠
datetime-slashes-help = 请写成 `{ $fixed }`（YYYY-MM-DDTHH:MM:SS，服务器当地时间）
datetime-rewrite-help = 请写成 `{ $fixed }`
datetime-input-method = `{ $text }` 里有输入法打出的全角字符或中文时间词
datetime-no-year = `{ $text }` 没有写年份
datetime-year-from-version = 年份 { $year } 取自版本（版本从 { $start } 到 { $end }）
datetime-year-from-other = 取年份 { $year }，使它{ $relation ->
    [before] 早于
   *[after] 晚于
}版本的 { $field }（{ $time }）
datetime-month = `{ $text }` 的月份 { $month } 不存在
datetime-month-help = 月份从 01 到 12
datetime-day = `{ $text }` 不是真实存在的日期：{ $year } 年 { $month } 月只有 { $last } 天
datetime-day-help = 请检查日期中的“日”
datetime-hour-24 = `{ $text }` 用了 24 时
datetime-hour-24-help = 当天结束请写 `{ $date }T23:59:59`，次日开始请写 `{ $next }T00:00:00`
datetime-time = `{ $text }` 不是真实存在的时刻
datetime-time-help = 小时从 00 到 23，分钟和秒从 00 到 59
datetime-invalid = `{ $text }` 不是有效的日期时间

## time-order、stale、outside-version、end-of-minute、unsorted、duplicate-activity

time-order-version = 版本的结束时间（{ $end }）早于开始时间（{ $start }）
time-order-activity = 活动的结束时间（{ $end }）早于开始时间（{ $start }）
time-order-help = endTime 必须晚于 startTime
stale = 这个版本已于 { $date } 结束（{ $days ->
    [0] 不到一天前
   *[other] { $days } 天前
}）
stale-help = 请把文档更新到当前版本
stale-activity = 最后一个活动已于 { $date } 结束（{ $days ->
    [0] 不到一天前
   *[other] { $days } 天前
}）
stale-activity-help = 这个游戏没有版本周期（updateMode 为 `activity`）：请补上之后公布的活动，并删去已经结束的活动
update-mode-inferred = games.json 没有给这个游戏写 updateMode：根据版本号 `{ $version }` 的形式按 `{ $mode }` 处理（以点分隔的数字表示按版本更新）；请写明 "updateMode"
upcoming-version = 这个版本将于 { $date } 开始（{ $days ->
    [0] 不到一天后
   *[other] { $days } 天后
}），晚于现在
upcoming-version-help = 在它开始之前，客户端会把这个版本当作当前版本：上个版本中不在这个文件里的活动会消失，这个文件中的活动会显示为尚未开始；请把在新版本开始之后才结束的每个活动都搬进这个文件的每种语言版本中（`activity-site version new` 可以完成这一步），或者等版本开始时再发布这个文件
outside-version-before = 活动在版本开始（{ $start }）之前就已结束（{ $end }）
outside-version-before-help = 请删除这个活动，或检查日期
outside-version-after = 活动在版本结束（{ $end }）之后才开始（{ $start }）
outside-version-after-help = 它属于下一个版本的文档
end-of-minute = 活动的结束时间以 :{ $seconds } 秒结尾
end-of-minute-help = 数据来源中的活动都以 :59 秒结尾：是不是想写 `{ $suggested }`？（如果来源有意这样写，请在 games.json 的 `conventions.endSeconds` 中声明一次。）
unsorted = 活动的开始时间（{ $start }）早于上一个活动（{ $previous }）
unsorted-help = 运行 `activity-site fmt` 按 startTime 排序活动
duplicate-activity = 开始于 { $start } 的 `{ $name }` 出现了两次（另一处是 activities[{ $first }]）
duplicate-activity-help = 请删除其中一个，或更正它的名称或开始时间
duplicate-id = id `{ $id }` 已经是 activities[{ $first }] 的 id
duplicate-id-help = 一个 id 只指一个活动：请从不是它所指的那个活动中删除这个 `id`，`activity-site check --fix` 会给它分配自己的 id
missing-id = 活动 `{ $name }` 没有 `id`
missing-id-help-fresh = `activity-site check --fix` 会给它分配新的 id `{ $id }`
missing-id-help-choose = { $count ->
    [one] 另一语言中有一个活动可能就是它，但没有证据能确定：若是同一活动，请给它那个 id（编辑器会把它作为快速修复提供）
   *[other] 其他语言中有 { $count } 个活动可能就是它，但没有证据能确定：请给它与它是同一活动的那个的 id（编辑器会把每个都作为快速修复提供）
}
missing-id-help-times = 请先填写活动的 startTime 和 endTime：它的 id 要按时间配对
missing-id-candidate = `{ $id }`：{ $path } 中的 `{ $name }`

## cover-url、whitespace

cover-http = 封面 `{ $url }` 使用的是不加密的 http
cover-http-help = 如果服务器支持，请改用 `https://{ $rest }`
cover-invalid = 封面 `{ $url }` 不是以 http(s) 开头的绝对 URL
cover-invalid-help = 请使用以 https:// 开头的绝对 URL；没有封面时写空字符串
whitespace-trim = `{ $field }` 的开头或结尾有空白字符
invisible = { $keyed ->
    [yes] `{ $field }` 中
   *[no] 值中
}第 { $column } 列有{ $class } U+{ $code }
class-zero-width = 零宽字符
class-bidi = 双向文本控制字符
class-control = 控制字符
class-format = 不可见的格式字符
invisible-escaped-help = 请删除第 { $line } 行第 { $column } 列的转义；如果想要空格，请直接输入半角空格
invisible-help = 多数编辑器不显示这个字符：请删除第 { $line } 行第 { $column } 列的字符（把光标放在它后面，按一次退格键），或者重新输入这段文字

## games-registry、missing-file、pending-locale、orphan-file

registry-bad-id = `{ $id }` 不是有效的游戏 ID
registry-bad-id-help = ID 由小写字母和数字组成，单词之间用 `-` 连接，例如 `{ $suggestion }`
registry-duplicate-id = 游戏 ID `{ $id }` 出现了两次（另一处是 games[{ $first }]）
registry-duplicate-id-help = 每个游戏只能出现一次；请合并这两项
registry-bad-locale = `{ $locale }` 不是 BCP 47 语言标记
registry-bad-locale-help = 请使用 `zh-CN`、`en-US` 这样的标记
registry-duplicate-locale = 语言 `{ $locale }` 出现了两次
registry-default-locale = 默认语言 `{ $default }` 不在这个游戏的语言列表中
registry-default-locale-help = 请使用其中之一：{ $locales }
registry-no-source = 这个游戏没有写数据来源：需要 "dataSources"（按语言列出的分类来源）或 "dataSource"（一个页面地址）
registry-no-source-help = 请添加 "dataSources": {"{"} "all": [{"{"} "type": "html", "url": "https://..." {"}"}] {"}"}，或 "dataSource": "https://..."
conventions-unknown-code = `{ $code }` 不是规则代码
conventions-not-ignorable = 规则 `{ $code }` 不能关闭：它报告的是错误，会阻止构建
conventions-ignorable-help = 游戏可以关闭的警告规则有：{ $codes }
registry-time-zone = `{ $zone }` 不是 IANA 时区
registry-time-zone-help = 请使用 `Asia/Shanghai`、`America/New_York` 这样的时区名
registry-zone-assumed = `{ $game }` 的时区 { $zone } 是导入时假定的，尚未确认：它数据中的每个时间都按这个时区解读
registry-zone-assumed-help = 请核对游戏的服务器时间；如果 { $zone } 正确，请删除 "timeZoneAssumed"，否则请把 "timeZone" 改成正确的时区，再删除它
registry-alias-path = `{ $path }` 不能作为别名：别名必须是 api/v1/ 下以 .json 结尾、且不是构建自己生成的路径
registry-alias-path-help = 请使用 api/v1/activities.json 这样的路径（不在 api/v1/activity/ 下，也不是索引、schema 或公告）
registry-alias-twice = `{ $path }` 已在 { $first } 声明为别名
registry-alias-locale = `{ $locale }` 不是这个游戏的语言
source-locale = `{ $key }` 既不是这个游戏的语言，也不是 `all`
source-locale-help = 请使用其中之一：{ $locales }，或者 `all`
source-type = `{ $kind }` 不是数据来源的类型
source-type-help = 请使用 `html`、`script` 或 `pageData`
source-url = 来源 URL `{ $url }` 不是以 http(s) 开头的绝对 URL
source-url-help = 请写出完整地址，例如 `https://example.org/news`
source-needs-url = `{ $kind }` 类型的来源需要 `url`
source-needs-url-help = 请添加 `"url": "https://..."`，填写要读取的页面
source-needs-script = `script` 类型的来源需要 `script`
source-needs-script-help = 请添加 `"script": "scripts/fetch-....mjs"`，即脚本在仓库中的路径
source-repository = `repository` 是 `{ $url }`，不是绝对的 http(s) 网址
source-repository-not-script = `repository` 只属于 `script` 来源，不属于 `{ $kind }` 来源
source-repository-help = 脚本不在本仓库时，`repository` 写存放 `script` 来源脚本的仓库的 http(s) 网址，例如 `https://github.com/owner/name`：status 会给出脚本的链接
source-article-url = 文章 URL 模板 `{ $template }` 不是以 http(s) 开头的绝对 URL
source-article-url-help = 请写出带占位符的完整地址，例如 `https://example.org/news/{"{"}id{"}"}`
source-article-placeholder = 文章 URL 模板 `{ $template }` 没有 `{"{"}field{"}"}` 占位符
source-article-placeholder-help = 请写明由条目的哪个字段补全 URL，例如 `https://example.org/news/{"{"}id{"}"}`
kept-unpublishable = `{ $path }` 无法发布到 `{ $published }`：{ $problem }
kept-unpublishable-help = 请用文件本身替换这个链接，或者把文件移出 data/_files/
kept-link-outside = 它是链接，指向 { $folder } 之外的 `{ $target }`
kept-link-folder = 它是指向文件夹的链接，工具不跟随这类链接
kept-link-unresolved = 它是无法解析的链接（{ $error }）
kept-not-regular = 它不是普通文件
kept-clash = `{ $kept }` 会取代生成的 `{ $generated }`；原样发布的文件从不覆盖生成的文件
    提示：请删除或重命名 `{ $kept }`（`{ $generated }` 由生成过程自己写出）
missing-file = `{ $path }` 不存在
missing-file-help = 请创建 `{ $path }`，或从这个游戏的语言列表中删除 `{ $locale }`
pending-locale = 已列出 `{ $locale }`，但 `{ $path }` 还不存在：不会发布 { $locale } 的文件，索引把它列为待补
pending-locale-help = { $locale } 的资料公开后请创建 `{ $path }`（可从默认语言的文件复制），或从这个游戏的语言列表中删除 `{ $locale }`
orphan-locale = `{ $path }` 不属于 games.json 中 `{ $game }` 的任何语言
orphan-locale-help = 请把 `{ $locale }` 加入 `{ $game }` 的语言列表，或删除这个文件
orphan-game = `{ $path }` 属于 `{ $game }`，但 games.json 中没有这个游戏
orphan-game-help = 请把 `{ $game }` 加入 games.json，或删除这个文件
orphan-elsewhere = `{ $path }` 不在数据文件应在的位置
orphan-elsewhere-help = 数据文件应放在 data/<game>/<locale>.json

## locale-parity

parity-version = 版本与 { $path } 不一致
parity-behind = 版本比 { $path } 的旧：这份文件落后了
parity-times = 活动时间与 { $path } 不一致
parity-missing = 缺少 { $path } 中的 { $count } 个活动
parity-missing-help = 请在这里以相同的时间添加这 { $count } 个活动（用本文件的语言书写），或从 { $path } 中删除它们；同一游戏的各语言文件描述的应是同一批活动
parity-help = 同一游戏的各语言文件描述的应是同一版本、同一批活动，时间也相同；请同时更新两边
parity-field = `{ $field }` 这里是 `{ $here }`，那边是 `{ $there }`
parity-note-missing = 这里缺少：`{ $name }`（{ $start } 至 { $end }）
parity-note-extra = 只有这里有：`{ $name }`（{ $start } 至 { $end }）
parity-window = `{ $name }`（{ $start } 至 { $end }）
parity-more = 另有 { $count } 个
## status

status-game = 游戏
status-locale = 语言
status-version = 版本
status-mode = 更新方式
status-mode-inferred = { $mode }（推断）
status-due = 需更新时间
status-left-header = 剩余
status-state-header = 状态
status-left = { $days ->
    [0] 不到一天
   *[other] 还剩 { $days } 天
}
status-overdue = { $days ->
    [0] 超期不到一天
   *[other] 已超期 { $days } 天
}
status-starts-in = { $days ->
    [0] 不到一天后开始
   *[other] { $days } 天后开始
}
status-missing = 缺失：{ $file }
status-pending = 待补：{ $file }（尚无文档）
status-invalid = 有错误：请运行 `activity-site check`（{ $file }）
status-state = { $state ->
    [ok] 正常
    [ending] 即将结束
    [ended] 已结束
   *[other] { $state }
}
note-placeholder = 注意：games.json 中的 `{ $game }` 仍是 `import` 写入的占位 `dataSource`（可能还有 `name`）；请换成真实的值
note-zone-assumed = 注意：games.json 中 `{ $game }` 的时区 { $zone } 是 `import` 假定的，它的时间都按这个时区解读；确认无误后请删除 "timeZoneAssumed"（或改成正确的 "timeZone"）

## build

build-done = 已生成 { $out }：{ $files } 个文件，共 { $size }，用时 { $elapsed }（{ $parts } 个部分中有 { $reused } 个来自缓存；{ $games } 个游戏中检查了 { $checked } 个，其余自上次无问题的检查后未变）
build-failed = 生成失败：{ $errors } 个错误；`{ $out }` 保持原样
build-progress-games = 个游戏
build-force = 警告：--force：生成成功后将替换不是 activity-site 生成的 `{ $out }`，并把其中的 { $files } 个文件移到旁边的 `{ $out }.replaced-<日期和时间>`（不删除任何文件）：{ $first }{ $more ->
    [0] {""}
   *[other] ，另有 { $more } 个
}
build-set-aside = 已把 `{ $out }` 原有的内容移到 `{ $place }`；没有删除任何文件

## fmt

fmt-would-reformat = 需要整理格式：{ $path }（{ $why }）
fmt-reformatted = 已整理格式：{ $path }（{ $why }）
fmt-left-broken = fmt：{ $files } 个有错误的文件未作改动
fmt-summary = fmt：{ $check ->
    [yes] 需要整理 { $changed } 个文件
   *[no] 已整理 { $changed } 个文件
}，{ $canonical } 个文件格式已经规范
fix-left = 未修改 { $path }：其中另有错误没有确切的修正方法，应用其余修正也得不到有效的 JSON

## 所有数据命令的拒绝理由

no-registry = { $root } 中没有 { $registry }：这不是数据文件夹；请在数据仓库中运行，或用 --root DIR 指定

## 语言服务器（activity-site lsp）

lsp-not-formatted = 没有整理格式：文件中有 { $errors } 个错误，修正之后才能确定它的规范格式
lsp-fix-remove = 删除 { $old }
lsp-fix-replace = 把 { $old } 替换为 { $new }
hover-time = **{ $weekday }** { $time }（{ $zone }）

    { $when }

    UTC：`{ $utc }`
hover-weekday = { $day ->
    [1] 星期一
    [2] 星期二
    [3] 星期三
    [4] 星期四
    [5] 星期五
    [6] 星期六
   *[7] 星期日
}
hover-utc-ambiguous = { $first } 或 { $second }（时钟回拨）
hover-utc-none = 无：时钟跳过了这个当地时间
hover-now = 现在
hover-future = { $days ->
    [0] 不到一天后
   *[other] { $days } 天后
}
hover-past = { $days ->
    [0] 不到一天前
   *[other] { $days } 天前
}

## 给 AI 代理的数据工具（activity-site mcp）

agent-registry-unreadable = 无法读取 games.json：{ $error }
agent-registry-unparsed = games.json 无法解析（{ $error }）；请先修正它（`activity-site check`）
agent-no-game = games.json 中没有游戏 `{ $game }`（已有的游戏：{ $games }）
agent-no-locale = games.json 中 `{ $game }` 没有语言 `{ $locale }`（已有的语言：{ $locales }）
agent-unsafe-path = 拒绝处理 `{ $path }`：游戏 ID 或语言中含有字母、数字和 `-` 以外的字符
agent-cannot-check = 无法检查：{ $error }
agent-not-yet = `{ $path }` 还不存在；{ $tool } 会创建它
agent-refused-errors = 没有写入：草稿中有 { $errors } 个错误（见 `diagnostics`）
agent-refused-unparsed = 没有写入：`{ $path }` 的草稿无法解析
agent-not-written = 没有写入：{ $error }
agent-cannot-write = 无法写入 `{ $path }`：{ $error }
agent-cannot-resolve = 无法确定 `{ $path }` 的实际路径：{ $error }
agent-outside-data = 拒绝写入 `{ $path }`：它实际指向 data/ 之外
agent-not-a-locale = `{ $locale }` 不是语言标签（应如 `zh-CN` 或 `en-US`）
agent-path-mismatch = `path` 是 `{ $path }`，但给出的游戏和语言对应的是 `{ $expected }`；请原样传回读取工具的回答
agent-written = 已写入
agent-registry-no-games = games.json 中没有 `games` 列表；请先修正它（`activity-site check`）
agent-game-no-id = 游戏缺少 `id`：请按 games.json 中的写法给出条目，包括 `id`、`name`、`locales`、`defaultLocale` 和 `dataSource`
agent-game-exists = games.json 中已有游戏 `{ $game }`；添加语言请用 add_locale，修改数据请用 write_document
agent-locale-exists = games.json 中 `{ $game }` 已有语言 `{ $locale }`
agent-document-not-listed = 给出了 `{ $locale }` 的文档，但 `{ $game }` 的 `locales` 中没有这个语言

## 工具本身的错误：读写文件

err-read = 无法读取 `{ $path }`
err-read-root = 无法读取根目录 `{ $path }`
err-root-not-dir = 根目录 `{ $path }` 不是文件夹
err-list = 无法列出 `{ $path }` 中的文件
err-not-json = `{ $path }` 不是有效的 JSON
err-write = 无法写入 `{ $path }`
err-create = 无法创建 `{ $path }`
err-replace = 无法替换 `{ $path }`
out-no-place = 无法构建到 `{ $out }`：输出必须是位于另一个文件夹中、有名字的文件夹
    提示：请指定一个单独的文件夹，例如 `site`
build-cards-spool = 无法把首页卡片保存在输出旁的临时文件中
    提示：请检查输出所在的磁盘是否还有空间，然后重新构建
err-bad-path = 路径 `{ $path }` 无效
err-bad-output-path = 输出路径 `{ $path }` 无效
err-read-out = 无法读取 `--out { $out }`
err-set-aside = 新网站已在 `{ $out }` 中，但其原有内容（现在位于 `{ $held }`）无法移到 `{ $place }`；没有删除任何文件
out-refused-home = 拒绝使用 `--out { $out }`：它是你的主目录，而生成会整个替换输出文件夹；`--force` 也不例外
    提示：请选择一个新的或空的文件夹
out-refused-system-root = 拒绝使用 `--out { $out }`：它是文件系统的根目录，而生成会整个替换输出文件夹；`--force` 也不例外
    提示：请选择一个新的或空的文件夹
out-refused-root = 拒绝使用 `--out { $out }`：{ $contains ->
    [yes] 它包含数据根目录
   *[no] 它就是数据根目录
}，而生成时会整个替换输出文件夹
    提示：请另选一个专用的文件夹，例如 `{ $suggestion }`
out-refused-input = 拒绝使用 `--out { $out }`：它位于数据根目录中存放输入文件的 `{ $input }` 里
    提示：请另选一个专用的文件夹，例如 `{ $suggestion }`
out-refused-file = 拒绝使用 `--out { $out }`：它已存在，而且不是文件夹
    提示：请选择一个新的或空的文件夹
out-refused-tree = 拒绝使用 `--out { $out }`：其中有 `{ $held }`，说明它是数据目录或代码仓库，而不是生成的网站
    提示：请选择一个新的或空的文件夹，例如 `{ $suggestion }`
out-refused-foreign = 拒绝使用 `--out { $out }`：其中有 { $files } 个文件，而且不是 activity-site 生成的（没有 `{ $marker }`）；生成时会替换其中的全部内容
    提示：请选择一个新的或空的文件夹，或者加上 `--force` 替换它（原有内容会移到旁边的 `{ $out }.replaced-<日期和时间>`，不会删除）
cache-inside-output = 拒绝把构建缓存 `{ $cache }` 放在输出文件夹 `{ $out }` 中：每次生成都会替换输出文件夹
    提示：请用 --cache-dir 指定输出文件夹以外的位置
schema-invalid = { $path } 不是有效的 JSON Schema：{ $error }

## 工具本身的错误

tool-error = 错误：{ $error }

## 审查中的破坏性变更（activity-site diff、数据工具）

breaking-file-removed = { $path } 在基准中已经发布，这次构建却没有它：它的客户端会得到 404 not found。
breaking-file-removed-help = 请继续发布这个文件（停止运营的游戏也保留最后一份文档），或者在原样发布的文件夹 data/_files/ 中放一份副本
breaking-field-removed = 已发布的字段 { $field } 在基准中存在，这次构建在它所在的位置上却没有任何对象带有它：读取它的客户端会出错。
breaking-field-removed-help = 请在它的替代字段旁边继续发布 { $field }；客户端读取的字段只能随新的 API 版本移除
breaking-field-retyped = 已发布的字段 { $field } 的 JSON 类型从 { $old } 变成了 { $new }：读取它的客户端会出错。
breaking-field-retyped-help = 请保持 { $field } 原来的类型发布，把新值放在一个新名字下
breaking-version-backwards = 版本倒退了，从 { $old } 变成 { $new }：只保留所见最新版本的客户端会忽略这份文档。
breaking-version-backwards-help = 请发布当前版本的文档；旧版本只能在它仍是当前版本时原地更正
breaking-until = { $name }（至 { $end }）
breaking-upcoming = 版本 { $new } 将于 { $date } 开始（{ $days ->
    [0] 不到一天后
   *[other] { $days } 天后
}），晚于现在，并取代仍在进行的版本 { $old }：在此之前，客户端显示的 { $new } 中会少掉 { $count } 个进行中的活动：{ $names }。
breaking-upcoming-help = 请把在 { $start } 之后才结束的每个活动都搬进新文档的每种语言版本中（`activity-site version new` 可以完成这一步），或者等新版本开始时再发布
breaking-ongoing-removed = { $name } 正在进行（至 { $end }，还剩{ $days ->
    [0] 不到一天
   *[other] {" "}{ $days } 天
}），而这次构建删除了它：按名称识别活动的客户端会在活动进行期间丢掉它。
breaking-ongoing-removed-help = 请保留这个活动直到它结束；如果只是名称写错了，请原地改名（开始和结束时间不变）
breaking-ongoing-id-changed = { $name } 正在进行（至 { $end }，还剩{ $days ->
    [0] 不到一天
   *[other] {" "}{ $days } 天
}），而它的 id 从 `{ $old }` 变成了 `{ $new }`：按 id 识别活动的客户端会在活动进行期间丢掉它。
breaking-ongoing-id-changed-help = id 是数据，不会重新推算：请在活动上保留 `"id": "{ $old }"`（改名或更正时间都保留它）
warning-upcoming-removed = { $name } 尚未开始（{ $start } 开始，{ $days ->
    [0] 不到一天后
   *[other] { $days } 天后
}），而这次构建删除了它：已经把它显示为即将开始的客户端将不再显示它。
warning-upcoming-removed-help = 如果活动已取消或原本就列错了，无需处理；否则请保留它
warning-cover-removed = 版本 { $version } 不再有封面（原为 { $cover }）：显示封面的客户端将什么也不显示。
warning-cover-removed-help = 请把 "cover" 加回来（`activity-site version new` 会沿用封面，除非给出 --cover ''），如果这个版本确实没有封面则无需处理
warning-optional-field-removed = { $path } 不再有字段 { $field }（比较基准中有）；公开的 schema 把它定为可选字段，客户端会当作没有这个字段。
warning-optional-field-removed-help = 如果是误删，请把它加回去（`activity-site version new` 会保留当前版本的每个字段）；否则无需处理

## registry-id-taken：被某类文档页面占用的游戏 ID

registry-id-taken = 游戏 ID `{ $id }` 已被占用：网站在 /{ $id }/ 发布 `{ $kind }` 的页面
registry-id-taken-help = 请换一个 ID，例如 `{ $id }-game`

## 各规则检查的内容（SARIF 的规则说明）

rule-json-syntax = 不是合法的 JSON；以字节顺序标记（BOM）开头或不是有效的 UTF-8 编码也算。
rule-duplicate-key = 同一个对象中出现了两次相同的键。
rule-schema = 不符合 JSON Schema。
rule-datetime = 不是 YYYY-MM-DDTHH:MM:SS 格式，或者是不存在的日期或时刻。
rule-time-order = `endTime` 不晚于 `startTime`。
rule-cover-url = `cover` 既不是空字符串，也不是以 http(s) 开头的绝对 URL。
rule-duplicate-activity = 两个活动的名称和开始时间都相同。
rule-games-registry = games.json 有误。
rule-missing-file = games.json 中某个游戏的默认语言没有数据文件。
rule-pending-locale = games.json 列出的某个非默认语言还没有数据文件。
rule-orphan-file = 某个数据文件没有列在 games.json 中。
rule-outside-version = 活动超出了所属版本的时间范围。
rule-end-of-minute = `endTime` 的秒数不是 59。
rule-unsorted = 活动没有按时间先后排列。
rule-locale-parity = 同一游戏的各语言文件不一致。
rule-stale = 版本已经结束。
rule-whitespace = 文本字段中有多余的空白、控制字符或看不见的字符。
rule-upcoming-version = 版本在当前时间之后才开始：客户端会在版本开始之前就拿到它。
rule-kept-file = data/_files/ 中无法原样发布的文件。
rule-markdown-link = 公告中的 Markdown 链接既不是 http(s) 地址，也不是本站路径或锚点。
rule-markdown-html = 公告的 Markdown 中含有原始 HTML（会显示为文本）。
rule-duplicate-id = 同一文档中的两个活动有相同的 id。
rule-missing-id = 活动没有 id（check --fix 会分配一个，各语言相同）。


## 命令行给出的时间（--start、--end、--now），与文件中的时间同样说明

flag-time = { $flag }：{ $message }；{ $help }
flag-time-year-help = 请写成 `{ $fixed }`（{ $note }）
flag-now-bad = { $problem }（也可以写带时差的时刻，例如 2026-11-22T12:00:00+09:00）

## version new

version-bad-time = 没有写入任何文件：{ $problem }
version-ends-before = 没有写入任何文件：版本的结束时间（{ $end }）早于开始时间（{ $start }）
version-no-game = 没有写入任何文件：games.json 中没有游戏 `{ $game }`
version-no-locale = 没有写入任何文件：`{ $game }` 没有语言 `{ $locale }`（它的语言：{ $locales }）
version-files-have-errors = 没有写入任何文件：{ $count } 个文件有错误（{ $files }），请先修正（`activity-site check`）
version-missing = 没有写入任何文件：{ $path } 不存在或无法读取
version-not-forwards = 没有写入任何文件：版本 { $new } 不在 { $path } 的版本 { $old } 之后
version-no-name = 没有写入任何文件：没有 { $locale } 的版本名称：请用 --name 指定
version-drafts-errors = 没有写入任何文件：新文档会有错误
version-left = { $name }（{ $start } 至 { $end }）：{ $state ->
    [ended] 已结束
    [runs-now-ends-before] 正在进行，在新版本开始前结束；按 --drop 的要求未沿用
    [runs-into-new] 正在进行，并持续到新版本；按 --drop 的要求未沿用
   *[upcoming] 尚未开始；按 --drop 的要求未沿用
}
version-name-shared = 名称 `{ $name }` 用于每种语言：{ $locales }（用 --name LOCALE=NAME 为某种语言单独命名）
version-drop-unknown = 没有写入任何文件：--drop `{ $name }` 不是 { $game } 当前版本的任何活动（既不是 ID，也不是任一语言中的名称）；{ $count ->
    [0] 当前版本没有尚未结束的活动
   *[other] 尚未结束的活动（ID 与名称）：{ $candidates }
}
version-drop-both = 没有写入任何文件：--drop `{ $value }` 既是 `{ $name }` 的 ID，又是另一个活动的名称（{ $others }）；请用名称指定 `{ $name }`，或用 ID 指定另一个活动
version-drop-id-missing = 没有写入任何文件：{ $locale } 中没有 ID 为 `{ $id }` 的活动，但其中的 `{ $name }` 时间与它相同且没有 ID；请先为它分配 ID（`activity-site check --fix`），再按 ID 指定
version-drop-candidate = `{ $id }`（{ $names }）
version-drop-candidate-no-id = `{ $name }`（还没有 ID：`activity-site check --fix` 会分配）
version-drop-no-counterpart = 没有写入任何文件：{ $locale } 的 `{ $name }` 在 { $other } 中没有对应的活动（位置相同、时间相同的活动）；{ $has_id ->
    [yes] 请改用它的 ID `{ $id }`，ID 在每种语言中都指向它
   *[no] 请先让这些文件一致（`activity-site check` 会指出差异），或为它分配 ID（`activity-site check --fix`）后按 ID 指定
}
version-planned = { $dry ->
    [yes] 将写入
   *[no] 已写入
} { $path }：版本 { $from } 到 { $version }；{ $kept_count ->
    [0] 没有原样保留的字段
   *[other] 原样保留 { $kept }
}；改动 { $changed }；{ $carried ->
    [0] 没有沿用活动
   *[other] 沿用 { $carried } 个活动（{ $names }）
}{ $cover ->
    [set] ；换了新封面
    [removed] ；封面已删除
   *[other] {""}
}{ $dropped ->
    [0] {""}
   *[other] ；{ $dropped } 个活动未沿用：
}
version-pending = { $path }：{ $locale } 尚待补充（games.json 列出了它，但还没有文档）：跳过，没有为它写入任何文件

## diff：审查报告的版式（文本、Markdown、GitHub 注释）

diff-summary = 与 { $against } 比较了 { $files } 个文件{ $aliases ->
    [0] {""}
   *[other] （共 { $paths } 个路径，其中 { $aliases } 个是文件的第二个名称）
}：{ $changed } 个有改动，{ $reformatted } 个仅格式不同，{ $new } 个新增，{ $removed } 个已删除，{ $unchanged } 个未变；{ $breaking } 处破坏性变更{ $warnings ->
    [0] {""}
   *[other] ，{ $warnings } 个警告
}
diff-breaking-header = 破坏性变更（{ $count } 处）：
diff-warnings-header = 警告（{ $count } 个）：
diff-path-aliases = { $path }（亦即 { $aliases }）
diff-removed = - { $activity }{ $when ->
    [ended] ，已在现在之前结束
    [running] ，正在进行
    [upcoming] ，尚未开始
   *[unknown] {""}
}
diff-carried = = { $activity }，沿用到 { $version }
diff-cover-removed = 版本的封面被删除了（原为 { $from }）
diff-group = { $group }：
diff-group-site = 站点文件
diff-status = { $status ->
    [unchanged] 未变
    [reformatted] 仅格式不同
    [changed] 有改动
    [new] 新增
   *[removed] 已删除
}
diff-note-base = 对照的副本不是活动文档：{ $error }
diff-note-built = 生成的副本无法解析：{ $error }
diff-built-unparsed = 生成的 { $path } 无法解析：{ $error }
diff-activities = { $count } 个活动
diff-activity = { $name }（{ $start } – { $end }）
diff-renamed = 改名：{ $from } -> { $to }（{ $start } – { $end }）
diff-moved = 时间有变：{ $name }，{ $from } -> { $to }（{ $shifts }）
diff-shift = { $end ->
    [yes] 结束时间
   *[no] 开始时间
}{ $days ->
    [0] 变动不到一天
   *[other] { $later ->
        [yes] 推迟
       *[no] 提前
    } { $days } 天
}
diff-changed = ~ { $name }（{ $start }）：{ $fields }
diff-field = { $field }：{ $from } -> { $to }
diff-none = （无）
diff-reformatted = 内容相同，字节不同（格式或活动顺序有变）
diff-md-title = 对照 `{ $against }` 的数据审查
diff-md-no-change = { $files ->
    [1] 没有改动：这个文件与对照时相同。
   *[other] 没有改动：全部 { $files } 个文件都与对照时相同。
}
diff-md-no-breaking = 没有破坏性变更。
diff-md-breaking = { $count } 处破坏性变更
diff-md-breaking-item = - **{ $path }**（{ $code }）：{ $message }<br>*如何避免*：{ $help }
diff-md-warnings = { $count } 个警告
diff-md-warning-item = - **{ $path }**（{ $code }）：{ $message }<br>*如果不是有意为之*：{ $help }
diff-md-table-header = | 文件 | 状态 | 改动 |
diff-gh-breaking-title = 破坏性变更：{ $path }（{ $code }）
diff-gh-warning-title = 警告：{ $path }（{ $code }）
diff-no-folder = 也不存在文件夹 `{ $dir }`
diff-against-revision = 不存在文件夹 `{ $dir }`，而 `{ $dir }` 是本仓库的一个 git 版本：请用 `--against-rev { $dir }` 与它比较
diff-one-base = 请给出一个对照：--against URL|DIR 或 --against-rev REV
diff-cannot-fetch = 无法获取 { $url }：{ $error }
diff-read-built = 无法读取生成的 { $path }
diff-nothing-found = 在 { $base } 找不到任何内容：{ $index } 和全部 { $documents } 个活动文件都返回 404 not found
    提示：请给出站点的根地址，即 API 所在的 { $api }/ 的上一级地址
diff-site-not-folder = --site `{ $path }` 不是文件夹
diff-temp-build = 无法为生成创建临时文件夹
diff-temp-base = 无法为对照创建临时文件夹
diff-data-errors = 数据有错误，没有可供比较的生成结果；请运行 `activity-site check`
diff-rev-not-revision = `{ $rev }` 不是修订版本
diff-resolve-root = 无法解析根目录 `{ $path }`
diff-root-outside-git = 根目录不在它的 git 仓库之内
diff-rev-unknown = `{ $rev }` 不是 { $repo } 中的修订版本
diff-rev-no-registry = 修订版本 `{ $rev }` 在 { $repo } 中没有 { $registry }
diff-rev-errors = 修订版本 `{ $rev }` 有 { $errors } 个错误，无法生成用于比较的结果（第一个：{ $first }）
diff-git-missing = 无法运行 `git`（读取 git 修订版本，即 --against-rev 或 --changed-since，需要 PATH 中有 git）
diff-git-failed = `{ $command }` 失败：{ $error }

## import

import-note = 注意：{ $text }
import-fetching = 正在下载
import-nothing-found = 在 `{ $from }` 中找不到可以导入的活动文件
    提示：请给出存放 <game>.json 和 <game>-<locale>.json 文件的文件夹、含有 api/v1/activity/ 的站点，或站点的根地址
import-refuse-overwrite = 拒绝覆盖 `{ $root }` 中导入会改动的 { $count } 个文件：{ $files }；没有写入任何文件
    提示：请先提交或备份这些文件，再用 --force 替换它们
import-time-zone = 时区：{ $game } { $zone }（{ $from }）
import-zone-from = { $from ->
    [registry] 沿用 games.json 中的设置
    [index] 来自站点的索引
    [option] 来自 --time-zone
    [unconfirmed] 之前的导入推定的，尚未确认：games.json 中仍标有 "timeZoneAssumed"；请用 --time-zone GAME=ZONE 确认，或核对后删除这个标记
   *[assumed] 推定：没有任何来源给出时区；games.json 会标上 "timeZoneAssumed"，直到用 --time-zone GAME=ZONE 确认或删除这个标记为止
}
import-name = 名称：{ $game } { $name }（{ $from }）
import-name-from = { $from ->
    [registry] 沿用 games.json 中的设置
    [index] 来自站点的索引
    [llms] 来自站点的 llms.txt
   *[id] 没有任何来源给出名称，暂用 id；请在 games.json 中设置 "name"
}
import-legacy = 旧文件：{ $path } 是 `{ $game }` 的 { $locale } 活动文档（{ $same ->
    [yes] 与 { $data } 相同
   *[no] 其中是版本 { $version }；生成时发布的是 { $data } 的内容
}）；{ $outcome ->
    [synced] 保持同步：每次生成都从 { $data } 发布它（games.json 中的别名）
    [kept] 原样冻结在 data/_files/ 中：它的客户端会一直拿到这份副本；如果要每次生成都从 { $data } 发布，请改用 --legacy sync
   *[skipped] 在你选择之前已跳过（见下文）
}
import-legacy-choose = `{ $game }` 的活动文档（{ $locale }）：用 --legacy sync 让每次生成都从这个游戏的数据发布它，或用 --legacy keep 把这份副本原样冻结在 data/_files/ 中
import-legacy-no-game = 不是任何已导入游戏的活动文档；--keep-unknown 会把它保留在 data/_files/ 中
import-llms-unfetched = 无法获取 { $url }（{ $why }）；无从得知站点有哪些游戏和语言
import-locales-asked = 站点没有索引；除默认语言外，还为每个游戏请求了以下语言的文档：{ $locales }
import-note-placeholder = 注意：games.json：`{ $game }` 的 { $name ->
    [yes] `name` 和 `dataSource`
   *[no] `dataSource`
} 填入了占位值，请换成真实的值（`activity-site status` 会列出它们）
import-note-reordered = 注意：{ $path }：API 中的活动没有按开始时间排列；生成时会按顺序发布（内容相同，只是顺序不同）
import-note-regenerated = 注意：以下 { $count } 个文件没有导入，由生成过程自己写出：{ $paths }{ $more ->
    [0] {""}
   *[other] ，另有 { $more } 个（索引、页面、日历及其压缩副本）
}
import-note-excluded = 注意：因 --games 而略过：{ $paths }
import-skipped-file = 已跳过：{ $path }：{ $why }
import-summary = 导入：站点上有 { $site } 个活动文件，导入了 { $imported } 个：{ $games } 个游戏的 { $documents } 个文档，{ $per_locale }，{ $kept } 个文件保留在 data/_files/ 中，{ $skipped } 个已跳过，{ $regenerated } 个由生成过程重新写出{ $assumed ->
    [0] {""}
   *[other] ；{ $assumed } 个游戏的时区是推定的
}{ $listed }
import-games-listed-by = ；游戏列表来自 { $from }
import-summary-list = { $first }，{ $rest }
import-failed = 导入：{ $count } 个文件没有导入（见上面的错误）
import-skipped = 导入：{ $count } 个文件既没有导入也没有保留（见上文）
    提示：用 --keep-unknown 把它们原样放进 data/_files/ 发布，或用 --allow-skipped 不导入它们
import-action = { $action ->
    [created] 新建
    [replaced] 替换
   *[unchanged] 未变
} { $path }
import-not-document = 既不是活动文档，也不是公告文档
import-not-generated = 不是生成过程写出的文件；--keep-unknown 会把它保留在 data/_files/ 中
import-read-registry = 无法读取根目录中的 games.json
import-file-error = { $origin }：{ $why }
import-documents-differ = { $origin }：与 { $first } 不同，后者存放的是同一语言 `{ $locale }`；已保留 { $first }，请比较两者
import-read-root-file = 无法读取根目录中的 `{ $path }`
import-from-neither = `--from { $from }` 既不是文件夹，也不是 http(s) 地址
import-not-index = { $url } 不是 activity-site 的索引（{ $why }）
import-index-unfetched = 无法获取 { $url }（{ $why }）；改用 --games
import-games-unknown = { $index } 不存在，{ $llms } 也没有列出任何游戏，因此不知道要下载哪些游戏
    提示：请指定游戏，例如 --games ak,end --locales en-US
import-games-from = 站点没有索引；要下载的游戏（{ $games }）来自 { $from }
import-no-such-locale = { $count } 个游戏没有 { $locale } 文档（{ $games }）：这不是它们的语言之一
import-index-no-locales = 游戏 `{ $game }` 没有任何语言
import-not-utf8 = 不是 UTF-8 编码：{ $error }
import-not-json = 不是 JSON：{ $error }
import-not-object = 不是 JSON 对象
import-repeated-key = 同一个对象中有重复的键；改写会丢掉其中一个值
import-registry-repeated-key = games.json 的同一个对象中有重复的键；改写会丢掉其中一个值，请先修正
import-registry-not-json = games.json 不是 JSON（{ $error }）；请先修正
import-registry-not-object = games.json 不是 JSON 对象；请先修正
import-not-game-id = { $origin }：`{ $id }` 不是游戏 id（只能用小写字母、数字和单个连字符）
import-registry-unwritable = 无法写出 games.json：{ $error }

## publish

publish-foreign = { $target } 下有 { $count } 个对象不是 activity-site 创建的，发布时会覆盖它们：
    { $list }
    提示：请发布到空的前缀，或删除这些对象，或用 --adopt 覆盖它们并从此由本工具管理
publish-client = 无法为 { $endpoint } 建立 S3 客户端
    提示：请检查端点 URL、区域和环境变量中的凭据
publish-stopped = 发布到 { $target } 的过程在完成前中断了；已经上传的对象是一致的
    提示：请再次运行同一条命令：它只会上传还缺少的部分
publish-data-errors = 数据有错误；没有发布任何内容
    提示：请先修正错误，运行 `activity-site build`，再发布
publish-rebuild = { $problem }
    提示：请运行 `activity-site build --out { $out }`，再发布
publish-stale = `{ $out }` 中的站点比数据旧：{ $reason }
publish-stale-differs = { $path } 与重新生成的结果不同
publish-stale-missing = 站点中没有 { $path }
publish-stale-gone = { $path } 已经不再生成
publish-index-unreadable = `{ $out }` 中的站点没有可读的 { $index }：{ $error }
publish-index-unparsed = 站点的 { $index } 无法解析：{ $error }
publish-index-mismatch = 站点的 { $index } 与站点的文件不符：{ $path } 缺失或内容不同
publish-no-site = `{ $path }` 中没有生成好的站点
    提示：请先运行 `activity-site build --out { $path }`
publish-not-dir = `{ $path }` 不是文件夹
publish-not-regular = `{ $path }` 不是普通文件；生成的站点只含文件和文件夹
publish-changed = `{ $path }` 在发布过程中被改动了
    提示：请等生成完成后再发布
publish-note-restored = （存储中缺失）
publish-note-stale = （已不再生成；--delete 会删除它）
publish-note-foreign = （不是 activity-site 创建的）
publish-kept-foreign = = { $path }（不是 activity-site 创建的：保留；--adopt --delete 会删除它）
publish-summary = { $dry ->
    [yes] 发布到 { $target } 的计划
   *[no] 已发布到 { $target }
}：新增 { $added } 个，改动 { $changed } 个，恢复 { $restored } 个，未变 { $unchanged } 个，删除 { $removed } 个，过时 { $stale } 个；{ $dry ->
    [yes] 需上传
   *[no] 已上传
} { $uploads } 个对象（{ $size }）{ $others ->
    [0] {""}
   *[other] ；保留了 { $others } 个不属于本工具的对象
}
publish-not-s3 = `{ $target }` 不是 s3:// 地址
    提示：请把目标写成 s3://BUCKET 或 s3://BUCKET/PREFIX
publish-bad-bucket = `{ $bucket }` 不是合法的存储桶名称（3 到 63 个小写字母、数字、`-` 和 `.`）
publish-bad-prefix = 前缀 `{ $prefix }` 中有空的、`.` 或 `..` 路径段
publish-bad-endpoint = `{ $endpoint }` 不是有效的端点地址：{ $error }
publish-endpoint-not-http = `{ $endpoint }` 不是 http(s) 地址
publish-no-profile = 共享凭据文件 { $file } 中没有配置 `{ $profile }`
publish-no-credentials = 没有访问存储的凭据
    提示：请设置 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY（临时密钥还需 AWS_SESSION_TOKEN），或在 ~/.aws/credentials 中添加配置并用 --profile 指定
publish-half-keys = 设置了 AWS_ACCESS_KEY_ID，但没有设置 AWS_SECRET_ACCESS_KEY
publish-foreign-manifest = { $problem }
    提示：请发布到其他前缀；如果清楚 `{ $key }` 的来历，也可以删除它
publish-no-bucket = 存储桶 `{ $bucket }` 在 { $endpoint } 上不存在
    提示：请先创建它，或检查 --endpoint 和 --region
publish-bucket-not-found = 在 { $endpoint } 上找不到存储桶 `{ $bucket }`
    提示：请先创建它，或检查 --endpoint 和 --region
publish-credentials-refused = 存储拒绝了这些凭据
    提示：请检查 AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY 和 AWS_SESSION_TOKEN（或所用的配置）
publish-access-denied = 没有访问 `{ $bucket }` 的权限
    提示：凭据需要对它有 s3:ListBucket、s3:GetObject、s3:PutObject 和 s3:DeleteObject 权限
publish-store-error = 无法在 { $target } 中{ $doing }：{ $error }
publish-store-error-hint = 无法在 { $target } 中{ $doing }：{ $hint }
    原因：{ $error }
publish-doing-manifest = 读取清单
publish-doing-list = 列出对象
publish-doing-upload = 上传 { $path }
publish-doing-delete = 删除对象

## serve（终端上的输出；控制 API 的 JSON 消息保持英文）

err-runtime = 无法启动异步运行时
serve-bad-backend = 后端命令有误：{ $problem }
serve-cannot-listen = 无法监听 { $addr }
serve-no-address = 无法读取绑定的地址
serve-site-errors = 站点有错误；请修正错误，或去掉 --no-watch 运行，以便在改动后重新生成
serve-serving = 正在提供 { $out }：{ $url }
serve-token-how = 控制 API 需要访问令牌：请在 X-Access-Token 请求头中发送，或作为查询参数 access_token（?access_token=...）发送。
serve-token-whitespace = 访问令牌的开头或结尾有空白；HTTP 会从 X-Access-Token 请求头中去掉它们，所以用请求头的客户端永远无法登录
    提示：请去掉 --access-token 或 AccessToken 中令牌两侧的空格
serve-bad-origin = 允许的来源有误：{ $problem }
    提示：来源的写法是 scheme://host[:port]，例如 --allow-origin http://localhost:5173
serve-exposed-open = 正在监听 { $addr }，但没有设置访问令牌：任何能访问它的人都能控制模拟服务；提示：请设置 --access-token 或 AccessToken
serve-exposed = 正在监听 { $addr }，超出了本机回环地址：其他机器也能访问这个预览
serve-built = 站点已生成，用时 { $elapsed }
serve-build-failed = 生成失败；继续提供上一次成功生成的站点
serve-overlay-title = 上次生成失败；页面显示的是上一次成功生成的站点。
serve-build-error = 生成失败：{ $error }
serve-watching = 正在监视 { $root }（games.json、data/、schema/）
serve-rebuilding = 输入有变动，正在重新生成
serve-shutting-down = 正在关闭
serve-closing-connections = { $after } 后仍有连接未关闭；现在关闭它们
serve-accept-failed = 无法接受连接：{ $error }
serve-siblings-failed = 无法生成压缩副本：{ $error }
serve-watch-error = 监视输入时出错：{ $error }
serve-watch-folder-failed = 无法监视 { $path }：{ $error }
serve-read-failed = 读取 { $path } 时出错：{ $error }
serve-signal = 无法监听 { $signal } 信号：{ $error }

## status：公告栏、数据来源；工具自身的参数错误

status-changed-header = 更新时间
status-changed-from = { $when }（{ $from ->
    [git] git 提交
    [uncommitted] 未提交的改动
   *[other] 文件时间
}）
status-where-to-look = 数据来源：
status-source-articles = （文章：{ $url }）
status-source-no-user-agent = （不发送 User-Agent）
err-resolve = 无法解析 `{ $path }`
fetch-no-scheme = `{ $flag } { $arg }` 没有写协议
    提示：请在前面加上 http:// 或 https://：{ $flag } http://{ $arg }
fetch-not-url = `{ $flag } { $arg }` 不是 URL：{ $error }
fetch-not-http = `{ $flag } { $arg }` 不是 http(s) 地址
fetch-timed-out = 超时
fetch-unreachable = 无法连接到主机
fetch-refused = 连接被拒绝
fetch-reset = 连接被中断
fetch-no-route = 没有通往主机的路由
fetch-cause = ：{ $cause }

## 网站页面（site::pages、site::announcements）：模板和页面脚本读取的文字，以及数据过期提示

page-site-title = 游戏活动日历
page-skip = 跳到正文
page-home = 全部游戏
page-games = 游戏
page-version = 版本
page-window = 版本时间
page-progress = 版本进度
page-timeline = 时间线
page-activities = 活动
page-no-activities = 暂无已公布的活动。
page-languages = 语言
page-data = 数据
page-json = JSON
page-calendar = 日历（.ics）
page-subscribe = 订阅日历（webcal）
page-page = 页面
page-default-locale = 默认
page-upcoming = 未开始
page-ongoing = 进行中
page-ended = 已结束
page-ending-soon = 即将结束
page-ending-soon-all = 各游戏即将结束的活动
page-starts-before = 早于本版本开始
page-ends-after = 持续到本版本之后
page-kind = 类型
page-cover = 封面
page-now = 现在
page-as-of = 状态时间
page-colon = ：
page-stop = 。
page-space = {""}
page-times-in = 时间均为游戏服务器时区
page-legend = 图例
page-not-found-title = 页面不存在
page-not-found-text = 这个地址没有内容。
page-api-hint = 活动 API 位于本站的 api/v1/activity/ 下。
page-starts-within-day = 1 天内开始
page-starts-in-one = 1 天后开始
page-starts-in-many = { $n } 天后开始
page-left-under-day = 剩余不到 1 天
page-left-one = 剩余 1 天
page-left-many = 剩余 { $n } 天
page-ended-text = 已结束
page-your-time = 本地时间
page-your-zone = 你的时区
page-home-description = 各游戏的当前版本、活动和日历。
page-atom-feed = Atom 订阅
page-zone-assumed = 这个时区是导入数据时假定的，尚未确认。
page-date = { $month } 月 { $day } 日
page-stale-version = 数据尚未更新：{ $version } 版本已于 { $date }结束。
page-stale-activity = 数据尚未更新：最后一项活动已于 { $date }结束。
page-noscript = 未开启 JavaScript 时，本页无法判断当前状态，请将以上时间与你的时钟对照。时间均为 { $zone }。数据有效至 { $due }；若已过此时间，说明数据尚未更新。
page-noscript-home = 开启 JavaScript 可查看正在进行和即将结束的活动；也可将各游戏的时间与你的时钟对照：版本已结束的游戏说明数据尚未更新。

## The timeline page (site::timeline, issue 66): every game's activities
## on one time axis, with a table of the same facts

page-timeline-title = 全部游戏时间线
page-timeline-description = 所有游戏的活动排在同一条时间轴上：正在进行、即将开始和刚刚结束的活动。
page-timeline-chart = 全部游戏活动时间线
page-timeline-pick = 只看一个游戏
page-timeline-every-game = 全部游戏
page-timeline-activity = 活动
page-timeline-starts = 开始
page-timeline-ends = 结束
page-timeline-state = 状态
page-timeline-caption = { $game } { $version } 版本（{ $zone }）
page-timeline-noscript = 未开启 JavaScript 时本页无法判断当前进行中的活动和剩余天数：各游戏的表格列出每个活动在游戏时区的开始和结束时间，请与你的时钟对照。版本已结束的游戏说明数据尚未更新。

## 日历（site::ics）

ics-calendar-name = { $name } 活动
ics-calendar-description = { $name } 的活动。每个活动在结束前 { $lead }提醒。
ics-reminder-lead = 1 天
ics-reminder = { $activity } 将在 { $lead }后结束
ics-version-line = { $name } { $version } 版本「{ $version_name }」

## issue 44（完整的诊断）：恢复解析、列出的修正、构建中新出现的警告、工具自身的错误

char-left-corner-bracket = 左直角引号
char-right-corner-bracket = 右直角引号
char-left-white-corner-bracket = 左空心直角引号
char-right-white-corner-bracket = 右空心直角引号
syntax-typographic-string = { $key ->
    [yes] 这个键
   *[no] 这个字符串
}用 `{ $open }` 和 `{ $close }` 括起，JSON 不把它们当作引号
syntax-typographic-string-help = 请改用半角引号括起：`{ $fixed }`（这是中文输入法在中文标点状态下打出的字符）
syntax-checks-wait = 此文件还有 { $count } 项检查要等语法正确后才能进行（{ $codes }）：请先修正上面的错误，再运行一次 check
datetime-falls = 改写为 { $time } 后，它{ $relation ->
    [before] 在版本 { $version } 开始前 { $span }：请确认这正是想写的时间
    [after] 在版本 { $version } 结束后 { $span }：请确认这正是想写的时间
    [start] 恰在版本 { $version } 开始时
   *[within] 在版本 { $version } 之内，开始后 { $span }
}
span-months = { $count } 个月
span-days = { $count } 天
span-hours = { $count } 小时
fix-change = { $place } { $code }：{ $kind ->
    [insert] 插入 `{ $after }`
    [delete] 删除 `{ $before }`
   *[replace] `{ $before }` → `{ $after }`
}
fix-file = 已修正 { $path }（{ $fixes } 处）：
fix-file-diff = 将修正 { $path }（{ $fixes } 处）：
fix-nothing = 没有可修正的内容：发现的问题都没有确切的修正方法，仍然存在：
fix-clean = 没有可修正的内容：没有发现问题
fix-remains = 修正后还剩下：
check-changed-since = 只报告自 { $rev } 以来的改动带来的问题：{ $before ->
    [0] 没有原本就有的问题
   *[other] 原本就有的 { $before } 个问题不报告
}{ $clock ->
    [0] {""}
   *[other] ；时钟带来的 { $clock } 条提示（stale、upcoming-version）也不报告：它们来自日期而不是这次改动，由定时运行的 ending-soon 工作流报告
}
fix-nothing-remains = 没有剩下的问题：发现的问题都已修正
err-find-named = 在当前文件夹和根目录 `{ $root }` 下都找不到 `{ $path }`：请写出从当前文件夹出发的路径（例如 `{ $root }/{ $path }`），或写成 --root 下的路径
err-outside-root = `{ $path }` 不在根目录 `{ $root }` 之内：请指定数据目录中的文件，或用 --root 指定它所在的文件夹
build-unchanged-warnings = 与上次构建相同的 { $count } 个警告不再重复显示：运行 `activity-site check` 可查看全部
no-registry-above = 在 { $folder } 及其上级文件夹中都没有 { $registry }：当前不在数据仓库之内；请在数据仓库中运行命令，或用 --root DIR 指定
build-files-changed = 构建期间 `{ $game }` 的文件发生了变化；请重新构建
build-file-changed = 构建期间 `{ $file }` 发生了变化；请重新构建
watch-start = 无法开始监视输入文件
watch-folder = 无法监视 `{ $path }`
cache-foreign-tag = 拒绝把 `{ $dir }` 用作构建缓存：其中的 { $tag } 不是 activity-site 写入的
    提示：请用 --cache-dir 指定一个新的或空的文件夹，或使用 --no-cache
cache-foreign-files = 拒绝把 `{ $dir }` 用作构建缓存：其中有不是本工具写入的文件
    提示：请用 --cache-dir 指定一个新的或空的文件夹，或使用 --no-cache
fmt-why = { $reasons ->
    [0] 第一处不同在第 { $line } 行：`{ $before }` → `{ $after }`
   *[other] { $what }；第一处不同在第 { $line } 行：`{ $before }` → `{ $after }`
}
fmt-why-only = { $what }
fmt-why-key-order = 键的顺序
fmt-why-indentation = 缩进
fmt-why-activity-order = 活动的顺序
fmt-why-line-endings = 换行符（CRLF）

## 命令行帮助（--help）：clap 在帮助周围显示的固定用语

help-word-usage = 用法：{ $usage }
help-word-commands = 命令：
help-word-arguments = 参数：
help-word-options = 选项：
help-word-options-placeholder = [选项]
help-word-command-placeholder = 命令
help-word-default = [默认：{ $value }]
help-word-env = [环境变量：{ $name }]
help-word-possible = [可选值：{ $values }]
help-word-possible-heading = 可选值：
help-word-possible-item = - { $name }：{ $text }
help-word-possible-name = - { $name }
help-flag-help = 显示帮助
help-flag-help-more = 显示帮助（用 '--help' 查看详细说明）
help-flag-help-summary = 显示帮助（用 '-h' 查看摘要）
help-flag-version = 显示版本
help-cmd-help = 显示本帮助，或指定子命令的帮助

## 命令行帮助：命令及其示例

help-about = 校验、构建并发布游戏版本及限时活动的公开 API
help-cmd-check = 校验 games.json 和所有数据文件，一次列出全部问题
help-cmd-check-after =
    示例：
      activity-site check --root . --format github
help-cmd-build = 先校验，再原子地写出站点（API、索引、Schema、页面、日历）
help-cmd-build-after =
    示例：
      activity-site build --out site
help-cmd-fmt = 把数据文件和 games.json 改写为规范格式
help-cmd-fmt-after =
    示例：
      activity-site fmt --check
help-cmd-status = 显示哪些游戏和语言最需要更新
help-cmd-status-after =
    示例：
      activity-site status --now 2026-11-22T12:00:00
help-cmd-serve = 构建、提供并监视站点；挂载模拟的控制 API 和 /mcp
help-cmd-serve-after =
    示例：
      activity-site serve --addr 127.0.0.1:5000
help-cmd-diff = 将本次构建与已部署的站点、文件夹或 git 版本比较：客户端会看到哪些变化
help-cmd-diff-after =
    退出码：0 没有变化，1 有变化，3 有破坏性变化（删除了文件、删除了进行中的活动、
    即将开始的版本取代了正在进行的版本、同一 id 的公告内容改变、版本号倒退），2 工具本身出错。

    示例：
      activity-site diff --against https://example.org
      activity-site diff --against ../deployed-site --format markdown
      activity-site diff --against-rev origin/main --format github
help-cmd-version = 在所有语言中开始游戏的下一个版本，并带上在其开始后仍进行的活动
help-cmd-version-new = 在所有语言中写入游戏的下一个版本：新版本的字段，以及当前版本中正在进行、尚未开始或在新版本开始后才结束的每个活动（只有 --drop 能不沿用其中某个）；列出每个未沿用的活动及原因；任一语言有错误时拒绝执行（不写入任何内容）
help-cmd-version-after =
    示例：
      activity-site version new sr --version 4.7 --name 4.7 --name en-US=4.7 --start 2026-12-01T11:00:00 --end 2027-01-12T05:59:59
help-cmd-import = 迁入已有的 API：把已发布的文件（文件夹或 URL）转为 games.json 和 data/
help-cmd-import-after =
    示例：
      activity-site import --from ../old/public/api/v1/activity
      activity-site import --from https://example.org
      activity-site import --from https://example.org --games ak,end --locales en-US
help-cmd-publish = 把构建好的站点上传到 S3 兼容存储：只传有变化的文件，先数据后索引
help-cmd-publish-after =
    凭据来自 AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY 和 AWS_SESSION_TOKEN，
    或 ~/.aws/credentials 中的配置（--profile、AWS_PROFILE）；从不来自命令行参数。

    示例：
      activity-site publish --to s3://my-bucket/activity --dry-run
      activity-site publish --to s3://activity --endpoint https://ACCOUNT.r2.cloudflarestorage.com --region auto --delete
help-cmd-lsp = 通过标准输入输出提供的语言服务器：边输入边显示 check 的诊断，提供快速修复、格式化和悬停提示
help-cmd-lsp-after =
    由编辑器启动，无需手动运行；Neovim、Helix、Zed 和 VS Code 的配置见 README。

    示例：
      activity-site lsp --root .
help-cmd-mcp = 供智能体使用的 MCP 服务器（标准输入输出）：经由校验器列出、读取、检查和写入数据文件
help-cmd-mcp-after =
    示例（智能体的配置）：
      {"{"}"command": "activity-site", "args": ["mcp", "--root", "/path/to/data"]{"}"}

## 命令行帮助：选项和取值

help-arg-lang = 消息的语言（默认依次取 LC_ALL、LC_MESSAGES 或 LANG，否则为 en-US）
help-value-lang-en-us = 英语（美国）
help-value-lang-zh-cn = 简体中文（中国）
help-arg-root = 数据树的根目录（包含 games.json、data/ 和 schema/）；默认为当前目录或其上层中最近的、包含 games.json 的目录
help-arg-now = 固定“当前时间”：YYYY-MM-DDTHH:MM:SS 表示各游戏时区中的该时刻；带偏移量时（2026-11-22T12:00:00+09:00、...Z）表示同一瞬间，再按各游戏的时区读取
help-arg-cache-dir = 构建缓存目录（默认：<root>/.activity-site/cache）
help-arg-no-cache = 重新渲染和压缩每个文件，不读也不写构建缓存
help-arg-check-format = 诊断的输出格式
help-arg-build-format = 校验失败时诊断的输出格式
help-value-format-human = 类似 rustc 的文本，附源代码行和插入符
help-value-format-json = 一个 JSON 对象，含 `diagnostics` 数组和计数
help-value-format-github = GitHub Actions 工作流命令（注解）
help-value-format-rdjson = Reviewdog 诊断格式（rdjson），精确修复作为建议
help-value-format-sarif = SARIF 2.1.0，含精确修复
help-arg-check-deny-warnings = 有警告时也以 1 退出
help-arg-check-fix = 应用所有精确修复（全角标点、逗号、引号、日期格式等），然后重新检查并报告剩余问题
help-arg-check-diff = 与 --fix 一起使用：以补丁形式显示修复，不写入任何内容（也可写作 --dry-run）
help-arg-check-changed-since = 只报告自 git 版本 REF 以来的改动带来的问题（改动过的文件中的，或跨文件新出现的），按规则、文件和消息与 REF 时的数据比较（用 git 读取，不联网）；退出码只看这些问题。时钟带来的提示（stale、upcoming-version）不报告：由定时运行的 ending-soon 工作流报告。REF 也是 missing-id 取回 id 的基准（否则在 git 检出中用 HEAD）
help-arg-check-paths = 只检查这些文件（相对于当前目录），以及涉及它们的跨文件规则
help-arg-out = 输出目录，原子地替换（默认：<root>/site）；只替换不存在、为空或由本工具生成的目录
help-arg-force = 替换不是 activity-site 生成的 --out 目录：其中原有的内容先列出，再移到旁边的 <out>.replaced-<日期时间>，绝不删除；数据根目录及其输入、主目录和文件系统根目录一律拒绝
help-arg-compress = 预压缩的同名文件：快速级别的 .gz（默认，所有客户端都支持）、最高级别的 .br 和 .gz（文件最小，CPU 时间多出数倍）或不生成
help-value-compress-fast = 级别 6 的 gzip，不生成 brotli
help-value-compress-max = 质量 11 的 brotli 和级别 9 的 gzip
help-value-compress-none = 不生成 .br/.gz 文件
help-arg-fmt-check = 不做任何修改；列出需要改写的文件，若有则以 1 退出
help-arg-status-format = 输出格式
help-value-status-text = 对齐的表格
help-value-status-json = 由各行组成的 JSON 数组
help-arg-version-game = 游戏 id（与 games.json 中一致）
help-arg-version-version = 新版本号（`4.7`），必须晚于当前版本
help-arg-version-name = 版本名称：NAME 用于所有语言，或 LOCALE=NAME（可重复）
help-arg-version-start = 新版本的开始时间（YYYY-MM-DDTHH:MM:SS，游戏当地时间）
help-arg-version-end = 新版本的结束时间（YYYY-MM-DDTHH:MM:SS）
help-arg-version-cover = 新版本封面图片的 URL；不指定时各语言保留当前封面，--cover '' 则删除封面
help-arg-version-dry-run = 显示将写入的内容，不写入任何内容
help-arg-version-drop = 不沿用这个尚未结束的活动：它的 ID（在含有它的每种语言中）或任一语言中的名称（其他语言中对应的活动也一起不沿用）；若它既是一个活动的 ID 又是另一个活动的名称则拒绝；可重复
help-arg-serve-addr = 监听地址
help-arg-serve-no-watch = 构建一次后提供服务，不监视输入文件
help-arg-serve-state-dir = 模拟控制服务的状态目录（默认：<root>/.activity-site）
help-arg-serve-control-config = 服务配置文件（含 Logging、AllowedHosts 和 AccessToken 的 JSON）
help-arg-serve-backend-command = 控制 API 运行并通过标准流与之通信的后端程序，写作 "PROGRAM [ARGS]"（默认：本工具的模拟器；覆盖配置文件中的 BackendCommand）
help-arg-serve-access-token = 控制 API 的访问令牌（覆盖配置文件中的 AccessToken）
help-arg-serve-allow-origin = 允许其页面调用控制 API 和 /mcp 的网页来源，例如 http://localhost:5173（可重复；追加到配置文件的 AllowedOrigins）
help-arg-diff-against = 比较基准：已部署站点的 http(s) URL（API 位于 <base>/api/v1；以 /api/v1 结尾的基准按其上层站点读取），或包含已构建或已部署站点的文件夹
help-arg-diff-against-rev = 比较基准：数据的 git 版本（`main`、`origin/main`、`HEAD~1`），用本程序在临时文件夹中构建；需要 `git`，无需网络
help-arg-diff-site = 比较这个已构建好的站点文件夹，而不是构建根目录（适用于文件夹和版本基准）
help-arg-diff-format = 输出格式
help-value-diff-text = 先列破坏性变化，再按游戏列出变化，最后一行汇总
help-value-diff-json = 一个 JSON 对象：`against`、`changes`、`breaking`、`exitCode`、`counts`、`files`（见 README）
help-value-diff-markdown = 先列破坏性变化，再每个游戏一张表（用于 $GITHUB_STEP_SUMMARY 或拉取请求评论）
help-value-diff-github = GitHub 工作流命令：每个破坏性变化一条错误、每个变化的文档一条通知，标在其数据文件的对应行
help-arg-diff-timeout = 请求超时秒数（URL 基准）
help-arg-publish-out = 已构建站点的目录，即 `build --out` 写出的目录（默认：<root>/site）
help-arg-publish-to = 发布位置：s3://BUCKET 或 s3://BUCKET/PREFIX
help-arg-publish-endpoint = S3 兼容服务（R2、OSS、COS、MinIO）的端点 URL；默认为 AWS S3
help-arg-publish-region = 区域（R2 为 auto）；默认取 AWS_REGION，否则为 us-east-1
help-arg-publish-addressing = URL 中存储桶的寻址方式
help-value-addressing-auto = 在 AWS 上用虚拟主机方式，指定 `--endpoint` 时用路径方式（MinIO、R2、moto）
help-value-addressing-path = 总是用路径方式
help-value-addressing-virtual = 总是用虚拟主机方式（阿里云 OSS、腾讯云 COS）
help-arg-publish-profile = 共享凭据文件中的配置名（默认取 AWS_PROFILE，否则为 `default`）
help-arg-publish-dry-run = 显示计划（新增、修改、未变、删除、字节数），不上传任何内容
help-arg-publish-delete = 删除本工具以前发布、而站点中已不存在的对象
help-arg-publish-precompressed = 同时上传 .br/.gz 文件并带上 Content-Encoding，供直接提供它们的 CDN 使用
help-arg-publish-verify = 列出前缀下的所有对象（不只看清单），重新上传缺失的对象
help-arg-publish-adopt = 覆盖其他工具上传到站点路径上的对象，此后由本工具管理
help-arg-publish-format = 计划的输出格式
help-value-plan-text = 每个有变化的路径一行（+ ~ ! - ?），最后一行汇总
help-value-plan-json = 一个 JSON 对象，含每个路径及其操作、阶段、字节数和元数据
help-arg-publish-jobs = 同时进行的上传数
help-arg-import-from = 含 <game>.json 和 <game>-<locale>.json 文件的文件夹（或包含 api/v1/activity/ 或 public/api/v1/activity/ 的文件夹），或已部署站点的 http(s) 基础 URL
help-arg-import-force = 替换根目录中与导入结果不同的文件
help-arg-import-games = 只导入这些游戏（逗号分隔）；对没有索引的 URL，即要获取的游戏
help-arg-import-locales = 对没有索引的 URL：除默认语言，以及站点的 llms.txt、根目录的 games.json 和本工具支持的语言之外，还要向每个游戏请求的语言（逗号分隔）
help-arg-import-default-locale = 当索引和 games.json 都未指明时，无后缀的 <game>.json 文件的语言
help-arg-import-timeout = 请求超时秒数（URL 导入）
help-arg-import-keep-unknown = 把构建不会生成的文件（robots.txt、旧的 api/v1/activities.json 等）保留在 data/_files/ 中，原样发布
help-arg-import-legacy = 旧版的 api/v1/activities.json 就是某个游戏的活动文档时：`sync` 在每次构建时由该游戏的数据生成它（games.json 中的别名），`keep` 把这份副本原样冻结在 data/_files/ 中
help-value-legacy-sync = 每次构建时由游戏的数据生成（games.json 中的别名），不会过时
help-value-legacy-keep = 把这份副本原样冻结保存在 data/_files/ 中
help-arg-import-allow-skipped = 即使发现既未导入也未保留的文件也以 0 退出（仍会列出这些文件）
help-arg-import-time-zone = 导入的游戏中 games.json 和索引都未指明的时区：ZONE 用于全部游戏，GAME=ZONE 用于单个游戏（逗号分隔，可重复）

site-url-invalid = `{ $url }` 不是一个 URL：请给出站点的公开地址，例如 https://example.org/
site-url-scheme = `{ $url }` 不是带主机名的 http 或 https 地址：请给出站点的公开地址，例如 https://example.org/
site-url-parts = `{ $url }` 带有查询、片段或凭据：请只给出站点的公开地址，例如 https://example.org/activity/
build-no-site-url = 提示：没有 --site-url：模式的 $id、OpenAPI 的服务器地址、API 目录的链接、Atom 订阅的 id 以及 llms.txt 和页面中的 webcal 链接都保持相对于读取它们的位置；给出 --site-url https://<你的站点>/ 即可让它们成为绝对地址
publish-site-url-differs = { $out } 不是为 { $url } 生成的（它的 OpenAPI 写的是 { $built }）：请用 --site-url { $url } 重新生成
help-arg-site-url = 站点的公开地址（http 或 https，类似 Hugo 的 baseURL）：模式的 $id、OpenAPI 的服务器地址、API 目录、Atom id 和 webcal 链接都以它为前缀成为绝对地址
help-arg-publish-site-url = 拒绝发布不是用这个 --site-url 生成的站点

# The published contract (issue 62): the page of the API's base, the API catalog's anchor.
api-home-title = 游戏活动 API
api-home-intro = 以静态 JSON 文件提供各游戏的版本及其限时活动，任何来源均可直接读取，无需密钥。请先读取索引；OpenAPI 描述列出了每个路径及每个响应的 JSON Schema。

## docs：游戏表与代码参考（`activity-site docs`）

docs-games-header = | 游戏 | 名称 | 语言 | 时区 | 更新方式 |
docs-games-default = { $locale }（默认）
docs-games-pending = { $locale }（尚待补充：还没有文档）
docs-codes-header = | 代码 | 由谁报告 | 含义 | 怎么办 |
docs-by-check = `check`
docs-by-diff-breaking = `diff`：破坏性变更（退出码 3）
docs-by-diff-warning = `diff`：警告
# `diff` 的每个代码的含义，每个代码一个分支（落到默认分支的代码会让测试
# `every_code_is_documented` 失败）。
code-means = { $code ->
    [file-removed] 比较基准发布的文件不在这次构建中：客户端会得到 404。
    [published-field-removed] 公开 schema 要求的字段（或没有 schema 描述的字段）在基准中该位置的每个对象里都有，现在一个也没有。
    [published-field-retyped] 已发布字段的 JSON 类型变了。
    [optional-field-removed] 公开 schema 定为可选的字段（例如版本封面）从原来有它的文档中消失了。
    [ongoing-activity-removed] 正在进行的活动不在新文档中：客户端会在它结束前就不再显示它。
    [ongoing-activity-id-changed] 正在进行的活动名称和时间没变，ID 却变了：按 ID 跟踪的客户端会丢失它。
    [upcoming-version] 新文档的版本在当前时间之后才开始：开始之前，客户端会把它当作当前版本显示。
    [version-backwards] 版本号倒退：只保留最新版本的客户端会忽略这份文档。
    [upcoming-activity-removed] 一个尚未开始的活动被删除了。
    [cover-removed] 版本原来有封面，现在没有了。
   *[other] （未记载）
}
# 对 `check` 或 `diff` 的每个代码该怎么办，用贡献者的话说。
code-todo = { $code ->
    [json-syntax] 修正所示位置的 JSON（缺逗号或引号、多余的逗号）；文件保存为不带 BOM 的 UTF-8。
    [duplicate-key] 两个同名键只留一个：确认哪个值正确，删掉另一行。
    [schema] 按帮助行的要求填写该字段；schema/ 中的 schema 列出了每个字段及其格式。
    [datetime] 按游戏服务器时间写成 YYYY-MM-DDTHH:MM:SS；`check --fix` 会改写它能确定读懂的写法。
    [time-order] 让 endTime 晚于 startTime；通常是两者写反了或日期打错了。
    [cover-url] 写图片的绝对 https 地址，没有封面就写 ""。
    [duplicate-activity] 删掉重复的那一项，或改用能区分两者的名称或开始时间。
    [games-registry] 修正消息指出的 games.json 条目；每个游戏都需要 id、名称、语言列表和默认语言。
    [missing-file] 为默认语言写 data/GAME/LOCALE.json，或把该游戏从 games.json 中去掉。
    [pending-locale] 在文件出现之前，该语言不会发布任何内容；等游戏公布该语言的文本后再写。
    [orphan-file] 在 games.json 中列出该文件的游戏和语言，或删除该文件。
    [outside-version] 把活动挪进版本的时间范围内，或放进它所属版本的文档。
    [end-of-minute] 按游戏公告在该分钟的最后一秒（:59）结束；已知游戏惯例时 `check --fix` 会改好。
    [unsorted] 运行 `activity-site fmt`（或 `check --fix`）：它会按开始时间排列活动。
    [locale-parity] 让每种语言有相同的活动和相同的时间；消息会指出不一致的那一项。
    [stale] 版本已结束：用 `activity-site version new` 开始下一个版本。
    [whitespace] 删掉消息所示的多余字符；`check --fix` 会删掉它能删的。
    [upcoming-version] 在版本开始当天再发布，或把正在进行的活动沿用到新文档（`activity-site version new` 会这样做）。
    [kept-file] 给文件一个可以原样发布的名称和类型，或把它移出 data/_files/。
    [markdown-link] 链接到 https 地址、站点内的路径或同一条公告中的标题。
    [markdown-html] 改用 Markdown：原始 HTML 会显示为文本。
    [duplicate-id] 给两个活动之一换一个新 ID（删掉它的 ID 后运行 `check --fix`）。
    [missing-id] 运行 `activity-site check --fix`：它会给活动分配 ID，每种语言相同。
    [file-removed] 继续发布该文件；文档只能随游戏条目一起、有意地移除。
    [published-field-removed] 把字段加回去；客户端读取的字段只能随新的 API 版本移除。
    [published-field-retyped] 恢复字段原来的类型，或用新名称发布新值。
    [optional-field-removed] 如果是误删，请加回去（`version new` 会保留每个字段）；否则无需处理。
    [ongoing-activity-removed] 把活动沿用到新文档直到它结束（`activity-site version new` 会这样做），或在新版本开始当天再发布。
    [ongoing-activity-id-changed] 恢复活动原来的 ID：ID 在各版本间保持不变。
    [version-backwards] 发布当前版本的文档；旧版本只能在它仍是当前版本时更正。
    [upcoming-activity-removed] 如果活动取消了或是误列的，无需处理；否则请加回去。
    [cover-removed] 把 "cover" 加回去；如果该版本没有封面，就不用写。
   *[other] （未记载）
}
help-cmd-docs = 打印由数据和代码生成的文档片段：README.md 的游戏表（来自 games.json），或 `check` 与 `diff` 会输出的每个代码的参考（CONTRIBUTING.md）；测试会把文档与它比较
help-cmd-docs-after =
    示例：
      activity-site docs games
      activity-site --lang zh-CN docs codes
help-arg-docs-what = 打印哪一部分
help-value-docs-games = 游戏表：games.json 中每个游戏的名称、语言（默认语言与尚待补充的语言）、时区和更新方式
help-value-docs-codes = `check` 与 `diff` 会输出的每个代码：含义与怎么办

## API 参考页面（api-reference/）

page-api-reference = API 参考
ref-title = API 参考
ref-description = 面向读者的公开活动 API 说明：路径、全部游戏、每个字段、示例和调用方法。
ref-intro = 以只读 JSON 文件提供游戏版本及其限时活动：每个游戏的每种语言一份文档，一份列出它们的索引，还有日历和公告板。无需密钥，无需注册；任何来源的网页都可以读取每个文件（CORS）。本页在每次构建时由发布的 API 描述生成，所写的就是文件当前的内容。
ref-base-heading = 基础地址
ref-base-known = API 位于 `{ $api }`。下面的每个路径都从站点地址 `{ $site }` 开始。
ref-base-unknown = 本站构建时没有给出公开地址（`--site-url`）：下面的每个路径都从读取本页的地址开始，示例中写作 `{ $site }`。
ref-paths-heading = 路径
ref-paths-note = OpenAPI 描述（`{ $openapi }`）中的全部路径；每个路径对 `GET` 回答 `200`，对条件请求回答 `304`，或者回答 `404`。说明取自该描述，为英文。
ref-col-path = 路径
ref-col-summary = 内容
ref-col-parameters = 参数
ref-games-heading = 游戏
ref-games-note = 索引（`{ $index }`）列出的全部游戏：ID、名称、语言（各自链接到对应文档）、时间所用的时区和更新方式。
ref-col-game = ID
ref-col-name = 名称
ref-col-locales = 语言
ref-col-zone = 时区
ref-col-mode = 更新方式
ref-pending = 待补：尚无文档
ref-fields-heading = 字段
ref-fields-note = 构建时从发布的 JSON Schema 读取：每种发布文档的每个字段、类型、是否总是出现以及含义。JSON Schema 的说明为英文，这里的含义是它们的中文译文；尚未翻译的字段显示英文原文。`activities[].id` 表示 `activities` 中每一项的字段；`*` 表示映射中的任意键。
ref-col-field = 字段
ref-col-type = 类型
ref-col-present = 出现
ref-col-meaning = 含义
ref-always = 总是
ref-optional = 可选
ref-example-heading = 示例
ref-example-note = 本次构建发布的 `{ $path }`：共 { $total } 个活动，这里显示前 { $shown } 个。
ref-example-none = 本站还没有游戏，因此没有示例。
ref-freshness-heading = 时效
ref-fresh-due = 每份文档都写明下次需要更新的时间：`dueAt`，一个带偏移的时刻。`version` 文档在版本结束时到期，`activity` 文档在最后一个活动结束时到期（`updateMode`）。在 `dueAt` 之后读到的文档可能已经过时；索引也给出每个文件的 `dueAt`。
ref-fresh-etag = 每个文件都带有 `ETag` 和 `Last-Modified`：再次请求时带上 `If-None-Match`（或 `If-Modified-Since`），文件未变时回答 `304 Not Modified`，没有响应体。
ref-fresh-cache = 缓存可以按 `Cache-Control` 保存文件：`{ $cache }`。
ref-promises-heading = 承诺
ref-promise-fields = 在 `/api/v1/` 之内，字段只增加，不删除也不改类型：忽略你不认识的字段即可。
ref-promise-ids = 每个活动的 `id` 都是稳定的：在游戏的每种语言中相同，改名、更正时间和进入下一个版本时都保持不变。提醒应以它为键保存。
ref-promise-times = 无时区的 `startTime` 和 `endTime` 保持原样（`YYYY-MM-DDTHH:MM:SS`，文档 `timeZone` 中的当地时间）；带偏移的时刻 `startsAt` 和 `endsAt` 与它们并列。
ref-promise-paths = 路径保持不变：游戏的默认语言为 `<game>.json`，每种语言为 `<game>-<locale>.json`。
ref-calling-heading = 调用方法
ref-curl = 使用 curl：读取索引、查看文档的响应头，以及回答 `304` 的条件请求。
ref-typescript = 使用 TypeScript 客户端（npm `activity-site-client`）：条件请求、网络出错时返回上次成功的副本、以 `Date` 表示时刻，并根据 `dueAt` 给出 `stale`。
ref-python = 使用 Python 客户端（PyPI `activity-site-client`，模块 `activity_site_client`）：功能相同，时刻为带时区的 `datetime`。
ref-contract-heading = 契约文件
ref-locale-note = （{ $note }）
ref-schema-activity = 活动文档
ref-schema-games = 索引
ref-schema-api-catalog = API 目录

# 参考页面上发布的 JSON Schema 中每个字段的含义：en-US.ftl 中为模式的英文说明原文（测试保证二者一致），这里是它的译文。
ref-field-activity-version = 当前的游戏版本号，例如 "3.7"。
ref-field-activity-versionName = 版本公布时的标题。
ref-field-activity-startTime = 版本开始的服务器时间：YYYY-MM-DDTHH:MM:SS。
ref-field-activity-endTime = 版本结束的服务器时间，通常在 59 秒（03:59:59）。
ref-field-activity-cover = 版本的封面图片：绝对 https URL，或为空。
ref-field-activity-activities = 版本的限时活动，按 startTime 的先后排列。
ref-field-activity-activities-id = 活动的稳定 id，分配后即出现：`check --fix` 为每个活动分配一次，存入数据，此后不再重新推导，因此改名、更正时间和进入新版本后都保持不变，且在游戏的每种语言中相同。从有 id 之前的数据接手的活动在此之前没有 id：这类活动请按名称和开始时间识别。格式：`<game>-<version>-<nn>`（`sr-4.6-03`、`ba-global-2026-11-02`）：由小写字母和数字组成、以 `-` 或 `.` 连接的几段，可安全用于 URL。在一个文档内唯一。请把 id 当作不透明的字符串比较。
ref-field-activity-activities-name = 活动公布时的名称。
ref-field-activity-activities-kind = 可选的分类，例如活动系列；可以为空。
ref-field-activity-activities-description = 活动的内容；可以为空。
ref-field-activity-activities-startTime = 活动开始的服务器时间：YYYY-MM-DDTHH:MM:SS。可以早于版本开始。
ref-field-activity-activities-endTime = 活动结束的服务器时间；按惯例在 59 秒。可以晚于版本结束。
ref-field-activity-activities-cover = 活动的封面图片：绝对 https URL，或为空。
ref-field-activity-activities-startsAt = 以带偏移的时刻表示的 startTime。
ref-field-activity-activities-endsAt = 以带偏移的时刻表示的 endTime。
ref-field-activity-timeZone = 游戏服务器的 IANA 时区（`Asia/Shanghai`、`America/New_York`），文档中每个无时区的时间（startTime、endTime）都是这个时区的当地时间。时区属于游戏服务器，与文档的语言无关。
ref-field-activity-startsAt = 以带偏移的时刻表示的版本 startTime。
ref-field-activity-endsAt = 以带偏移的时刻表示的版本 endTime。
ref-field-activity-updateMode = 维护者保持文档最新的方式：`version`（每个游戏版本整体替换一次）或 `activity`（活动公布时逐个加入）。注册表未指明时，版本号是带点的数字（`4.6`）的游戏取 `version`，否则取 `activity`。
ref-field-activity-dueAt = 文档需要下次更新的时刻（RFC 3339，带游戏时区当时的偏移）：`version` 文档为版本结束时，`activity` 文档为其活动中最晚的结束时间（没有活动时为版本结束时）。工具的 `status` 和页面使用同一规则。在此时刻之后读到文档的客户端，所持数据可能已经过时。
ref-field-games-games = 站点发布的每个游戏。
ref-field-games-games-id = 游戏的 id：由小写字母和数字组成、以 `-` 连接的若干部分。
ref-field-games-games-name = 所有语言共用的一个字符串，或从语言标签到字符串的对象。
ref-field-games-games-locales = 游戏的语言标签，按注册表的顺序。
ref-field-games-games-defaultLocale = 其文档同时以无后缀的名称 `<game>.json` 发布的语言。
ref-field-games-games-timeZone = 游戏服务器的 IANA 时区：其文档中每个无时区的时间都是这里的当地时间（每份文档也以 `timeZone` 写明）。
ref-field-games-games-dataSource = 所有语言共用的一个字符串，或从语言标签到字符串的对象。
ref-field-games-games-version = 默认语言文档的版本号。
ref-field-games-games-versionName = 默认语言文档的版本名称。
ref-field-games-games-startTime = 默认语言的版本开始时间，timeZone 中无时区的当地时间。
ref-field-games-games-endTime = 默认语言的版本结束时间，timeZone 中无时区的当地时间。
ref-field-games-games-files = 游戏发布的每份文档，每个名称各一项（默认语言的文档有两项）。
ref-field-games-games-files-locale = 文档的语言标签。
ref-field-games-games-files-default = 这是默认语言无后缀的 `<game>.json`。
ref-field-games-games-files-path = 文档的站内绝对路径。
ref-field-games-games-files-calendar = 它的 iCalendar 日历的站内绝对路径。
ref-field-games-games-files-sha256 = 文档字节的 SHA-256（十六进制）。
ref-field-games-games-files-bytes = 文档的字节数。
ref-field-games-games-files-updateMode = 维护者保持文档最新的方式：`version`（每个游戏版本整体替换一次）或 `activity`（活动公布时逐个加入）。注册表未指明时，版本号是带点的数字（`4.6`）的游戏取 `version`，否则取 `activity`。
ref-field-games-games-files-dueAt = 文档需要下次更新的时刻（RFC 3339，带游戏时区当时的偏移）：`version` 文档为版本结束时，`activity` 文档为其活动中最晚的结束时间（没有活动时为版本结束时）。工具的 `status` 和页面使用同一规则。在此时刻之后读到文档的客户端，所持数据可能已经过时。
ref-field-games-games-pending = 注册表列出但尚无文档的语言：这些名称下没有发布任何文件。
ref-field-games-games-dataSources = 注册表中的数据来源，与 `games.json` 相同：从语言标签（或 `all`）到来源列表的映射。
ref-field-games-games-updateMode = 注册表为游戏指明的更新方式（未指明时没有此字段；`files` 的每一项给出实际生效的方式）。
ref-field-games-games-timeZoneAssumed = 游戏的 timeZone 是导入数据时推定的，尚未确认。
ref-field-games-games-conventions = 注册表中该游戏数据来源的惯例（来源有意写的结束秒数、关闭的警告规则），与 `games.json` 相同。
ref-field-api-catalog-linkset = 链接集：每项一个上下文及其链接。
ref-field-api-catalog-linkset-anchor = 链接的上下文：API 的基础地址。

## missing-id：每个配对的依据，以及无法确定时的选项（issue 63）

missing-id-help-give = `activity-site check --fix` 会给它分配 `{ $id }`
missing-id-base-both = 依据：在 { $rev } 中，本文件里名称和时间都相同的 `{ $name }` 的 id 是 `{ $id }`
missing-id-base-name = 依据：在 { $rev } 中，本文件里名称相同的 `{ $name }` 的 id 是 `{ $id }`
missing-id-base-times = 依据：在 { $rev } 中，本文件里时间相同的 `{ $name }` 的 id 是 `{ $id }`
missing-id-twin-times = 依据：与 { $path } 中的 `{ $name }` 时间相同，且是这一时间唯一的一对
missing-id-twin-place = 依据：与 { $path } 中的 `{ $name }` 位置相同：两个文件在这一时间各有 { $count } 个活动，它们都是第 { $nth } 个
missing-id-twin-cover = 依据：与 { $path } 中的 `{ $name }` 封面相同，两个文件在这一时间的活动中只有它们用这张封面
missing-id-choice = 给它 `{ $id }`（{ $path } 中的 `{ $name }`）
missing-id-more = 这一时间还有 { $count } 个

## 按 id 比对 locale-parity（issue 63）

parity-moved = `{ $id }`（`{ $name }`）的时间与 { $path } 中的不同：这里是 { $here }，那里是 { $there }
parity-moved-help = 同一活动在每种语言中的时间都相同：请修正这里或 { $path } 中有误的时间

## serve：一批变动等 git 改完工作区（issue 67）
serve-git-lock-stale = { $path } 已存在 { $after }：视为已中止的 git 留下的锁，不再等待它
serve-waiting-for-git = git 正在修改工作区（{ $path } 存在）：等它改完再重新生成

## Lists of games cut into pages at scale (issue 67: saves at 1,000 games)
page-listing-pages = 游戏列表分页
