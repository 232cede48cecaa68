//! Diagnostics: what `check` reports and how it is rendered.
//!
//! A [`Diagnostic`] is plain data: a stable rule code, a severity, the file
//! (relative to the root, forward slashes), a 1-based line and column (the
//! column counts characters, not bytes), a message and an optional help line.
//! Message and help are [`Msg`]s (a Fluent identifier and its arguments),
//! rendered in the current language ([`crate::i18n`]) only when printed.
//! This module owns the three renderers (`human`, `json`, `github`) and knows
//! nothing about how diagnostics are found.

use serde::Serialize;

use crate::i18n::{Lang, Msg, msg};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// The rule a diagnostic comes from: a closed set, so the compiler finds
/// every place a new rule must be handled. The kebab-case spelling
/// ([`Code::as_str`]) is stable: it is what every output format prints.
/// A new rule is a new variant here, in the place of its row in the
/// README's table (the order of [`Code::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    /// Not well-formed JSON; also a byte-order mark or invalid UTF-8.
    JsonSyntax,
    /// The same key twice in one object.
    DuplicateKey,
    /// Violates the JSON Schema.
    Schema,
    /// Not `YYYY-MM-DDTHH:MM:SS`, or an impossible date or time.
    Datetime,
    /// `endTime` not after `startTime`.
    TimeOrder,
    /// `cover` neither empty nor an absolute http(s) URL.
    CoverUrl,
    /// Two activities with the same name and start.
    DuplicateActivity,
    /// Two activities of one document with the same `id`.
    DuplicateId,
    /// A bad `games.json`.
    GamesRegistry,
    /// The default locale of a game in `games.json` has no data file.
    MissingFile,
    /// Another locale listed in `games.json` has no data file yet: nothing
    /// is published under its name, and the index lists it as pending.
    PendingLocale,
    /// A data file `games.json` does not list.
    OrphanFile,
    /// A file of `data/_files/` that cannot be published verbatim.
    KeptFile,
    /// An activity outside its version's window.
    OutsideVersion,
    /// An `endTime` whose seconds are not `59`.
    EndOfMinute,
    /// Activities not in chronological order.
    Unsorted,
    /// Locale files of one game disagree.
    LocaleParity,
    /// The version has ended.
    Stale,
    /// Stray, control or invisible characters in a text field.
    Whitespace,
    /// The version starts after now: clients get it before it begins.
    UpcomingVersion,
    /// A link or image in an announcement's Markdown that is neither an
    /// absolute http(s) URL, a site path (`/...`) nor an anchor (`#...`).
    MarkdownLink,
    /// Raw HTML in an announcement's Markdown (shown as text on the page).
    MarkdownHtml,
    /// An activity without an `id` (`check --fix` assigns one).
    MissingId,
}

impl Code {
    /// Every rule, in the order of the README's table: the order of the
    /// variants.
    pub const ALL: &[Code] = <Code as strum::VariantArray>::VARIANTS;

    /// The rules a game may turn off for its own files (`conventions.ignore`
    /// of `games.json`): the warnings about data files. Errors never.
    pub const IGNORABLE: &[Code] = &[
        Code::OutsideVersion,
        Code::EndOfMinute,
        Code::Unsorted,
        Code::LocaleParity,
        Code::Stale,
        Code::Whitespace,
        Code::UpcomingVersion,
        Code::MissingId,
    ];

    /// `first` then `then`, as one list of `N` rules: a list made of one
    /// that [`Code`] owns (a kind's rules ending with [`Code::IGNORABLE`]).
    pub const fn concat<const N: usize>(first: &[Code], then: &[Code]) -> [Code; N] {
        assert!(
            first.len() + then.len() == N,
            "N is the length of both lists"
        );
        let mut all = [Code::JsonSyntax; N];
        let mut i = 0;
        while i < N {
            all[i] = if i < first.len() {
                first[i]
            } else {
                then[i - first.len()]
            };
            i += 1;
        }
        all
    }

