# English messages of activity-site: the reference wording.
#
# Every message here has its twin in zh-CN.ftl with the same arguments
# (tests/i18n.rs). Codes, JSON keys, paths and values quoted from the data
# are arguments; only the prose is written here. Placeables carry no
# isolation marks (the bundle turns them off).

## How diagnostics are printed

label-error = error
label-warning = warning
label-help = help
help-line = help: { $text }
label-note = note
note-line = note: { $text }
summary = { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
}, { $warnings ->
    [one] { $warnings } warning
   *[other] { $warnings } warnings
}
checked-clean = checked: no problems
checked-summary = checked: { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
}, { $warnings ->
    [one] { $warnings } warning
   *[other] { $warnings } warnings
}
list-semicolon = {"; "}
list-cause = {": "}
list-comma = {", "}
did-you-mean = did you mean `{ $name }`?
plain = { $text }
lines = { $first }
    { $second }

## Reading files (json-syntax, games-registry)

load-registry-missing = games.json is missing
load-registry-missing-help = create games.json at the root: {"{"}"games": [...]{"}"}
load-read-failed = cannot read the file: { $error }
load-invalid-utf8 = invalid UTF-8 at byte { $byte }
load-invalid-utf8-help = save the file as UTF-8

## json-syntax: what the parser expected

expected-value = a value
expected-key = a key in double quotes
expected-colon = `:` after the key
expected-digit = a digit
expected-digit-fraction = a digit after the decimal point
expected-digit-exponent = a digit in the exponent
expected-comma-or-brace = `,` or `{"}"}`
expected-comma-or-bracket = `,` or `]`

## json-syntax: punctuation an input method types in place of JSON's

char-full-width-comma = full-width comma
char-full-width-colon = full-width colon
char-left-double-quote = left double quotation mark
char-right-double-quote = right double quotation mark
char-left-single-quote = left single quotation mark
char-right-single-quote = right single quotation mark
char-full-width-quote = full-width quotation mark
char-full-width-left-brace = full-width left curly bracket
char-full-width-right-brace = full-width right curly bracket
char-full-width-left-bracket = full-width left square bracket
char-full-width-right-bracket = full-width right square bracket
char-ideographic-space = ideographic space
char-quotation-mark = quotation mark
char-tab = a tab
char-control = the control character U+{ $code }
ascii-char = the ASCII `{ $char }`
ascii-space = an ASCII space

## json-syntax: the mistakes

syntax-empty = the file is empty
syntax-bom = the file starts with a byte-order mark (U+FEFF, as Notepad saves UTF-8); the checks read on behind it
syntax-bom-help = remove it (`activity-site check --fix` does), or save the file as UTF-8 without BOM
syntax-after-end = unexpected content after the end of the document
syntax-after-end-help = the document's outermost value closes on line { $line }; remove what follows it, or look for a bracket closed too early
syntax-eof-expected = unexpected end of file: expected { $expected }
syntax-expected-found = expected { $expected }, found { $found }
syntax-still-open-help = the `{ $open }` opened on line { $line } is still open here; is a `{ $close }` missing?
syntax-lookalike = { $name } `{ $char }` (U+{ $code }) outside a string is not JSON punctuation
syntax-lookalike-space = { $name } (U+{ $code }) outside a string is not JSON punctuation
syntax-lookalike-help = type { $instead } instead (a Chinese input method types this one in its place)
syntax-comment = JSON has no comments
syntax-comment-help = remove the comment; a note for players belongs in a `description`
syntax-comment-unclosed-help = remove the comment; this one is never closed by `*/`
syntax-single-quotes = JSON strings are written in double quotes, not single quotes
syntax-single-quotes-help = replace both single quotes with `"`
syntax-not-a-number = `{ $word }` is not a JSON number
syntax-not-a-number-help = JSON numbers are finite: write `null`, or the text as a string
syntax-plus = a JSON number does not start with `+`
syntax-plus-help = remove the `+`
syntax-never-closed = unexpected end of file: the `{ $open }` opened on line { $line } is never closed
syntax-never-closed-help = add `{ $close }` to close the `{ $open }` opened on line { $line }
syntax-missing-comma = expected `,` after this value
syntax-missing-comma-help = add a `,` here: { $container ->
    [object] members
   *[array] elements
} are separated by commas
syntax-trailing-comma = trailing comma in { $container ->
    [object] an object
   *[array] an array
}
syntax-trailing-comma-help = remove this comma: JSON allows no comma after the last item
syntax-too-deep = arrays and objects nest deeper than { $max } levels
syntax-bare-key = object keys are written in double quotes
syntax-bare-key-help = write `"{ $word }"`
syntax-leading-zero = a JSON number does not start with a leading zero
syntax-leading-zero-help = write `{ $trimmed }` instead of `{ $digits }`
syntax-number-range = number out of range
syntax-invalid-escape = invalid escape `{ $escape }`
syntax-invalid-escape-help = the escapes are `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` and `\uXXXX`; write `\\` for a backslash
syntax-unicode-escape = invalid unicode escape: `\u` takes four hexadecimal digits
syntax-lone-surrogate = invalid unicode escape: a lone surrogate is not a character
syntax-unterminated = this string is never closed
syntax-unterminated-help = add the closing `"`
syntax-open-at-line-end = this string is not closed before the end of the line
syntax-open-at-line-end-help = add the closing `"`; a raw line break is not allowed inside a JSON string (write `\n` for one)
syntax-open-at-line-end-comma-help = add the closing `"` before the `{ $comma }`; a raw line break is not allowed inside a JSON string (write `\n` for one)
syntax-typographic-close = the string ends with the { $name } `{ $char }` (U+{ $code }), which JSON does not read as a quote
syntax-more-errors = { $count ->
    [one] { $count } more syntax error
   *[other] { $count } more syntax errors
} after this one in the file are not shown; fix these and check again
syntax-typographic-end-help = it ends with the { $name } `{ $char }` (U+{ $code }); type the ASCII `"` instead
syntax-control-in-string = { $what } inside a string must be escaped
syntax-control-in-string-help = write it as `{ $escape }`, or remove it

## duplicate-key

duplicate-key = the key `{ $key }` is given twice in this object (first on line { $line })
duplicate-key-help = keep one of the two: the key on line { $line }, column { $column } or this one; a rewrite would keep only the last value

## schema

schema-unknown-field = unknown field `{ $key }`
schema-known-fields = known fields: { $fields }
schema-missing-field = missing field `{ $name }`
schema-activity-missing-field = the activity `{ $activity }` has no `{ $name }`
schema-quote-number-help = { $whole ->
    [yes] `the document`
   *[no] `{ $field }`
} is text: write it in quotes, `"{ $raw }"`
add-description = add `"description": ""` to it (a sentence saying what the activity is, or empty)
add-name = add `"name": "..."` with the name as announced
add-time = add `"{ $name }": "YYYY-MM-DDTHH:MM:SS"` in the game's server time
add-activities = add `"activities": []`, and the version's activities in it
add-field = add `"{ $name }"`
schema-misspelt-present = `{ $present }` is present: did you mean `{ $name }`?
schema-empty = `{ $field }` must not be empty
schema-wrong-type = wrong type for { $whole ->
    [yes] `the document`
   *[no] `{ $field }`
}: { $value } is not of { $count ->
    [one] type
   *[other] types
} { $expected } (found { $found })
schema-other = { $detail }
kind-null = null
kind-boolean = a boolean
kind-number = a number
kind-integer = an integer
kind-string = a string
kind-array = an array
kind-object = an object

## datetime

datetime-fraction = `{ $text }` has a fraction of a second
datetime-fraction-help = drop the fraction: `{ $prefix }`
datetime-offset = `{ $text }` has a time zone or offset (`{ $rest }`)
datetime-offset-help = times are in the game's server time zone without offset: `{ $prefix }`
datetime-no-time = `{ $text }` has no time of day
datetime-no-time-help = write local server time as YYYY-MM-DDTHH:MM:SS, such as `{ $text }T04:00:00`
datetime-space = `{ $text }` separates date and time with a space
datetime-space-help = use `T`: `{ $fixed }`
datetime-shape = `{ $text }` is not a date-time of the form YYYY-MM-DDTHH:MM:SS
datetime-form-help = write local server time as YYYY-MM-DDTHH:MM:SS
datetime-fullwidth-colon = `{ $text }` has the full-width colon `：` (U+FF1A), typed by an input method
datetime-fullwidth-colon-help = type the ASCII `:`: `{ $fixed }`
datetime-slashes = `{ $text }` writes the date with slashes
datetime-slashes-help = write it as `{ $fixed }` (YYYY-MM-DDTHH:MM:SS, local server time)
datetime-rewrite-help = write it as `{ $fixed }`
datetime-input-method = `{ $text }` has full-width characters or words typed by an input method
datetime-no-year = `{ $text }` has no year
datetime-year-from-version = the year { $year } is the version's (it runs { $start } to { $end })
datetime-year-from-other = the year { $year } puts it { $relation ->
    [before] before
   *[after] after
} the version's { $field } ({ $time })
datetime-month = `{ $text }` has no month { $month }
datetime-month-help = months run from 01 to 12
datetime-day = `{ $text }` is not a real date: { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
} { $year } has { $last } days
datetime-day-help = check the day of the month
datetime-hour-24 = `{ $text }` uses hour 24
datetime-hour-24-help = write the end of the day as `{ $date }T23:59:59` or the next day as `{ $next }T00:00:00`
datetime-time = `{ $text }` is not a real time of day
datetime-time-help = hours run from 00 to 23, minutes and seconds from 00 to 59
datetime-invalid = `{ $text }` is not a valid date-time

## time-order, stale, outside-version, end-of-minute, unsorted, duplicate-activity

