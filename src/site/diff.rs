//! What a build would change on a deployed site: the built API documents
//! compared with the deployed ones, file by file.
//!
//! Pure: the caller fetches the deployed bytes (see `cmd/diff.rs`) and hands
//! them in; this module parses, compares and renders the report as text or
//! JSON. Activities are matched by name and start time, so a renamed or moved
//! activity shows as one removed and one added.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::layout;
use crate::model::{Activity, ActivityDocument};

/// The comparison of every built API document with its deployed copy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The root of the deployed site compared against (see [`layout::site_root`]).
    pub against: String,
    pub files: Vec<FileDiff>,
}

/// One file of the API.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// Path relative to the site root (`api/v1/activity/ww.json`).
    pub path: String,
    pub status: FileStatus,
    /// Why the deployed copy could not be compared, for [`FileStatus::Replaced`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Changed document fields (`version`, `versionName`, `startTime`, `endTime`, `cover`).
    pub version: Vec<FieldChange>,
    pub added: Vec<ActivityRef>,
    pub removed: Vec<ActivityRef>,
    pub changed: Vec<ActivityChange>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    /// Same document (formatting aside).
    Unchanged,
    /// Same file, different content.
    Changed,
    /// The deployed site does not have this file yet.
    New,
    /// The deployed copy is not a readable activity document; the build replaces it.
    Replaced,
    /// The deployed site lists this file in its `games.json`, the build does not have it.
    Removed,
}

/// One changed field: its old and new value (`None` when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    pub field: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// An activity, by its key and window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityRef {
    pub name: String,
    pub start_time: String,
    pub end_time: String,
}

/// An activity present on both sides with different fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityChange {
    pub name: String,
    pub start_time: String,
    pub fields: Vec<FieldChange>,
}

impl Report {
    /// Compares each built file with its deployed bytes (`None`: not deployed).
    pub fn new<'a>(
        against: &str,
        files: impl IntoIterator<Item = (&'a str, &'a [u8], Option<&'a [u8]>)>,
    ) -> anyhow::Result<Report> {
        let files = files
            .into_iter()
            .map(|(path, built, deployed)| diff_file(path, built, deployed))
            .collect::<anyhow::Result<_>>()?;
        Ok(Report {
            against: against.to_owned(),
            files,
        })
    }

    /// Adds the files the deployed index (`api/v1/games.json`) lists and this
    /// build does not produce, as [`FileStatus::Removed`].
    pub fn add_removed(&mut self, deployed_index: &[u8]) {
        for path in deployed_documents(deployed_index) {
            if !self.files.iter().any(|f| f.path == path) {
                self.files.push(FileDiff {
                    path,
                    status: FileStatus::Removed,
                    note: None,
                    version: Vec::new(),
                    added: Vec::new(),
                    removed: Vec::new(),
                    changed: Vec::new(),
                });
            }
        }
    }

    /// Whether deploying this build would change anything.
    pub fn has_changes(&self) -> bool {
        self.files.iter().any(|f| f.status != FileStatus::Unchanged)
    }

    /// The report for people: one block per file that changes, then a summary line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for file in &self.files {
            match file.status {
                FileStatus::Unchanged => continue,
                FileStatus::New => {
                    let _ = writeln!(
                        out,
                        "{}: new file ({} activities)",
                        file.path,
                        file.added.len()
                    );
                    for a in &file.added {
                        let _ = writeln!(out, "  + {}", activity_line(a));
                    }
                    continue;
                }
                FileStatus::Replaced => {
                    let _ = writeln!(
                        out,
                        "{}: replaced ({})",
                        file.path,
                        file.note
                            .as_deref()
                            .unwrap_or("the deployed copy is unreadable")
                    );
                    continue;
                }
                FileStatus::Removed => {
                    let _ = writeln!(
                        out,
                        "{}: removed (deployed, but no longer built)",
                        file.path
                    );
                    continue;
                }
                FileStatus::Changed => {
                    let _ = writeln!(out, "{}: changed", file.path);
                }
            }
            for change in &file.version {
                let _ = writeln!(out, "  {}", field_line(change));
            }
            for a in &file.added {
                let _ = writeln!(out, "  + {}", activity_line(a));
            }
            for a in &file.removed {
                let _ = writeln!(out, "  - {}", activity_line(a));
            }
            for c in &file.changed {
                let _ = writeln!(out, "  ~ {} ({})", c.name, c.start_time);
                for f in &c.fields {
                    let _ = writeln!(out, "      {}", field_line(f));
                }
            }
        }
        let count = |s: FileStatus| self.files.iter().filter(|f| f.status == s).count();
        let _ = writeln!(
            out,
            "{} files compared with {}: {} changed, {} new, {} replaced, {} removed, {} unchanged",
            self.files.len(),
            self.against,
            count(FileStatus::Changed),
            count(FileStatus::New),
            count(FileStatus::Replaced),
            count(FileStatus::Removed),
            count(FileStatus::Unchanged),
        );
        out
    }

    /// The report as pretty JSON with a trailing newline; `changes` says
    /// whether anything would change.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Out<'a> {
            against: &'a str,
            changes: bool,
            files: &'a [FileDiff],
        }
        let mut text = serde_json::to_string_pretty(&Out {
            against: &self.against,
            changes: self.has_changes(),
            files: &self.files,
        })
        .unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The activity documents a deployed `api/v1/games.json` lists
