//! What a publish would do to clients: every file of this build compared
//! with the same path at a base (a deployed site, a folder, the build of a
//! git revision), and each document's changes in its clients' terms.
//!
//! Pure: the caller reads or fetches the bytes (see `cmd/diff.rs`) and hands
//! them in one file at a time ([`compare`]); this module classifies each path,
//! compares activity documents and announcements field by field, names the
//! **breaking** changes (what a client cannot survive) and renders the report
//! as text, JSON, Markdown or GitHub annotations.
//!
//! Every path gets one [`FileStatus`]: `new`, `removed` (at the base, not in
//! this build), `changed` (different content), `reformatted` (the same JSON
//! content in different bytes, the order of activities included: clients
//! revalidating with `If-None-Match` and the index's checksums still see a
//! change) or `unchanged` (the same bytes).
//!
//! Activities are matched by name and window; what is left is matched as
//! **renamed** (same start and end, new name) or **moved** (same name, new
//! times), and only then counted as added or removed. A removed activity is
//! placed against the moment of the review ([`When`]): ended before it
//! (listed, nothing to fear), running (breaking) or not started yet (a
//! [`Warning`]). When the version changes, the activities kept into the new
//! one are listed as **carried**. A version's cover removed is a warning.
//!
//! The default locale's document is published under two paths
//! (`ww.json` and `ww-zh-CN.json`): [`Report::merge_aliases`] reports the
//! pair once, under both names.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use chrono::NaiveDateTime;
use serde::Serialize;
use serde_json::Value;

use crate::diagnostics::{github_data as gh_data, github_property as gh_property};
use crate::i18n::{Arg, Msg, msg};
use crate::kind;
use crate::layout;
use crate::model::days::whole_days;
use crate::model::{Activity, Draft, Time, Written};

/// The comparison of every path of the build with the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// What was compared against: a URL's site root, a folder, `rev:<REV>`.
    pub against: String,
    pub files: Vec<FileDiff>,
}

/// One path of the site.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// Path relative to the site root (`api/v1/activity/ww.json`).
    pub path: String,
    /// The other paths the same file is published under, with the same
    /// content on both sides (`api/v1/activity/ww.json` beside
    /// `api/v1/activity/ww-zh-CN.json`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    pub status: FileStatus,
    /// Why the content could not be compared field by field (a base copy
    /// that is not a document of its kind).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Msg>,
    /// Changed document fields (`version`, `versionName`, `startTime`, `endTime`, `cover`).
    pub version: Vec<FieldChange>,
    pub added: Vec<ActivityRef>,
    /// Activities removed, each with [`ActivityRef::when`] when the review
    /// knows "now".
    pub removed: Vec<ActivityRef>,
    /// When the version changes: the activities kept into the new one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<ActivityRef>,
    /// Activities matched by name and window whose other fields changed.
    pub changed: Vec<ActivityChange>,
    /// Same start and end, another name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<Renamed>,
    /// Same name, other times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Moved>,
    /// Announcements added, removed or edited (matched by title).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub announcements: Vec<AnnouncementChange>,
    /// What clients of this file cannot survive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breaking: Vec<Breaking>,
    /// What a maintainer should look at before publishing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    /// The same bytes.
    Unchanged,
    /// The same JSON content in other bytes (formatting, order of activities).
    Reformatted,
    /// Different content.
    Changed,
    /// The base does not have this path.
    New,
    /// The base has this path and this build does not.
    Removed,
}

impl FileStatus {
    pub const ALL: [FileStatus; 5] = [
        FileStatus::Changed,
        FileStatus::Reformatted,
        FileStatus::New,
        FileStatus::Removed,
        FileStatus::Unchanged,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            FileStatus::Unchanged => "unchanged",
            FileStatus::Reformatted => "reformatted",
            FileStatus::Changed => "changed",
            FileStatus::New => "new",
            FileStatus::Removed => "removed",
        }
    }

    /// The status as the reports for people name it, in the current language.
    pub fn label(self) -> Msg {
        msg!("diff-status", status = self.as_str())
    }
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
    /// Where its window stands at the moment of the review (removed
    /// activities, when "now" is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
}

