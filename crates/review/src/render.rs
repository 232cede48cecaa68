//! The four renderings of a [`Report`]: text for people, JSON for
//! programs, Markdown for a job summary or a pull request, and GitHub
//! annotations. What a file's changes say is its kind's
//! ([`super::report::Compare::lines`]), walked in the order of
//! [`kinds::all`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::kinds;
use super::report::{FileDiff, FileStatus, Finding, Location, Report, field_line};
use crate::diagnostics::{github_data as gh_data, github_property as gh_property};
use crate::i18n::{Msg, msg};
use crate::layout;

impl Report {
    /// The report for people: breaking changes first, then one block per
    /// path that changes (grouped per game), then a summary line.
    pub fn to_text(&self, games: &BTreeSet<String>) -> String {
        let mut out = String::new();
        for (kind, items) in self.listed() {
            if items.is_empty() {
                continue;
            }
            let _ = writeln!(out, "{}", kind.header(items.len()));
            for item in &items {
                let _ = writeln!(
                    out,
                    "  {}: [{}] {}",
                    path_label(item.file),
                    item.code,
                    item.message
                );
                let _ = writeln!(out, "    {}", msg!("help-line", text = item.help.clone()));
            }
            out.push('\n');
        }
        for (group, files) in self.groups(games) {
            let _ = writeln!(out, "{}", msg!("diff-group", group = group_label(&group)));
            for file in files {
                let _ = writeln!(out, "  {}: {}", path_label(file), file.status.label());
                if let Some(note) = &file.note {
                    let _ = writeln!(out, "    ({note})");
                }
                for line in detail_lines(file) {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// The paths that change, per group, in path order.
    fn groups<'a>(&'a self, games: &BTreeSet<String>) -> BTreeMap<String, Vec<&'a FileDiff>> {
        let mut groups: BTreeMap<String, Vec<&FileDiff>> = BTreeMap::new();
        for file in &self.files {
            if file.status != FileStatus::Unchanged {
                groups
                    .entry(group_of(&file.path, games).to_owned())
                    .or_default()
                    .push(file);
            }
        }
        for files in groups.values_mut() {
            files.sort_by(|a, b| a.path.cmp(&b.path));
        }
        groups
    }

    /// The report as pretty JSON with a trailing newline. Stable keys:
    /// `against`, `changes`, `breaking` (count), `warnings` (count),
    /// `exitCode`, `paths` (every path compared, aliases included),
    /// `counts` (files per status), `files` (every file: `path`, `status`,
    /// `version`, `added`, `removed` (each with `when` when "now" is known:
    /// `ended`, `running`, `upcoming`), `changed`, and when not empty
    /// `aliases`, `note`, `carried`, `renamed`, `moved`, `announcements`,
    /// `breaking`, `warnings`).
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            against: &'a str,
            changes: bool,
            breaking: usize,
            warnings: usize,
            exit_code: u8,
            paths: usize,
            counts: BTreeMap<&'static str, usize>,
            files: &'a [FileDiff],
        }
        let counts = FileStatus::ALL
            .iter()
            .map(|s| (s.as_str(), self.count(*s)))
            .collect();
        let mut text = serde_json::to_string_pretty(&Out {
            against: &self.against,
            changes: self.has_changes(),
            breaking: self.breaking().count(),
            warnings: self.warnings().count(),
            exit_code: self.exit_code(),
            paths: self.paths(),
            counts,
            files: &self.files,
        })
        .unwrap_or_default();
        text.push('\n');
        text
    }