/// (`games[].files[].path`), relative to the site root. An index that does
/// not parse lists nothing: removals are then simply not detected.
pub fn deployed_documents(index: &[u8]) -> Vec<String> {
    layout::Index::parse(index)
        .map(|index| index.documents())
        .unwrap_or_default()
}

/// Compares one built file with its deployed bytes.
pub fn diff_file(path: &str, built: &[u8], deployed: Option<&[u8]>) -> anyhow::Result<FileDiff> {
    let new: ActivityDocument = serde_json::from_slice(built)
        .map_err(|err| anyhow::anyhow!("the built {path} does not parse: {err}"))?;
    let mut diff = FileDiff {
        path: path.to_owned(),
        status: FileStatus::Unchanged,
        note: None,
        version: Vec::new(),
        added: Vec::new(),
        removed: Vec::new(),
        changed: Vec::new(),
    };
    let Some(deployed) = deployed else {
        diff.status = FileStatus::New;
        diff.added = new.activities.iter().map(activity_ref).collect();
        return Ok(diff);
    };
    let old: ActivityDocument = match serde_json::from_slice(deployed) {
        Ok(old) => old,
        Err(err) => {
            diff.status = FileStatus::Replaced;
            diff.note = Some(format!(
                "the deployed copy is not an activity document: {err}"
            ));
            return Ok(diff);
        }
    };
    compare(&old, &new, &mut diff);
    if !(diff.version.is_empty()
        && diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.changed.is_empty())
    {
        diff.status = FileStatus::Changed;
    }
    Ok(diff)
}

fn compare(old: &ActivityDocument, new: &ActivityDocument, diff: &mut FileDiff) {
    let fields: [(&'static str, Option<&str>, Option<&str>); 5] = [
        ("version", Some(&old.version), Some(&new.version)),
        (
            "versionName",
            Some(&old.version_name),
            Some(&new.version_name),
        ),
        ("startTime", Some(&old.start_time), Some(&new.start_time)),
        ("endTime", Some(&old.end_time), Some(&new.end_time)),
        ("cover", old.cover.as_deref(), new.cover.as_deref()),
    ];
    diff.version = changes(&fields);

    let key = |a: &Activity| (a.name.clone(), a.start_time.clone());
    let old_by_key: BTreeMap<_, &Activity> = old.activities.iter().map(|a| (key(a), a)).collect();
    let new_by_key: BTreeMap<_, &Activity> = new.activities.iter().map(|a| (key(a), a)).collect();
    for a in &new.activities {
        match old_by_key.get(&key(a)) {
            None => diff.added.push(activity_ref(a)),
            Some(before) => {
                let fields: [(&'static str, Option<&str>, Option<&str>); 4] = [
                    ("kind", before.kind.as_deref(), a.kind.as_deref()),
                    (
                        "description",
                        Some(&before.description),
                        Some(&a.description),
                    ),
                    ("endTime", Some(&before.end_time), Some(&a.end_time)),
                    ("cover", before.cover.as_deref(), a.cover.as_deref()),
                ];
                let fields = changes(&fields);
                if !fields.is_empty() {
                    diff.changed.push(ActivityChange {
                        name: a.name.clone(),
                        start_time: a.start_time.clone(),
                        fields,
                    });
                }
            }
        }
    }
    diff.removed = old
        .activities
        .iter()
        .filter(|a| !new_by_key.contains_key(&key(a)))
        .map(activity_ref)
        .collect();
}

/// The fields whose values differ. An empty string and an absent value are
/// the same for optional fields (`cover: ""` means no cover).
fn changes(fields: &[(&'static str, Option<&str>, Option<&str>)]) -> Vec<FieldChange> {
    fields
        .iter()
        .filter(|(_, from, to)| from.filter(|s| !s.is_empty()) != to.filter(|s| !s.is_empty()))
        .map(|(field, from, to)| FieldChange {
            field,
            from: from.map(str::to_owned),
            to: to.map(str::to_owned),
        })
        .collect()
}

fn activity_ref(a: &Activity) -> ActivityRef {
    ActivityRef {
        name: a.name.clone(),
        start_time: a.start_time.clone(),
        end_time: a.end_time.clone(),
    }
}

fn activity_line(a: &ActivityRef) -> String {
    format!("{} ({} – {})", a.name, a.start_time, a.end_time)
}

fn field_line(change: &FieldChange) -> String {
    format!(
        "{}: {} -> {}",
        change.field,
        shown(change.from.as_deref()),
        shown(change.to.as_deref())
    )
}

/// A value quoted for the text report, cut at 60 characters.
fn shown(value: Option<&str>) -> String {
    match value {
        None => "(none)".to_owned(),
        Some(s) => {
            let mut cut: String = s.chars().take(60).collect();
            if cut.len() < s.len() {
                cut.push('…');
            }
            format!("{cut:?}")
        }
    }
}