/// Where an activity's window stands at the moment of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// It ended before now: removing it changes nothing for clients.
    Ended,
    /// It runs now: removing it is breaking.
    Running,
    /// It has not started: removing it takes back an announced activity.
    Upcoming,
}

impl When {
    /// Where the window `start`..`end` stands at `now`.
    pub fn at(start: Time, end: Time, now: NaiveDateTime) -> When {
        if *end <= now {
            When::Ended
        } else if *start <= now {
            When::Running
        } else {
            When::Upcoming
        }
    }

    /// Where the window of `activity` stands at `now`; `None` when one of
    /// its times is not a time.
    fn of(activity: &Activity<Written>, now: NaiveDateTime) -> Option<When> {
        let (start, end) = activity.start_time.time().zip(activity.end_time.time())?;
        Some(When::at(start, end, now))
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            When::Ended => "ended",
            When::Running => "running",
            When::Upcoming => "upcoming",
        }
    }
}

/// An activity present on both sides with different fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityChange {
    pub name: String,
    pub start_time: String,
    pub fields: Vec<FieldChange>,
}

/// An activity with the same window under a new name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    pub from: String,
    pub to: String,
    pub start_time: String,
    pub end_time: String,
}

/// An activity whose times changed, with the shift of each end in whole
/// days ([`whole_days`]: positive is later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Moved {
    pub name: String,
    pub from: Window,
    pub to: Window,
    pub start_days: i64,
    pub end_days: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub start_time: String,
    pub end_time: String,
}

/// One announcement added, removed or edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnnouncementChange {
    /// `added`, `removed` or `edited`.
    pub change: &'static str,
    pub title: String,
}

/// A finding of the review: a [`Breaking`] change or a [`Warning`], its
/// code and messages those of a [`kind::Finding`] that the kind of its
/// file declares (a `static` of its kind's module, named here directly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Its stable code (`ongoing-activity-removed`).
    pub code: &'static str,
    /// One complete sentence.
    pub message: Msg,
    /// How to avoid it (breaking), or what to do if it was not meant (warning).
    pub help: Msg,
    /// The activities it is about (the ones that would vanish), if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub activities: Vec<ActivityRef>,
}

/// A change clients cannot survive.
pub type Breaking = Finding;

/// Something to look at before publishing that clients survive.
pub type Warning = Finding;

/// The one breaking change of every file, whatever its kind: a file the
/// base has is not in this build.
const FILE_REMOVED: kind::Finding = kind::Finding {
    code: "file-removed",
    message: "breaking-file-removed",
    help: "breaking-file-removed-help",
};

impl Finding {
    /// The finding `declared`, its messages given their arguments.
    fn new(
        declared: &kind::Finding,
        message: impl FnOnce(Msg) -> Msg,
        help: impl FnOnce(Msg) -> Msg,
        activities: Vec<ActivityRef>,
    ) -> Finding {
        Finding {
            code: declared.code,
            message: message(Msg::new(declared.message)),
            help: help(Msg::new(declared.help)),
            activities,
        }
    }
}