    /// The report in Markdown for a job summary or a pull-request comment:
    /// breaking changes first, then a short table per game.
    pub fn to_markdown(&self, games: &BTreeSet<String>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "## {}\n",
            msg!("diff-md-title", against = self.against.as_str())
        );
        if !self.has_changes() {
            let _ = writeln!(
                out,
                "{}",
                msg!("diff-md-no-change", files = self.files.len())
            );
            return out;
        }
        for (kind, items) in self.listed() {
            if items.is_empty() {
                if kind == Kind::Breaking {
                    let _ = writeln!(out, "{}\n", msg!("diff-md-no-breaking"));
                }
                continue;
            }
            let _ = writeln!(out, "### {}\n", kind.md_header(items.len()));
            for item in &items {
                let _ = writeln!(out, "{}", kind.md_item(item));
            }
            out.push('\n');
        }
        for (group, files) in self.groups(games) {
            let _ = writeln!(out, "### {}\n", group_label(&group));
            let _ = writeln!(out, "{}\n|---|---|---|", msg!("diff-md-table-header"));
            for file in files {
                let mut details = detail_lines(file);
                if let Some(note) = &file.note {
                    details.insert(0, note.to_string());
                }
                let flag = if file.breaking.is_empty() {
                    ""
                } else {
                    " :warning:"
                };
                let _ = writeln!(
                    out,
                    "| {} | {}{flag} | {} |",
                    path_label_markdown(file),
                    file.status.label(),
                    md(&details.join("<br>"))
                );
            }
            out.push('\n');
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// GitHub workflow commands: an `::error` per breaking change, a
    /// `::warning` per warning and a `::notice` per changed document, on the line of the data file that
    /// `locate` finds (path of the site, name of an activity or none).
    pub fn to_github(&self, locate: &dyn Fn(&str, Option<&str>) -> Option<Location>) -> String {
        let mut out = String::new();
        let at = |path: &str, name: Option<&str>| match locate(path, name) {
            Some(l) => format!("file={},line={}", gh_property(&l.file), l.line),
            None => String::new(),
        };
        for (kind, items) in self.listed() {
            for item in items {
                let (level, title) = kind.gh(&item);
                let _ = writeln!(
                    out,
                    "::{level} {},title={}::{}",
                    at(&item.file.path, item.activity),
                    gh_property(&title.to_string()),
                    gh_data(&format!(
                        "{} {}",
                        item.message,
                        msg!("help-line", text = item.help.clone())
                    ))
                );
            }
        }
        for file in &self.files {
            let notice = matches!(file.status, FileStatus::Changed | FileStatus::New)
                .then(|| kinds::of_path(&file.path)?.notice(file))
                .flatten();
            if let Some(name) = notice {
                let lines = detail_lines(file);
                let _ = writeln!(
                    out,
                    "::notice {},title={}::{}",
                    at(&file.path, name),
                    gh_property(&format!("{}: {}", path_label(file), file.status.label())),
                    gh_data(&if lines.is_empty() {
                        file.status.label().to_string()
                    } else {
                        lines.join("\n")
                    })
                );
            }
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }
}

/// The two lists the reports give before the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Breaking,
    Warning,
}

impl Kind {
    /// The text report's header of the list.
    fn header(self, count: usize) -> Msg {
        match self {
            Kind::Breaking => msg!("diff-breaking-header", count = count),
            Kind::Warning => msg!("diff-warnings-header", count = count),
        }
    }

    /// The Markdown heading of the list.
    fn md_header(self, count: usize) -> String {
        match self {
            Kind::Breaking => format!(":warning: {}", msg!("diff-md-breaking", count = count)),
            Kind::Warning => msg!("diff-md-warnings", count = count).to_string(),
        }
    }

    /// One Markdown item of the list.
    fn md_item(self, item: &Listed) -> Msg {
        let (path, message, help) = (
            path_label_markdown(item.file),
            md(&item.message.to_string()),
            md(&item.help.to_string()),
        );
        match self {
            Kind::Breaking => msg!(
                "diff-md-breaking-item",
                path = path,
                code = item.code,
                message = message,
                help = help
            ),
            Kind::Warning => msg!(
                "diff-md-warning-item",
                path = path,
                code = item.code,
                message = message,
                help = help
            ),
        }
    }