    /// Whether a game may turn the rule off ([`Code::IGNORABLE`]).
    pub fn can_be_ignored(self) -> bool {
        Code::IGNORABLE.contains(&self)
    }

    /// The stable name every output format prints (`time-order`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::JsonSyntax => "json-syntax",
            Code::DuplicateKey => "duplicate-key",
            Code::Schema => "schema",
            Code::Datetime => "datetime",
            Code::TimeOrder => "time-order",
            Code::CoverUrl => "cover-url",
            Code::DuplicateActivity => "duplicate-activity",
            Code::GamesRegistry => "games-registry",
            Code::MissingFile => "missing-file",
            Code::PendingLocale => "pending-locale",
            Code::OrphanFile => "orphan-file",
            Code::OutsideVersion => "outside-version",
            Code::EndOfMinute => "end-of-minute",
            Code::Unsorted => "unsorted",
            Code::LocaleParity => "locale-parity",
            Code::Stale => "stale",
            Code::Whitespace => "whitespace",
            Code::UpcomingVersion => "upcoming-version",
            Code::KeptFile => "kept-file",
            Code::MarkdownLink => "markdown-link",
            Code::MarkdownHtml => "markdown-html",
            Code::DuplicateId => "duplicate-id",
            Code::MissingId => "missing-id",
        }
    }
}

impl Code {
    /// One line on what the rule checks (SARIF's rule descriptions), in
    /// the current language when printed (`rule-<code>` of the `.ftl` files).
    pub fn summary(self) -> Msg {
        Msg::new(match self {
            Code::JsonSyntax => "rule-json-syntax",
            Code::DuplicateKey => "rule-duplicate-key",
            Code::Schema => "rule-schema",
            Code::Datetime => "rule-datetime",
            Code::TimeOrder => "rule-time-order",
            Code::CoverUrl => "rule-cover-url",
            Code::DuplicateActivity => "rule-duplicate-activity",
            Code::GamesRegistry => "rule-games-registry",
            Code::MissingFile => "rule-missing-file",
            Code::PendingLocale => "rule-pending-locale",
            Code::OrphanFile => "rule-orphan-file",
            Code::OutsideVersion => "rule-outside-version",
            Code::EndOfMinute => "rule-end-of-minute",
            Code::Unsorted => "rule-unsorted",
            Code::LocaleParity => "rule-locale-parity",
            Code::Stale => "rule-stale",
            Code::Whitespace => "rule-whitespace",
            Code::UpcomingVersion => "rule-upcoming-version",
            Code::KeptFile => "rule-kept-file",
            Code::MarkdownLink => "rule-markdown-link",
            Code::MarkdownHtml => "rule-markdown-html",
            Code::DuplicateId => "rule-duplicate-id",
            Code::MissingId => "rule-missing-id",
        })
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem found in the inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The rule, printed as its stable code (`schema`, `time-order`).
    pub code: Code,
    pub severity: Severity,
    /// Path relative to the root, with forward slashes.
    pub file: String,
    /// 1-based line of the offending value.
    pub line: usize,
    /// 1-based column of the offending value, counted in characters.
    pub column: usize,
    /// What is wrong, in words (rendered in the current language when serialized).
    pub message: Msg,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<Msg>,
    /// Details under the message, one line each (the activities one
    /// locale file lacks, say), so the message itself stays one short line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Msg>,
    /// Length of the offending value in characters on its first line, for the caret underline.
    #[serde(skip)]
    pub width: usize,
    /// The exact repair, when the rule knows it (a quick fix in an editor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Repairs to pick one of, when the rule cannot tell which is right
    /// (`missing-id` with several candidates): the editor's code actions and
    /// the agents' `choices`. `check --fix` applies none of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
}

/// A machine-applicable repair: replace the bytes `start..end` of the file's
/// text with `replacement` (an empty replacement deletes, an empty range inserts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// Byte offset of the first byte replaced.
    pub start: usize,
    /// Byte offset one past the last byte replaced.
    pub end: usize,
    pub replacement: String,
}