time-order-version = the version ends ({ $end }) before it starts ({ $start })
time-order-activity = the activity ends ({ $end }) before it starts ({ $start })
time-order-help = endTime must be later than startTime
stale = the version ended on { $date } ({ $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} ago)
stale-help = update the document to the current version
stale-activity = the last activity ended on { $date } ({ $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} ago)
stale-activity-help = the game has no version cycle (updateMode `activity`): add the activities announced since, and drop the ones that have ended
update-mode-inferred = games.json names no updateMode for this game: read as `{ $mode }` from the version `{ $version }` (a dotted number is a version cycle); set "updateMode" to say so
upcoming-version = the version starts on { $date } (in { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
}), after now
upcoming-version-help = until it starts, clients show this version as the current one: the previous version's activities that are not in this file vanish and this file's activities show as not started yet; carry every activity that ends after the new start into this file in every locale (`activity-site version new` does it), or publish the file when the version starts
outside-version-before = the activity ended ({ $end }) before the version started ({ $start })
outside-version-before-help = remove it, or check the dates
outside-version-after = the activity starts ({ $start }) after the version ended ({ $end })
outside-version-after-help = it belongs to the next version's document
end-of-minute = the activity ends at :{ $seconds } seconds
end-of-minute-help = the sources end activities at :59 seconds: did you mean `{ $suggested }`? (A source that writes such ends on purpose declares it once: `conventions.endSeconds` in games.json.)
unsorted = the activity starts ({ $start }) before the one above it ({ $previous })
unsorted-help = run `activity-site fmt` to sort activities by startTime
duplicate-activity = `{ $name }` starting { $start } is listed twice (also activity { $first })
duplicate-activity-help = remove one of them, or correct its name or startTime
duplicate-id = the id `{ $id }` is already the id of activity { $first }
duplicate-id-help = an id names one activity: remove this `id` from the activity that is not the one it names, and `activity-site check --fix` gives it its own
missing-id = the activity `{ $name }` has no `id`
missing-id-help-fresh = `activity-site check --fix` gives it the new id `{ $id }`
missing-id-help-choose = { $count ->
    [one] one activity of another language could be this one, and no evidence decides: give it its id if it is the same activity (the editor offers it as a quick fix)
   *[other] { $count } activities of other languages could be this one, and no evidence decides: give it the id of the one that is the same activity (the editor offers each as a quick fix)
}
missing-id-help-times = give the activity its startTime and endTime: its id is found by its times
missing-id-candidate = `{ $id }`: `{ $name }` in { $path }

## cover-url, whitespace

cover-http = the cover `{ $url }` is served over plain http
cover-http-help = use `https://{ $rest }` if the host supports it
cover-invalid = the cover `{ $url }` is not an absolute http(s) URL
cover-invalid-help = use an absolute https:// URL, or an empty string for no cover
whitespace-trim = `{ $field }` has leading or trailing whitespace
invisible = { $keyed ->
    [yes] `{ $field }`
   *[no] the value
} contains { $class } U+{ $code } at column { $column }
class-zero-width = the zero-width character
class-bidi = the bidi control character
class-control = the control character
class-format = the invisible format character
invisible-escaped-help = remove the escape at line { $line }, column { $column }; use a plain space if a space was meant
invisible-help = it does not show in most editors: delete the character at line { $line }, column { $column } (put the cursor just after it and press Backspace once), or retype the text

## games-registry, missing-file, pending-locale, orphan-file

registry-bad-id = `{ $id }` is not a valid game id
registry-bad-id-help = ids are lowercase letters and digits, in words joined by `-`, such as `{ $suggestion }`
registry-duplicate-id = the game id `{ $id }` is listed twice (also game { $first })
registry-duplicate-id-help = each game appears once; merge the two entries
registry-bad-locale = `{ $locale }` is not a BCP 47 language tag
registry-bad-locale-help = use tags such as `zh-CN` or `en-US`
registry-duplicate-locale = the locale `{ $locale }` is listed twice
registry-default-locale = the default locale `{ $default }` is not one of the game's locales
registry-default-locale-help = use one of { $locales }
registry-no-source = the game names no source: it needs "dataSources" (typed sources per locale) or "dataSource" (a page URL)
registry-no-source-help = add "dataSources": {"{"} "all": [{"{"} "type": "html", "url": "https://..." {"}"}] {"}"}, or "dataSource": "https://..."
conventions-unknown-code = `{ $code }` is not a rule code
conventions-not-ignorable = the rule `{ $code }` cannot be turned off: it reports errors, which stop the build
conventions-ignorable-help = a game may turn off these warning rules: { $codes }
registry-time-zone = `{ $zone }` is not an IANA time zone
registry-time-zone-help = use a name such as `Asia/Shanghai` or `America/New_York`
registry-zone-assumed = the time zone { $zone } of `{ $game }` was assumed by the import, not confirmed: every time of its data is read in it
registry-zone-assumed-help = check the game's server times; if { $zone } is right, remove "timeZoneAssumed", else set "timeZone" to the right zone and remove it
registry-alias-path = `{ $path }` cannot be an alias: an alias is a path under api/v1/ ending in .json that the build does not write itself
registry-alias-path-help = use a path such as api/v1/activities.json (not under api/v1/activity/, not the index, a schema or announcements)
registry-alias-twice = `{ $path }` is already an alias at { $first }
registry-alias-locale = `{ $locale }` is not one of the game's locales
source-locale = `{ $key }` is neither one of the game's locales nor `all`
source-locale-help = use one of { $locales }, or `all`
source-type = `{ $kind }` is not a kind of data source
source-type-help = use `html`, `script` or `pageData`
source-url = the source URL `{ $url }` is not an absolute http(s) URL
source-url-help = write the whole address, such as `https://example.org/news`
source-needs-url = a `{ $kind }` source needs a `url`
source-needs-url-help = add "url": "https://..." with the page to read
source-needs-script = a `script` source needs a `script`
source-needs-script-help = add "script": "scripts/fetch-....mjs", the script's path in the repository
source-repository = `repository` is `{ $url }`, not an absolute http(s) URL
source-repository-not-script = `repository` belongs to a `script` source, not to a `{ $kind }` one
source-repository-help = `repository` is the http(s) URL of the repository that holds a `script` source's script when it is not this one, such as `https://github.com/owner/name`: status links the script
source-article-url = the article URL template `{ $template }` is not an absolute http(s) URL
source-article-url-help = write the whole address with a placeholder, such as `https://example.org/news/{"{"}id{"}"}`
source-article-placeholder = the article URL template `{ $template }` has no `{"{"}field{"}"}` placeholder
source-article-placeholder-help = name the entry's field that completes the URL, such as `https://example.org/news/{"{"}id{"}"}`
kept-unpublishable = `{ $path }` cannot be published at `{ $published }`: { $problem }
kept-unpublishable-help = replace the link with the file itself, or move the file out of data/_files/
kept-link-outside = it is a link to `{ $target }`, outside { $folder }
kept-link-folder = it is a link to a folder, which is not followed
kept-link-unresolved = it is a link that cannot be resolved ({ $error })
kept-not-regular = it is not a regular file
kept-clash = `{ $kept }` would replace the generated `{ $generated }`; a kept file never overrides a generated one
    help: remove or rename `{ $kept }` (the build writes `{ $generated }` itself)
