# The announcements board's messages, in English: the reference wording
# (the same identifiers and arguments as zh-CN.ftl beside this file, which
# tests/i18n.rs checks with the tool's own files).

agent-board-new = new board with id { $id } and { $count ->
    [one] { $count } announcement
   *[other] { $count } announcements
}
agent-board-unchanged = the announcements are unchanged (id { $before } -> { $after })
agent-board-same-id = the announcements changed but `id` did not go up ({ $before } -> { $after }): clients will not show the new text; raise `id` to { $next } and write again
agent-board-raised = the announcements changed and `id` went from { $before } to { $after }
breaking-id-none = (none)
breaking-id-stayed = their id stayed { $id }
breaking-id-down = their id went down from { $from } to { $to }
breaking-announcements-id = the announcements changed and { $what }: the desktop client and the web UI show the board again only when the id changes, so they never show the new text.
breaking-announcements-id-help = set "id" to { $id } (one more than the published id) in the announcements file
anno-orphan = `{ $path }` is not named after a locale, so no announcements are published from it
anno-orphan-help = name announcements files after their locale, such as `data/_announcements/zh-CN.json`
anno-id-help = `id` is a whole number, 0 or more, such as `28`; raise it by one whenever the content changes
anno-title-help = give the announcement a title: clients list the board by its titles
anno-content-type-help = the only content type is "markdown", which is also what leaving it out means
anno-content-help = write the announcement's text as a Markdown string
anno-minimum = `{ $field }` must be 0 or more (found { $found })
anno-unknown-value = unknown `{ $field }` { $value }
anno-id-not-whole = `id` is written `{ $raw }`, not as a whole number
anno-id-not-whole-help = write `{ $whole }`: clients read the id as an integer
anno-updated-bad = `updated` is `{ $found }`, not an RFC 3339 time with an offset
anno-updated-help = write when the board last changed, with its offset, such as `2026-11-20T10:00:00+08:00`: the Atom feed's `updated` is this time
markdown-link = the { $image ->
    [yes] image
   *[no] link
} `{ $dest }` in `content` is neither an absolute http(s) URL nor a path of this site
markdown-link-help = point the { $image ->
    [yes] image
   *[no] link
} at `https://...`, at a page of this site such as `/sr/`, or at a heading of this announcement such as `#notes`; the page drops any other { $image ->
    [yes] image
   *[no] link
}
markdown-fragment = the link `{ $dest }` in `content` names no heading of this announcement
markdown-fragment-help = link to a heading of this same announcement, written as its slug (lower case, spaces as `-`, punctuation dropped): { $headings }
markdown-fragment-no-headings-help = this announcement has no headings: add one, such as `## { $name }`, or link to an absolute https:// URL instead; a `#` link names a heading of its own announcement only
markdown-html = `content` holds raw HTML `{ $html }`
markdown-html-help = the page shows raw HTML as text and clients may drop it: put code in backticks (`<tag>`), or write `&lt;` for a literal `<`
diff-announcement = announcement { $change }: { $title }
import-summary-announcements = { $count ->
    [one] { $count } announcements file
   *[other] { $count } announcements files
}
status-board = ANNOUNCEMENTS
status-board-id = ID
status-board-count = COUNT
page-announcements = Announcements
page-no-announcements = No announcements.

# The API reference page: the board's schema and fields.
ref-schema-announcements = Announcements board
ref-field-games-announcements = The announcements boards, one per locale (absent from a site without them).
ref-field-games-announcements-locale = The board's locale tag.
ref-field-games-announcements-default = This is the un-suffixed board of the site's default locale.
ref-field-games-announcements-path = The board, site-absolute.
ref-field-games-announcements-feed = Its Atom feed, site-absolute.
ref-field-games-announcements-id = The board's id, raised whenever its content changes.
ref-field-games-announcements-sha256 = Hex SHA-256 of the board's bytes.
ref-field-games-announcements-bytes = The board's size in bytes.
ref-field-announcements-id = A whole number, 0 or more, raised whenever the board's content changes: clients compare it with the last id they showed.
ref-field-announcements-updated = Optional: when the board last changed, RFC 3339 with an offset (2026-11-20T10:00:00+08:00). The board's Atom feed takes its `updated` from here (the Unix epoch without it), so the feed changes only with the board.
ref-field-announcements-announcements = The announcements, newest first.
ref-field-announcements-announcements-title = The announcement's title, shown in the board's list.
ref-field-announcements-announcements-content = The announcement's text, in Markdown (CommonMark). Links are absolute http(s) URLs, site paths (/...) or anchors (#...); raw HTML is shown as text.
ref-field-announcements-announcements-contentType = How `content` is written; only "markdown", which is also what an absent contentType means.

# The agents' tools of the boards (read_announcements, check_announcements,
# write_announcements) and their sentence of the server's instructions.
agent-announcements-instructions = The announcements boards (data/_announcements/<locale>.json) have their own tools: read_announcements, check_announcements, write_announcements; raise their `id` whenever their content changes.
agent-announcements-read = The text of the announcements board of a locale, data/_announcements/<locale>.json, as it is on disk, with `locale` and `path` (the arguments of check_announcements and write_announcements, so the answer can be passed back with `text` edited; `build` publishes it as the API's anno-<locale>.json, and as anno.json for the site's default locale).
agent-announcements-check = The diagnostics the draft `text` would get as data/_announcements/<locale>.json (the same as `check`: schema, Markdown links and raw HTML, invisible characters), each with its code, severity, line, column, message and help, and `fix` when the repair is exact. With `fix: true`, every exact fix is applied first (the answer's `text`, `fixes` and `changes`). Writes nothing.
agent-announcements-write = Writes the draft `text` as data/_announcements/<locale>.json. With `fix: true`, every exact fix is applied first. Refuses a draft with errors (and returns its diagnostics); otherwise writes its canonical form (2-space indentation, announcements in the draft's order, newest first) atomically. Raise `id` whenever the content changes: clients show the board again only when `id` changes; the answer says when it did not.

# Its row of the documentation of the codes (`docs codes`).
code-means-announcements-id = An announcements board changed without its id going up: clients never show the new text.
code-todo-announcements-id = Raise the board's id by one whenever its content changes.