/// One repair of a [`Diagnostic::choices`]: what it does, in words, and
/// the edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub title: Msg,
    #[serde(flatten)]
    pub fix: Fix,
    /// The edit the choice also makes in another file, when it needs one
    /// (the candidate twin's id, where its own file does not write it yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub also: Option<FileFix>,
}

/// A [`Fix`] of another file than the diagnostic's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileFix {
    /// Path relative to the root, with forward slashes.
    pub file: String,
    #[serde(flatten)]
    pub fix: Fix,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A `json-syntax` error: the loader's (encoding) and the parser's share it.
    pub fn json_syntax(
        file: &str,
        line: usize,
        column: usize,
        width: usize,
        message: Msg,
        help: Option<Msg>,
    ) -> Diagnostic {
        Diagnostic {
            code: Code::JsonSyntax,
            severity: Severity::Error,
            file: file.to_string(),
            line,
            column,
            message,
            help,
            notes: Vec::new(),
            width,
            fix: None,
            choices: Vec::new(),
        }
    }

    /// An `orphan-file` error, at the first line of the file that nothing
    /// accounts for (the registry's rule for `data/`, a kind's for its
    /// folder).
    pub fn orphan(file: &str, message: Msg, help: Msg) -> Diagnostic {
        Diagnostic {
            code: Code::OrphanFile,
            ..Diagnostic::json_syntax(file, 1, 1, 1, message, Some(help))
        }
    }

    /// The message with its notes under it, one line each (`note: ...`),
    /// for outputs that carry one text per diagnostic.
    pub fn message_with_notes(&self, lang: Lang) -> String {
        let mut text = self.message.render(lang);
        for note in &self.notes {
            text.push('\n');
            text.push_str(&msg!("note-line", text = note.render(lang)).render(lang));
        }
        text
    }

    /// The same diagnostic with a known repair attached.
    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }
}

/// Applies `fixes` to `text`, in the order of the text: the one owner of
/// applying fixes (`check --fix`, the language server's "fix all", the agent
/// tools). Fixes that overlap one already applied are skipped (the next
/// check finds them again if they still hold); two insertions at one place
/// go in the order given. Returns the new text and how many were applied.
pub fn apply_fixes(text: &str, fixes: &[&Fix]) -> (String, usize) {
    let (out, applied) = apply_fixes_listed(text, fixes);
    (out, applied.len())
}

/// [`apply_fixes`], saying which fixes were applied: their indices in
/// `fixes`, in the order of the text.
pub fn apply_fixes_listed(text: &str, fixes: &[&Fix]) -> (String, Vec<usize>) {
    let mut sorted: Vec<(usize, &Fix)> = fixes.iter().copied().enumerate().collect();
    sorted.sort_by_key(|(_, f)| f.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut applied = Vec::new();
    for (index, fix) in sorted {
        if fix.start < at
            || fix.end < fix.start
            || fix.end > text.len()
            || !text.is_char_boundary(fix.start)
            || !text.is_char_boundary(fix.end)
        {
            continue;
        }
        out.push_str(&text[at..fix.start]);
        out.push_str(&fix.replacement);
        at = fix.end;
        applied.push(index);
    }
    out.push_str(&text[at..]);
    (out, applied)
}

/// Where a value sits in a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub width: usize,
}

/// Maps a byte range of `text` to a 1-based line and character column.
pub fn locate(text: &str, start: usize, end: usize) -> Location {
    Locator::new(text).locate(start, end)
}