missing-file = `{ $path }` does not exist
missing-file-help = create `{ $path }`, or remove `{ $locale }` from the game's locales
pending-locale = `{ $locale }` is listed but `{ $path }` does not exist yet: nothing is published in { $locale }, and the index lists it as pending
pending-locale-help = create `{ $path }` when the { $locale } facts are public (start from a copy of the default language's), or remove `{ $locale }` from the game's locales
orphan-locale = `{ $path }` belongs to no locale of `{ $game }` in games.json
orphan-locale-help = add `{ $locale }` to the locales of `{ $game }`, or remove the file
orphan-game = `{ $path }` belongs to `{ $game }`, which games.json does not list
orphan-game-help = add `{ $game }` to games.json, or remove the file
orphan-elsewhere = `{ $path }` is not where data files go
orphan-elsewhere-help = data files live at data/<game>/<locale>.json

## locale-parity

parity-version = the version differs from { $path }
parity-behind = the version is older than the one of { $path }: this file is behind
parity-times = the activities' times differ from { $path }
parity-missing = { $count ->
    [one] 1 activity of { $path } is missing here
   *[other] { $count } activities of { $path } are missing here
}
parity-missing-help = add { $count ->
    [one] it
   *[other] them
} here with the same times (in this file's language), or remove { $count ->
    [one] it
   *[other] them
} from { $path }: locale files of one game describe the same activities
parity-help = locale files of one game describe the same version and the same activities with the same times; update both
parity-field = `{ $field }` is `{ $here }` here, `{ $there }` there
parity-note-missing = missing here: `{ $name }` ({ $start } to { $end })
parity-note-extra = only here: `{ $name }` ({ $start } to { $end })
parity-window = `{ $name }` ({ $start } to { $end })
parity-more = and { $count } more

## status

status-game = GAME
status-locale = LOCALE
status-version = VERSION
status-mode = MODE
status-mode-inferred = { $mode } (inferred)
status-due = DUE
status-left-header = LEFT
status-state-header = STATE
status-left = { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} left
status-overdue = { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} overdue
status-starts-in = { $days ->
    [0] starts within a day
    [one] starts in 1 day
   *[other] starts in { $days } days
}
status-missing = missing: { $file }
status-pending = pending: { $file } (no document yet)
status-invalid = invalid: run `activity-site check` ({ $file })
status-state = { $state ->
    [ok] ok
    [ending] ending
    [ended] ended
   *[other] { $state }
}
note-placeholder = note: games.json: `{ $game }` still has the placeholder `dataSource` (and maybe `name`) that `import` wrote; replace them with the real ones
note-zone-assumed = note: games.json: the time zone { $zone } of `{ $game }` was assumed by `import` and its times are read in it; confirm it by removing "timeZoneAssumed" (or set the right "timeZone")

## build

build-done = built { $out }: { $files } files, { $size } in { $elapsed } ({ $reused } of { $parts } parts from the cache; { $checked } of { $games } games checked, the others unchanged since a clean check)
build-failed = build failed: { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
}; `{ $out }` left as it was
build-force = warning: --force: a good build replaces `{ $out }`, which activity-site did not make, and moves the { $files ->
    [one] { $files } file
   *[other] { $files } files
} in it to `{ $out }.replaced-<date and time>` beside it (nothing is deleted): { $first }{ $more ->
    [0] {""}
   *[other] , and { $more } more
}
build-set-aside = moved what `{ $out }` held before to `{ $place }`; nothing was deleted

build-progress-games = games

## fmt

fmt-would-reformat = would reformat { $path }: { $why }
fmt-reformatted = reformatted { $path }: { $why }
fmt-left-broken = fmt: left { $files ->
    [one] { $files } file
   *[other] { $files } files
} with errors unchanged
fmt-summary = fmt: { $changed ->
    [one] { $changed } file
   *[other] { $changed } files
} { $check ->
    [yes] would change
   *[no] reformatted
}, { $canonical } already canonical
fix-left = left { $path } unchanged: another mistake in it has no exact fix, so its fixes would not give valid JSON

## Refusals of every data command

no-registry = no { $registry } in { $root }: not a data folder; run in the data repository or pass --root DIR

## The language server (activity-site lsp)

lsp-not-formatted = not formatted: the file has { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
}, and its canonical form is known only once they are fixed
lsp-fix-remove = Remove { $old }
lsp-fix-replace = Replace { $old } with { $new }
hover-time = **{ $weekday }** { $time } ({ $zone })

    { $when }

    UTC: `{ $utc }`
hover-weekday = { $day ->
    [1] Monday
    [2] Tuesday
    [3] Wednesday
    [4] Thursday
    [5] Friday
    [6] Saturday
   *[7] Sunday
}
hover-utc-ambiguous = { $first } or { $second } (the clocks go back)
hover-utc-none = none: the clocks skip this local time
hover-now = now
hover-future = in { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
}
hover-past = { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} ago

## The agents' data tools (activity-site mcp)

agent-registry-unreadable = cannot read games.json: { $error }
agent-registry-unparsed = games.json does not parse ({ $error }); fix it first (`activity-site check`)
agent-no-game = games.json lists no game `{ $game }` (games: { $games })
agent-no-locale = games.json lists no locale `{ $locale }` for `{ $game }` (locales: { $locales })
agent-unsafe-path = refusing `{ $path }`: a game id or locale with characters other than letters, digits and `-`
agent-cannot-check = cannot check: { $error }
agent-not-yet = `{ $path }` does not exist yet; { $tool } creates it
agent-refused-errors = not written: the draft has { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
} (see `diagnostics`)
agent-refused-unparsed = not written: the draft of `{ $path }` does not parse
agent-not-written = not written: { $error }
agent-cannot-write = cannot write `{ $path }`: { $error }
agent-cannot-resolve = cannot resolve `{ $path }`: { $error }
agent-outside-data = refusing to write `{ $path }`: it resolves outside data/
agent-not-a-locale = `{ $locale }` is not a locale tag such as `zh-CN` or `en-US`
agent-path-mismatch = `path` is `{ $path }`, but the game and locale given name `{ $expected }`; pass back what the read tool answered
agent-written = written
agent-registry-no-games = games.json has no `games` list; fix it first (`activity-site check`)
agent-game-no-id = the game has no `id`: give its entry as games.json holds it, with `id`, `name`, `locales`, `defaultLocale` and `dataSource`
agent-game-exists = games.json already lists a game `{ $game }`; add a locale with add_locale, or edit its data with write_document
agent-locale-exists = games.json already lists the locale `{ $locale }` for `{ $game }`
agent-document-not-listed = a document is given for `{ $locale }`, which the `locales` of `{ $game }` do not list

## Errors of the tool itself: reading and writing files

err-read = cannot read `{ $path }`
err-read-root = cannot read the root `{ $path }`
err-root-not-dir = the root `{ $path }` is not a directory
err-list = cannot list `{ $path }`
err-not-json = `{ $path }` is not valid JSON
err-write = cannot write `{ $path }`
err-create = cannot create `{ $path }`
err-replace = cannot replace `{ $path }`
out-no-place = cannot build into `{ $out }`: the output must be a folder with a name, inside another folder
    help: name a folder of its own, such as `site`
build-cards-spool = cannot keep the home pages' cards in their temporary file beside the output
    help: check that the disk holding the output has free space, then build again
err-bad-path = bad path `{ $path }`
err-bad-output-path = bad output path `{ $path }`
err-read-out = cannot read `--out { $out }`
err-set-aside = the new site is in `{ $out }`, but what it held before, now at `{ $held }`, could not be moved to `{ $place }`; nothing was deleted
out-refused-home = refusing `--out { $out }`: it is your home directory, and a build replaces its output directory entirely; `--force` does not change this
    help: pick a new or empty directory
out-refused-system-root = refusing `--out { $out }`: it is the root of a file system, and a build replaces its output directory entirely; `--force` does not change this
    help: pick a new or empty directory
out-refused-root = refusing `--out { $out }`: { $contains ->
    [yes] it contains the data root
   *[no] it is the data root
}, and a build replaces its output directory entirely
    help: pick a directory of its own, such as `{ $suggestion }`
out-refused-input = refusing `--out { $out }`: it is inside `{ $input }` of the data root, which holds inputs
    help: pick a directory of its own, such as `{ $suggestion }`
out-refused-file = refusing `--out { $out }`: it exists and is not a directory
    help: pick a new or empty directory
out-refused-tree = refusing `--out { $out }`: it holds `{ $held }`, so it is a data tree or a repository, not a generated site
    help: pick a new or empty directory, such as `{ $suggestion }`
out-refused-foreign = refusing `--out { $out }`: it holds { $files ->
    [one] { $files } file
   *[other] { $files } files
} and was not made by activity-site (no `{ $marker }` in it); a build would replace all of it
    help: pick a new or empty directory, or pass `--force` to replace it (what it holds is moved to `{ $out }.replaced-<date and time>` beside it, not deleted)
cache-inside-output = refusing to keep the build cache `{ $cache }` inside the output `{ $out }`: every build replaces it
    help: pass a --cache-dir outside the output directory
schema-invalid = { $path } is not a valid JSON Schema: { $error }

## The tool's own errors

tool-error = error: { $error }

## Breaking changes of a review (activity-site diff, the data tools)

breaking-file-removed = { $path } is published at the base and this build no longer has it: its clients get 404 not found.
breaking-file-removed-help = keep publishing the file (a game that ends keeps its last document), or put a copy in the verbatim folder data/_files/
breaking-field-removed = the published field { $field } is at the base and in none of this build's objects at its place: clients that read it break.
breaking-field-removed-help = keep publishing { $field } beside its replacement; a field clients read is removed only with a new API version
breaking-field-retyped = the published field { $field } changes its JSON type from { $old } to { $new }: clients that read it break.
breaking-field-retyped-help = publish { $field } with its old type and add the new value under a new name
breaking-version-backwards = the version goes backwards, from { $old } to { $new }: clients that keep the newest version they saw ignore this document.
breaking-version-backwards-help = publish the current version's document; correct an older version in place only while it is the current one
breaking-until = { $name } (until { $end })
breaking-upcoming = version { $new } starts on { $date } (in { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
}), after now, and replaces version { $old }, which is still running: until then clients show { $new } with { $count } ongoing { $count ->
    [one] activity
   *[other] activities
} gone: { $names }.
breaking-upcoming-help = carry every activity that ends after { $start } into the new document, in every locale (`activity-site version new` does it), or publish when the new version starts
breaking-ongoing-removed = { $name } is ongoing (until { $end }, { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} left) and this build removes it: clients that key activities by name drop it while it runs.
breaking-ongoing-removed-help = keep the activity until it ends; rename it in place (same start and end) if only its name is wrong
breaking-ongoing-id-changed = { $name } is ongoing (until { $end }, { $days ->
    [0] less than a day
    [one] 1 day
   *[other] { $days } days
} left) and its id changes from `{ $old }` to `{ $new }`: clients that key activities by id lose it while it runs.
breaking-ongoing-id-changed-help = an id is data, never derived again: keep `"id": "{ $old }"` on the activity (a rename or a corrected time keeps it)
warning-upcoming-removed = { $name } has not started yet (it starts on { $start }, { $days ->
    [0] in less than a day
    [one] in 1 day
   *[other] in { $days } days
}) and this build removes it: clients that already show it as coming stop showing it.
warning-upcoming-removed-help = if it was cancelled or listed by mistake, nothing to do; otherwise keep it
warning-cover-removed = version { $version } has no cover any more (it was { $cover }): clients that show it show none.
warning-cover-removed-help = put "cover" back (`activity-site version new` keeps it unless --cover '' is given), or leave it out if the version has no cover
warning-optional-field-removed = { $path } no longer has the field { $field }, which it had at the base; the published schema makes it optional, so clients read it as absent.
warning-optional-field-removed-help = if the field was dropped by mistake, put it back (`activity-site version new` keeps every field of the current version); otherwise nothing to do

## registry-id-taken: a game id a kind's pages take

registry-id-taken = the game id `{ $id }` is taken: the site publishes the pages of its `{ $kind }` at /{ $id }/
registry-id-taken-help = choose another id, such as `{ $id }-game`

## What each rule checks (SARIF's rule descriptions)

rule-json-syntax = Not well-formed JSON; also a byte-order mark or invalid UTF-8.
rule-duplicate-key = The same key twice in one object.
rule-schema = Violates the JSON Schema.
rule-datetime = Not YYYY-MM-DDTHH:MM:SS, or an impossible date or time.
rule-time-order = endTime not after startTime.
rule-cover-url = cover neither empty nor an absolute http(s) URL.
rule-duplicate-activity = Two activities with the same name and start.
rule-games-registry = A bad games.json.
rule-missing-file = The default locale of a game in games.json has no data file.
rule-pending-locale = A locale other than the default one, listed in games.json, has no data file yet.
rule-orphan-file = A data file games.json does not list.
rule-outside-version = An activity outside its version's window.
rule-end-of-minute = An endTime whose seconds are not 59.
rule-unsorted = Activities not in chronological order.
rule-locale-parity = Locale files of one game disagree.
rule-stale = The version has ended.
rule-whitespace = Stray, control or invisible characters in a text field.
rule-upcoming-version = The version starts after now: clients get it before it begins.
rule-kept-file = A file of data/_files/ that cannot be published verbatim.
rule-markdown-link = A Markdown link in an announcement that is not http(s), a site path or an anchor.
rule-markdown-html = Raw HTML in an announcement's Markdown (shown as text).
rule-duplicate-id = Two activities of one document with the same id.
rule-missing-id = An activity without an id (check --fix assigns one, the same in every language).


## A time given on the command line (--start, --end, --now), explained as in a file

flag-time = { $flag }: { $message }; { $help }
flag-time-year-help = write it as `{ $fixed }` ({ $note })
flag-now-bad = { $problem } (or an instant with its offset, such as 2026-11-22T12:00:00+09:00)

## version new

version-bad-time = nothing written: { $problem }
version-ends-before = nothing written: the version ends ({ $end }) before it starts ({ $start })
version-no-game = nothing written: no game `{ $game }` in games.json
version-no-locale = nothing written: `{ $game }` has no locale `{ $locale }` (its locales: { $locales })
version-files-have-errors = nothing written: { $files } { $count ->
    [one] has
   *[other] have
} errors; fix { $count ->
    [one] it
   *[other] them
} first (`activity-site check`)
version-missing = nothing written: { $path } is missing or unreadable
version-not-forwards = nothing written: version { $new } does not come after { $old } of { $path }
version-no-name = nothing written: no version name for { $locale }: pass --name
version-drafts-errors = nothing written: the new documents would have errors
version-left = { $name } ({ $start } to { $end }): { $state ->
    [ended] ended
    [runs-now-ends-before] runs now and ends before the new version starts; left behind as --drop asked
    [runs-into-new] runs now and into the new version; left behind as --drop asked
   *[upcoming] starts after now; left behind as --drop asked
}
version-name-shared = the name `{ $name }` is used for each locale: { $locales } (name one with --name LOCALE=NAME)
version-drop-unknown = nothing written: --drop `{ $name }` names no activity of the current version of { $game } (neither an id nor a name in any locale); { $count ->
    [0] none of its activities is still to end
   *[other] its activities still to end, by id (and names): { $candidates }
}
version-drop-both = nothing written: --drop `{ $value }` is both the id of `{ $name }` and the name of another activity ({ $others }); give `{ $name }` by its name, or the other one by its id
version-drop-id-missing = nothing written: { $locale } has no activity with the id `{ $id }`, but `{ $name }` there has its times and no id; give it its id first (`activity-site check --fix`), then drop it by its id
version-drop-candidate = `{ $id }` ({ $names })
version-drop-candidate-no-id = `{ $name }` (no id yet: `activity-site check --fix` gives one)
version-drop-no-counterpart = nothing written: `{ $name }` of { $locale } has no counterpart in { $other } (an activity at the same place with the same times); { $has_id ->
    [yes] give its id `{ $id }` instead, which names it in every locale
   *[no] make the files agree first (`activity-site check` names the difference), or give it an id (`activity-site check --fix`) and drop it by its id
}
version-planned = { $dry ->
    [yes] would write
   *[no] wrote
} { $path }: version { $from } to { $version }; keeps { $kept_count ->
    [0] no field as it was
   *[other] { $kept }
}; changes { $changed }; { $carried ->
    [0] 0 activities carried
    [one] 1 activity carried ({ $names })
   *[other] { $carried } activities carried ({ $names })
}{ $cover ->
    [set] ; new cover
    [removed] ; cover removed
   *[other] {""}
}{ $dropped ->
    [0] {""}
   *[other] ; { $dropped } left behind:
}
version-pending = { $path }: { $locale } is pending (listed in games.json, no document yet): passed over, nothing written for it

## diff: the review's layout (text, Markdown, GitHub annotations)

diff-summary = { $files ->
    [one] 1 file
   *[other] { $files } files
}{ $aliases ->
    [0] {""}
   *[other] {" "}({ $paths } paths, { $aliases } of them a second name of a file)
} compared with { $against }: { $changed } changed, { $reformatted } reformatted, { $new } new, { $removed } removed, { $unchanged } unchanged; { $breaking ->
    [one] 1 breaking change
   *[other] { $breaking } breaking changes
}{ $warnings ->
    [0] {""}
    [one] , 1 warning
   *[other] , { $warnings } warnings
}
diff-breaking-header = BREAKING ({ $count }):
diff-warnings-header = WARNINGS ({ $count }):
diff-path-aliases = { $path } (also { $aliases })
diff-removed = - { $activity }{ $when ->
    [ended] , ended before now
    [running] , running now
    [upcoming] , not started yet
   *[unknown] {""}
}
diff-carried = = { $activity }, carried into { $version }
diff-cover-removed = the version's cover is removed (was { $from })
diff-group = { $group }:
diff-group-site = site
diff-status = { $status ->
    [unchanged] unchanged
    [reformatted] reformatted
    [changed] changed
    [new] new
   *[removed] removed
}
diff-note-base = the base copy is not an activity document: { $error }
diff-note-built = the built copy does not parse: { $error }
diff-built-unparsed = the built { $path } does not parse: { $error }
diff-activities = { $count ->
    [one] 1 activity
   *[other] { $count } activities
}
diff-activity = { $name } ({ $start } – { $end })
diff-renamed = renamed { $from } -> { $to } ({ $start } – { $end })
diff-moved = moved { $name }: { $from } -> { $to } ({ $shifts })
diff-shift = { $end ->
    [yes] ends
   *[no] starts
} { $days ->
    [0] within a day
    [one] 1 day { $later ->
        [yes] later
       *[no] earlier
    }
   *[other] { $days } days { $later ->
        [yes] later
       *[no] earlier
    }
}
diff-changed = ~ { $name } ({ $start }): { $fields }
diff-field = { $field }: { $from } -> { $to }
diff-none = (none)
diff-reformatted = same content, other bytes (formatting or order of activities)
diff-md-title = Data review against `{ $against }`
diff-md-no-change = { $files ->
    [one] No change: the file is the same as at the base.
   *[other] No change: all { $files } files are the same as at the base.
}
diff-md-no-breaking = No breaking change.
diff-md-breaking = { $count ->
    [one] 1 breaking change
   *[other] { $count } breaking changes
}
diff-md-breaking-item = - **{ $path }** ({ $code }): { $message }<br>*How to avoid it:* { $help }
diff-md-warnings = { $count ->
    [one] 1 warning
   *[other] { $count } warnings
}
diff-md-warning-item = - **{ $path }** ({ $code }): { $message }<br>*If it was not meant:* { $help }
diff-md-table-header = | File | Status | Changes |
diff-gh-breaking-title = breaking: { $path } ({ $code })
diff-gh-warning-title = warning: { $path } ({ $code })
diff-no-folder = no folder `{ $dir }` exists either
diff-against-revision = no folder `{ $dir }` exists, and `{ $dir }` is a git revision of this repository: compare with it by `--against-rev { $dir }`
diff-one-base = give one base: --against URL|DIR or --against-rev REV
diff-cannot-fetch = cannot fetch { $url }: { $error }
diff-read-built = cannot read the built { $path }
diff-nothing-found = nothing found at { $base }: { $index } and all { $documents } activity files answered 404 not found
    help: give the site's base URL, the one under which the API lives at { $api }/
diff-site-not-folder = --site `{ $path }` is not a folder
diff-temp-build = cannot create a temporary folder for the build
diff-temp-base = cannot create a temporary folder for the base
diff-data-errors = the data has errors, so there is no build to compare; run `activity-site check`
diff-rev-not-revision = `{ $rev }` is not a revision
diff-resolve-root = cannot resolve the root `{ $path }`
diff-root-outside-git = the root is not inside its git repository
diff-rev-unknown = `{ $rev }` is not a revision of { $repo }
diff-rev-no-registry = revision `{ $rev }` has no { $registry } in { $repo }
diff-rev-errors = revision `{ $rev }` has { $errors ->
    [one] 1 error
   *[other] { $errors } errors
}, so it has no build to compare with (first: { $first })
diff-git-missing = cannot run `git` (reading a git revision, for --against-rev or --changed-since, needs git on the PATH)
diff-git-failed = `{ $command }` failed: { $error }

## import

import-note = note: { $text }
import-fetching = fetching
import-nothing-found = found no activity file to import in `{ $from }`
    help: give a folder of <game>.json and <game>-<locale>.json files, a site holding api/v1/activity/, or a site's base URL
import-refuse-overwrite = refusing to overwrite { $count ->
    [one] { $count } file
   *[other] { $count } files
} of `{ $root }` that the import would change: { $files }; nothing was written
    help: commit or back them up, then pass --force to replace them
import-time-zone = time zone: { $game } { $zone } ({ $from })
import-zone-from = { $from ->
    [registry] kept from games.json
    [index] from the site's index
    [option] from --time-zone
    [unconfirmed] assumed by an earlier import and not confirmed yet: games.json still marks it "timeZoneAssumed"; confirm it with --time-zone GAME=ZONE or by removing the mark
   *[assumed] assumed: nothing named one; games.json marks it "timeZoneAssumed" until it is confirmed with --time-zone GAME=ZONE or by removing the mark
}
import-name = name: { $game } { $name } ({ $from })
import-name-from = { $from ->
    [registry] kept from games.json
    [index] from the site's index
    [llms] from the site's llms.txt
   *[id] nobody named it: its id stands in; set "name" in games.json
}
import-legacy = legacy: { $path } is the { $locale } activity document of `{ $game }` ({ $same ->
    [yes] the same as { $data }
   *[no] version { $version } there; { $data } is what the build publishes now
}); { $outcome ->
    [synced] kept in sync: the build publishes it from { $data } at every build (an alias in games.json)
    [kept] kept frozen in data/_files/: its clients keep this copy; pass --legacy sync to publish it from { $data } at every build instead
   *[skipped] skipped until you choose (see below)
}
import-legacy-choose = the activity document of `{ $game }` ({ $locale }): pass --legacy sync to publish it from that game's data at every build, or --legacy keep to keep this copy frozen in data/_files/
import-legacy-no-game = an activity document of no imported game; --keep-unknown keeps it in data/_files/
import-llms-unfetched = cannot fetch { $url } ({ $why }); it cannot say which games and locales the site has
import-locales-asked = the site has no index; each game's document was asked for in { $locales } besides the default locale
import-note-placeholder = note: games.json: `{ $game }` got { $name ->
    [yes] placeholders for `name` and `dataSource`; replace them
   *[no] a placeholder `dataSource`; replace it
} (`activity-site status` lists them)
import-note-reordered = note: { $path }: the API lists its activities out of start order; the build publishes them sorted (the same content in another order)
import-note-regenerated = note: not imported, the build writes { $count ->
    [one] it
   *[other] them
} itself: { $paths }{ $more ->
    [0] {""}
   *[other] {" "}and { $more } more (index, pages, calendars and their compressed siblings)
}
import-note-excluded = note: left out by --games: { $paths }
import-skipped-file = skipped: { $path }: { $why }
import-summary = import: { $site ->
    [one] 1 activity file
   *[other] { $site } activity files
} on the site, { $imported } imported: { $documents ->
    [one] { $documents } document
   *[other] { $documents } documents
} of { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $per_locale }, { $kept } kept in data/_files/, { $skipped } skipped, { $regenerated } regenerated by the build{ $assumed ->
    [0] {""}
    [one] ; the time zone of { $assumed } game was assumed
   *[other] ; the time zone of { $assumed } games was assumed
}{ $listed }
import-games-listed-by = ; games listed by { $from }
import-summary-list = { $first }, { $rest }
import-failed = import: { $count ->
    [one] { $count } file
   *[other] { $count } files
} not imported (see the errors above)
import-skipped = import: { $count ->
    [one] { $count } file
   *[other] { $count } files
} neither imported nor kept (named above)
    help: pass --keep-unknown to publish them as they are from data/_files/, or --allow-skipped to leave them out
import-action = { $action ->
    [created] created
    [replaced] replaced
   *[unchanged] unchanged
} { $path }
import-not-document = not an activity or announcements document
import-not-generated = not generated by the build; --keep-unknown keeps it in data/_files/
import-read-registry = cannot read games.json of the root
import-file-error = { $origin }: { $why }
import-documents-differ = { $origin }: differs from { $first }, which holds the same locale `{ $locale }`; kept { $first }, compare the two
import-read-root-file = cannot read `{ $path }` of the root
import-from-neither = `--from { $from }` is neither a folder nor an http(s) URL
import-not-index = { $url } is not an activity-site index ({ $why })
import-index-unfetched = cannot fetch { $url } ({ $why }); using --games
import-games-unknown = { $index } is not there and { $llms } lists no game, so the games to fetch are unknown
    help: name them: --games ak,end --locales en-US
import-games-from = the site has no index; the games to fetch ({ $games }) come from { $from }
import-no-such-locale = { $count ->
    [one] 1 game has
   *[other] { $count } games have
} no { $locale } document ({ $games }): { $count ->
    [one] that locale is not one of its locales
   *[other] that locale is not one of theirs
}
import-index-no-locales = game `{ $game }` has no locales
import-not-utf8 = not UTF-8: { $error }
import-not-json = not JSON: { $error }
import-not-object = not a JSON object
import-repeated-key = has a key twice in one object; rewriting it would lose a value
import-registry-repeated-key = games.json has a key twice in one object; rewriting it would lose a value, so fix it first
import-registry-not-json = games.json is not JSON ({ $error }); fix it first
import-registry-not-object = games.json is not a JSON object; fix it first
import-not-game-id = { $origin }: `{ $id }` is not a game id (lowercase letters, digits and single hyphens)
import-registry-unwritable = cannot write games.json: { $error }

## publish

publish-foreign = { $count ->
    [one] { $count } object under { $target } is
   *[other] { $count } objects under { $target } are
} not created by activity-site and would be overwritten:
    { $list }
    help: publish to an empty prefix, remove them, or pass --adopt to overwrite them and manage them from now on
publish-client = cannot set up the S3 client for { $endpoint }
    help: check the endpoint URL, the region and the credentials in the environment
publish-stopped = the publish to { $target } stopped before it finished; objects already there are consistent
    help: run the same command again: it uploads only what is still missing
publish-data-errors = the data has errors; nothing was published
    help: fix them, run `activity-site build`, then publish
publish-rebuild = { $problem }
    help: run `activity-site build --out { $out }`, then publish
publish-stale = the site in `{ $out }` is older than the data: { $reason }
publish-stale-differs = { $path } differs from a fresh build
publish-stale-missing = it has no { $path }
publish-stale-gone = { $path } is no longer built
publish-index-unreadable = the site in `{ $out }` has no readable { $index }: { $error }
publish-index-unparsed = the site's { $index } does not parse: { $error }
publish-index-mismatch = the site's { $index } does not match its files: { $path } is missing or differs
publish-no-site = no built site at `{ $path }`
    help: run `activity-site build --out { $path }` first
publish-not-dir = `{ $path }` is not a directory
publish-not-regular = `{ $path }` is not a regular file; a built site holds only files and folders
publish-changed = `{ $path }` changed while publishing
    help: wait for the build to finish, then publish again
publish-note-restored = {" "}(missing from the store)
publish-note-stale = {" "}(no longer built; --delete removes it)
publish-note-foreign = {" "}(not created by activity-site)
publish-kept-foreign = = { $path } (not created by activity-site: kept; --adopt --delete removes it)
publish-summary = { $dry ->
    [yes] plan for
   *[no] published to
} { $target }: { $added } added, { $changed } changed, { $restored } restored, { $unchanged } unchanged, { $removed } removed, { $stale } stale; { $uploads ->
    [one] { $uploads } object
   *[other] { $uploads } objects
} ({ $size }) { $dry ->
    [yes] to upload
   *[no] uploaded
}{ $others ->
    [0] {""}
   *[other] ; kept, not ours: { $others }
}
publish-not-s3 = `{ $target }` is not an s3:// URL
    help: write the target as s3://BUCKET or s3://BUCKET/PREFIX
publish-bad-bucket = `{ $bucket }` is not a bucket name (3 to 63 lowercase letters, digits, `-` and `.`)
publish-bad-prefix = the prefix `{ $prefix }` has an empty, `.` or `..` segment
publish-bad-endpoint = `{ $endpoint }` is not an endpoint URL: { $error }
publish-endpoint-not-http = `{ $endpoint }` is not an http(s) URL
publish-no-profile = no profile `{ $profile }` in the shared credentials file { $file }
publish-no-credentials = no credentials for the store
    help: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), or add a profile to ~/.aws/credentials and pass --profile
