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