/// [`locate`] for many ranges of one text (each change `--fix` lists):
/// the lines are found once, and each range in logarithmic time.
pub struct Locator<'a> {
    text: &'a str,
    /// The byte offset where each line starts.
    lines: Vec<usize>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Self {
        let lines = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Locator { text, lines }
    }

    /// The line and column of the byte range `start..end`.
    pub fn locate(&self, start: usize, end: usize) -> Location {
        let text = self.text;
        let start = crate::chars::floor_char_boundary(text, start.min(text.len()));
        let end = crate::chars::floor_char_boundary(text, end.clamp(start, text.len()));
        let line = self.lines.partition_point(|&s| s <= start).max(1);
        let column = text[self.lines[line - 1]..start].chars().count() + 1;
        let first_line = text[start..end].split('\n').next().unwrap_or("");
        Location {
            line,
            column,
            width: first_line.chars().count().max(1),
        }
    }
}

/// Output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// rustc-like text with the source line and a caret
    #[default]
    #[value(help = "help-value-format-human")]
    Human,
    /// one JSON object with a `diagnostics` array and counts
    #[value(help = "help-value-format-json")]
    Json,
    /// GitHub Actions workflow commands (annotations)
    #[value(help = "help-value-format-github")]
    Github,
    /// Reviewdog Diagnostic Format (rdjson), exact fixes as suggestions
    #[value(help = "help-value-format-rdjson")]
    Rdjson,
    /// SARIF 2.1.0, exact fixes included
    #[value(help = "help-value-format-sarif")]
    Sarif,
}

/// Counts of errors and warnings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
}

pub fn count(diagnostics: &[Diagnostic]) -> Counts {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    Counts {
        errors,
        warnings: diagnostics.len() - errors,
    }
}

/// Sorts diagnostics by file, position and code, so output is stable.
/// The stable sort runs over their indices and the diagnostics are then
/// moved into place along the permutation's cycles: sorting the
/// diagnostics themselves takes a buffer of half of them (issue 67).
pub fn sort(diagnostics: &mut [Diagnostic]) {
    fn key(d: &Diagnostic) -> (&str, usize, usize, &str, &Msg) {
        (&d.file, d.line, d.column, d.code.as_str(), &d.message)
    }
    let mut order: Vec<usize> = (0..diagnostics.len()).collect();
    order.sort_by(|&a, &b| key(&diagnostics[a]).cmp(&key(&diagnostics[b])));
    // `order[i]` is where the diagnostic that belongs at `i` is now. Each
    // cycle is walked once, carrying its first element along by swaps; a
    // place done points at itself.
    for start in 0..order.len() {
        let mut current = start;
        while order[current] != start && order[current] != current {
            let next = order[current];
            diagnostics.swap(current, next);
            order[current] = current;
            current = next;
        }
        order[current] = current;
    }
}

/// The `--format json` document.
pub fn render_json(diagnostics: &[Diagnostic]) -> String {
    let mut out = Vec::new();
    write_json(&mut out, diagnostics, None).expect("a Vec takes every write");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes the `--format json` document to `out` as it is serialized, one
/// diagnostic after the other (nothing but the output's buffer is held);
/// `changes` (what `check --fix` changed) beside the diagnostics when given.
pub fn write_json(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    changes: Option<&[serde_json::Value]>,
) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Report<'a> {
        diagnostics: &'a [Diagnostic],
        errors: usize,
        warnings: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        changes: Option<&'a [serde_json::Value]>,
    }
    let counts = count(diagnostics);
    let report = Report {
        diagnostics,
        errors: counts.errors,
        warnings: counts.warnings,
        changes,
    };
    serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// GitHub workflow commands: one `::error` or `::warning` line per diagnostic.
pub fn render_github(diagnostics: &[Diagnostic]) -> String {
    let mut out = Vec::new();
    write_github(&mut out, diagnostics).expect("a Vec takes every write");
    String::from_utf8(out).expect("the lines are UTF-8")
}