publish-half-keys = AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not
publish-foreign-manifest = { $problem }
    help: publish to another prefix, or remove `{ $key }` if you know what made it
publish-no-bucket = the bucket `{ $bucket }` does not exist at { $endpoint }
    help: create it first, or check --endpoint and --region
publish-bucket-not-found = the bucket `{ $bucket }` was not found at { $endpoint }
    help: create it first, or check --endpoint and --region
publish-credentials-refused = the store refused the credentials
    help: check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (or the profile)
publish-access-denied = access denied to `{ $bucket }`
    help: the credentials need s3:ListBucket, s3:GetObject, s3:PutObject and s3:DeleteObject on it
publish-store-error = cannot { $doing } in { $target }: { $error }
publish-store-error-hint = cannot { $doing } in { $target }: { $hint }
    cause: { $error }
publish-doing-manifest = read the manifest
publish-doing-list = list
publish-doing-upload = upload { $path }
publish-doing-delete = delete

## serve (lines on the terminal; the control API's JSON messages stay English)

err-runtime = cannot start the async runtime
serve-bad-backend = bad backend command: { $problem }
serve-cannot-listen = cannot listen on { $addr }
serve-no-address = cannot read the bound address
serve-site-errors = the site has errors; fix them, or serve without --no-watch to rebuild on change
serve-serving = Serving { $out } at { $url }
serve-token-how = The control API needs the access token: send it in the X-Access-Token header, or as the access_token query parameter (?access_token=...).
serve-token-whitespace = the access token starts or ends with whitespace; HTTP strips it from the X-Access-Token header, so header clients could never log in
    help: remove the spaces around the token in --access-token or AccessToken