    /// The annotation's level and title.
    fn gh(self, item: &Listed) -> (&'static str, Msg) {
        let path = path_label(item.file);
        match self {
            Kind::Breaking => (
                "error",
                msg!("diff-gh-breaking-title", path = path, code = item.code),
            ),
            Kind::Warning => (
                "warning",
                msg!("diff-gh-warning-title", path = path, code = item.code),
            ),
        }
    }
}

/// A breaking change or a warning, as the reports list it.
struct Listed<'a> {
    file: &'a FileDiff,
    code: &'static str,
    message: &'a Msg,
    help: &'a Msg,
    /// The first activity it is about, for the annotation's line.
    activity: Option<&'a str>,
}

impl<'a> Listed<'a> {
    fn of(file: &'a FileDiff, finding: &'a Finding) -> Listed<'a> {
        Listed {
            file,
            code: finding.code,
            message: &finding.message,
            help: &finding.help,
            activity: finding.activities.first().map(|a| a.name.as_str()),
        }
    }
}

impl Report {
    /// The breaking changes, then the warnings, each with its file.
    fn listed(&self) -> [(Kind, Vec<Listed<'_>>); 2] {
        let breaking = self
            .breaking()
            .map(|(file, b)| Listed::of(file, b))
            .collect();
        let warnings = self
            .warnings()
            .map(|(file, w)| Listed::of(file, w))
            .collect();
        [(Kind::Breaking, breaking), (Kind::Warning, warnings)]
    }
}

/// The lines describing a file's changes, as text and in Markdown cells:
/// its fields, then what each kind says of its changes, then whether it
/// was only reformatted.
fn detail_lines(file: &FileDiff) -> Vec<String> {
    let mut lines: Vec<String> = file
        .version
        .iter()
        .map(|change| {
            kinds::all()
                .find_map(|kind| kind.field(change))
                .unwrap_or_else(|| field_line(change))
                .to_string()
        })
        .collect();
    for kind in kinds::all() {
        kind.lines(file, &mut lines);
    }
    if file.status == FileStatus::Reformatted {
        lines.push(msg!("diff-reformatted").to_string());
    }
    lines
}

/// How the text report names a file: its path, and the other names it is
/// published under.
fn path_label(file: &FileDiff) -> String {
    label_with(file, &str::to_owned)
}

/// [`path_label`] for Markdown: each name in a code span.
fn path_label_markdown(file: &FileDiff) -> String {
    label_with(file, &|p| format!("`{p}`"))
}

fn label_with(file: &FileDiff, quote: &dyn Fn(&str) -> String) -> String {
    if file.aliases.is_empty() {
        return quote(&file.path);
    }
    let aliases: Vec<String> = file.aliases.iter().map(|a| quote(a)).collect();
    msg!(
        "diff-path-aliases",
        path = quote(&file.path),
        aliases = crate::i18n::list(&aliases)
    )
    .to_string()
}

/// How the reports name a group: a game's id, or the site's own files.
fn group_label(group: &str) -> String {
    if group == "site" {
        msg!("diff-group-site").to_string()
    } else {
        group.to_owned()
    }
}

/// The group a path belongs to in the reports: its game (`sr` for
/// `api/v1/activity/sr-en-US.json` or `sr/en-US/index.html`), given the ids
/// of the games, else `site`.
pub fn group_of<'a>(path: &str, games: &'a BTreeSet<String>) -> &'a str {
    let stem = path
        .strip_prefix(layout::ACTIVITY_DIR)
        .and_then(|p| p.strip_prefix('/'))
        .map(|p| p.split('.').next().unwrap_or(p))
        .unwrap_or_else(|| path.split('/').next().unwrap_or(path));
    // The longest id that is the stem or a prefix of it followed by `-`.
    games
        .iter()
        .filter(|id| {
            stem == id.as_str()
                || stem
                    .strip_prefix(id.as_str())
                    .is_some_and(|r| r.starts_with('-'))
        })
        .max_by_key(|id| id.len())
        .map_or("site", String::as_str)
}

/// Text safe in a Markdown table cell.
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', "<br>")
}