/// Writes [`render_github`]'s lines to `out`, each as it is made.
pub fn write_github(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
) -> std::io::Result<()> {
    for d in diagnostics {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let lang = Lang::current();
        let mut message = d.message_with_notes(lang);
        if let Some(help) = &d.help {
            message.push('\n');
            message.push_str(&msg!("help-line", text = help.render(lang)).render(lang));
        }
        writeln!(
            out,
            "::{level} file={},line={},col={},title={}::{}",
            github_property(&d.file),
            d.line,
            d.column,
            github_property(d.code.as_str()),
            github_data(&message)
        )?;
    }
    Ok(())
}

/// The message of a GitHub workflow command (`%`, CR and LF escaped); the
/// one escaping of `check --format github` and `diff --format github`.
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property of a GitHub workflow command (`:` and `,` escaped too).
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// rustc-style rendering through annotate-snippets.
pub fn render_human(
    diagnostics: &[Diagnostic],
    color: bool,
    source: &dyn Fn(&str) -> Option<String>,
) -> String {
    let mut out = Vec::new();
    write_human(&mut out, diagnostics, color, source).expect("a Vec takes every write");
    String::from_utf8(out).expect("the rendering is UTF-8")
}

/// Writes [`render_human`]'s text to `out`, each diagnostic as it is
/// rendered: a run of 400,000 warnings holds one at a time, not the text
/// of all of them.
pub fn write_human(
    out: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    color: bool,
    source: &dyn Fn(&str) -> Option<String>,
) -> std::io::Result<()> {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

    let lang = Lang::current();
    let labels = [
        msg!("label-error").render(lang),
        msg!("label-warning").render(lang),
        msg!("label-help").render(lang),
        msg!("label-note").render(lang),
    ];
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    // Diagnostics come sorted by file: read each file once and index its
    // lines, so n diagnostics in one file cost O(n log n), not O(n × size).
    let mut cached: Option<(&str, Option<String>, Vec<usize>)> = None;
    for d in diagnostics {
        let level = match d.severity {
            Severity::Error => Level::ERROR.with_name(labels[0].as_str()),
            Severity::Warning => Level::WARNING.with_name(labels[1].as_str()),
        };
        if cached.as_ref().is_none_or(|(file, _, _)| *file != d.file) {
            let text = source(&d.file);
            let starts = text.as_deref().map_or_else(Vec::new, line_starts);
            cached = Some((d.file.as_str(), text, starts));
        }
        let (_, text, starts) = cached.as_ref().expect("cached above");
        let message = d.message.render(lang);
        let title = level.primary_title(message.as_str()).id(d.code.as_str());
        let mut group = Group::with_title(title);
        let path_line;
        if let Some(text) = text.as_deref().filter(|_| d.line > 0) {
            // Show the offending line only; annotate-snippets wants a byte range.
            let (line_text, range) = line_span(text, starts, d.line, d.column, d.width);
            group = group.element(
                Snippet::source(line_text)
                    .line_start(d.line)
                    .path(d.file.as_str())
                    .annotation(AnnotationKind::Primary.span(range)),
            );
        } else {
            path_line = format!("{}:{}:{}", d.file, d.line, d.column);
            group = group.element(annotate_snippets::Origin::path(path_line.as_str()));
        }
        let notes: Vec<String> = d.notes.iter().map(|n| n.render(lang)).collect();
        for note in &notes {
            group = group.element(
                Level::NOTE
                    .with_name(labels[3].as_str())
                    .message(note.as_str()),
            );
        }
        let help_text;
        if let Some(help) = &d.help {
            help_text = help.render(lang);
            group = group.element(
                Level::HELP
                    .with_name(labels[2].as_str())
                    .message(help_text.as_str()),
            );
        }
        writeln!(out, "{}\n", renderer.render(&[group]))?;
    }
    Ok(())
}