serve-bad-origin = bad allowed origin: { $problem }
    help: write an origin as scheme://host[:port], for example --allow-origin http://localhost:5173
serve-exposed-open = listening on { $addr } without an access token: anyone who can reach it controls the simulated service; help: set --access-token or AccessToken
serve-exposed = listening on { $addr }, beyond loopback: other machines can reach this preview
serve-built = built the site in { $elapsed }
serve-build-failed = build failed; still serving the last good build
serve-overlay-title = The last build failed; the page shows the last good build.
serve-build-error = build failed: { $error }
serve-watching = watching { $root } (games.json, data/, schema/)
serve-rebuilding = inputs changed; rebuilding
serve-shutting-down = shutting down
serve-closing-connections = connections still open after { $after }; closing them
serve-accept-failed = cannot accept a connection: { $error }
serve-siblings-failed = cannot add the compressed siblings: { $error }
serve-watch-error = watching the inputs: { $error }
serve-watch-folder-failed = cannot watch { $path }: { $error }
serve-read-failed = reading { $path }: { $error }
serve-signal = cannot listen for { $signal }: { $error }

## status: announcements boards, sources; the tool's own argument errors

status-changed-header = CHANGED
status-changed-from = { $when } ({ $from ->
    [git] git
    [uncommitted] uncommitted
   *[other] file time
})
status-where-to-look = where to look:
status-source-articles = (articles: { $url })
status-source-no-user-agent = (no User-Agent)
err-resolve = cannot resolve `{ $path }`
fetch-no-scheme = `{ $flag } { $arg }` has no scheme
    help: add http:// or https:// in front: { $flag } http://{ $arg }
fetch-not-url = `{ $flag } { $arg }` is not a URL: { $error }
fetch-not-http = `{ $flag } { $arg }` is not an http(s) URL
fetch-timed-out = timed out
fetch-unreachable = the host is unreachable
fetch-refused = the connection was refused
fetch-reset = the connection was cut off
fetch-no-route = no route to the host
fetch-cause = : { $cause }

## The pages of the site (site::pages, site::announcements): the words the
## templates and the page script read, and the out-of-date notice

page-site-title = Game activity calendar
page-skip = Skip to content
page-home = All games
page-games = Games
page-version = Version
page-window = Version window
page-progress = Version progress
page-timeline = Timeline
page-activities = Activities
page-no-activities = No activities announced yet.
page-languages = Languages
page-data = Data
page-json = JSON
page-calendar = Calendar (.ics)
page-subscribe = Subscribe (webcal)
page-page = Page
page-default-locale = default
page-upcoming = Upcoming
page-ongoing = Ongoing
page-ended = Ended
page-ending-soon = Ending soonest
page-ending-soon-all = Ending soonest in every game
page-starts-before = began before this version
page-ends-after = continues after this version
page-kind = Kind
page-cover = Cover of
page-now = Now
page-as-of = Status as of
page-colon = {": "}
page-stop = .
page-space = {" "}
page-times-in = Times are in the game's server time zone
page-legend = Legend
page-not-found-title = Page not found
page-not-found-text = There is nothing at this address.
page-api-hint = The activity API lives under api/v1/activity/ on this site.
page-starts-within-day = starts within a day
page-starts-in-one = starts in 1 day
page-starts-in-many = starts in { $n } days
page-left-under-day = less than a day left
page-left-one = 1 day left
page-left-many = { $n } days left
page-ended-text = ended
page-your-time = your time
page-your-zone = Your time zone
page-home-description = Current game versions, their activities and calendars.
page-atom-feed = Atom feed
page-zone-assumed = This time zone was assumed when the data was imported and is not confirmed yet.
page-date = { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
} { $day }
page-stale-version = Not updated yet: version { $version } ended on { $date }.
page-stale-activity = Not updated yet: the last activity ended on { $date }.
page-noscript = Without JavaScript this page cannot tell what is on now: compare the times with your clock. They are in { $zone }. This data is current until { $due }; if that has passed, it has not been updated yet.
page-noscript-home = Turn on JavaScript to see what is on now and what ends soonest, or compare each game's times with your clock: a game whose version has ended has not been updated yet.

## The timeline page (site::timeline, issue 66): every game's activities
## on one time axis, with a table of the same facts

page-timeline-title = Timeline of every game
page-timeline-description = Every game's activities on one time axis: what is on, what is to come and what just ended.
page-timeline-chart = Timeline of every game's activities
page-timeline-pick = Show one game
page-timeline-every-game = Every game
page-timeline-activity = Activity
page-timeline-starts = Starts
page-timeline-ends = Ends
page-timeline-state = State
page-timeline-caption = { $game }, version { $version }, in { $zone }
page-timeline-noscript = Without JavaScript this page cannot tell what is on now or how many days are left: each game's table lists its activities with their start and end in the game's time zone, to compare with your clock. A game whose version has ended has not been updated yet.

## The calendars (site::ics)

ics-calendar-name = { $name } activities
ics-calendar-description = Activities of { $name }. Every event reminds you { $lead } before it ends.
ics-reminder-lead = 1 day
ics-reminder = { $activity } ends in { $lead }
ics-version-line = { $name } { $version } “{ $version_name }”

## issue 44 (diagnostics in full): recovery, the listed fixes, new warnings of a build, the tool's own errors

