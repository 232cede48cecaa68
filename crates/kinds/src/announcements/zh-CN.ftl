# 公告栏的简体中文消息：与同目录的 en-US.ftl 一一对应，参数相同
# （tests/i18n.rs 与工具自己的消息一并检查）。书写约定同 crates/i18n/src/zh-CN.ftl。

agent-board-new = 新公告板，id 为 { $id }，共 { $count } 条公告
agent-board-unchanged = 公告没有变化（id { $before } -> { $after }）
agent-board-same-id = 公告变了，但 `id` 没有增大（{ $before } -> { $after }）：客户端不会显示新内容；请把 `id` 改为 { $next } 后再写入
agent-board-raised = 公告已更改，`id` 从 { $before } 变为 { $after }
breaking-id-none = （无）
breaking-id-stayed = 它们的 id 仍是 { $id }
breaking-id-down = 它们的 id 从 { $from } 降到了 { $to }
breaking-announcements-id = 公告变了，但{ $what }：桌面客户端和网页只在 id 变化时才会重新显示公告栏，所以永远不会显示新内容。
breaking-announcements-id-help = 请在公告文件中把 "id" 设为 { $id }（比已发布的 id 大 1）
anno-orphan = `{ $path }` 没有以语言代码命名，因此不会发布其中的公告
anno-orphan-help = 请以语言代码命名公告文件，例如 `data/_announcements/zh-CN.json`
anno-id-help = `id` 是大于或等于 0 的整数，例如 `28`；每次修改内容时请把它加 1
anno-title-help = 请为公告填写标题：客户端按标题列出公告栏
anno-content-type-help = 唯一的内容类型是 "markdown"，省略该字段也表示 "markdown"
anno-content-help = 请用 Markdown 字符串填写公告正文
anno-minimum = `{ $field }` 必须大于或等于 0（实际为 { $found }）
anno-unknown-value = 未知的 `{ $field }`：{ $value }
anno-id-not-whole = `id` 写成了 `{ $raw }`，不是整数的写法
anno-id-not-whole-help = 请写成 `{ $whole }`：客户端把 id 当作整数读取
anno-updated-bad = `updated` 是 `{ $found }`，不是带偏移的 RFC 3339 时间
anno-updated-help = 写公告板最后一次修改的时间，带上偏移，例如 `2026-11-20T10:00:00+08:00`：Atom 订阅源的 `updated` 就是这个时间
markdown-link = `content` 中的{ $image ->
    [yes] 图片
   *[no] 链接
} `{ $dest }` 既不是绝对的 http(s) 网址，也不是本站的路径
markdown-link-help = 请把{ $image ->
    [yes] 图片
   *[no] 链接
}指向 `https://...`、本站的页面（例如 `/sr/`）或本条公告中的标题（例如 `#notes`）；页面会丢弃其他{ $image ->
    [yes] 图片
   *[no] 链接
}
markdown-fragment = `content` 中的链接 `{ $dest }` 没有指向本条公告中的任何标题
markdown-fragment-help = 请链接到本条公告中的标题，写法为标题的锚点名（英文字母小写，空格改为 `-`，去掉标点）：{ $headings }
markdown-fragment-no-headings-help = 本条公告没有标题：请添加一个标题（例如 `## { $name }`），或改为链接到绝对的 https:// 网址；`#` 链接只能指向同一条公告中的标题
markdown-html = `content` 中含有原始 HTML `{ $html }`
markdown-html-help = 页面会把原始 HTML 显示为文本，客户端也可能丢弃它：请把代码放在反引号中（`<tag>`），或用 `&lt;` 表示字面上的 `<`
diff-announcement = { $change ->
    [added] 新增公告
    [edited] 修改公告
   *[removed] 删除公告
}：{ $title }
import-summary-announcements = { $count } 个公告文件
status-board = 公告栏
status-board-id = ID
status-board-count = 条数
page-announcements = 公告
page-no-announcements = 暂无公告。

# API 参考页面：公告栏的 schema 与字段。
ref-schema-announcements = 公告板
ref-field-games-announcements = 公告板，每种语言一份（没有公告板的站点没有此字段）。
ref-field-games-announcements-locale = 公告板的语言标签。
ref-field-games-announcements-default = 这是站点默认语言无后缀的公告板。
ref-field-games-announcements-path = 公告板的站内绝对路径。
ref-field-games-announcements-feed = 它的 Atom 订阅的站内绝对路径。
ref-field-games-announcements-id = 公告板的 id，内容每次变化时增大。
ref-field-games-announcements-sha256 = 公告板字节的 SHA-256（十六进制）。
ref-field-games-announcements-bytes = 公告板的字节数。
ref-field-announcements-id = 大于等于 0 的整数，公告板内容每次变化时增大：客户端把它与上次显示的 id 比较。
ref-field-announcements-updated = 可选：公告板最后一次变化的时间，RFC 3339，带偏移（2026-11-20T10:00:00+08:00）。公告板的 Atom 订阅的 `updated` 取自这里（没有时为 Unix 纪元），因此订阅只随公告板变化。
ref-field-announcements-announcements = 公告，最新的在前。
ref-field-announcements-announcements-title = 公告的标题，显示在公告板的列表中。
ref-field-announcements-announcements-content = 公告的正文，Markdown（CommonMark）格式。链接为绝对 http(s) URL、站内路径（/...）或锚点（#...）；原始 HTML 按文本显示。
ref-field-announcements-announcements-contentType = `content` 的写法；只有 "markdown"，省略 contentType 时也是这个意思。

# 智能体工具（read_announcements、check_announcements、write_announcements）
# 的说明，以及它们在服务器说明中的一句话。
agent-announcements-instructions = 公告栏（data/_announcements/<locale>.json）有自己的工具：read_announcements、check_announcements、write_announcements；内容每次变化时都要增大 `id`。
agent-announcements-read = 某个语言的公告栏 data/_announcements/<locale>.json 在磁盘上的原文，附带 `locale` 和 `path`（即 check_announcements 和 write_announcements 的参数，改好 `text` 后可以原样传回）；`build` 把它发布为 API 的 anno-<locale>.json，网站默认语言的还会发布为 anno.json。
agent-announcements-check = 草稿 `text` 作为 data/_announcements/<locale>.json 会得到的诊断（与 `check` 相同：schema、Markdown 链接和原始 HTML、不可见字符），每条都有代码、严重程度、行、列、消息和提示，修复方式确定时还有 `fix`。给出 `fix: true` 时先应用所有确定的修复（见回答中的 `text`、`fixes` 和 `changes`）。不写入任何文件。
agent-announcements-write = 把草稿 `text` 写为 data/_announcements/<locale>.json。给出 `fix: true` 时先应用所有确定的修复。有错误的草稿会被拒绝（并返回其诊断）；否则以规范格式（2 个空格缩进，公告保持草稿中的顺序，最新的在前）原子地写入。内容每次变化时都要增大 `id`：客户端只在 `id` 变化时才重新显示公告栏；`id` 没有增大时，回答会指出。

# 代码文档（`docs codes`）中它的一行。
code-means-announcements-id = 公告板内容变了但 id 没有增加：客户端永远不会显示新内容。
code-todo-announcements-id = 公告板内容每次变动，都把它的 id 加一。