impl FileDiff {
    fn empty(path: &str, status: FileStatus) -> FileDiff {
        FileDiff {
            path: path.to_owned(),
            aliases: Vec::new(),
            status,
            note: None,
            version: Vec::new(),
            added: Vec::new(),
            removed: Vec::new(),
            carried: Vec::new(),
            changed: Vec::new(),
            renamed: Vec::new(),
            moved: Vec::new(),
            announcements: Vec::new(),
            breaking: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Whether the file holds changes a reader sees beyond its status.
    fn has_details(&self) -> bool {
        !(self.version.is_empty()
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.carried.is_empty()
            && self.changed.is_empty()
            && self.renamed.is_empty()
            && self.moved.is_empty()
            && self.announcements.is_empty())
    }
}

/// Compares one path: `built` is this build's bytes, `base` the base's
/// (`None`: absent on that side). `now` is "now" of the file's game (in its
/// time zone), which the rules about ongoing activities need; `None` skips them.
pub fn compare(
    path: &str,
    built: Option<&[u8]>,
    base: Option<&[u8]>,
    now: Option<NaiveDateTime>,
) -> FileDiff {
    match (built, base) {
        (None, None) => FileDiff::empty(path, FileStatus::Unchanged),
        (None, Some(_)) => removed(path),
        (Some(built), None) => {
            let mut diff = FileDiff::empty(path, FileStatus::New);
            if layout::is_activity_document(path)
                && let Ok(doc) = serde_json::from_slice::<Draft>(built)
            {
                diff.added = doc.activities.iter().map(activity_ref).collect();
            }
            diff
        }
        (Some(built), Some(base)) if built == base => FileDiff::empty(path, FileStatus::Unchanged),
        (Some(built), Some(base)) => changed(path, built, base, now),
    }
}

/// A path of the base that this build does not have: always breaking.
pub fn removed(path: &str) -> FileDiff {
    let mut diff = FileDiff::empty(path, FileStatus::Removed);
    diff.breaking.push(Finding::new(
        &FILE_REMOVED,
        |m| m.arg("path", path),
        |h| h,
        Vec::new(),
    ));
    diff
}

/// Compares two different byte strings of one path.
fn changed(path: &str, built: &[u8], base: &[u8], now: Option<NaiveDateTime>) -> FileDiff {
    let mut diff = FileDiff::empty(path, FileStatus::Changed);
    if !path.ends_with(".json") {
        return diff;
    }
    if layout::is_activity_document(path) {
        let new = serde_json::from_slice::<Draft>(built);
        let old = serde_json::from_slice::<Draft>(base);
        match (new, old) {
            (Ok(new), Ok(old)) => {
                documents(&old, &new, now, &mut diff);
                if !diff.has_details() && same_activities(&old, &new) {
                    diff.status = FileStatus::Reformatted;
                }
            }
            (_, Err(err)) => {
                diff.note = Some(msg!("diff-note-base", error = err.to_string()));
            }
            (Err(err), _) => diff.note = Some(msg!("diff-note-built", error = err.to_string())),
        }
        return diff;
    }
    let (Ok(new), Ok(old)) = (
        serde_json::from_slice::<Value>(built),
        serde_json::from_slice::<Value>(base),
    ) else {
        return diff;
    };
    if layout::is_announcements(path) {
        announcements(&old, &new, &mut diff);
    }
    if !diff.has_details() && new == old {
        diff.status = FileStatus::Reformatted;
    }
    diff
}

/// The two documents hold the same activities, in whatever order.
fn same_activities(old: &Draft, new: &Draft) -> bool {
    let key = |a: &Activity<Written>| {
        (
            a.start_time.clone(),
            a.name.clone(),
            a.end_time.clone(),
            a.kind.clone(),
            a.description.clone(),
            a.cover.clone(),
        )
    };
    let mut a: Vec<_> = old.activities.iter().map(key).collect();
    let mut b: Vec<_> = new.activities.iter().map(key).collect();
    a.sort();
    b.sort();
    a == b
}

/// Compares two activity documents into `diff`: fields, activities, and the
/// breaking changes among them.
pub fn documents(old: &Draft, new: &Draft, now: Option<NaiveDateTime>, diff: &mut FileDiff) {
    let times = [
        old.start_time.to_string(),
        new.start_time.to_string(),
        old.end_time.to_string(),
        new.end_time.to_string(),
    ];
    let fields: [(&'static str, Option<&str>, Option<&str>); 5] = [
        ("version", Some(&old.version), Some(&new.version)),
        (
            "versionName",
            Some(&old.version_name),
            Some(&new.version_name),
        ),
        ("startTime", Some(&times[0]), Some(&times[1])),
        ("endTime", Some(&times[2]), Some(&times[3])),
        ("cover", old.cover.as_deref(), new.cover.as_deref()),
    ];
    diff.version = changes(&fields);

    // Exact matches by name and window first.
    let key = |a: &Activity<Written>| (a.name.clone(), a.start_time.clone(), a.end_time.clone());
    let old_keys: BTreeMap<_, &Activity<Written>> =
        old.activities.iter().map(|a| (key(a), a)).collect();
    let new_keys: BTreeSet<_> = new.activities.iter().map(key).collect();
    let mut gone: Vec<&Activity<Written>> = old
        .activities
        .iter()
        .filter(|a| !new_keys.contains(&key(a)))
        .collect();
    let mut fresh: Vec<&Activity<Written>> = Vec::new();
    let new_version = old.version != new.version;
    for a in &new.activities {
        match old_keys.get(&key(a)) {
            None => fresh.push(a),
            Some(before) => {
                if new_version {
                    diff.carried.push(activity_ref(a));
                }
                let fields = activity_fields(before, a);
                if !fields.is_empty() {
                    diff.changed.push(ActivityChange {
                        name: a.name.clone(),
                        start_time: a.start_time.to_string(),
                        fields,
                    });
                }
            }
        }
    }
    // Renamed: the same window under one new name, one to one.
    fresh.retain(|a| {
        let Some(i) = gone
            .iter()
            .position(|g| g.start_time == a.start_time && g.end_time == a.end_time)
        else {
            return true;
        };
        let g = gone.remove(i);
        diff.renamed.push(Renamed {
            from: g.name.clone(),
            to: a.name.clone(),
            start_time: a.start_time.to_string(),
            end_time: a.end_time.to_string(),
        });
        false
    });
    // Moved: the same name at other times.
    fresh.retain(|a| {
        let Some(i) = gone.iter().position(|g| g.name == a.name) else {
            return true;
        };
        let g = gone.remove(i);
        let shift = |from: &Written, to: &Written| {
            from.time()
                .zip(to.time())
                .map_or(0, |(f, t)| whole_days(*f, *t))
        };
        diff.moved.push(Moved {
            name: a.name.clone(),
            from: Window {
                start_time: g.start_time.to_string(),
                end_time: g.end_time.to_string(),
            },
            to: Window {
                start_time: a.start_time.to_string(),
                end_time: a.end_time.to_string(),
            },
            start_days: shift(&g.start_time, &a.start_time),
            end_days: shift(&g.end_time, &a.end_time),
        });
        let fields = activity_fields(g, a);
        if !fields.is_empty() {
            diff.changed.push(ActivityChange {
                name: a.name.clone(),
                start_time: a.start_time.to_string(),
                fields,
            });
        }
        false
    });
    diff.added = fresh.into_iter().map(activity_ref).collect();
    diff.removed = gone.iter().map(|a| activity_ref(a)).collect();

    if version_order(&old.version, &new.version) == Some(std::cmp::Ordering::Greater) {
        diff.breaking.push(Finding::new(
            &kind::activities::VERSION_BACKWARDS,
            |m| {
                m.arg("old", old.version.as_str())
                    .arg("new", new.version.as_str())
            },
            |h| h,
            Vec::new(),
        ));
    }
    let (old_cover, new_cover) = (
        old.cover.as_deref().filter(|c| !c.is_empty()),
        new.cover.as_deref().filter(|c| !c.is_empty()),
    );
    if let (Some(cover), None) = (old_cover, new_cover) {
        diff.warnings.push(Finding::new(
            &kind::activities::COVER_REMOVED,
            |m| m.arg("version", new.version.as_str()).arg("cover", cover),
            |h| h,
            Vec::new(),
        ));
    }
    let Some(now) = now else { return };
    // `diff.removed` is `gone`, in order.
    for (a, g) in diff.removed.iter_mut().zip(&gone) {
        a.when = When::of(g, now);
    }
    for (a, g) in diff
        .removed
        .iter()
        .zip(&gone)
        .filter(|(a, _)| a.when == Some(When::Upcoming))
    {
        let days = days_from(now, &g.start_time);
        diff.warnings.push(Finding::new(
            &kind::activities::UPCOMING_REMOVED,
            |m| {
                m.arg("name", a.name.as_str())
                    .arg("start", a.start_time.as_str())
                    .arg("days", days)
            },
            |h| h,
            vec![a.clone()],
        ));
    }
    let vanishing: Vec<(ActivityRef, &Activity<Written>)> = diff
        .removed
        .iter()
        .zip(&gone)
        .filter(|(a, _)| a.when == Some(When::Running))
        .map(|(a, g)| (a.clone(), *g))
        .collect();
    if vanishing.is_empty() {
        return;
    }
    // The new version starts later, and the old one runs now.
    let upcoming = new.start_time.time().filter(|start| {
        **start > now
            && old.window().is_some_and(|(s, e)| *s <= now && now < *e)
            && old.version != new.version
    });
    if let Some(start) = upcoming {
        let names = Arg::List(
            vanishing
                .iter()
                .map(|(a, _)| {
                    msg!(
                        "breaking-until",
                        name = a.name.as_str(),
                        end = a.end_time.as_str()
                    )
                })
                .collect(),
            "list-comma",
        );
        let count = vanishing.len();
        diff.breaking.push(Finding::new(
            &kind::activities::UPCOMING_VERSION,
            |m| {
                m.arg("new", new.version.as_str())
                    .arg("date", start.format("%Y-%m-%d %H:%M").to_string())
                    .arg("days", whole_days(now, *start).unsigned_abs())
                    .arg("old", old.version.as_str())
                    .arg("count", count)
                    .arg("names", names)
            },
            |h| h.arg("start", new.start_time.to_string()),
            vanishing.into_iter().map(|(a, _)| a).collect(),
        ));
        return;
    }
    for (a, g) in vanishing {
        let (name, end) = (a.name.clone(), a.end_time.clone());
        let days = days_from(now, &g.end_time);
        diff.breaking.push(Finding::new(
            &kind::activities::ONGOING_REMOVED,
            |m| m.arg("name", name).arg("end", end).arg("days", days),
            |h| h,
            vec![a],
        ));
    }
}

/// Whole days between `now` and `time` ([`whole_days`], either way); 0
/// when `time` is not a time.
fn days_from(now: NaiveDateTime, time: &Written) -> u64 {
    time.time()
        .map_or(0, |t| whole_days(now, *t).unsigned_abs())
}

/// The changed fields of one activity besides its name and times.
fn activity_fields(before: &Activity<Written>, a: &Activity<Written>) -> Vec<FieldChange> {
    changes(&[
        ("kind", before.kind.as_deref(), a.kind.as_deref()),
        (
            "description",
            Some(&before.description),
            Some(&a.description),
        ),
        ("cover", before.cover.as_deref(), a.cover.as_deref()),
    ])
}

/// Two typed activity documents compared as the file at `path` (an agent's
/// draft against the file on disk, say), with the rules about `now`.
pub fn document_diff(path: &str, old: &Draft, new: &Draft, now: Option<NaiveDateTime>) -> FileDiff {
    let mut diff = FileDiff::empty(path, FileStatus::Changed);
    documents(old, new, now, &mut diff);
    if !diff.has_details() {
        diff.status = if same_activities(old, new) && old == new {
            FileStatus::Unchanged
        } else if same_activities(old, new) {
            FileStatus::Reformatted
        } else {
            FileStatus::Changed
        };
    }
    diff
}

/// The order of two versions when both are dot-separated numbers (`4.6` < `4.10`).
pub fn version_order(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let parts =
        |v: &str| -> Option<Vec<u64>> { v.split('.').map(|p| p.trim().parse().ok()).collect() };
    Some(parts(a)?.cmp(&parts(b)?))
}

/// Announcements as clients read them: a document `{"id", "announcements": [{"title", ...}]}`,
/// compared as plain JSON (the model of the announcements document is its own issue).
fn announcements(old: &Value, new: &Value, diff: &mut FileDiff) {
    let list = |v: &Value| -> Vec<Value> {
        v.get("announcements")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let title = |v: &Value| {
        v.get("title")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let (old_list, new_list) = (list(old), list(new));
    let old_by_title: BTreeMap<String, &Value> = old_list.iter().map(|a| (title(a), a)).collect();
    let new_titles: BTreeSet<String> = new_list.iter().map(title).collect();
    for a in &new_list {
        match old_by_title.get(&title(a)) {
            None => diff.announcements.push(AnnouncementChange {
                change: "added",
                title: title(a),
            }),
            Some(before) if *before != a => diff.announcements.push(AnnouncementChange {
                change: "edited",
                title: title(a),
            }),
            Some(_) => {}
        }
    }
    for a in &old_list {
        if !new_titles.contains(&title(a)) {
            diff.announcements.push(AnnouncementChange {
                change: "removed",
                title: title(a),
            });
        }
    }
    let id = |v: &Value| v.get("id").and_then(Value::as_i64);
    let (old_id, new_id) = (id(old), id(new));
    let content_changed = old_list != new_list;
    if old_id != new_id {
        diff.version.push(FieldChange {
            field: "id",
            from: old_id.map(|i| i.to_string()),
            to: new_id.map(|i| i.to_string()),
        });
    }
    if content_changed && old_id.is_some() && new_id <= old_id {
        let shown = |id: Option<i64>| -> Arg {
            id.map_or_else(|| msg!("breaking-id-none").into(), |i| i.to_string().into())
        };
        let what = if new_id == old_id {
            msg!("breaking-id-stayed", id = shown(old_id))
        } else {
            msg!("breaking-id-down", from = shown(old_id), to = shown(new_id))
        };
        diff.breaking.push(Finding::new(
            &kind::announcements::ID_NOT_UP,
            |m| m.arg("what", what),
            |h| h.arg("id", (old_id.unwrap_or(0) + 1).to_string()),
            Vec::new(),
        ));
    }
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

fn activity_ref(a: &Activity<Written>) -> ActivityRef {
    ActivityRef {
        name: a.name.clone(),
        start_time: a.start_time.to_string(),
        end_time: a.end_time.to_string(),
        when: None,
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

/// Compares one built activity document with its deployed bytes (the
/// agent's draft against the file on disk, say), without the rules about
/// "now".
pub fn diff_file(path: &str, built: &[u8], deployed: Option<&[u8]>) -> anyhow::Result<FileDiff> {
    let new = serde_json::from_slice::<Draft>(built).map_err(|err| {
        anyhow::Error::new(msg!(
            "diff-built-unparsed",
            path = path,
            error = err.to_string()
        ))
    })?;
    let Some(deployed) = deployed else {
        let mut diff = FileDiff::empty(path, FileStatus::New);
        diff.added = new.activities.iter().map(activity_ref).collect();
        return Ok(diff);
    };
    if built == deployed {
        return Ok(FileDiff::empty(path, FileStatus::Unchanged));
    }
    Ok(match serde_json::from_slice::<Draft>(deployed) {
        Ok(old) => {
            let mut diff = document_diff(path, &old, &new, None);
            // Other bytes, whatever the content.
            if diff.status == FileStatus::Unchanged {
                diff.status = FileStatus::Reformatted;
            }
            diff
        }
        Err(err) => {
            let mut diff = FileDiff::empty(path, FileStatus::Changed);
            diff.note = Some(msg!("diff-note-base", error = err.to_string()));
            diff
        }
    })
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

/// Where a change is in the data (for annotations): the source file and its line.
pub struct Location {
    pub file: String,
    pub line: usize,
}

impl Report {
    /// Compares each built file with its base bytes (`None`: not at the
    /// base), without the rules about "now".
    pub fn new<'a>(
        against: &str,
        files: impl IntoIterator<Item = (&'a str, &'a [u8], Option<&'a [u8]>)>,
    ) -> Report {
        Report {
            against: against.to_owned(),
            files: files
                .into_iter()
                .map(|(path, built, base)| compare(path, Some(built), base, None))
                .collect(),
        }
    }

    /// Reports each pair of `(path, alias)` once, under `path` with `alias`
    /// among its [`FileDiff::aliases`], when both sides hold the same
    /// comparison (the same file published under two names, as the default
    /// locale's document and calendar are). A pair whose comparisons differ
    /// (a base that published different bytes under the two names) stays
    /// two entries.
    pub fn merge_aliases(&mut self, pairs: &[(String, String)]) {
        for (path, alias) in pairs {
            let (Some(i), Some(j)) = (
                self.files.iter().position(|f| &f.path == path),
                self.files.iter().position(|f| &f.path == alias),
            ) else {
                continue;
            };
            let mut renamed = self.files[j].clone();
            renamed.path = path.clone();
            renamed.aliases = self.files[i].aliases.clone();
            if renamed.status == FileStatus::Removed {
                renamed.breaking = removed(path).breaking;
            }
            if renamed != self.files[i] {
                continue;
            }
            let gone = self.files.remove(j);
            let i = if j < i { i - 1 } else { i };
            self.files[i].aliases.push(gone.path);
            self.files[i].aliases.extend(gone.aliases);
        }
    }

    /// The number of paths compared (every alias counted).
    fn paths(&self) -> usize {
        self.files.iter().map(|f| 1 + f.aliases.len()).sum()
    }

    /// Every warning, with its file.
    pub fn warnings(&self) -> impl Iterator<Item = (&FileDiff, &Warning)> {
        self.files
            .iter()
            .flat_map(|f| f.warnings.iter().map(move |w| (f, w)))
    }

    /// Whether publishing this build would change anything.
    pub fn has_changes(&self) -> bool {
        self.files.iter().any(|f| f.status != FileStatus::Unchanged)
    }

    /// Every breaking change, with its file.
    pub fn breaking(&self) -> impl Iterator<Item = (&FileDiff, &Breaking)> {
        self.files
            .iter()
            .flat_map(|f| f.breaking.iter().map(move |b| (f, b)))
    }

    /// 0 nothing changes, 1 changes, 3 breaking changes.
    pub fn exit_code(&self) -> u8 {
        if self.breaking().next().is_some() {
            3
        } else {
            u8::from(self.has_changes())
        }
    }

    fn count(&self, status: FileStatus) -> usize {
        self.files.iter().filter(|f| f.status == status).count()
    }

    fn summary(&self) -> Msg {
        msg!(
            "diff-summary",
            files = self.files.len(),
            paths = self.paths(),
            aliases = self.paths() - self.files.len(),
            against = self.against.as_str(),
            changed = self.count(FileStatus::Changed),
            reformatted = self.count(FileStatus::Reformatted),
            new = self.count(FileStatus::New),
            removed = self.count(FileStatus::Removed),
            unchanged = self.count(FileStatus::Unchanged),
            breaking = self.breaking().count(),
            warnings = self.warnings().count()
        )
    }

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
                    path_label(item.file, false),
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
                let _ = writeln!(
                    out,
                    "  {}: {}",
                    path_label(file, false),
                    file.status.label()
                );
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
                    path_label(file, true),
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
            if matches!(file.status, FileStatus::Changed | FileStatus::New)
                && layout::is_activity_document(&file.path)
            {
                let name = file
                    .added
                    .first()
                    .map(|a| a.name.as_str())
                    .or_else(|| file.moved.first().map(|m| m.name.as_str()))
                    .or_else(|| file.renamed.first().map(|r| r.to.as_str()))
                    .or_else(|| file.changed.first().map(|c| c.name.as_str()));
                let lines = detail_lines(file);
                let _ = writeln!(
                    out,
                    "::notice {},title={}::{}",
                    at(&file.path, name),
                    gh_property(&format!(
                        "{}: {}",
                        path_label(file, false),
                        file.status.label()
                    )),
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
            path_label(item.file, true),
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
        let path = path_label(item.file, false);
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

/// The lines describing a file's changes, as text and in Markdown cells.
fn detail_lines(file: &FileDiff) -> Vec<String> {
    let mut lines = Vec::new();
    for change in &file.version {
        if change.field == "cover" && change.to.as_deref().is_none_or(str::is_empty) {
            lines
                .push(msg!("diff-cover-removed", from = shown(change.from.as_deref())).to_string());
        } else {
            lines.push(field_line(change).to_string());
        }
    }
    if file.status == FileStatus::New {
        if !file.added.is_empty() {
            lines.push(msg!("diff-activities", count = file.added.len()).to_string());
        }
        return lines;
    }
    for a in &file.added {
        lines.push(format!("+ {}", activity_line(a)));
    }
    for a in &file.removed {
        lines.push(
            msg!(
                "diff-removed",
                activity = activity_line(a),
                when = a.when.map_or("unknown", When::as_str)
            )
            .to_string(),
        );
    }
    let version = file
        .version
        .iter()
        .find(|c| c.field == "version")
        .and_then(|c| c.to.as_deref())
        .unwrap_or_default();
    for a in &file.carried {
        lines.push(
            msg!(
                "diff-carried",
                activity = activity_line(a),
                version = version
            )
            .to_string(),
        );
    }
    for r in &file.renamed {
        lines.push(
            msg!(
                "diff-renamed",
                from = format!("{:?}", r.from),
                to = format!("{:?}", r.to),
                start = r.start_time.as_str(),
                end = r.end_time.as_str()
            )
            .to_string(),
        );
    }
    for m in &file.moved {
        let shifts: Vec<Msg> = [
            ("no", &m.from.start_time, &m.to.start_time, m.start_days),
            ("yes", &m.from.end_time, &m.to.end_time, m.end_days),
        ]
        .iter()
        .filter(|(_, from, to, _)| from != to)
        .map(|(end, _, _, days)| {
            msg!(
                "diff-shift",
                end = *end,
                later = if *days > 0 { "yes" } else { "no" },
                days = days.unsigned_abs()
            )
        })
        .collect();
        lines.push(
            msg!(
                "diff-moved",
                name = m.name.as_str(),
                from = format!("{} – {}", m.from.start_time, m.from.end_time),
                to = format!("{} – {}", m.to.start_time, m.to.end_time),
                shifts = Arg::List(shifts, "list-comma")
            )
            .to_string(),
        );
    }
    for c in &file.changed {
        let fields: Vec<Msg> = c.fields.iter().map(field_line).collect();
        lines.push(
            msg!(
                "diff-changed",
                name = c.name.as_str(),
                start = c.start_time.as_str(),
                fields = Arg::List(fields, "list-semicolon")
            )
            .to_string(),
        );
    }
    for a in &file.announcements {
        lines.push(
            msg!(
                "diff-announcement",
                change = a.change,
                title = format!("{:?}", a.title)
            )
            .to_string(),
        );
    }
    if file.status == FileStatus::Reformatted {
        lines.push(msg!("diff-reformatted").to_string());
    }
    lines
}

/// How the reports name a file: its path, and the other names it is
/// published under; in code spans for Markdown.
fn path_label(file: &FileDiff, markdown: bool) -> String {
    let quote = |p: &str| {
        if markdown {
            format!("`{p}`")
        } else {
            p.to_owned()
        }
    };
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

fn activity_line(a: &ActivityRef) -> Msg {
    msg!(
        "diff-activity",
        name = a.name.as_str(),
        start = a.start_time.as_str(),
        end = a.end_time.as_str()
    )
}

fn field_line(change: &FieldChange) -> Msg {
    msg!(
        "diff-field",
        field = change.field,
        from = shown(change.from.as_deref()),
        to = shown(change.to.as_deref())
    )
}

/// A value quoted for the reports, cut at 60 characters.
fn shown(value: Option<&str>) -> Arg {
    match value {
        None => msg!("diff-none").into(),
        Some(s) => {
            let mut cut: String = s.chars().take(60).collect();
            if cut.len() < s.len() {
                cut.push('…');
            }
            format!("{cut:?}").into()
        }
    }
}

/// Text safe in a Markdown table cell.
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', "<br>")
}