char-left-corner-bracket = left corner bracket
char-right-corner-bracket = right corner bracket
char-left-white-corner-bracket = left white corner bracket
char-right-white-corner-bracket = right white corner bracket
syntax-typographic-string = { $key ->
    [yes] the key is quoted
   *[no] the string is quoted
} with `{ $open }` and `{ $close }`, which JSON does not read as quotes
syntax-typographic-string-help = type ASCII quotes around it: `{ $fixed }` (a Chinese input method types these in their place)
syntax-checks-wait = { $count ->
    [one] 1 check of this file waits
   *[other] { $count } checks of this file wait
} for its syntax ({ $codes }): fix the errors above, then run check again
datetime-falls = rewritten as { $time }, it falls { $relation ->
    [before] { $span } before version { $version } starts: check that this is the time meant
    [after] { $span } after version { $version } ends: check that this is the time meant
    [start] at the start of version { $version }
   *[within] within version { $version }, { $span } after it starts
}
span-months = { $count ->
    [one] 1 month
   *[other] { $count } months
}
span-days = { $count ->
    [one] 1 day
   *[other] { $count } days
}
span-hours = { $count ->
    [one] 1 hour
   *[other] { $count } hours
}
fix-change = { $place } { $code }: { $kind ->
    [insert] inserted `{ $after }`
    [delete] removed `{ $before }`
   *[replace] `{ $before }` → `{ $after }`
}
fix-file = fixed { $path } ({ $fixes ->
    [one] 1 change
   *[other] { $fixes } changes
}):
fix-file-diff = would fix { $path } ({ $fixes ->
    [one] 1 change
   *[other] { $fixes } changes
}):
fix-nothing = nothing to fix: none of the problems found has an exact fix; they remain:
fix-clean = nothing to fix: no problem found
fix-remains = what remains after the fixes:
check-changed-since = only what the change since { $rev } introduced is reported: { $before ->
    [0] no problem was there already
    [one] 1 problem that was there already is left out
   *[other] { $before } problems that were there already are left out
}{ $clock ->
    [0] {""}
    [one] ; 1 finding of the clock (stale, upcoming-version) is left out too: it comes from the date, not from the change, and the scheduled ending-soon workflow reports it
   *[other] ; { $clock } findings of the clock (stale, upcoming-version) are left out too: they come from the date, not from the change, and the scheduled ending-soon workflow reports them
}
fix-nothing-remains = nothing remains: every problem found is fixed
err-find-named = cannot find `{ $path }` from the current folder or under the root `{ $root }`: name the file from the current folder (such as `{ $root }/{ $path }`) or as a path under --root
err-outside-root = `{ $path }` is outside the root `{ $root }`: name a file of the data tree, or pass its folder as --root
build-unchanged-warnings = { $count ->
    [one] 1 warning unchanged since the previous build is not shown again
   *[other] { $count } warnings unchanged since the previous build are not shown again
}: run `activity-site check` to see every one
no-registry-above = no { $registry } in { $folder } or any folder above it: this is not inside a data repository; run the command in one, or pass --root DIR
build-files-changed = the files of `{ $game }` changed during the build; build again
build-file-changed = `{ $file }` changed during the build; build again
watch-start = cannot start watching the inputs
watch-folder = cannot watch `{ $path }`
cache-foreign-tag = refusing to use `{ $dir }` as the build cache: its { $tag } was not written by activity-site
    help: pass --cache-dir with a new or empty directory, or --no-cache
cache-foreign-files = refusing to use `{ $dir }` as the build cache: it holds files the tool did not write
    help: pass --cache-dir with a new or empty directory, or --no-cache
fmt-why = { $reasons ->
    [0] first difference at line { $line }: `{ $before }` → `{ $after }`
   *[other] { $what }; first difference at line { $line }: `{ $before }` → `{ $after }`
}
fmt-why-only = { $what }
fmt-why-key-order = key order
fmt-why-indentation = indentation
fmt-why-activity-order = order of activities
fmt-why-line-endings = line endings (CRLF)

## The command line's help (--help): the words clap prints around it

help-word-usage = Usage: { $usage }
help-word-commands = Commands:
help-word-arguments = Arguments:
help-word-options = Options:
help-word-options-placeholder = [OPTIONS]
help-word-command-placeholder = COMMAND
help-word-default = [default: { $value }]
help-word-env = [env: { $name }]
help-word-possible = [possible values: { $values }]
help-word-possible-heading = Possible values:
help-word-possible-item = - { $name }: { $text }
help-word-possible-name = - { $name }
help-flag-help = Print help
help-flag-help-more = Print help (see more with '--help')
help-flag-help-summary = Print help (see a summary with '-h')
help-flag-version = Print version
help-cmd-help = Print this message or the help of the given subcommand(s)

## The command line's help: commands and their examples

help-about = Validate, build and serve the public activity API of game versions and their time-limited activities
help-cmd-check = Validate games.json and every data file; report every problem at once
help-cmd-check-after =
    Example:
      activity-site check --root . --format github
help-cmd-build = Validate, then write the site (API, index, schema, pages, calendars) atomically
help-cmd-build-after =
    Example:
      activity-site build --out site
help-cmd-fmt = Rewrite data files and games.json in canonical form
help-cmd-fmt-after =
    Example:
      activity-site fmt --check
help-cmd-status = Show which games and locales need updating first
help-cmd-status-after =
    Example:
      activity-site status --now 2026-11-22T12:00:00
help-cmd-serve = Build, serve and watch the site; mount the simulated control API and /mcp
help-cmd-serve-after =
    Example:
      activity-site serve --addr 127.0.0.1:5000
help-cmd-diff = Compare this build with a deployed site, a folder or a git revision: what clients would see change
help-cmd-diff-after =
    Exit status: 0 nothing changes, 1 changes, 3 breaking changes (a file removed, an ongoing
    activity removed, an upcoming version replacing a running one, announcements changed under
    the same id, a version going backwards), 2 the tool failed.

    Example:
      activity-site diff --against https://example.org
      activity-site diff --against ../deployed-site --format markdown
      activity-site diff --against-rev origin/main --format github
help-cmd-version = Start a game's next version in every locale, carrying the activities that run past its start
help-cmd-version-new = Write the next version of a game in every locale: the new version's fields, and every activity of the current one that runs now, is still to come or ends after the new start (only --drop leaves one of those behind); names each activity left behind and why; refuses (writing nothing) when a locale has errors
help-cmd-version-after =
    Example:
      activity-site version new sr --version 4.7 --name 4.7 --name en-US=4.7 --start 2026-12-01T11:00:00 --end 2027-01-12T05:59:59
help-cmd-import = Move an existing API in: published files (a folder or a URL) to games.json and data/
help-cmd-import-after =
    Examples:
      activity-site import --from ../old/public/api/v1/activity
      activity-site import --from https://example.org
      activity-site import --from https://example.org --games ak,end --locales en-US
help-cmd-publish = Upload the built site to S3-compatible storage: only what changed, data before the index
help-cmd-publish-after =
    Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN,
    or a profile of ~/.aws/credentials (--profile, AWS_PROFILE); never from a flag.

    Examples:
      activity-site publish --to s3://my-bucket/activity --dry-run
      activity-site publish --to s3://activity --endpoint https://ACCOUNT.r2.cloudflarestorage.com --region auto --delete
help-cmd-lsp = Language server over stdio: check's diagnostics as you type, quick fixes, formatting, hover
help-cmd-lsp-after =
    Started by an editor, not by hand; see the README for Neovim, Helix, Zed and VS Code.

    Example:
      activity-site lsp --root .