/// Byte offsets where the lines of `text` start.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The text of 1-based `line` and the byte range within it for `column`/`width`.
fn line_span<'t>(
    text: &'t str,
    starts: &[usize],
    line: usize,
    column: usize,
    width: usize,
) -> (&'t str, std::ops::Range<usize>) {
    let line_text = starts
        .get(line - 1)
        .and_then(|&s| text.get(s..))
        .map_or("", |rest| {
            let rest = rest.split('\n').next().unwrap_or("");
            rest.strip_suffix('\r').unwrap_or(rest)
        });
    let mut indices = line_text
        .char_indices()
        .map(|(i, _)| i)
        .chain([line_text.len()]);
    let start = indices
        .nth(column.saturating_sub(1))
        .unwrap_or(line_text.len());
    let end = line_text[start..]
        .char_indices()
        .map(|(i, _)| start + i)
        .chain([line_text.len()])
        .nth(width.max(1))
        .unwrap_or(line_text.len());
    (line_text, start..end.max(start))
}

/// One-line summary, as printed after the diagnostics ("1 error, 2 warnings").
pub fn summary(counts: Counts) -> String {
    msg!(
        "summary",
        errors = counts.errors,
        warnings = counts.warnings
    )
    .to_string()
}

/// The line `check` prints last: "checked: no problems" or "checked: " and the summary.
pub fn checked_line(counts: Counts) -> Msg {
    if counts.errors + counts.warnings == 0 {
        msg!("checked-clean")
    } else {
        msg!(
            "checked-summary",
            errors = counts.errors,
            warnings = counts.warnings
        )
    }
}

/// `n` and the noun in the form that agrees with it: `1 file`, `2 files`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Line and column (both 1-based) of byte `at` of `text`, the column in
/// UTF-8 bytes.
fn byte_position(text: &str, at: usize) -> (usize, usize) {
    let (line, start_of_line) = line_before(text, at);
    (line, start_of_line.len() + 1)
}

/// Line and column (both 1-based) of byte `at` of `text`, the column in
/// characters.
fn char_position(text: &str, at: usize) -> (usize, usize) {
    let (line, start_of_line) = line_before(text, at);
    (line, start_of_line.chars().count() + 1)
}

/// The 1-based line of byte `at` of `text` (on a character boundary at or
/// before it) and the text of that line before it.
fn line_before(text: &str, at: usize) -> (usize, &str) {
    let at = crate::chars::floor_char_boundary(text, at.min(text.len()));
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    (line, &before[line_start..])
}

/// The `--format rdjson` document: the Reviewdog Diagnostic Format, one
/// diagnostic per line, each exact fix as a suggestion (reviewdog turns it
/// into a suggested change a reviewer accepts with one click). Columns
/// count UTF-8 bytes, as the format defines them; `source` gives a file's
/// text, to place the suggestions.
pub fn render_rdjson(
    diagnostics: &[Diagnostic],
    source: &dyn Fn(&str) -> Option<String>,
) -> String {
    use serde_json::json;
    let mut texts: std::collections::HashMap<&str, Option<String>> =
        std::collections::HashMap::new();
    let items: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let text = texts.entry(d.file.as_str()).or_insert_with(|| source(&d.file));
            // The diagnostic's character column, as bytes.
            let (start, end) = match text {
                Some(text) => {
                    let line_start = line_offset(text, d.line);
                    let line = &text[line_start..];
                    let from = char_to_byte(line, d.column - 1);
                    let to = char_to_byte(line, d.column - 1 + d.width);
                    (from + 1, to + 1)
                }
                None => (d.column, d.column + d.width),
            };
            let mut item = json!({
                "message": match &d.help {
                    Some(help) => format!("{}
{}", d.message_with_notes(Lang::current()), msg!("help-line", text = help.to_string())),
                    None => d.message_with_notes(Lang::current()),
                },
                "location": {
                    "path": d.file,
                    "range": {
                        "start": {"line": d.line, "column": start},
                        "end": {"line": d.line, "column": end},
                    },
                },
                "severity": match d.severity { Severity::Error => "ERROR", Severity::Warning => "WARNING" },
                "code": {"value": d.code.as_str()},
            });
            if let (Some(fix), Some(text)) = (&d.fix, text.as_deref()) {
                let (sl, sc) = byte_position(text, fix.start);
                let (el, ec) = byte_position(text, fix.end);
                item["suggestions"] = json!([{
                    "range": {"start": {"line": sl, "column": sc}, "end": {"line": el, "column": ec}},
                    "text": fix.replacement,
                }]);
            }
            item
        })
        .collect();
    let doc = json!({
        "source": {"name": "activity-site", "url": "https://github.com/Shasnow/starrailassistant.top"},
        "diagnostics": items,
    });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON serializes");
    out.push('\n');
    out
}