help-cmd-mcp = MCP server over stdio for agents: list, read, check and write data files through the checker
help-cmd-mcp-after =
    Example (an agent's configuration):
      {"{"}"command": "activity-site", "args": ["mcp", "--root", "/path/to/data"]{"}"}

## The command line's help: flags and values

help-arg-lang = Language of messages (default: LC_ALL, LC_MESSAGES or LANG, else en-US)
help-value-lang-en-us = English (United States)
help-value-lang-zh-cn = Simplified Chinese (China)
help-arg-root = Root of the data tree (holds games.json, data/ and schema/); by default the nearest folder at or above the current one that holds games.json
help-arg-now = Pin "now": YYYY-MM-DDTHH:MM:SS is that wall time in each game's time zone; with an offset (2026-11-22T12:00:00+09:00, ...Z) it is one instant, read in each game's zone
help-arg-cache-dir = Build cache directory (default: <root>/.activity-site/cache)
help-arg-no-cache = Render and compress every file, without reading or writing the build cache
help-arg-check-format = Output format of the diagnostics
help-arg-build-format = Output format of the diagnostics when the check fails
help-value-format-human = rustc-like text with the source line and a caret
help-value-format-json = one JSON object with a `diagnostics` array and counts
help-value-format-github = GitHub Actions workflow commands (annotations)
help-value-format-rdjson = Reviewdog Diagnostic Format (rdjson), exact fixes as suggestions
help-value-format-sarif = SARIF 2.1.0, exact fixes included
help-arg-check-deny-warnings = Exit 1 on warnings too
help-arg-check-fix = Apply every exact fix (full-width punctuation, commas, quotes, date forms, ...), then check again and report what remains
help-arg-check-diff = With --fix: print the fixes as a patch and write nothing (also --dry-run)
help-arg-check-changed-since = Report only the problems the change since git revision REF introduced (in the files it touched, or new across files), compared by rule, file and message with the tree at REF (read with git, no network); the exit status follows only those. The clock's findings (stale, upcoming-version) are left out: the scheduled ending-soon workflow reports them. REF is also the base whose ids missing-id gives back (HEAD otherwise, in a git checkout)
help-arg-check-paths = Check only these files (relative to the current folder), with the rules across files that involve them
help-arg-out = Output directory, replaced atomically (default: <root>/site); only an absent, empty or generated directory is replaced
help-arg-force = Replace an --out directory that activity-site did not make, moving what it holds to <out>.replaced-<date and time> beside it (listed first, never deleted); never the data root, its inputs, a home directory or a file system root
help-arg-compress = Precompressed siblings: a .gz at a fast level (the default; every client accepts it), .br and .gz at the maximum levels (smallest files, many times the CPU time) or none
help-value-compress-fast = gzip at level 6, no brotli
help-value-compress-max = brotli at quality 11 and gzip at level 9
help-value-compress-none = no .br/.gz siblings
help-arg-fmt-check = Change nothing; list files that would change and exit 1 if any
help-arg-status-format = Output format
help-value-status-text = an aligned table
help-value-status-json = a JSON array of rows
help-arg-version-game = The game id (as in games.json)
help-arg-version-version = The new version (`4.7`); it must come after the current one
help-arg-version-name = The version's name: NAME for every locale, or LOCALE=NAME (repeatable)
help-arg-version-start = Start of the new version (YYYY-MM-DDTHH:MM:SS, the game's local time)
help-arg-version-end = End of the new version (YYYY-MM-DDTHH:MM:SS)
help-arg-version-cover = Cover image URL of the new version; without it each locale keeps its current cover, and --cover '' removes it
help-arg-version-dry-run = Print what would be written and write nothing
help-arg-version-drop = Leave this activity behind although it has not ended: its id (in every locale that holds it) or its name in any locale (its counterparts in the other locales go too); refused when it is one activity's id and another's name; repeatable
help-arg-serve-addr = Address to listen on
help-arg-serve-no-watch = Build once and serve, without watching the inputs
help-arg-serve-state-dir = State directory of the simulated control service (default: <root>/.activity-site)
help-arg-serve-control-config = Service configuration file (JSON with Logging, AllowedHosts and AccessToken)
help-arg-serve-backend-command = Backend program the control API runs and speaks to over its standard streams, as "PROGRAM [ARGS]" (default: this tool's simulator; overrides BackendCommand of the configuration file)
help-arg-serve-access-token = Access token of the control API (overrides AccessToken of the configuration file)
help-arg-serve-allow-origin = Web origin whose pages may call the control API and /mcp, such as http://localhost:5173 (repeatable; adds to AllowedOrigins of the configuration file)
help-arg-diff-against = The base: the http(s) URL of a deployed site (the API lives under <base>/api/v1; a base ending in /api/v1 is read as the site above it), or a folder holding a built or deployed site
help-arg-diff-against-rev = The base: a git revision of the data (`main`, `origin/main`, `HEAD~1`), built in a temporary folder with this binary; needs `git`, no network
help-arg-diff-site = Compare this already built site folder instead of building the root (folder and revision bases)
help-arg-diff-format = Output format
help-value-diff-text = breaking changes first, then what changes per game, then a summary line
help-value-diff-json = one JSON object: `against`, `changes`, `breaking`, `exitCode`, `counts`, `files` (README)
help-value-diff-markdown = breaking changes first, then a table per game (for $GITHUB_STEP_SUMMARY or a pull-request comment)
help-value-diff-github = GitHub workflow commands: an error per breaking change and a notice per changed document, on their data file's line
help-arg-diff-timeout = Request timeout in seconds (URL bases)
help-arg-publish-out = Directory of the built site, what `build --out` wrote (default: <root>/site)
help-arg-publish-to = Where to publish: s3://BUCKET or s3://BUCKET/PREFIX
help-arg-publish-endpoint = Endpoint URL of an S3-compatible service (R2, OSS, COS, MinIO); default AWS S3
help-arg-publish-region = Region (R2: auto); default AWS_REGION, then us-east-1
help-arg-publish-addressing = Bucket addressing in URLs
help-value-addressing-auto = Virtual-hosted on AWS, path-style with `--endpoint` (MinIO, R2, moto)
help-value-addressing-path = Always path-style
help-value-addressing-virtual = Always virtual-hosted (Aliyun OSS, Tencent COS)
help-arg-publish-profile = Profile of the shared credentials file (default AWS_PROFILE, then `default`)
help-arg-publish-dry-run = Print the plan (added, changed, unchanged, removed, bytes) and upload nothing
help-arg-publish-delete = Remove objects this tool published earlier that the site no longer has
help-arg-publish-precompressed = Also upload the .br/.gz siblings, with Content-Encoding, for a CDN that serves them
help-arg-publish-verify = List every object under the prefix (not only the manifest) and upload again any that is missing
help-arg-publish-adopt = Overwrite objects at the site's paths that another tool uploaded, and own them from now on
help-arg-publish-format = Output format of the plan
help-value-plan-text = one line per path that changes (+ ~ ! - ?), then a summary line
help-value-plan-json = one JSON object with every path, its action, phase, bytes and metadata
help-arg-publish-jobs = Uploads in flight at once
help-arg-import-from = A folder of <game>.json and <game>-<locale>.json files (or one holding api/v1/activity/ or public/api/v1/activity/), or the http(s) base URL of a deployed site
help-arg-import-force = Replace files of the root that differ from what the import writes
help-arg-import-games = Only these games (comma-separated); for a URL without an index, the games to fetch
help-arg-import-locales = For a URL without an index: locales to ask each game for, besides the default one and those the site's llms.txt, the root's games.json and this tool's languages name (comma-separated)
help-arg-import-default-locale = Locale of the un-suffixed <game>.json files when no index or games.json names one
help-arg-import-timeout = Request timeout in seconds (URL imports)
help-arg-import-keep-unknown = Keep the files the build does not generate (robots.txt, a legacy api/v1/activities.json, ...) in data/_files/, published as they are
help-arg-import-legacy = A legacy api/v1/activities.json that is one game's activity document: `sync` publishes it from that game's data at every build (an alias in games.json), `keep` keeps this copy frozen in data/_files/
help-value-legacy-sync = Publish it from the game's data at every build (an alias in games.json), so it never falls behind
help-value-legacy-keep = Keep this copy as it is, frozen, in data/_files/
help-arg-import-allow-skipped = Exit 0 even when files were found that are neither imported nor kept (they are still named)
help-arg-import-time-zone = Time zone of the imported games that neither games.json nor the index names: ZONE for all, GAME=ZONE for one (comma-separated, repeatable)

site-url-invalid = `{ $url }` is not a URL: give the site's public address, such as https://example.org/
site-url-scheme = `{ $url }` is not an http or https address with a host: give the site's public address, such as https://example.org/
site-url-parts = `{ $url }` has a query, a fragment or credentials: give the site's public address alone, such as https://example.org/activity/
build-no-site-url = note: no --site-url: the schemas' $id, the OpenAPI server, the API catalog's links, the Atom feeds' ids and the webcal links of llms.txt and the pages stay relative to where they are read: give --site-url https://<your site>/ to make them absolute
publish-site-url-differs = { $out } was not built for { $url } (its OpenAPI names { $built }): build it again with --site-url { $url }
help-arg-site-url = The site's public address (http or https, like Hugo's baseURL): schema $ids, the OpenAPI server, the API catalog, Atom ids and webcal links are made absolute under it
help-arg-publish-site-url = Refuse to publish a site that was not built with this --site-url

# The published contract (issue 62): the page of the API's base, the API catalog's anchor.
api-home-title = Game activity API
api-home-intro = Game versions and their time-limited activities as static JSON files, free to read from any origin with no key. Start with the index; the OpenAPI description names every path and the schema of every answer.

## docs: the games table and the codes' reference (`activity-site docs`)

docs-games-header = | Game | Names | Locales | Time zone | Updates |
docs-games-default = { $locale } (default)
docs-games-pending = { $locale } (pending: no document yet)
docs-codes-header = | Code | Printed by | What it means | What to do |
docs-by-check = `check`
docs-by-diff-breaking = `diff`: breaking (exit 3)
docs-by-diff-warning = `diff`: warning
# What a code of `diff` means, one variant per code (the test
# `every_code_is_documented` fails for a code that falls to the default).
code-means = { $code ->
    [file-removed] A file the base publishes is not in this build: its clients get 404.
    [published-field-removed] A field the published schema requires (or that no schema describes) was in every object of its place at the base and is in none now.
    [published-field-retyped] A published field changed its JSON type.
    [optional-field-removed] A field the published schema makes optional (a version's cover) is gone from a document that had it.
    [ongoing-activity-removed] An activity running now is missing from the new document: clients stop showing it before it ends.
    [ongoing-activity-id-changed] An activity running now kept its name and times but its id changed: clients that follow ids lose it.
    [upcoming-version] The new document's version starts after now: until it starts, clients show it as the current version.
    [version-backwards] The version goes backwards: clients that keep the newest version they saw ignore the document.
    [upcoming-activity-removed] An activity that has not started yet is gone.
    [cover-removed] The version had a cover and has none now.
   *[other] (undocumented)
}
# What to do about a code of `check` or `diff`, in the contributor's words.
code-todo = { $code ->
    [json-syntax] Fix the JSON at the place shown (a missing comma or quote, a trailing comma); save the file as UTF-8 without a byte-order mark.
    [duplicate-key] Keep one of the two keys: decide which value is right and delete the other line.
    [schema] Give the field the value the help line asks for; the schema in schema/ lists every field and its form.
    [datetime] Write the time as YYYY-MM-DDTHH:MM:SS in the game's server time; `check --fix` rewrites the forms it can read for certain.
    [time-order] Make endTime later than startTime; usually the two were swapped or a date is mistyped.
    [cover-url] Give an absolute https URL of the image, or "" for no cover.
    [duplicate-activity] Remove the second copy, or give it the name or start that tells the two apart.
    [games-registry] Fix the entry of games.json the message names; every game needs an id, names, its locales and its default locale.
    [missing-file] Write data/GAME/LOCALE.json for the default locale, or take the game out of games.json.
    [pending-locale] Nothing is published for that locale until its file exists; write it when the game's text in that language is out.
    [orphan-file] List the file's game and locale in games.json, or delete the file.
    [outside-version] Move the activity into its version's window, or into the document of the version it belongs to.
    [end-of-minute] End at the last second of the minute (:59), as the game announces it; `check --fix` does it where the game's convention is known.
    [unsorted] Run `activity-site fmt` (or `check --fix`): it puts the activities in order of their start.
    [locale-parity] Give every locale the same activities with the same times; the message names the one that differs.
    [stale] The version has ended: start the next one with `activity-site version new`.
    [whitespace] Delete the stray character the message shows; `check --fix` removes the ones it can.
    [upcoming-version] Publish the document when the version starts, or carry the running activities into it (`activity-site version new` does).
    [kept-file] Give the file a name and type that can be published as it is, or take it out of data/_files/.
    [markdown-link] Link to an https address, a path of the site or a heading of the same announcement.
    [markdown-html] Write it in Markdown: raw HTML is shown as text.
    [duplicate-id] Give one of the two activities a new id (delete it and run `check --fix`).
    [missing-id] Run `activity-site check --fix`: it gives the activity an id, the same in every locale.
    [file-removed] Keep publishing the file; a document goes away only with its game's entry, on purpose.
    [published-field-removed] Put the field back; a field clients read is removed only with a new API version.
    [published-field-retyped] Give the field its old type back, or publish the new value under a new name.
    [optional-field-removed] If the field was dropped by mistake, put it back (`version new` keeps every field); else nothing to do.
    [ongoing-activity-removed] Carry the activity into the new document until it ends (`activity-site version new` does), or publish on the new version's day.
    [ongoing-activity-id-changed] Give the activity its old id back: ids are kept across versions.
    [version-backwards] Publish the current version's document; correct an older version only while it is the current one.
    [upcoming-activity-removed] If it was cancelled or listed by mistake, nothing to do; otherwise put it back.
    [cover-removed] Put "cover" back, or leave it out if the version has no cover.
   *[other] (undocumented)
}
help-cmd-docs = Print a part of the documents written from the data and the code: the games table of README.md (from games.json) or the reference of every code `check` and `diff` print (CONTRIBUTING.md); tests compare the documents with it
help-cmd-docs-after =
    Example:
      activity-site docs games
      activity-site --lang zh-CN docs codes
help-arg-docs-what = Which part to print
help-value-docs-games = The games table: names, locales (the default one and the pending ones), time zone and update mode of each game of games.json
help-value-docs-codes = Every code `check` and `diff` can print: what it means and what to do

## The API's reference page (api-reference/)

page-api-reference = API reference
ref-title = API reference
ref-description = The public activity API for people: its paths, every game, every field, an example and how to call it.
ref-intro = Game versions and their time-limited activities as read-only JSON files: one document per game and locale, an index that lists them, calendars and announcement boards. No key and no sign-up; every file may be fetched from any origin (CORS). This page is generated from the published description at every build, so it says what the files hold today.
ref-base-heading = Base URL
ref-base-known = The API is under `{ $api }`. Every path below starts at the site's address, `{ $site }`.
ref-base-unknown = This site was built without its public address (`--site-url`): every path below starts at the address this page was read from, which the examples write as `{ $site }`.
ref-paths-heading = Paths
ref-paths-note = Every path of the OpenAPI description (`{ $openapi }`); each answers `GET` with `200`, `304` to a conditional request, or `404`. The summaries are the description's own.
ref-col-path = Path
ref-col-summary = What it is
ref-col-parameters = Parameters
ref-games-heading = Games
ref-games-note = Every game the index (`{ $index }`) lists: its id, name, locales (each linked to its document), the time zone of its times and its update mode.
ref-col-game = Id
ref-col-name = Name
ref-col-locales = Locales
ref-col-zone = Time zone
ref-col-mode = Update mode
ref-pending = pending: no document yet
ref-fields-heading = Fields
ref-fields-note = Read from the published JSON Schemas at build time: every field of every published document, its type, whether it is always present, and its meaning (the schema's description). `activities[].id` is a field of each item of `activities`; `*` stands for any key of a map.
ref-col-field = Field
ref-col-type = Type
ref-col-present = Present
ref-col-meaning = Meaning
ref-always = always
ref-optional = optional
ref-example-heading = Example
ref-example-note = `{ $path }` as this build published it: its first { $shown } of { $total } activities.
ref-example-none = This site has no game yet, so no example.
ref-freshness-heading = Freshness
ref-fresh-due = Each document says when it needs its next update: `dueAt`, an instant. A `version` document is due when its version ends, an `activity` document when its last activity ends (`updateMode`). A client that reads a document after `dueAt` holds data that may be out of date; the index gives each file's `dueAt` too.
ref-fresh-etag = Every file carries an `ETag` and a `Last-Modified`: ask again with `If-None-Match` (or `If-Modified-Since`) and an unchanged file answers `304 Not Modified`, with no body.
ref-fresh-cache = Caches may keep a file as `Cache-Control` says: `{ $cache }`.
ref-promises-heading = Promises
ref-promise-fields = Within `/api/v1/` fields are added, never removed or retyped: ignore the ones you do not know.
ref-promise-ids = Every activity's `id` is stable: the same in every locale of the game, kept through a rename, a corrected time and the next version. Store reminders under it.
ref-promise-times = The naive `startTime` and `endTime` stay exactly as they are (`YYYY-MM-DDTHH:MM:SS`, wall-clock times of the document's `timeZone`); the instants `startsAt` and `endsAt` stand beside them, with their offsets.
ref-promise-paths = The paths stay: `<game>.json` for a game's default locale and `<game>-<locale>.json` for each of its locales.
ref-calling-heading = Calling it
ref-curl = With curl: the index, a document's headers, and a conditional request that answers `304`.
ref-typescript = With the TypeScript client (npm `activity-site-client`): conditional requests, the last good copy when the network fails, instants as `Date`s and `stale` from `dueAt`.
ref-python = With the Python client (PyPI `activity-site-client`, module `activity_site_client`): the same, with aware `datetime`s.
ref-contract-heading = The contract
ref-locale-note = {" "}({ $note })
ref-schema-activity = Activity document
ref-schema-games = Index
ref-schema-api-catalog = API catalog

# The meaning of each field of the published schemas on the reference page:
# in en-US.ftl the schema's own description (tests hold them equal), in
# zh-CN.ftl its translation.
ref-field-activity-version = The current game version number, such as "3.7".
ref-field-activity-versionName = The version's title as announced.
ref-field-activity-startTime = When the version starts, in server time: YYYY-MM-DDTHH:MM:SS.
ref-field-activity-endTime = When the version ends, in server time, usually at :59 seconds (03:59:59).
ref-field-activity-cover = Cover image of the version: an absolute https URL, or empty.
ref-field-activity-activities = The version's time-limited activities, in chronological order of startTime.
ref-field-activity-activities-id = The activity's stable id, present once assigned: `check --fix` gives every activity one, once, stored in the data and never derived again, so it survives a rename, a corrected time and a new version, and it is the same in every locale of the game. An activity adopted from data written before ids has none until then: key such an activity by name and start. Form: `<game>-<version>-<nn>` (`sr-4.6-03`, `ba-global-2026-11-02`): lowercase letters and digits in parts joined by `-` or `.`, safe in a URL. Unique within a document. Compare ids as opaque strings.
ref-field-activity-activities-name = The activity's name as announced.
ref-field-activity-activities-kind = Optional category, such as an event series; may be empty.
ref-field-activity-activities-description = What the activity is; may be empty.
ref-field-activity-activities-startTime = When the activity starts, in server time: YYYY-MM-DDTHH:MM:SS. It may be before the version starts.
ref-field-activity-activities-endTime = When the activity ends, in server time; by convention at :59 seconds. It may be after the version ends.
ref-field-activity-activities-cover = Cover image of the activity: an absolute https URL, or empty.
ref-field-activity-activities-startsAt = startTime as an instant, with its offset.
ref-field-activity-activities-endsAt = endTime as an instant, with its offset.
ref-field-activity-timeZone = The IANA time zone of the game's servers (`Asia/Shanghai`, `America/New_York`), in which every naive time of the document (startTime, endTime) is a wall-clock time. The zone belongs to the game's server, not to the document's language.
ref-field-activity-startsAt = The version's startTime as an instant, with its offset.
ref-field-activity-endsAt = The version's endTime as an instant, with its offset.
ref-field-activity-updateMode = How the maintainers keep the document current: `version` (the whole document is replaced once per game version) or `activity` (activities are added as they are announced). A game whose registry entry names none gets `version` when its version is a dotted number (`4.6`) and `activity` otherwise.
ref-field-activity-dueAt = When the document needs its next update, as an instant (RFC 3339 with the offset in force in the game's zone): the version's end for a `version` document, the latest end of its activities for an `activity` document (the version's end when it lists none). This is the rule the tool's `status` and the pages use. A client that reads the document after this moment holds data that may be out of date.
ref-field-games-games = Every game the site publishes.
ref-field-games-games-id = The game's id: lowercase letters and digits in parts joined by `-`.
ref-field-games-games-name = One string for every locale, or an object from locale tag to string.
ref-field-games-games-locales = The game's locale tags, in the registry's order.
ref-field-games-games-defaultLocale = The locale whose document is also published under the un-suffixed name `<game>.json`.
ref-field-games-games-timeZone = The IANA zone of the game's servers: every naive time of its documents is a wall-clock time there (each document names it too, as `timeZone`).
ref-field-games-games-dataSource = One string for every locale, or an object from locale tag to string.
ref-field-games-games-version = The default locale's version number.
ref-field-games-games-versionName = The default locale's version name.
ref-field-games-games-startTime = The default locale's version start, a naive local time of timeZone.
ref-field-games-games-endTime = The default locale's version end, a naive local time of timeZone.
ref-field-games-games-files = Every published document of the game, under every name (the default locale's twice).
ref-field-games-games-files-locale = The document's locale tag.
ref-field-games-games-files-default = This is the un-suffixed `<game>.json` of the default locale.
ref-field-games-games-files-path = The document, site-absolute.
ref-field-games-games-files-calendar = Its iCalendar feed, site-absolute.
ref-field-games-games-files-sha256 = Hex SHA-256 of the document's bytes.
ref-field-games-games-files-bytes = The document's size in bytes.
ref-field-games-games-files-updateMode = How the maintainers keep the document current: `version` (the whole document is replaced once per game version) or `activity` (activities are added as they are announced). A game whose registry entry names none gets `version` when its version is a dotted number (`4.6`) and `activity` otherwise.
ref-field-games-games-files-dueAt = When the document needs its next update, as an instant (RFC 3339 with the offset in force in the game's zone): the version's end for a `version` document, the latest end of its activities for an `activity` document (the version's end when it lists none). This is the rule the tool's `status` and the pages use. A client that reads the document after this moment holds data that may be out of date.
ref-field-games-games-pending = Locales the registry lists that have no document yet: nothing is published under their names.
ref-field-games-games-dataSources = The registry's sources, as `games.json` has them: a map from a locale tag (or `all`) to a list of sources.
ref-field-games-games-updateMode = The update mode the registry names for the game (absent when it names none; each entry of `files` gives the mode in force).
ref-field-games-games-timeZoneAssumed = The game's timeZone was assumed when the data was imported and is not yet confirmed.
ref-field-games-games-conventions = The registry's conventions for the game's sources (end seconds they write on purpose, warning rules turned off), as `games.json` has them.
ref-field-api-catalog-linkset = The link set: one context and its links per entry.
ref-field-api-catalog-linkset-anchor = The link context: the API's base.

## missing-id: the evidence of each pairing, and the choices where none decides (issue 63)

missing-id-help-give = `activity-site check --fix` gives it `{ $id }`
missing-id-base-both = evidence: at { $rev }, this file gives `{ $id }` to `{ $name }`, with the same name and times
missing-id-base-name = evidence: at { $rev }, this file gives `{ $id }` to `{ $name }`, with the same name
missing-id-base-times = evidence: at { $rev }, this file gives `{ $id }` to `{ $name }`, with the same times
missing-id-twin-times = evidence: the same times as `{ $name }` in { $path }, the only pair with these times
missing-id-twin-place = evidence: the same place as `{ $name }` in { $path }: number { $nth } of the { $count } activities with these times in each
missing-id-twin-cover = evidence: the same cover as `{ $name }` in { $path }, the only one with that cover among the activities with these times in each
missing-id-choice = give it `{ $id }` (`{ $name }` in { $path })
missing-id-more = and { $count } more with these times

## locale-parity by id (issue 63)

parity-moved = `{ $id }` (`{ $name }`) has other times than in { $path }: { $here } here, { $there } there
parity-moved-help = an activity has the same times in every language: correct them here or in { $path }, whichever is wrong

## serve: a burst of changes waits for git to finish changing the work tree (issue 67)
serve-git-lock-stale = { $path } has been there for { $after }: taken as left behind by a git that stopped, and not waited for again
serve-waiting-for-git = git is changing the work tree ({ $path } is there): the rebuild waits until it is done

## Lists of games cut into pages at scale (issue 67: saves at 1,000 games)
page-listing-pages = Pages of the list of games