/// The `--format sarif` document: SARIF 2.1.0, one result per diagnostic,
/// the rules as the tool's rules, each exact fix as a `fix` with its
/// replacement. Columns count Unicode code points (`columnKind`).
pub fn render_sarif(diagnostics: &[Diagnostic], source: &dyn Fn(&str) -> Option<String>) -> String {
    use serde_json::json;
    let rules: Vec<serde_json::Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": code.summary()},
            })
        })
        .collect();
    let mut texts: std::collections::HashMap<&str, Option<String>> =
        std::collections::HashMap::new();
    let results: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let location = json!({
                "physicalLocation": {
                    "artifactLocation": {"uri": d.file},
                    "region": {
                        "startLine": d.line,
                        "startColumn": d.column,
                        "endLine": d.line,
                        "endColumn": d.column + d.width,
                    },
                },
            });
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": {"text": match &d.help {
                    Some(help) => format!("{}
{}", d.message_with_notes(Lang::current()), msg!("help-line", text = help.to_string())),
                    None => d.message_with_notes(Lang::current()),
                }},
                "locations": [location],
            });
            let text = texts.entry(d.file.as_str()).or_insert_with(|| source(&d.file));
            if let (Some(fix), Some(text)) = (&d.fix, text.as_deref()) {
                let (sl, sc) = char_position(text, fix.start);
                let (el, ec) = char_position(text, fix.end);
                result["fixes"] = json!([{
                    "description": {"text": d.help.clone().unwrap_or_else(|| d.message.clone())},
                    "artifactChanges": [{
                        "artifactLocation": {"uri": d.file},
                        "replacements": [{
                            "deletedRegion": {"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec},
                            "insertedContent": {"text": fix.replacement},
                        }],
                    }],
                }]);
            }
            result
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "activity-site",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/Shasnow/starrailassistant.top",
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON serializes");
    out.push('\n');
    out
}

/// The byte offset where 1-based `line` of `text` starts.
fn line_offset(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}

/// The byte offset of character `chars` of `line` (its end when shorter;
/// a line ends at its line break).
fn char_to_byte(line: &str, chars: usize) -> usize {
    let line = line.split('\n').next().unwrap_or("");
    line.char_indices()
        .nth(chars)
        .map_or(line.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sort by indices gives the order of a stable sort of the
    /// diagnostics themselves, ties (same place, code and message) kept in
    /// the order they came, across cycles of every length.
    #[test]
    fn sorting_by_indices_is_the_stable_sort() {
        let mut diagnostics = Vec::new();
        for n in 0..200_usize {
            let file = format!("data/g{}/zh-CN.json", (n * 7) % 5);
            let help = Some(msg!("help-line", text = n.to_string()));
            diagnostics.push(Diagnostic::json_syntax(
                &file,
                (n * 13) % 11,
                (n * 3) % 2,
                1,
                msg!("label-note"),
                help,
            ));
        }
        let mut expected = diagnostics.clone();
        expected.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.message).cmp(&(&b.file, b.line, b.column, &b.message))
        });
        sort(&mut diagnostics);
        assert_eq!(diagnostics, expected);
    }

    #[test]
    fn every_code_prints_as_its_serialized_name() {
        for code in Code::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::from(code.as_str())
            );
        }
    }
}
